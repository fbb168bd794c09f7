"""Graph-core benchmark: random expression DAGs of 10k, 100k and 1M nodes.

Times, for each size: building the graph (``Apply``/``Variable`` construction),
``FunctionGraph(...)`` (clone and import), ``toposort()``, ``MergeOptimizer``
and an ``EquilibriumGraphRewriter`` pass with ten node rewriters (``x*1 -> x``,
``x+0 -> x``, ``neg(neg(x)) -> x``, ...). Prints a Markdown table and writes
it into benchmarks/README.md between the ``graph_core`` markers.

    OPENBLAS_NUM_THREADS=1 python benchmarks/graph_core.py           # 10k, 100k, 1M
    OPENBLAS_NUM_THREADS=1 python benchmarks/graph_core.py --quick   # 10k, 100k (CI)

The DAGs have 100 inputs; each node applies add/sub/mul/div (10% neg) to
operands drawn among the 64 most recent variables, 10% of operands are the
constants 0, 1 or 2, and 20% of the nodes repeat an earlier node's op and
inputs (duplicated subexpressions for merge). Each cell is the median of a few
repetitions (fewer for larger sizes).
"""

from __future__ import annotations

import argparse
import gc
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
for path in (ROOT, ROOT / "packages" / "lazygraph-core" / "src", ROOT / "benchmarks"):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from _common import machine  # noqa: E402
from tests.core.graph_fixtures import add, dconst, div, mul, neg, random_dag, sub  # noqa: E402

from lazygraph.graph import Constant, FunctionGraph  # noqa: E402

README = ROOT / "benchmarks" / "README.md"
START, END = "<!-- graph_core:start -->", "<!-- graph_core:end -->"
COLUMNS = ("build", "FunctionGraph", "toposort", "merge", "equilibrium")

try:
    from lazygraph.rewriting import EquilibriumGraphRewriter, MergeOptimizer, node_rewriter
except ImportError:  # the rewriting package is not there yet
    EquilibriumGraphRewriter = MergeOptimizer = node_rewriter = None  # type: ignore[assignment,misc]


def _is(v: Any, value: float) -> bool:
    return isinstance(v, Constant) and v.data == value


def simplifiers() -> list[Any]:
    """Ten node rewriters on the fixture ops, one identity each."""
    if node_rewriter is None:
        return []

    @node_rewriter([mul])
    def mul_one(fgraph: Any, node: Any) -> Any:  # x*1 -> x, 1*x -> x
        a, b = node.inputs
        return [a] if _is(b, 1.0) else [b] if _is(a, 1.0) else None

    @node_rewriter([mul])
    def mul_two_to_add(fgraph: Any, node: Any) -> Any:  # x*2 -> x+x
        a, b = node.inputs
        return [add(a, a)] if _is(b, 2.0) else None

    @node_rewriter([add])
    def add_zero(fgraph: Any, node: Any) -> Any:  # x+0 -> x, 0+x -> x
        a, b = node.inputs
        return [a] if _is(b, 0.0) else [b] if _is(a, 0.0) else None

    @node_rewriter([sub])
    def sub_zero(fgraph: Any, node: Any) -> Any:  # x-0 -> x
        return [node.inputs[0]] if _is(node.inputs[1], 0.0) else None

    @node_rewriter([sub])
    def zero_sub(fgraph: Any, node: Any) -> Any:  # 0-x -> neg(x)
        return [neg(node.inputs[1])] if _is(node.inputs[0], 0.0) else None

    @node_rewriter([div])
    def div_one(fgraph: Any, node: Any) -> Any:  # x/1 -> x
        return [node.inputs[0]] if _is(node.inputs[1], 1.0) else None

    @node_rewriter([neg])
    def neg_neg(fgraph: Any, node: Any) -> Any:  # neg(neg(x)) -> x
        x = node.inputs[0]
        return [x.owner.inputs[0]] if x.owner is not None and x.owner.op == neg else None

    @node_rewriter([add])
    def add_neg(fgraph: Any, node: Any) -> Any:  # x + neg(y) -> x - y
        a, b = node.inputs
        return [sub(a, b.owner.inputs[0])] if b.owner is not None and b.owner.op == neg else None

    @node_rewriter([neg])
    def neg_sub(fgraph: Any, node: Any) -> Any:  # neg(x - y) -> y - x
        x = node.inputs[0]
        if x.owner is not None and x.owner.op == sub:
            return [sub(x.owner.inputs[1], x.owner.inputs[0])]
        return None

    @node_rewriter([div])
    def div_by_two(fgraph: Any, node: Any) -> Any:  # x/2 -> x*0.5
        return [mul(node.inputs[0], dconst(0.5))] if _is(node.inputs[1], 2.0) else None

    return [
        mul_one,
        mul_two_to_add,
        add_zero,
        sub_zero,
        zero_sub,
        div_one,
        neg_neg,
        add_neg,
        neg_sub,
        div_by_two,
    ]


def build(n: int, seed: int = 0) -> tuple[list[Any], list[Any]]:
    """The benchmark DAG of ``n`` nodes: ``(inputs, outputs)``."""
    return random_dag(
        n,
        n_inputs=100,
        dup_fraction=0.2,
        window=64,
        seed=seed,
        const_fraction=0.1,
        neg_fraction=0.1,
    )


def _timed(fn: Callable[[], Any]) -> tuple[float, Any]:
    gc.collect()
    t0 = time.perf_counter()
    result = fn()
    return time.perf_counter() - t0, result


def _one_repetition(n: int, seed: int) -> dict[str, float]:
    times: dict[str, float] = {}
    times["build"], (ins, outs) = _timed(lambda: build(n, seed=seed))
    times["FunctionGraph"], fg = _timed(lambda: FunctionGraph(ins, outs))
    times["toposort"], _ = _timed(fg.toposort)
    if MergeOptimizer is not None:
        times["merge"], _ = _timed(lambda: MergeOptimizer().rewrite(fg))
    if EquilibriumGraphRewriter is not None:
        fresh = FunctionGraph(ins, outs)
        eq = EquilibriumGraphRewriter(simplifiers())
        times["equilibrium"], _ = _timed(lambda: eq.rewrite(fresh))
    return times


def bench_size(n: int, repeats: int) -> dict[str, float | None]:
    """Median seconds per column for graphs of ``n`` nodes (``None``: not available)."""
    runs = [_one_repetition(n, seed) for seed in range(repeats)]
    return {c: statistics.median(r[c] for r in runs) if c in runs[0] else None for c in COLUMNS}


def _cell(seconds: float | None) -> str:
    if seconds is None:
        return "n/a"
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.2f} s"


def format_table(results: dict[int, dict[str, float | None]], machine_line: str) -> str:
    """The Markdown table, with the 1M/100k ratio row when both sizes ran."""
    lines = [
        "| nodes | " + " | ".join(COLUMNS) + " |",
        "|---:|" + "---:|" * len(COLUMNS),
    ]
    for n, row in results.items():
        lines.append(f"| {n:,} | " + " | ".join(_cell(row[c]) for c in COLUMNS) + " |")
    if 100_000 in results and 1_000_000 in results:
        ratios = []
        for c in COLUMNS:
            a, b = results[100_000][c], results[1_000_000][c]
            ratios.append(f"{b / a:.1f}x" if a and b else "n/a")
        lines.append("| 1M / 100k | " + " | ".join(ratios) + " |")
    return "\n".join(lines) + f"\n\nMachine: {machine_line}.\n"


def write_readme(table: str, path: Path = README) -> None:
    """Put ``table`` between the graph_core markers of ``path`` (appending them if absent)."""
    text = path.read_text() if path.exists() else "# Benchmarks\n"
    block = f"{START}\n{table}{END}"
    if START in text and END in text:
        text = text[: text.index(START)] + block + text[text.index(END) + len(END) :]
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    path.write_text(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="10k and 100k only (CI smoke)")
    parser.add_argument("--sizes", type=int, nargs="*", help="node counts to run instead")
    parser.add_argument("--no-write", action="store_true", help="do not update README.md")
    args = parser.parse_args(argv)
    sizes = args.sizes or ([10_000, 100_000] if args.quick else [10_000, 100_000, 1_000_000])
    repeats = {10_000: 5, 100_000: 3}
    results = {}
    for n in sizes:
        results[n] = bench_size(n, repeats.get(n, 1) if n >= 10_000 else 3)
        print(f"{n:>9,}: " + ", ".join(f"{c} {_cell(results[n][c])}" for c in COLUMNS), flush=True)
    table = format_table(results, machine())
    print()
    print(table)
    if not args.no_write:
        write_readme(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
