"""Rewrite-pipeline benchmark: the full default pipeline (``fast_run``) on tensor
graphs of 1k, 10k and 50k nodes, with PyTensor's ``FAST_RUN`` rewrite time on the
same graphs beside it.

Two graph shapes, built the same way in both libraries:

- ``chain``: an elementwise chain on a ``(100,)`` float64 vector ``x``; step ``i``
  is ``sin(y)``, ``y * 1.0001`` or ``y + x`` (``i % 3``). The whole chain fuses
  into one node.
- ``mixed``: a random DAG (fixed seed) over four ``(64, 64)`` / ``(64,)`` inputs:
  elementwise ops (``exp``, ``log1p``, ``tanh``, ``x**2``, ``x**3``, add, mul,
  ``exp(x) - 1``), a row sum or max every 8th node (broadcast back with
  ``keepdims``), a matmul every 25th, a slice every 20th, among the 32 most
  recent variables.

Each cell is the best of a few runs of ``rewrite_graph`` on a fresh
``FunctionGraph`` (the copy is not timed), as wall time and as this process's
CPU time (``time.process_time``: the better measure on a shared, loaded
machine, where wall time also counts waiting for a core). PyTensor runs in a separate
interpreter (``--pytensor-python``, default ``/tmp/ptvenv/bin/python``, a
scratch venv: PyTensor is not a project dependency) with a per-size time limit.

    OPENBLAS_NUM_THREADS=1 python benchmarks/rewrite_pipeline.py            # writes README
    OPENBLAS_NUM_THREADS=1 python benchmarks/rewrite_pipeline.py --quick    # 1k, 10k
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "benchmarks" / "README.md"
START, END = "<!-- rewrite_pipeline:start -->", "<!-- rewrite_pipeline:end -->"


def build(lib: Any, kind: str, n: int) -> tuple[list[Any], list[Any]]:
    """``(inputs, outputs)`` of a graph with ``n`` op nodes; ``lib`` is a small
    adapter with the numpy-named functions (lazygraph.tensor or pytensor.tensor)."""
    if kind == "chain":
        x = lib.vector(100)
        y = x
        for i in range(n):
            y = lib.sin(y) if i % 3 == 0 else (y * 1.0001 if i % 3 == 1 else y + x)
        return [x], [y]
    rng = random.Random(0)
    inputs = [lib.matrix(64), lib.matrix(64), lib.vector(64), lib.vector(64)]
    pool = list(inputs)
    unary = [
        lib.exp,
        lib.log1p,
        lib.tanh,
        lambda v: v**2,
        lambda v: v**3,
        lambda v: lib.exp(v) - 1.0,
    ]
    count = 0
    while count < n:
        a = pool[-1 - rng.randrange(min(32, len(pool)))]
        b = pool[-1 - rng.randrange(min(32, len(pool)))]
        k = len(pool)
        if k % 25 == 0 and a.ndim == 2 and b.ndim == 2:
            out = lib.matmul(a, b)
        elif k % 20 == 0:
            out = lib.slice_rows(a)
        elif k % 8 == 0 and a.ndim == 2:
            out = a - lib.row_reduce(a, k % 16 == 0)
        elif rng.random() < 0.5:
            out = unary[rng.randrange(len(unary))](a)
        else:
            out = a + b if rng.random() < 0.5 else a * b
        pool.append(out)
        count += 1
    return inputs, pool[-8:]


class LazygraphLib:
    def __init__(self) -> None:
        import lazygraph.tensor as lt

        self.lt = lt
        self.exp, self.log1p, self.tanh, self.sin = lt.exp, lt.log1p, lt.tanh, lt.sin
        self.matmul = lt.matmul

    def vector(self, n: int) -> Any:
        return self.lt.tensor("float64", (n,))

    def matrix(self, n: int) -> Any:
        return self.lt.tensor("float64", (n, n))

    def slice_rows(self, a: Any) -> Any:
        return self.lt.concatenate([a[1:], a[:1]], axis=0)

    def row_reduce(self, a: Any, use_max: bool) -> Any:
        return (self.lt.max if use_max else self.lt.sum)(a, axis=-1, keepdims=True)


class PytensorLib:
    def __init__(self) -> None:
        import pytensor.tensor as pt

        self.pt = pt
        self.exp, self.log1p, self.tanh, self.sin = pt.exp, pt.log1p, pt.tanh, pt.sin
        self.matmul = pt.matmul

    def vector(self, n: int) -> Any:
        return self.pt.tensor(dtype="float64", shape=(n,))

    def matrix(self, n: int) -> Any:
        return self.pt.tensor(dtype="float64", shape=(n, n))

    def slice_rows(self, a: Any) -> Any:
        return self.pt.concatenate([a[1:], a[:1]], axis=0)

    def row_reduce(self, a: Any, use_max: bool) -> Any:
        return (self.pt.max if use_max else self.pt.sum)(a, axis=-1, keepdims=True)


def time_lazygraph(kind: str, n: int, repeat: int) -> dict[str, float]:
    from lazygraph.compile.function import rewrite_graph
    from lazygraph.compile.mode import Mode
    from lazygraph.graph.fg import FunctionGraph

    inputs, outputs = build(LazygraphLib(), kind, n)
    best, best_cpu = float("inf"), float("inf")
    nodes_after = 0
    for _ in range(repeat):
        fg = FunctionGraph(inputs, outputs)
        start, start_cpu = time.perf_counter(), time.process_time()
        rewrite_graph(fg, Mode(backend="python"))
        best = min(best, time.perf_counter() - start)
        best_cpu = min(best_cpu, time.process_time() - start_cpu)
        nodes_after = len(fg.apply_nodes)
    return {"seconds": best, "cpu": best_cpu, "nodes_after": nodes_after}


def time_pytensor(kind: str, n: int, repeat: int) -> dict[str, float]:
    sys.setrecursionlimit(1_000_000)  # PyTensor's traversals recurse
    import pytensor
    from pytensor.compile.mode import get_mode
    from pytensor.graph.fg import FunctionGraph

    pytensor.config.cxx = ""  # rewriting only: no C compiler needed
    inputs, outputs = build(PytensorLib(), kind, n)
    best, best_cpu = float("inf"), float("inf")
    for _ in range(repeat):
        fg = FunctionGraph(inputs, outputs, clone=True)
        rewriter = get_mode("FAST_RUN").optimizer
        start, start_cpu = time.perf_counter(), time.process_time()
        rewriter.rewrite(fg)
        best = min(best, time.perf_counter() - start)
        best_cpu = min(best_cpu, time.process_time() - start_cpu)
    return {"seconds": best, "cpu": best_cpu, "nodes_after": len(fg.apply_nodes)}


def pytensor_cell(python: str, kind: str, n: int, limit: float) -> str:
    """PyTensor's time from a separate interpreter, or why there is none."""
    if not Path(python).exists():
        return "not installed"
    cmd = [python, str(Path(__file__).resolve()), "--pytensor-worker", kind, str(n)]
    env = dict(os.environ, PYTHONPATH="")
    try:
        done = subprocess.run(cmd, capture_output=True, text=True, timeout=limit, env=env)
    except subprocess.TimeoutExpired:
        return f"> {limit:.0f} s"
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or ["failed"])[-1]
        return f"failed ({tail[:60]})"
    result = json.loads(done.stdout.strip().splitlines()[-1])
    return f"{fmt(result['seconds'])} ({fmt(result['cpu'])})"


def fmt(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.2f} s"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="1k and 10k only")
    parser.add_argument("--pytensor-python", default="/tmp/ptvenv/bin/python")
    parser.add_argument("--pytensor-limit", type=float, default=120.0)
    parser.add_argument("--no-readme", action="store_true")
    parser.add_argument("--pytensor-worker", nargs=2, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.pytensor_worker:
        kind, n = args.pytensor_worker
        print(json.dumps(time_pytensor(kind, int(n), repeat=1)))
        return
    for path in (ROOT / "packages" / "lazygraph-core" / "src",):
        if str(path) not in sys.path:
            sys.path.insert(0, str(path))
    sizes = [1_000, 10_000] if args.quick else [1_000, 10_000, 50_000]
    rows = []
    results: dict[tuple[str, int], float] = {}
    for kind in ("chain", "mixed"):
        pt_gave_up = ""
        for n in sizes:
            lg = time_lazygraph(kind, n, repeat=3 if n <= 10_000 else 1)
            results[(kind, n)] = lg["cpu"]
            if pt_gave_up:  # a bigger graph would only take longer
                pt_cell = f"not run ({pt_gave_up} at a smaller size)"
            else:
                pt_cell = pytensor_cell(args.pytensor_python, kind, n, args.pytensor_limit)
                if pt_cell.startswith(">"):
                    pt_gave_up = pt_cell
            after = int(lg["nodes_after"])
            lg_cell = f"{fmt(lg['seconds'])} | {fmt(lg['cpu'])}"
            rows.append(f"| {kind} | {n:,} | {lg_cell} | {after:,} | {pt_cell} |")
            print(rows[-1], flush=True)
    growth = []
    for kind in ("chain", "mixed"):
        if (kind, 50_000) in results:
            ratio = results[(kind, 50_000)] / results[(kind, 10_000)]
            growth.append(f"{kind} 50k / 10k: {ratio:.1f}x CPU time (linear: 5x)")
    table = "\n".join(
        [
            "| graph | nodes | lazygraph wall | lazygraph CPU | nodes after "
            "| PyTensor FAST_RUN wall (CPU) |",
            "|---|---:|---:|---:|---:|---:|",
            *rows,
        ]
    )
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    machine = (
        f"Machine: {os.cpu_count()} cores, Python {platform.python_version()}, "
        f"OPENBLAS_NUM_THREADS={os.environ.get('OPENBLAS_NUM_THREADS', 'unset')}, "
        f"load average {load:.1f} at the end of the run."
    )
    block = "\n\n".join([table, "; ".join(growth) if growth else "", machine]).replace(
        "\n\n\n\n", "\n\n"
    )
    print(block)
    if not args.no_readme and README.exists():
        text = README.read_text()
        if START in text and END in text:
            text = re.sub(
                re.escape(START) + ".*?" + re.escape(END),
                lambda _: f"{START}\n{block}\n{END}",
                text,
                flags=re.S,
            )
            README.write_text(text)


if __name__ == "__main__":
    main()
