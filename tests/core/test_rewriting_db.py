"""Rewrite databases and queries, the default pipeline, and switching rewrites off by
name or tag (also through compile modes)."""

from __future__ import annotations

import io

import pytest

from lazygraph.compile.function import function
from lazygraph.compile.mode import FAST_COMPILE, FAST_RUN, Mode
from lazygraph.graph import FunctionGraph, as_string
from lazygraph.rewriting import (
    EquilibriumDB,
    EquilibriumGraphRewriter,
    MergeOptimizer,
    PatternNodeRewriter,
    RewriteDatabaseQuery,
    SequenceDB,
    SequentialGraphRewriter,
    WalkingGraphRewriter,
    default_pipeline,
    optdb,
    trace_rewrites,
)
from lazygraph.rewriting.db import PIPELINE, THEANO_POSITIONS
from tests.core.scalar_ops import add, double, mul, neg


def names(rewriter: SequentialGraphRewriter) -> list[str]:
    return [r.name for r in rewriter.rewriters]


def test_query_is_immutable_and_hashable() -> None:
    q = RewriteDatabaseQuery(include=["fast_run"])
    q2 = q.including("a").requiring("b").excluding("c")
    assert q.include == frozenset({"fast_run"}) and q.require == q.exclude == frozenset()
    assert q2.include == {"fast_run", "a"} and q2.require == {"b"} and q2.exclude == {"c"}
    assert q2 == RewriteDatabaseQuery(["a", "fast_run"], ["b"], ["c"])
    assert len({q2, RewriteDatabaseQuery(["a", "fast_run"], ["b"], ["c"])}) == 1
    with pytest.raises(TypeError):
        RewriteDatabaseQuery(include="fast_run")  # type: ignore[arg-type]


def test_default_pipeline_stages() -> None:
    assert list(default_pipeline()) == [
        "merge1",
        "canonicalize",
        "stabilize",
        "specialize",
        "merge2",
        "fusion",
        "add_destroy_handler",
        "inplace",
        "merge3",
    ]
    assert optdb.stages == tuple(s for s in PIPELINE if "." not in s) == tuple(optdb)
    assert all(optdb.stage_of[n] == n for n in optdb)
    assert optdb["fusion"].stages == ("elemwise_fusion",)  # type: ignore[union-attr]
    assert optdb["inplace"].stages == ("inplace_elemwise", "inplace_setsubtensor")  # type: ignore[union-attr]
    assert set(THEANO_POSITIONS) == set(PIPELINE)
    assert isinstance(optdb["canonicalize"], EquilibriumDB)
    assert isinstance(optdb["specialize"], EquilibriumDB)
    fast_run = optdb.query(RewriteDatabaseQuery(include=["fast_run"]))
    assert names(fast_run) == list(default_pipeline())
    assert names(optdb.query("fast_compile")) == ["merge1", "canonicalize"]
    assert names(optdb.query("fast_run", "-merge")) == [
        "canonicalize",
        "stabilize",
        "specialize",
        "fusion",
        "add_destroy_handler",
        "inplace",
    ]
    assert names(optdb.query("fast_run", "-merge2", "-inplace")) == [
        "merge1",
        "canonicalize",
        "stabilize",
        "specialize",
        "fusion",
        "merge3",
    ]


def test_print_summary_lists_the_pipeline_in_order() -> None:
    out = io.StringIO()
    optdb.print_summary(out)
    text = out.getvalue()
    top = [line.split()[0] for line in text.splitlines()[1:] if line[4:5] not in (" ", "")]
    assert top == [s for s in PIPELINE if "." not in s]
    steps = [line.split()[0] for line in text.splitlines() if line[8:9] not in (" ", "")]
    assert "inplace_elemwise" in steps and "elemwise_fusion" in steps
    assert "fast_compile" in text and "EquilibriumDB" in text

    db = default_pipeline()  # stages not registered yet show in their place
    db.register("mine", MergeOptimizer(), "fast_run", stage="specialize")
    db.register("old", MergeOptimizer(), "fast_run", position=-1)
    out = io.StringIO()
    db.print_summary(out)
    lines = [line.strip() for line in out.getvalue().splitlines()]
    assert lines[1].startswith("old ") and lines[1].endswith("(before merge1)")
    assert lines[6].startswith("mine ") and lines[6].endswith("(in specialize)")
    assert lines[9] == "elemwise_fusion        (empty)"
    plain = SequenceDB()
    plain.register("a", MergeOptimizer(), "x", position=2.5)
    out = io.StringIO()
    plain.print_summary(out)
    assert out.getvalue().splitlines()[1].split()[:2] == ["2.5", "a"]


def test_stages_place_entries_by_name() -> None:
    db = SequenceDB(stages=["simplify", "specialize", "merge"])
    db.register("extra", MergeOptimizer(), "x", stage="simplify")  # before the stage's own entry
    db.register("merge", MergeOptimizer(), "x")
    db.register("at_the_end", MergeOptimizer(), "x")
    db.register("specialize", MergeOptimizer(), "x")
    db.register("simplify", MergeOptimizer(), "x")
    db.register("extra2", MergeOptimizer(), "x", stage="simplify")
    assert names(db.query("x")) == [
        "simplify",
        "extra",
        "extra2",
        "specialize",
        "merge",
        "at_the_end",
    ]
    assert db.stage_of["at_the_end"] == "merge"
    with pytest.raises(ValueError, match="the stages are: 'simplify', 'specialize', 'merge'"):
        db.register("y", MergeOptimizer(), "x", stage="nope")
    with pytest.raises(ValueError, match="stage= one of 'simplify', 'specialize', 'merge'"):
        db.register("y", MergeOptimizer(), "x", position=1.5)  # no theano_positions
    with pytest.raises(TypeError, match="a stage or a position"):
        default_pipeline().register("y", MergeOptimizer(), "x", stage="merge1", position=0.5)
    with pytest.raises(ValueError, match="its own place"):
        SequenceDB(stages=["a", "b"]).register("a", MergeOptimizer(), "x", stage="b")
    with pytest.raises(ValueError, match="no stages"):
        SequenceDB().register("a", MergeOptimizer(), "x", stage="b")
    with pytest.raises(ValueError, match="named twice"):
        SequenceDB(stages=["a", "a"])
    with pytest.raises(ValueError, match="grow"):
        SequenceDB(stages=["a", "b"], theano_positions={"a": 2, "b": 1})
    with pytest.raises(TypeError):
        SequenceDB(stages="ab")


def test_a_theano_position_joins_the_stage_whose_range_holds_it() -> None:
    db = default_pipeline()
    for name, position, stage in [
        ("p_minus_1", -1, None),
        ("p_0", 0, "merge1"),
        ("p_1_4", 1.4, "canonicalize"),
        ("p_1_5", 1.5, "stabilize"),
        ("p_48", 48, "specialize"),
        ("p_49_5", 49.5, "add_destroy_handler"),
        ("p_74", 74, "add_destroy_handler"),
        ("p_100", 100, "merge3"),
    ]:
        db.register(name, MergeOptimizer(), "fast_run", position=position)
        assert db.stage_of[name] == stage, name
    assert names(db.query("fast_run"))[:3] == ["p_minus_1", "merge1", "p_0"]
    # PyTensor users' stage numbers still cut a query short
    cut = RewriteDatabaseQuery(["fast_run"], position_cutoff=1.5)
    assert names(db.query(cut)) == [
        "p_minus_1",
        "merge1",
        "p_0",
        "canonicalize",
        "p_1_4",
        "stabilize",
        "p_1_5",
    ]


def make_db() -> tuple[SequenceDB, EquilibriumDB]:
    db = SequenceDB()
    canon = EquilibriumDB()
    db.register("merge", MergeOptimizer(), "fast_run", position=0)
    db.register("canonicalize", canon, "fast_run", position=1)
    canon.register("mul_x_1", PatternNodeRewriter((mul, "x", 1.0), "x"), "fast_run", "algebra")
    canon.register("neg_neg", PatternNodeRewriter((neg, (neg, "x")), "x"), "fast_run")
    canon.register("unstable", PatternNodeRewriter((add, "x", "x"), (mul, "x", 2.0)), "risky")
    return db, canon


def test_names_are_tags_inside_sub_databases() -> None:
    db, _ = make_db()
    q = RewriteDatabaseQuery(include=["fast_run"])

    def inner(query: RewriteDatabaseQuery) -> list[str]:
        found = [r for r in db.query(query).rewriters if isinstance(r, EquilibriumGraphRewriter)]
        return [r.name for eq in found for r in eq.node_rewriters]

    assert inner(q) == ["mul_x_1", "neg_neg"]
    assert inner(q.excluding("neg_neg")) == ["mul_x_1"]
    assert inner(q.excluding("algebra")) == ["neg_neg"]
    assert inner(q.including("risky")) == ["mul_x_1", "neg_neg", "unstable"]
    assert inner(q.including("unstable")) == ["mul_x_1", "neg_neg", "unstable"]
    assert inner(q.requiring("algebra")) == []  # the sub-database itself lacks the tag
    sub = RewriteDatabaseQuery(include=["algebra"])
    assert inner(RewriteDatabaseQuery(["fast_run"], subquery={"canonicalize": sub})) == ["mul_x_1"]


def test_excluded_rewrites_do_not_fire() -> None:
    db, _ = make_db()
    x = double("x")
    for query, expected in [
        (RewriteDatabaseQuery(["fast_run"]), ["x"]),
        (RewriteDatabaseQuery(["fast_run"], exclude=["neg_neg"]), ["neg(neg(x))"]),
        (RewriteDatabaseQuery(["fast_run"], exclude=["mul_x_1"]), ["mul(x, 1.0)"]),
    ]:
        fg = FunctionGraph([x], [neg(neg(mul(x, 1.0)))])
        db.query(query).rewrite(fg)
        assert as_string(fg.inputs, fg.outputs) == expected


def test_register_errors_and_theano_order() -> None:
    db = SequenceDB()
    db.register("a", MergeOptimizer(), 3, "x")  # Theano: name, rewriter, position, *tags
    assert db.positions["a"] == 3 and db.tags_of("a") == {"a", "x"}
    with pytest.raises(ValueError):
        db.register("a", MergeOptimizer(), "x")
    with pytest.raises(TypeError):
        db.register("b", object(), "x")  # type: ignore[arg-type]
    # A node rewriter in a SequenceDB runs under a walk.
    db.register("c", PatternNodeRewriter((neg, (neg, "x")), "x"), "x", position=4)
    assert isinstance(db.query("x").rewriters[1], WalkingGraphRewriter)


def test_modes_switch_rewrites_off(monkeypatch: pytest.MonkeyPatch) -> None:
    canon = optdb["canonicalize"]
    rule = PatternNodeRewriter((mul, "x", 1.0), "x", name="test_mul_x_1")
    monkeypatch.setitem(canon._entries, "test_mul_x_1", rule)
    monkeypatch.setitem(canon._tags, "test_mul_x_1", {"test_mul_x_1", "fast_run"})
    x = double("x")
    e = mul(x, 1.0)
    with trace_rewrites() as records:
        assert function([x], e, mode=FAST_RUN)(3.0) == 3.0
    assert [r.rewriter for r in records] == ["test_mul_x_1"]
    assert str(function([x], e, mode=FAST_RUN).fgraph) == "FunctionGraph(x)"
    assert str(function([x], e, mode=FAST_RUN.excluding("test_mul_x_1")).fgraph) == (
        "FunctionGraph(mul(x, 1.0))"
    )
    assert str(function([x], e, mode=FAST_COMPILE).fgraph) == "FunctionGraph(mul(x, 1.0))"
    assert str(function([x], e, mode=Mode().excluding("canonicalize")).fgraph) == (
        "FunctionGraph(mul(x, 1.0))"
    )
