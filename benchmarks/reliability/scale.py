"""Deep graphs up to 1,000,000 nodes: build, rewrite, compile and run time per node.

Run: ``python benchmarks/reliability/scale.py [--sizes 10000,100000,1000000]``.
For each size it builds the chain of ``tests/reliability/test_scale.py``
(elementwise runs cut by ``cumsum``), compiles it in the steps
``lazygraph.function`` takes (FunctionGraph, rewrite, backend compile), runs it
once and checks the result against numpy, then prints the CPU time of each
stage and per node: roughly constant per node across sizes means linear time
(the ratio lines compare consecutive sizes).
A ``RecursionError`` anywhere fails the run. ``--wide N`` also compiles a graph
with N scalar inputs and N outputs.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from pathlib import Path

import numpy as np

import lazygraph
import lazygraph.tensor as lt

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests" / "reliability"))
from test_scale import deep_chain, deep_chain_numpy


def _clock() -> float:
    """CPU seconds of this process: unlike wall time, not inflated when the
    machine is shared with other jobs."""
    return time.process_time()


def run_deep(n: int, backend: str) -> dict[str, float]:
    """Build, rewrite, compile and run the ``n``-node chain; CPU seconds per stage."""
    from lazygraph.compile.backends import get_backend
    from lazygraph.compile.function import rewrite_graph
    from lazygraph.compile.mode import get_mode
    from lazygraph.graph.fg import FunctionGraph

    times: dict[str, float] = {}
    t0 = _clock()
    x, y, steps = deep_chain(n)
    times["build"] = _clock() - t0
    t0 = _clock()
    fgraph = FunctionGraph([x], [y], clone=True)
    times["fgraph"] = _clock() - t0
    nodes_before = len(fgraph.apply_nodes)
    impl = get_backend(backend)
    mode = get_mode(None)
    excluded = getattr(impl, "excluded_tags", ())
    if excluded:
        mode = mode.excluding(*excluded)
    t0 = _clock()
    rewrite_graph(fgraph, mode)
    times["rewrite"] = _clock() - t0
    t0 = _clock()
    fn = impl.compile(fgraph)
    times["compile"] = _clock() - t0
    data = np.linspace(-1.0, 1.0, 5)
    t0 = _clock()
    got = fn(data)[0]
    times["run"] = _clock() - t0
    np.testing.assert_allclose(got, deep_chain_numpy(data, steps), rtol=1e-10)
    per = 1e6 / n  # seconds per node -> microseconds per node
    stages = "  ".join(f"{k} {v:7.1f} s ({v * per:5.1f} us/node)" for k, v in times.items())
    print(
        f"{n:>9,} nodes ({nodes_before:,} apply nodes, "
        f"{len(fgraph.apply_nodes):,} after rewriting): {stages}",
        flush=True,
    )
    return times


def run_wide(n: int) -> None:
    t0 = time.perf_counter()
    xs = [lt.dscalar(f"x{i}") for i in range(n)]
    f = lazygraph.function(xs, [xs[i] * 2.0 + xs[(i + 1) % n] for i in range(n)])
    vals = np.random.default_rng(0).standard_normal(n)
    got = np.array([float(v) for v in f(*vals)])
    np.testing.assert_allclose(got, vals * 2.0 + np.roll(vals, -1))
    print(f"{n:,} inputs and {n:,} outputs: built and compiled in {time.perf_counter() - t0:.1f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10000,100000,1000000")
    parser.add_argument("--wide", type=int, default=10_000)
    parser.add_argument("--backend", default="python")
    args = parser.parse_args()
    results = {}
    for n in [int(s) for s in args.sizes.split(",") if s]:
        results[n] = run_deep(n, args.backend)
    sizes = sorted(results)
    for small, big in itertools.pairwise(sizes):
        ratios = "  ".join(
            f"{k} x{results[big][k] / max(results[small][k], 1e-9):.1f}" for k in results[big]
        )
        print(f"{small:,} -> {big:,} nodes (x{big / small:.0f}): {ratios}", flush=True)
    if args.wide:
        run_wide(args.wide)
    return 0


if __name__ == "__main__":
    sys.exit(main())
