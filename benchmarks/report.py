"""The benchmark report: run the benchmark scripts in this directory, collect their
Markdown tables, and write ``docs/benchmarks/README-table.md`` and two plots
(matplotlib PNG) that the documentation's benchmark page shows.

    OPENBLAS_NUM_THREADS=1 python benchmarks/report.py            # every script, full sizes
    OPENBLAS_NUM_THREADS=1 python benchmarks/report.py --quick    # the scripts' --quick sizes
    python benchmarks/report.py --only graph_core rewrite_pipeline
    python benchmarks/report.py --from-dir OUTDIR                 # re-plot saved outputs

``nox -s bench`` runs it. Scripts that do not exist yet are skipped, and so is a
script that fails (its error goes into the report). Each script's standard output
is saved as ``docs/benchmarks/<script>.txt``; the report parses the Markdown tables
in it: a cell such as ``12 ms``, ``1.5 s`` or ``80.1 µs`` is a time, the rest is
text. The plots:

- ``time_per_workload.png``: seconds per workload for each engine (numpy,
  lazygraph's backends, JAX), log scale, from the workload scripts' tables;
- ``compile_time_vs_size.png``: time against graph size (nodes), log-log, from
  the graph-core and rewrite-pipeline tables and the compile-time lines.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import machine

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
OUT = ROOT / "docs" / "benchmarks"

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


def load_saved(name: str, title: str, directory: Path) -> Result:
    path = directory / f"{name}.txt"
    if not path.exists():
        return Result(name, title, "skipped: no saved output")
    text = path.read_text()
    return Result(name, title, "ok", text, 0.0, parse_tables(text))


# -- the Markdown --------------------------------------------------------------------


def markdown(results: list[Result], quick: bool, plots: list[str]) -> str:
    when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    sizes = "the scripts' --quick sizes" if quick else "full sizes"
    out = [
        "<!-- written by benchmarks/report.py; do not edit by hand -->",
        "",
        f"Report written {when}, {sizes}. Machine: {machine()}.",
        "",
    ]
    for r in results:
        out.append(f"### {r.title}")
        out.append("")
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
    if plots:
        out.append("Plots: " + ", ".join(f"`{p}`" for p in plots) + ".")
        out.append("")
    return "\n".join(out)


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


def plot(results: list[Result], out: Path) -> list[str]:
    """Write the PNG plots that have data; return their file names."""
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
        fig.suptitle("Time per workload and engine")
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
        ax.set_title("Graph work and compile time against graph size")
        ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
        ax.grid(True, which="major", alpha=0.3)
        fig.tight_layout()
        fig.savefig(out / "compile_time_vs_size.png", dpi=110)
        plt.close(fig)
        written.append("compile_time_vs_size.png")
    return written


def plots_page(plots: list[str]) -> str:
    """Markdown showing the plots, with paths relative to docs/benchmarks.md."""
    captions = {
        "time_per_workload.png": "Time per workload and engine (log scale)",
        "compile_time_vs_size.png": "Time against graph size (log-log)",
    }
    return "\n\n".join(f"![{captions[p]}](benchmarks/{p})" for p in plots) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="pass --quick to the scripts")
    parser.add_argument("--only", nargs="*", help="script names to run (default: all)")
    parser.add_argument("--out", type=Path, default=OUT, help="output directory")
    parser.add_argument("--timeout", type=float, default=3600.0, help="seconds per script")
    parser.add_argument("--from-dir", type=Path, help="use saved <script>.txt outputs")
    args = parser.parse_args(argv)
    chosen = [(n, t) for n, t in SCRIPTS if not args.only or n in args.only]
    unknown = set(args.only or ()) - {n for n, _ in SCRIPTS}
    if unknown:
        parser.error(f"unknown scripts: {', '.join(sorted(unknown))}")
    args.out.mkdir(parents=True, exist_ok=True)
    results = []
    for name, title in chosen:
        if args.from_dir:
            result = load_saved(name, title, args.from_dir)
        else:
            result = run_script(name, title, args.quick, args.timeout)
            if result.output:
                (args.out / f"{name}.txt").write_text(result.output)
        print(f"{name}: {result.status}", flush=True)
        results.append(result)
    plots = plot(results, args.out)
    (args.out / "README-table.md").write_text(markdown(results, args.quick, plots))
    (args.out / "plots.md").write_text(plots_page(plots) if plots else "")
    print(f"wrote {args.out / 'README-table.md'}" + (f" and {', '.join(plots)}" if plots else ""))
    return 0 if all(not r.status.startswith("failed") for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
