"""Numba-backend benchmark (issue 6): lazygraph on its numba backend side by side
with numpy, ``jax.jit`` (CPU), PyTensor in mode ``NUMBA`` and ``FAST_RUN`` (C),
and numexpr where the workload is an expression; every engine runs in a
process of its own.

Workloads (``numba_engines.py`` writes each once per engine): ``a + a**10`` and
an ``exp``/``sin``/``log1p`` chain on 10M float64; softmax and logsumexp over
the last axis of a 2000x5000 float64 array, each written stably (subtracting
the row max) and naively; a 10-element expression called in a loop (the
per-call overhead); one forward+grad step of a 784-512-10 tanh MLP (batch 256,
float32); the first call of that step in a fresh process, with empty caches and
again with the disk caches the first run left; compile + first call of
elementwise chains of 1,000 / 10,000 / 50,000 ops (once an engine passes the
time limit, its larger sizes are not run); and a single-thread stream triad,
the machine's memory-bandwidth limit, that ``a + a**10`` is measured against.

Cells are medians of 7 timed runs after a warm-up, each engine's result
checked against numpy first; ratios are to numpy. Every engine runs with the
same thread count (``--threads``, default 1: one thread per engine, BLAS
included); with one thread, lazygraph also runs with all cores (its default)
as a column of its own. First calls and chains start from empty cache
directories (lazygraph's, numba's, PyTensor's compiledir, JAX's persistent
compilation cache); the "warm disk cache" row reruns the MLP step in a new
process over the directories the first run filled. Compile cells give wall
time and CPU time (the process's threads plus its children, such as
PyTensor's C compiler), the better measure on a loaded machine.

PyTensor is not a project dependency; it runs from a scratch venv, which may
also hold numexpr. A full run replaces the block between the
``numba_workloads`` markers in benchmarks/README.md, if it has them
(``--no-readme``: it does not)::

    python -m venv /tmp/ptvenv && /tmp/ptvenv/bin/pip install pytensor numexpr
    OPENBLAS_NUM_THREADS=1 python benchmarks/numba_workloads.py           # full sizes
    OPENBLAS_NUM_THREADS=1 python benchmarks/numba_workloads.py --quick   # 1/10 sizes, 1k chain

The venv's interpreter is ``--pytensor-python``, else
``$LAZYGRAPH_BENCH_PYTENSOR_PYTHON``, else ``/tmp/ptvenv/bin/python`` when it
exists; without it the PyTensor columns say "n/a".
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from numba_engines import (  # noqa: E402
    WORKLOADS,
    run_chain,
    run_first_call,
    run_steady,
    run_triad,
)

README = HERE / "README.md"
START, END = "<!-- numba_workloads:start -->", "<!-- numba_workloads:end -->"
DEFAULT_PYTENSOR = "/tmp/ptvenv/bin/python"
#: engine -> column header, in column order
COLUMNS = {
    "numpy": "numpy",
    "lazygraph": "lazygraph numba",
    "jax": "jax.jit",
    "pytensor_numba": "PyTensor numba",
    "pytensor_c": "PyTensor C",
    "numexpr": "numpy + numexpr",
}
COMPILED = ("lazygraph", "jax", "pytensor_numba", "pytensor_c")


# -- running the workers -------------------------------------------------------------


def engine_pythons(pytensor_python: str | None) -> dict[str, str | None]:
    """The interpreter that runs each engine, or ``None`` where it is not installed."""

    def has(python: str | None, module: str) -> bool:
        if python is None or not Path(python).exists():
            return False
        if python == sys.executable:
            return importlib.util.find_spec(module) is not None
        code = f"import importlib.util, sys; sys.exit(importlib.util.find_spec({module!r}) is None)"
        return subprocess.run([python, "-c", code], env=_clean_env(), timeout=120).returncode == 0

    main = sys.executable
    lazygraph = has(main, "numba") and has(main, "lazygraph")
    pt = pytensor_python if has(pytensor_python, "pytensor") else None
    numexpr = main if has(main, "numexpr") else (pt if has(pt, "numexpr") else None)
    return {
        "numpy": main,
        "lazygraph": main if lazygraph else None,
        "jax": main if has(main, "jax") else None,
        "pytensor_numba": pt if pt and has(pt, "numba") else None,
        "pytensor_c": pt,
        "numexpr": numexpr,
    }


def _clean_env() -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONPATH", None)  # the venv must not see this checkout's packages
    return env


def worker_env(python: str, threads: int, cache: str) -> dict[str, str]:
    """The environment of one worker: the thread count for every library, and
    empty (or, when ``cache`` is reused, warm) cache directories under ``cache``."""
    env = dict(os.environ) if python == sys.executable else _clean_env()
    for var in (
        "OPENBLAS_NUM_THREADS",
        "OMP_NUM_THREADS",
        "MKL_NUM_THREADS",
        "NUMBA_NUM_THREADS",
        "NUMEXPR_NUM_THREADS",
        "NUMEXPR_MAX_THREADS",
        "LAZYGRAPH_NUM_THREADS",
    ):
        env[var] = str(threads)
    if threads == 1:
        env["XLA_FLAGS"] = "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
    env["LAZYGRAPH_CACHE_DIR"] = os.path.join(cache, "lazygraph")
    env["LAZYGRAPH_PROGRESS"] = "0"
    # steady-state and compile-time cells measure compiled code: kernels compile
    # at their first call; the first-call table measures background compilation too
    env["LAZYGRAPH_NUMBA_BACKGROUND_COMPILE"] = "0"
    env["NUMBA_CACHE_DIR"] = os.path.join(cache, "numba")
    env["BENCH_JAX_CACHE_DIR"] = os.path.join(cache, "jax")
    flags = [f"base_compiledir={os.path.join(cache, 'pytensor')}"]
    if env.get("PYTENSOR_FLAGS"):
        flags.insert(0, env["PYTENSOR_FLAGS"])
    env["PYTENSOR_FLAGS"] = ",".join(flags)
    return env


def run_worker(
    python: str, args: list[str], threads: int, cache: str, timeout: float
) -> dict[str, Any] | str:
    """The JSON a worker prints last, or a short reason why there is none."""
    cmd = [python, str(Path(__file__).resolve()), "--worker", *args]
    try:
        done = subprocess.run(
            cmd,
            capture_output=True,
            text=True,
            timeout=timeout,
            env=worker_env(python, threads, cache),
        )
    except subprocess.TimeoutExpired:
        return f"> {timeout:.0f} s"
    sys.stderr.write(done.stderr[-4000:] if done.returncode else "")
    lines = [ln for ln in done.stdout.splitlines() if ln.startswith("{")]
    if done.returncode != 0 or not lines:
        tail = (done.stderr.strip().splitlines() or ["no output"])[-1]
        return f"failed ({tail[:70].replace('|', '/')})"
    return json.loads(lines[-1])


def worker_main(argv: list[str], quick: bool, seconds: float) -> None:
    kind, engine = argv[0], argv[1]
    scale = 10 if quick else 1
    if kind == "steady":
        result = run_steady(engine, scale, seconds)
    elif kind == "first":
        result = run_first_call(engine, background="background" in argv[2:])
    elif kind == "chain":
        result = run_chain(engine, int(argv[2]))
    elif kind == "triad":
        result = run_triad()
    else:
        raise SystemExit(f"unknown worker kind {kind!r}")
    print(json.dumps(result), flush=True)


# -- the tables ----------------------------------------------------------------------


def fmt(seconds: float | None) -> str:
    """Seconds as a table cell that ``report.py`` parses back.

    >>> fmt(2.5e-6), fmt(0.0123), fmt(3.0), fmt(None)
    ('2.5 µs', '12.3 ms', '3.00 s', 'n/a')
    """
    if seconds is None:
        return "n/a"
    if seconds < 1e-3:
        return f"{seconds * 1e6:.1f} µs"
    if seconds < 1:
        return f"{seconds * 1e3:.1f} ms"
    return f"{seconds:.2f} s"


def cell(value: Any, numpy: float | None = None) -> str:
    """A time with its ratio to numpy, or the text saying why there is none.

    >>> cell(0.002, numpy=0.008), cell("> 60 s"), cell(None)
    ('2.0 ms (0.25×)', '> 60 s', 'n/a')
    """
    if isinstance(value, str):
        return value
    if value is None:
        return "n/a"
    if numpy:
        return f"{fmt(value)} ({value / numpy:.2f}×)"
    return fmt(value)


def verdict(ok: bool | None, bound: str) -> str:
    """The goal column: the bound and whether lazygraph met it.

    >>> verdict(True, "≤ 2 µs"), verdict(None, "≤ jax.jit")
    ('≤ 2 µs: met', '≤ jax.jit: n/a')
    """
    if ok is None:
        return f"{bound}: n/a"
    return f"{bound}: {'met' if ok else 'missed'}"


def _num(value: Any) -> float | None:
    return value if isinstance(value, float | int) else None


def steady_table(
    steady: dict[str, Any], triad: dict[str, Any], scale: int, columns: dict[str, str]
) -> list[str]:
    n, rows = 10_000_000 // scale, 2000 // scale
    labels = {
        "pow": f"a + a**10, {n:,} float64",
        "chain": f"exp/sin/log1p chain, {n:,} float64",
        "softmax": f"softmax over last axis, {rows}x5000 float64",
        "softmax_naive": f"softmax, naive (no max subtracted), {rows}x5000 float64",
        "logsumexp": f"logsumexp over last axis, {rows}x5000 float64",
        "logsumexp_naive": f"logsumexp, naive (no max subtracted), {rows}x5000 float64",
        "expr10": "10-element expression, per call",
        "mlp": "MLP 784-512-10 tanh, batch 256 float32, forward+grad",
    }

    def t(engine: str, workload: str) -> Any:
        result = steady.get(engine)
        return result.get(workload) if isinstance(result, dict) else result

    limit = 16 * n / (triad["bandwidth"] * 1e9) if isinstance(triad, dict) else None
    goals: dict[str, str] = {}
    lg = {w: _num(t("lazygraph", w)) for w in WORKLOADS}
    npy = {w: _num(t("numpy", w)) for w in WORKLOADS}
    jx = {w: _num(t("jax", w)) for w in WORKLOADS}

    def within(a: float | None, b: float | None, factor: float = 1.0) -> bool | None:
        return None if a is None or b is None else a <= factor * b

    bound = f"≤ 1.3× bandwidth limit ({fmt(1.3 * limit)})" if limit else "≤ 1.3× bandwidth limit"
    goals["pow"] = verdict(within(lg["pow"], limit, 1.3), bound)
    goals["chain"] = verdict(within(lg["chain"], npy["chain"]), "< numpy")
    goals["softmax"] = verdict(within(lg["softmax"], npy["softmax"], 0.8), "≤ 0.8× numpy")
    goals["logsumexp"] = verdict(within(lg["logsumexp"], jx["logsumexp"]), "≤ jax.jit")
    goals["expr10"] = verdict(within(lg["expr10"], 2e-6), "≤ 2 µs")
    goals["mlp"] = verdict(within(lg["mlp"], jx["mlp"]), "≤ jax.jit")
    for w in goals:
        got = t("lazygraph", w)
        if isinstance(got, str) and got.startswith(("wrong", "failed")):
            goals[w] = goals[w].rsplit(":", 1)[0] + f": missed ({got})"
    header = ["workload", *columns.values(), "goal (lazygraph)"]
    lines = ["| " + " | ".join(header) + " |", "|---|" + "---:|" * len(columns) + "---|"]
    for w in WORKLOADS:
        cells = [cell(t(e, w), None if e == "numpy" else npy[w]) for e in columns]
        lines.append(f"| {labels[w]} | " + " | ".join(cells) + f" | {goals.get(w, '–')} |")
    return lines


def timed(value: Any, key: str) -> tuple[str, float | None]:
    """A worker's wall time with its CPU time, as a cell and as a number.

    >>> timed({"chain": 1.5, "cpu": 1.2}, "chain"), timed("> 300 s", "chain")
    (('1.50 s (CPU 1.20 s)', 1.5), ('> 300 s', None))
    """
    if not isinstance(value, dict):
        return cell(value), None
    wall = value.get(key)
    if not isinstance(wall, float):
        return "n/a", None
    cpu = value.get("cpu")
    return (f"{fmt(wall)} (CPU {fmt(cpu)})" if isinstance(cpu, float) else fmt(wall)), wall


def first_call_table(first: dict[str, dict[str, Any]]) -> list[str]:
    """Rows: empty caches (lazygraph's default: kernels compile in the background,
    the first call runs numpy's perform), empty caches compiling at the first call
    (the other engines always do), and a warm disk cache."""
    engines = [e for e in COLUMNS if e in COMPILED]
    header = ["MLP step, fresh process", *(f"first call, {COLUMNS[e]}" for e in engines), "goal"]
    cold = {e: timed(first[e]["cold"], "first_call") for e in engines}
    warm = {e: timed(first[e]["warm"], "first_call") for e in engines}
    default = {e: timed(first[e].get("background", "n/a"), "first_call") for e in engines}
    default = {e: default[e] if e == "lazygraph" else cold[e] for e in engines}
    lg_default, lg_cold, lg_warm = (t["lazygraph"][1] for t in (default, cold, warm))
    goal_default = verdict(None if lg_default is None else lg_default <= 1.0, "≤ 1 s")
    ok = None if lg_cold is None or lg_warm is None else lg_warm <= 0.1 * lg_cold
    goal_warm = verdict(ok, "≤ 10% of compiling cold")
    if lg_cold and lg_warm is not None:
        goal_warm += f" ({lg_warm / lg_cold:.0%})"
    compiling = [cold[e][0] if e == "lazygraph" else "–" for e in engines]
    return [
        "| " + " | ".join(header) + " |",
        "|---|" + "---:|" * len(engines) + "---|",
        "| empty caches (lazygraph: default, compiles in the background) | "
        + " | ".join(default[e][0] for e in engines)
        + f" | {goal_default} |",
        "| empty caches, compiling at the first call | " + " | ".join(compiling) + " | – |",
        "| warm disk cache | " + " | ".join(warm[e][0] for e in engines) + f" | {goal_warm} |",
    ]


def chain_table(chains: dict[str, dict[int, Any]], sizes: list[int]) -> list[str]:
    engines = [e for e in COLUMNS if e in COMPILED]
    header = ["graph", "nodes", *(f"first call, {COLUMNS[e]}" for e in engines), "goal"]
    lines = ["| " + " | ".join(header) + " |", "|---|---:|" + "---:|" * len(engines) + "---|"]
    limits = {10_000: 3.0, 50_000: 15.0}
    for n in sizes:
        cells = {e: timed(chains[e].get(n), "chain") for e in engines}
        lg = cells["lazygraph"][1]
        goal = "–"
        if n in limits:
            goal = verdict(None if lg is None else lg <= limits[n], f"≤ {limits[n]:.0f} s")
        row = " | ".join(cells[e][0] for e in engines)
        lines.append(f"| elementwise chain | {n:,} | {row} | {goal} |")
    return lines


# -- the driver ----------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="1/10 sizes, 1k-op chain only")
    parser.add_argument("--pytensor-python", help="interpreter with pytensor (a scratch venv)")
    parser.add_argument("--threads", type=int, default=1, help="threads per engine (default 1)")
    parser.add_argument(
        "--engines", nargs="*", choices=list(COLUMNS), help="engines to run (default: all)"
    )
    parser.add_argument(
        "--compile-limit", type=float, help="seconds per chain size and engine (300; quick: 60)"
    )
    parser.add_argument("--seconds", type=float, default=1.0, help="timed seconds per cell")
    parser.add_argument(
        "--parts",
        nargs="*",
        choices=["steady", "first", "chain"],
        default=["steady", "first", "chain"],
        help="which tables to measure (default: all; the others say n/a)",
    )
    parser.add_argument("--no-readme", action="store_true", help="do not update README.md")
    parser.add_argument("--worker", nargs="+", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker_main(args.worker, args.quick, args.seconds)
        return
    scale = 10 if args.quick else 1
    limit = args.compile_limit or (60.0 if args.quick else 300.0)
    sizes = [1_000] if args.quick else [1_000, 10_000, 50_000]
    pt_python = (
        args.pytensor_python
        or os.environ.get("LAZYGRAPH_BENCH_PYTENSOR_PYTHON")
        or (DEFAULT_PYTENSOR if Path(DEFAULT_PYTENSOR).exists() else None)
    )
    pythons = engine_pythons(pt_python)
    chosen = set(args.engines or COLUMNS) | {"numpy"}
    missing = {e: "n/a" for e in COLUMNS if e not in chosen or pythons[e] is None}
    columns = dict(COLUMNS)
    cores = os.cpu_count() or 1
    if args.threads == 1 and cores > 1 and "lazygraph" not in missing:
        # lazygraph's default (all cores) as a column of its own, beside one thread
        columns = {}
        for e, header in COLUMNS.items():
            columns[e] = header
            if e == "lazygraph":
                columns["lazygraph_all_cores"] = f"lazygraph numba, {cores} threads"

    def run(engine: str, kind: list[str], cache: str, timeout: float) -> Any:
        if engine in missing:
            return missing[engine]
        threads = args.threads
        if engine == "lazygraph_all_cores":
            engine, threads = "lazygraph", cores
        print(f"  running {engine}: {' '.join(kind)}", file=sys.stderr, flush=True)
        flags = ["--quick"] * args.quick + ["--seconds", str(args.seconds)]
        worker_args = [kind[0], engine, *kind[1:], *flags]
        return run_worker(pythons[engine], worker_args, threads, cache, timeout)

    with tempfile.TemporaryDirectory(prefix="lazygraph-bench-") as tmp:
        triad = run("numpy", ["triad"], tmp, 600)
        steady = {
            e: run(e, ["steady"], tempfile.mkdtemp(dir=tmp), 3600)
            if "steady" in args.parts
            else "n/a"
            for e in columns
        }
        first: dict[str, dict[str, Any]] = {
            e: {"cold": "n/a", "warm": "n/a", "background": "n/a"} for e in COMPILED
        }
        for e in COMPILED if "first" in args.parts else ():
            cache = tempfile.mkdtemp(dir=tmp)
            first[e] = {"cold": run(e, ["first"], cache, 1200)}
            first[e]["warm"] = run(e, ["first"], cache, 1200)
            if e == "lazygraph":  # the default: kernels compile in the background
                fresh = tempfile.mkdtemp(dir=tmp)
                first[e]["background"] = run(e, ["first", "background"], fresh, 1200)
        chains: dict[str, dict[int, Any]] = {e: {} for e in COMPILED}
        for e in COMPILED if "chain" in args.parts else ():
            gave_up = ""
            for n in sizes:
                if gave_up:
                    chains[e][n] = f"not run ({gave_up} at a smaller size)"
                    continue
                got = run(e, ["chain", str(n)], tempfile.mkdtemp(dir=tmp), limit)
                chains[e][n] = got
                if isinstance(got, str) and got.startswith(">"):
                    gave_up = got
    lines = steady_table(steady, triad, scale, columns)
    lines += ["", *first_call_table(first), "", *chain_table(chains, sizes), ""]
    lines += notes(steady, triad, scale, args.threads, pythons, pt_python, columns)
    block = "\n".join(lines)
    print(block)
    if not args.no_readme and not args.quick and README.exists():
        text = README.read_text()
        if START in text and END in text:
            pattern = re.escape(START) + ".*?" + re.escape(END)
            text = re.sub(pattern, lambda _: f"{START}\n{block}\n{END}", text, flags=re.S)
            README.write_text(text)


def notes(
    steady: dict[str, Any],
    triad: Any,
    scale: int,
    threads: int,
    pythons: dict[str, str | None],
    pt_python: str | None,
    columns: dict[str, str],
) -> list[str]:
    """The run's facts in words: bandwidth, the ``a + a**10`` ratio to it, setup."""
    from _common import machine

    n = 10_000_000 // scale
    out = []
    if isinstance(triad, dict):
        limit = 16 * n / (triad["bandwidth"] * 1e9)
        out.append(
            f"Stream triad ({triad['n']:,} float64, one thread, {triad['how']}): "
            f"{fmt(triad['triad'])}, {triad['bandwidth']:.1f} GB/s; the bandwidth limit of "
            f"a + a**10 (read 8 + write 8 bytes per element) is {fmt(limit)}."
        )
        ratios = []
        for e, header in columns.items():
            got = steady.get(e)
            t = got.get("pow") if isinstance(got, dict) else None
            if isinstance(t, float):
                ratios.append(f"{header} {t / limit:.1f}×")
        if ratios:
            out.append("a + a**10 against the bandwidth limit: " + ", ".join(ratios) + ".")
    lazy = steady.get("lazygraph")
    paths = lazy.get("per_call_paths") if isinstance(lazy, dict) else None
    if paths and isinstance(lazy.get("expr10"), float):
        spent = [f"lazygraph.jit {fmt(lazy['expr10'])}"]
        spent += [f"{label} {fmt(t)}" for label, t in paths.items()]
        out.append("Per call of the 10-element expression: " + ", ".join(spent) + ".")
    absent = [COLUMNS[e] for e, p in pythons.items() if p is None]
    if absent:
        out.append(f"Not installed (n/a): {', '.join(absent)}.")
    if pythons.get("pytensor_c"):
        out.append(f"PyTensor from {pt_python}.")
    if pythons.get("numexpr"):
        out.append(f"numexpr from {pythons['numexpr']}; reductions in numpy.")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    if "lazygraph_all_cores" in columns:
        out.append(
            f"{columns['lazygraph_all_cores']}: lazygraph's default (all cores); "
            "the goals are judged on the one-thread column."
        )
    out.append(
        f"Threads per engine: {threads}. Machine: {machine()}; "
        f"load average {load:.1f} at the end of the run."
    )
    return out


if __name__ == "__main__":
    main()
