"""The benchmark report: run the benchmark scripts in this directory, record their
output in ``docs/benchmarks/results.json`` and generate from that record the page
``docs/benchmarks/README-table.md`` and two plots (matplotlib PNG) that the
documentation's benchmark page shows.

    OPENBLAS_NUM_THREADS=1 python benchmarks/report.py            # every script, full sizes
    OPENBLAS_NUM_THREADS=1 python benchmarks/report.py --quick    # the scripts' --quick sizes
    python benchmarks/report.py --only graph_core rewrite_pipeline
    python benchmarks/report.py --from-dir DIR   # regenerate page and plots from DIR/results.json
    python benchmarks/report.py --check          # is the published page the record's own?

``nox -s bench`` runs it. Scripts that do not exist yet are skipped, and so is a
script that fails (its error goes into the report). The record holds, beside each
script's standard output, when the run was made, the machine (CPU model, cores,
Python, numpy, BLAS threads), the 1-minute load average before and after the run
and whether the sizes were ``--quick``; the page states all of them, and a quick
run, or one on a machine not shown to be quiet, opens with a warning that says so.

The page is a pure function of the record (``render``): ``--check`` (run by
tests/docs/test_bench_report.py) fails when the page, or a plot it shows, is not
what the current ``results.json`` generates, so a hand edit, a page left from an
older run or a plot from another run cannot be published silently.

The report parses the Markdown tables in each output: a cell such as ``12 ms``,
``1.5 s`` or ``80.1 µs`` is a time, the rest is text. The plots:

- ``time_per_workload.png``: seconds per workload for each engine (numpy,
  lazygraph's backends, JAX), log scale, from the workload scripts' tables;
- ``compile_time_vs_size.png``: time against graph size (nodes), log-log, from
  the graph-core and rewrite-pipeline tables and the compile-time lines.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import platform
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = ROOT / "docs" / "benchmarks"
RESULTS = "results.json"
PAGE = "README-table.md"
#: the plots, in page order, with their captions
PLOTS = {
    "time_per_workload.png": "Time per workload and engine (log scale)",
    "compile_time_vs_size.png": "Time against graph size (log-log)",
}

#: (script name, what it measures), in report order
SCRIPTS = (
    ("graph_core", "Graph core: building, cloning, sorting and rewriting large graphs"),
    ("rewrite_pipeline", "The default rewrite pipeline on tensor graphs, beside PyTensor"),
    ("numba_workloads", "Workloads on the Numba backend, beside numpy and JAX"),
    ("jax_workloads", "Workloads on the JAX backend, beside numpy and jax.jit"),
)
#: flags passed when a script's --help lists them: keep benchmarks/README.md as it is
NO_WRITE_FLAGS = ("--no-write", "--no-readme")

_TIME = re.compile(r"^\s*([0-9][0-9,]*(?:\.[0-9]+)?)\s*(ns|µs|us|ms|s|min)\b")
_UNIT = {"ns": 1e-9, "µs": 1e-6, "us": 1e-6, "ms": 1e-3, "s": 1.0, "min": 60.0}
_COMPILE_LINE = re.compile(r"compile[^:]*?([0-9][0-9,]*)-op ([\w ]+?):\s*([0-9.]+\s*(?:ms|s))")


def parse_seconds(cell: str) -> float | None:
    """The time at the start of a table cell, in seconds, or ``None``.

    >>> parse_seconds("12 ms"), parse_seconds("1.50 s (1.2 s)"), parse_seconds("n/a")
    (0.012, 1.5, None)
    """
    m = _TIME.match(cell)
    if m is None:
        return None
    return float(m.group(1).replace(",", "")) * _UNIT[m.group(2)]


def parse_int(cell: str) -> int | None:
    """A count such as ``10,000`` or ``1M``, or ``None``.

    >>> parse_int("10,000"), parse_int("1M"), parse_int("chain")
    (10000, 1000000, None)
    """
    m = re.fullmatch(r"\s*([0-9][0-9,]*)\s*([kM]?)\s*", cell)
    if m is None:
        return None
    return int(m.group(1).replace(",", "")) * {"": 1, "k": 1000, "M": 1_000_000}[m.group(2)]


@dataclass
class Table:
    header: list[str]
    rows: list[list[str]]
    align: str = ""  # the script's ``|---|---:|`` row

    def markdown(self) -> str:
        align = self.align or "|" + "---|" * len(self.header)
        lines = ["| " + " | ".join(self.header) + " |", align]
        lines += ["| " + " | ".join(row) + " |" for row in self.rows]
        return "\n".join(lines)


def parse_tables(text: str) -> list[Table]:
    """The Markdown tables in ``text`` (a header row, a ``---`` row, data rows).

    >>> t = parse_tables("x\\n| a | b |\\n|---|---:|\\n| 1 | 2 ms |\\nend")[0]
    >>> t.header, t.rows
    (['a', 'b'], [['1', '2 ms']])
    """
    tables: list[Table] = []
    lines = text.splitlines()
    i = 0
    while i + 1 < len(lines):
        head, sep = lines[i].strip(), lines[i + 1].strip()
        if head.startswith("|") and re.fullmatch(r"\|(\s*:?-+:?\s*\|)+", sep):
            header = _cells(head)
            rows = []
            i += 2
            while i < len(lines) and lines[i].strip().startswith("|"):
                row = _cells(lines[i].strip())
                rows.append((row + [""] * len(header))[: len(header)])
                i += 1
            tables.append(Table(header, rows, sep))
        else:
            i += 1
    return tables


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def prose_lines(text: str) -> list[str]:
    """The non-table, non-progress lines worth keeping (results stated in words)."""
    keep = []
    for line in text.splitlines():
        s = line.strip()
        if not s or s.startswith("|") or re.match(r"^[0-9, ]+:", s):
            continue
        keep.append(s)
    return keep


@dataclass
class Result:
    name: str
    title: str
    status: str  # "ok", "skipped: ...", "failed: ..."
    output: str = ""
    seconds: float = 0.0
    tables: list[Table] = field(default_factory=list)


def script_flags(path: Path, quick: bool) -> list[str]:
    """The flags to pass: --quick when asked, and the no-README-update flags the
    script supports (read from its --help)."""
    env = dict(os.environ, PYTHONPATH=_pythonpath())
    helptext = subprocess.run(
        [sys.executable, str(path), "--help"], capture_output=True, text=True, env=env, timeout=120
    ).stdout
    flags = [f for f in NO_WRITE_FLAGS if f in helptext]
    if quick and "--quick" in helptext:
        flags.append("--quick")
    return flags


def _pythonpath() -> str:
    parts = [str(ROOT), os.environ.get("PYTHONPATH", "")]
    return os.pathsep.join(p for p in parts if p)


def run_script(name: str, title: str, quick: bool, timeout: float) -> Result:
    path = HERE / f"{name}.py"
    if not path.exists():
        return Result(name, title, "skipped: the script does not exist yet")
    flags = script_flags(path, quick)
    print(f"== {name} {' '.join(flags)}", flush=True)
    env = dict(os.environ, PYTHONPATH=_pythonpath())
    env.setdefault("OPENBLAS_NUM_THREADS", "1")
    env["LAZYGRAPH_PROGRESS"] = "0"
    start = time.perf_counter()
    try:
        done = subprocess.run(
            [sys.executable, str(path), *flags],
            capture_output=True,
            text=True,
            env=env,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return Result(name, title, f"failed: no result within {timeout:.0f} s")
    seconds = time.perf_counter() - start
    print(done.stdout, flush=True)
    if done.returncode != 0:
        tail = (done.stderr.strip().splitlines() or ["(no message)"])[-1]
        return Result(name, title, f"failed: {tail}", done.stdout, seconds)
    return Result(name, title, "ok", done.stdout, seconds, parse_tables(done.stdout))


# -- the record ----------------------------------------------------------------------


@dataclass
class Run:
    """One report run: what the page is generated from (``results.json``)."""

    date: str  # "2026-11-23 15:42 UTC"
    quick: bool
    machine: dict[str, Any]  # cpu, cores, python, numpy, blas_threads
    load_before: float | None  # 1-minute load average before the first script
    load_after: float | None  # ... and after the last one
    results: list[Result]
    plots: dict[str, str] = field(default_factory=dict)  # PNG name -> sha256
    note: str = ""  # said on the page as it is (e.g. how an old run was recorded)

    def to_json(self) -> dict[str, Any]:
        return {
            "date": self.date,
            "quick": self.quick,
            "machine": self.machine,
            "load_before": self.load_before,
            "load_after": self.load_after,
            "note": self.note,
            "plots": self.plots,
            "results": [
                {
                    "name": r.name,
                    "title": r.title,
                    "status": r.status,
                    "seconds": r.seconds,
                    "output": r.output,
                }
                for r in self.results
            ],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Run:
        missing = {"date", "quick", "machine", "load_before", "load_after", "results"} - set(data)
        if missing:
            raise ValueError(f"results record lacks {sorted(missing)}")
        machine = data["machine"]
        if not machine.get("cpu") or not isinstance(machine.get("cores"), int):
            raise ValueError("results record: machine needs its CPU model and core count")
        results = [
            Result(
                r["name"],
                r["title"],
                r["status"],
                r["output"],
                r["seconds"],
                parse_tables(r["output"]) if r["status"] == "ok" else [],
            )
            for r in data["results"]
        ]
        return cls(
            data["date"],
            bool(data["quick"]),
            machine,
            data["load_before"],
            data["load_after"],
            results,
            dict(data.get("plots", {})),
            data.get("note", ""),
        )


def machine_info() -> dict[str, Any]:
    """The machine the scripts run on, as the record keeps it."""
    import numpy

    if str(Path(__file__).parent) not in sys.path:  # loaded by path (the tests)
        sys.path.insert(0, str(Path(__file__).parent))
    from _common import cpu_model

    return {
        "cpu": cpu_model(),
        "cores": os.cpu_count() or 1,
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        # what the scripts get: run_script sets 1 where the caller did not say
        "blas_threads": os.environ.get("OPENBLAS_NUM_THREADS", "1"),
    }


def load_average() -> float | None:
    """The 1-minute load average, or ``None`` where the platform has none."""
    try:
        return round(os.getloadavg()[0], 2)
    except (AttributeError, OSError):
        return None


def why_not_representative(run: Run) -> list[str]:
    """Why the run's numbers should not be quoted: empty for a full run on a machine
    shown quiet (under half its cores busy before the run, and no more than the
    run's own work on top of its cores after it)."""
    reasons = []
    if run.quick:
        reasons.append("a `--quick` run (the scripts' small smoke sizes)")
    cores = run.machine["cores"]
    if run.load_before is None:
        reasons.append("no load average recorded before the run")
    elif run.load_before >= cores / 2:
        reasons.append(f"a loaded machine (load average {run.load_before:g} on {cores} cores)")
    if run.load_after is not None and run.load_after > cores + 1:
        reasons.append(f"load average {run.load_after:g} on {cores} cores after the run")
    return reasons


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def results_text(run: Run) -> str:
    """``results.json`` as written: stable, so its hash names its content."""
    return json.dumps(run.to_json(), indent=1, ensure_ascii=False, sort_keys=True) + "\n"


def read_run(directory: Path) -> Run:
    return Run.from_json(json.loads((directory / RESULTS).read_text(encoding="utf-8")))


# -- the page ------------------------------------------------------------------------


def run_label(run: Run) -> str:
    """The run in a few words, for the plots' titles."""
    sizes = "--quick sizes" if run.quick else "full sizes"
    load = "load n/a" if run.load_before is None else f"load {run.load_before:g}"
    return f"{run.date}, {sizes}, {run.machine['cores']} cores, {load}"


def render(run: Run, results_sha: str) -> str:
    """The page, from the record alone (no clock, no machine: ``--check`` regenerates
    it to compare)."""
    m = run.machine
    sizes = "the scripts' `--quick` sizes" if run.quick else "full sizes"
    before = "not recorded" if run.load_before is None else f"{run.load_before:g}"
    after = "not recorded" if run.load_after is None else f"{run.load_after:g}"
    out = [
        "<!-- written by benchmarks/report.py from docs/benchmarks/results.json; "
        "do not edit by hand -->",
        f"<!-- results.json sha256: {results_sha} -->",
        "",
    ]
    reasons = why_not_representative(run)
    if reasons:
        out += [
            '!!! warning "These numbers are not representative"',
            f"    This report is from {'; '.join(reasons)}. Timings at small sizes or "
            "beside other work can be off by large factors: do not quote them. "
            "`benchmarks/README.md` in the repository keeps the scripts' own full runs, "
            "each with its date and load.",
            "",
        ]
    out += [
        f"Report of {run.date}, {sizes}.",
        f"Machine: {m['cores']} cores ({m['cpu']}), Python {m['python']}, "
        f"numpy {m['numpy']}, OPENBLAS_NUM_THREADS={m['blas_threads']}.",
        f"Load average (1 minute): {before} before the run, {after} after it.",
        "",
    ]
    if run.note:
        out += [run.note, ""]
    if run.plots:
        out += ["### Plots", ""]
        # in PLOTS' order: the record's keys are sorted
        for name, caption in PLOTS.items():
            if name in run.plots:
                out += [f"![{caption}](benchmarks/{name})", ""]
    out += ["### Tables", ""]
    for r in run.results:
        out += [f"#### {r.title}", ""]
        script = f"`benchmarks/{r.name}.py`"
        if r.status != "ok":
            out += [f"{script}: {r.status}.", ""]
            continue
        out += [f"{script}, {r.seconds:.0f} s in all." if r.seconds else f"{script}.", ""]
        for t in r.tables:
            out += [t.markdown(), ""]
        words = prose_lines(r.output)
        if words:
            out += [f"- {line}" for line in words] + [""]
    return "\n".join(out)


def publish(run: Run, out: Path) -> None:
    """Write the plots, the record and the page generated from it into ``out``; a
    PNG that is not one of the run's plots is removed, so no older plot stays beside
    the page."""
    out.mkdir(parents=True, exist_ok=True)
    written = plot(run, out)
    if written:
        run.plots = {name: sha256(out / name) for name in written}
    else:
        # no matplotlib here: a regenerated page keeps the record's own plots, where
        # they are still the files it names
        run.plots = {
            name: digest
            for name, digest in run.plots.items()
            if (out / name).exists() and sha256(out / name) == digest
        }
    for old in out.glob("*.png"):
        if old.name not in run.plots:
            old.unlink()
    text = results_text(run)
    (out / RESULTS).write_text(text, encoding="utf-8")
    digest = hashlib.sha256(text.encode()).hexdigest()
    (out / PAGE).write_text(render(run, digest), encoding="utf-8")


def check_published(out: Path = OUT) -> list[str]:
    """What is wrong with the published page in ``out``: empty when the page and its
    plots are exactly what ``results.json`` generates."""
    record = out / RESULTS
    if not record.exists():
        return [f"{record} is missing: run benchmarks/report.py"]
    try:
        run = read_run(out)
    except (ValueError, KeyError, TypeError) as e:
        return [f"{record}: {e}"]
    problems = []
    page = out / PAGE
    expected = render(run, sha256(record))
    if not page.exists():
        problems.append(f"{page} is missing")
    elif page.read_text(encoding="utf-8") != expected:
        problems.append(
            f"{page} is not generated from the current {RESULTS} (edited by hand, or left "
            "from another run): rerun benchmarks/report.py, or --from-dir to regenerate it"
        )
    for name, digest in run.plots.items():
        if not (out / name).exists() or sha256(out / name) != digest:
            problems.append(f"{out / name} is not the plot {RESULTS} records")
    for png in out.glob("*.png"):
        if png.name not in run.plots:
            problems.append(f"{png} is not a plot of the run in {RESULTS}")
    return problems


# -- the plots -----------------------------------------------------------------------


def workload_series(results: list[Result]) -> dict[str, dict[str, dict[str, float]]]:
    """{script: {engine: {workload: seconds}}} from the workload scripts' tables:
    every column of steady-state times, the first column naming the workloads."""
    series: dict[str, dict[str, dict[str, float]]] = {}
    for r in results:
        if not r.name.endswith("_workloads"):
            continue
        for t in r.tables:
            for j, engine in enumerate(t.header[1:], start=1):
                if any(word in engine.lower() for word in ("ratio", "first call", "overhead")):
                    continue  # not a steady-state time (compile times go in the tables)
                if not any(e in engine.lower() for e in ("numpy", "lazygraph", "jax", "pytensor")):
                    engine = f"{t.header[1]}, {engine}"  # a variant of the first engine
                for row in t.rows:
                    s = parse_seconds(row[j])
                    if s is not None:
                        series.setdefault(r.name, {}).setdefault(engine, {})[row[0]] = s
    return series


def size_series(results: list[Result]) -> dict[str, list[tuple[int, float]]]:
    """{label: [(nodes, seconds), ...]} from the graph-size tables and the
    compile-time lines."""
    series: dict[str, list[tuple[int, float]]] = {}
    for r in results:
        for t in r.tables:
            size_col = next((j for j, h in enumerate(t.header) if h.lower() == "nodes"), None)
            if size_col is None:
                continue
            kind_col = 0 if size_col != 0 else None
            for row in t.rows:
                n = parse_int(row[size_col])
                if n is None:
                    continue
                kind = f" ({row[kind_col]})" if kind_col is not None else ""
                for j, h in enumerate(t.header):
                    if j in (size_col, kind_col) or "after" in h.lower():
                        continue
                    s = parse_seconds(row[j])
                    if s is not None:
                        series.setdefault(f"{r.name}: {h}{kind}", []).append((n, s))
        for m in _COMPILE_LINE.finditer(r.output):
            n = int(m.group(1).replace(",", ""))
            s = parse_seconds(m.group(3))
            if s is not None:
                series.setdefault(f"{r.name}: compile + first call ({m.group(2)})", []).append(
                    (n, s)
                )
    return series


def plot(run: Run, out: Path) -> list[str]:
    """Write the PNG plots that have data; return their file names. Each title names
    the run (date, sizes, load): a plot seen alone still says what it is."""
    results = run.results
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        from matplotlib.ticker import NullFormatter
    except ImportError:
        print("matplotlib is not installed: no plots (pip install matplotlib)", file=sys.stderr)
        return []
    written = []
    workloads = workload_series(results)
    if workloads:
        panels = list(workloads.items())
        heights = [0.6 + 0.22 * sum(len(per) for per in engines.values()) for _, engines in panels]
        fig, axes = plt.subplots(
            len(panels),
            1,
            figsize=(12, sum(heights) + 0.8),
            gridspec_kw={"height_ratios": heights},
            squeeze=False,
        )
        for ax, (script, engines) in zip(axes[:, 0], panels, strict=True):
            names = list(dict.fromkeys(w for per in engines.values() for w in per))
            height = 0.8 / len(engines)
            for k, (engine, per) in enumerate(engines.items()):
                ys = [i + k * height for i, w in enumerate(names) if w in per]
                ax.barh(ys, [per[w] for w in names if w in per], height=height, label=engine)
            ax.set_yticks([i + 0.4 - height / 2 for i in range(len(names))])
            ax.set_yticklabels(names, fontsize=8)
            ax.invert_yaxis()
            ax.set_xscale("log")
            ax.xaxis.set_minor_formatter(NullFormatter())
            ax.set_title(f"benchmarks/{script}.py", fontsize=10)
            ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0))
            ax.grid(True, axis="x", which="major", alpha=0.3)
        axes[-1, 0].set_xlabel("seconds per call (log scale; shorter is faster)")
        fig.suptitle(f"Time per workload and engine ({run_label(run)})")
        fig.tight_layout()
        fig.savefig(out / "time_per_workload.png", dpi=110)
        plt.close(fig)
        written.append("time_per_workload.png")
    sizes = size_series(results)
    if sizes:
        fig, ax = plt.subplots(figsize=(11, 5.5))
        colors = plt.get_cmap("tab20").colors
        styles = {}
        for k, (label, points) in enumerate(sizes.items()):
            script = label.split(":")[0]
            style = styles.setdefault(script, ("-", "--", ":", "-.")[len(styles) % 4])
            points = sorted(points)
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            ax.plot(xs, ys, style, marker="o", color=colors[k % 20], label=label)
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("graph size (nodes)")
        ax.set_ylabel("seconds")
        ax.set_title(f"Graph work and compile time against graph size ({run_label(run)})")
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
        ax.grid(True, which="major", alpha=0.3)
        fig.tight_layout()
        fig.savefig(out / "compile_time_vs_size.png", dpi=110)
        plt.close(fig)
        written.append("compile_time_vs_size.png")
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="pass --quick to the scripts")
    parser.add_argument("--only", nargs="*", help="script names to run (default: all)")
    parser.add_argument("--out", type=Path, default=OUT, help="output directory")
    parser.add_argument("--timeout", type=float, default=3600.0, help="seconds per script")
    parser.add_argument("--from-dir", type=Path, help="regenerate from DIR/results.json")
    parser.add_argument("--check", action="store_true", help="check the page in --out; no run")
    args = parser.parse_args(argv)
    if args.check:
        problems = check_published(args.out)
        for problem in problems:
            print(problem, file=sys.stderr)
        return 1 if problems else 0
    if args.from_dir:
        run = read_run(args.from_dir)
    else:
        chosen = [(n, t) for n, t in SCRIPTS if not args.only or n in args.only]
        unknown = set(args.only or ()) - {n for n, _ in SCRIPTS}
        if unknown:
            parser.error(f"unknown scripts: {', '.join(sorted(unknown))}")
        load_before = load_average()
        date = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
        results = []
        for name, title in chosen:
            result = run_script(name, title, args.quick, args.timeout)
            print(f"{name}: {result.status}", flush=True)
            results.append(result)
        run = Run(date, args.quick, machine_info(), load_before, load_average(), results)
    publish(run, args.out)
    print(f"wrote {args.out / PAGE} from {args.out / RESULTS}", end="")
    print(f" and {', '.join(run.plots)}" if run.plots else " (no plots)")
    for reason in why_not_representative(run):
        print(f"warning: the page says the numbers are not representative: {reason}")
    return 0 if all(not r.status.startswith("failed") for r in run.results) else 1


if __name__ == "__main__":
    sys.exit(main())
