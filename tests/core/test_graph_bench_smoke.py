"""The graph-core benchmark's functions run (at 1k nodes; no timing assertions)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from lazygraph.graph import FunctionGraph, as_string

BENCH = Path(__file__).resolve().parents[2] / "benchmarks" / "graph_core.py"


@pytest.fixture(scope="module")
def bench():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("graph_core_bench", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_quick_benchmark_functions_run(bench, tmp_path) -> None:  # type: ignore[no-untyped-def]
    row = bench.bench_size(1000, repeats=1)
    assert set(row) == set(bench.COLUMNS)
    for column in ("build", "FunctionGraph", "toposort"):
        assert row[column] is not None and row[column] >= 0
    table = bench.format_table({1000: row}, bench.machine())
    assert table.startswith("| nodes |") and "| 1,000 |" in table and "Machine:" in table
    readme = tmp_path / "README.md"
    readme.write_text("# Benchmarks\n\nintro\n")
    bench.write_readme(table, readme)
    bench.write_readme(table, readme)  # replaces, does not append twice
    text = readme.read_text()
    assert text.count(bench.START) == 1 and "intro" in text and "| 1,000 |" in text


def test_simplifiers_do_not_change_values(bench) -> None:  # type: ignore[no-untyped-def]
    from lazygraph import rewriting
    from lazygraph.compile.function import function

    ins, outs = bench.build(300, seed=3)
    fg = FunctionGraph(ins, outs)
    before = as_string(fg.inputs, fg.outputs)
    values = [0.5 + i / 7 for i in range(len(ins))]
    f0 = function(fg.inputs, fg.outputs, rewrite=False)
    expected = f0(*values)
    rewriting.EquilibriumGraphRewriter(bench.simplifiers()).rewrite(fg)
    fg.check_integrity()
    assert as_string(fg.inputs, fg.outputs) != before  # something fired
    got = function(fg.inputs, fg.outputs, rewrite=False)(*values)
    for a, b in zip(expected, got, strict=True):
        assert a == pytest.approx(b, rel=1e-6, abs=1e-9) or (a != a and b != b)
