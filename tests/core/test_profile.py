"""``function(..., profile=True)`` and the slow-compile progress line."""

from __future__ import annotations

import io
import threading

import numpy as np
import pytest

import lazygraph
import lazygraph.tensor as lt
from lazygraph.compile import profile as profile_mod
from lazygraph.compile.mode import Mode
from lazygraph.compile.profile import ProfileStats, compile_progress


def build() -> tuple[list, list]:
    x, w = lt.dmatrix("x"), lt.dmatrix("w")
    h = lt.tanh(x @ w)
    return [x, w], [lt.sum(h**2), lt.exp(h)]


def test_profile_matches_plain_function_and_counts_calls() -> None:
    rng = np.random.default_rng(0)
    inputs, outputs = build()
    plain = lazygraph.function(inputs, outputs, mode=Mode(backend="python"))
    profiled = lazygraph.function(inputs, outputs, mode=Mode(backend="python"), profile=True)
    assert plain.profile is None
    for _ in range(3):
        x, w = rng.normal(size=(4, 3)), rng.normal(size=(3, 5))
        for a, b in zip(plain(x, w), profiled(x, w), strict=True):
            np.testing.assert_allclose(a, b)
    stats = profiled.profile
    assert stats.calls == 3
    rows = stats.rows()
    assert len(rows) == len(profiled.fgraph.apply_nodes)
    assert all(row.calls == 3 for row in rows)
    assert [r.seconds for r in rows] == sorted((r.seconds for r in rows), reverse=True)
    assert sum(r.seconds for r in rows) <= stats.seconds
    ops = {str(node.op) for node in profiled.fgraph.apply_nodes}
    assert {r.op for r in rows} == ops


def test_summary_prints_a_table_and_reset_clears_it() -> None:
    inputs, outputs = build()
    f = lazygraph.function(inputs, outputs, mode=Mode(backend="python"), profile=True)
    f(np.ones((2, 2)), np.ones((2, 2)))
    out = io.StringIO()
    f.profile.summary(file=out)
    text = out.getvalue()
    assert "node" in text and "calls" in text and "%" in text
    assert text.startswith("profile (python backend): 1 calls")
    for node in f.fgraph.apply_nodes:
        assert str(node.op)[:20] in text
    f.profile.reset()
    assert f.profile.calls == 0 and all(r.calls == 0 for r in f.profile.rows())
    assert "no node has run yet" in f.profile.table()


def test_profile_table_limit() -> None:
    stats = ProfileStats("python")
    for i in range(5):
        row = stats._add_row(f"node{i}", "Op")
        row.calls, row.seconds = 1, float(i)
    text = stats.table(limit=2)
    assert "node4" in text and "node3" in text and "node0" not in text
    assert "3 more nodes" in text


def test_profile_is_recorded_when_perform_raises() -> None:
    x = lt.dvector("x")
    f = lazygraph.function([x], lt.exp(x), mode=Mode(backend="python"), profile=True)
    with pytest.raises(TypeError):
        f(np.ones((2, 2)))  # rejected by the input filter: nothing runs
    assert f.profile.calls == 0


def test_fast_compile_is_silent() -> None:
    out = io.StringIO()
    with compile_progress(5, stream=out) as stage:
        stage("rewriting")
        stage("compiling")
    assert out.getvalue() == ""


def test_slow_compile_prints_stages() -> None:
    out = io.StringIO()
    shown = threading.Event()
    with compile_progress(1234, stream=out, delay=0.01) as stage:
        stage("rewriting")
        for _ in range(500):  # wait for the timer, without a timing threshold
            if "rewriting" in out.getvalue():
                shown.set()
                break
            threading.Event().wait(0.01)
        stage("compiling")
    lines = out.getvalue().splitlines()
    assert shown.is_set()
    assert "1,234 nodes" in lines[0] and "rewriting" in lines[0]
    assert "compiling" in lines[1]
    assert "done" in lines[-1]


def test_progress_off_prints_nothing() -> None:
    out = io.StringIO()
    with (
        lazygraph.config.change(progress=False),
        compile_progress(10, stream=out, delay=0.0) as stage,
    ):
        stage("rewriting")
        threading.Event().wait(0.05)
    assert out.getvalue() == ""


def test_function_reports_slow_compile(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(profile_mod, "PROGRESS_DELAY", 0.0)
    x = lt.dvector("x")
    f = lazygraph.function([x], lt.exp(x) + 1.0, mode=Mode(backend="python"))
    np.testing.assert_allclose(f(np.zeros(2)), np.exp(np.zeros(2)) + 1.0)
    err = capsys.readouterr().err
    # the timer may or may not fire before a very fast compile ends, but when it
    # prints, it names the graph and ends with "done"
    if err:
        assert err.startswith("lazygraph: compiling a graph of")
        assert err.rstrip().endswith("s)") and "done" in err


class _WrappingBackend:
    """A backend that is not the python one: profiles time whole calls."""

    name = "profile_test_backend"

    def compile(self, fgraph):
        from lazygraph.compile.python_backend import PythonBackend

        return PythonBackend().compile(fgraph)


def test_other_backends_are_timed_per_call() -> None:
    from lazygraph.compile import register_backend

    register_backend(_WrappingBackend())
    inputs, outputs = build()
    f = lazygraph.function(inputs, outputs, mode=Mode(backend="profile_test_backend"), profile=True)
    x, w = np.ones((2, 3)), np.ones((3, 2))
    expected = lazygraph.function(inputs, outputs, mode=Mode(backend="python"))(x, w)
    for _ in range(2):
        for a, b in zip(f(x, w), expected, strict=True):
            np.testing.assert_allclose(a, b)
    (row,) = f.profile.rows()
    assert row.calls == 2 and row.op == "profile_test_backend"
    assert f"{len(f.fgraph.apply_nodes)} nodes" in row.node
    assert f.profile.calls == 2
