"""100,000 ``.compute()`` calls on new data of one shape; RSS must stay flat.

Run: ``python benchmarks/reliability/rss_loop.py [--n 100000] [--backend python]``.
Prints the resident set size after warm-up and every 10 % of the loop, and
exits non-zero if it grew by more than ``--tolerance-mb`` (default 8) from the
end of warm-up. ``tests/reliability/test_memory.py`` runs 3,000 in CI.
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time

import numpy as np

import lazygraph.numpy as lnp
from lazygraph.compile.cache import stats
from lazygraph.configuration import config


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def step(rng: np.random.Generator) -> None:
    x = lnp.asarray(rng.standard_normal(256))
    y = lnp.asarray(rng.standard_normal(256))
    (lnp.exp(-(x * x)) + lnp.sum(y) * x).compute()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=100_000)
    parser.add_argument("--warmup", type=int, default=1_000)
    parser.add_argument("--backend", default=config.backend)
    parser.add_argument("--tolerance-mb", type=float, default=8.0)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    with config.change(backend=args.backend):
        for _ in range(args.warmup):
            step(rng)
        gc.collect()
        base = rss_mb()
        start = time.perf_counter()
        print(f"backend={args.backend} after {args.warmup} warm-up computes: {base:.1f} MB")
        for i in range(1, args.n + 1):
            step(rng)
            if i % max(args.n // 10, 1) == 0:
                gc.collect()
                print(
                    f"{i:>8} computes: RSS {rss_mb():.1f} MB (+{rss_mb() - base:.2f})", flush=True
                )
        gc.collect()
        grown = rss_mb() - base
        rate = args.n / (time.perf_counter() - start)
    s = stats()
    print(f"grew {grown:.2f} MB over {args.n} computes ({rate:.0f}/s); cache {s}")
    return 0 if grown <= args.tolerance_mb else 1


if __name__ == "__main__":
    sys.exit(main())
