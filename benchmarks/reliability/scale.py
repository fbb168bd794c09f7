"""Deep graphs up to 1,000,000 nodes: build, rewrite, compile and run time per node.

Run: ``python benchmarks/reliability/scale.py [--sizes 10000,100000,1000000]``.
For each size it builds the chain of ``tests/reliability/test_scale.py``
(elementwise runs cut by ``cumsum``), compiles it with ``lazygraph.function``,
runs it once and checks the result against numpy, then prints seconds per
1,000 nodes for each phase: roughly constant across sizes means linear time.
A ``RecursionError`` anywhere fails the run. ``--wide N`` also compiles a graph
with N scalar inputs and N outputs.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

import lazygraph
import lazygraph.tensor as lt

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "tests" / "reliability"))
from test_scale import deep_chain, deep_chain_numpy


def run_deep(n: int) -> None:
    t0 = time.perf_counter()
    x, y, steps = deep_chain(n)
    t1 = time.perf_counter()
    f = lazygraph.function([x], y)
    t2 = time.perf_counter()
    data = np.linspace(-1.0, 1.0, 5)
    got = f(data)
    t3 = time.perf_counter()
    np.testing.assert_allclose(got, deep_chain_numpy(data, steps), rtol=1e-10)
    per = 1000.0 / n
    print(
        f"{n:>9,} nodes: build {t1 - t0:7.1f} s ({(t1 - t0) * per * 1e3:.2f} ms/1k)  "
        f"compile {t2 - t1:7.1f} s ({(t2 - t1) * per * 1e3:.2f} ms/1k)  run {t3 - t2:.2f} s",
        flush=True,
    )


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
    args = parser.parse_args()
    for n in [int(s) for s in args.sizes.split(",") if s]:
        run_deep(n)
    if args.wide:
        run_wide(args.wide)
    return 0


if __name__ == "__main__":
    sys.exit(main())
