"""benchmarks/report.py: parsing the scripts' Markdown and writing the report."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def report():
    spec = importlib.util.spec_from_file_location("bench_report", ROOT / "benchmarks" / "report.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_report"] = module
    spec.loader.exec_module(module)
    return module


GRAPH_CORE = """   10,000: build 181 ms, FunctionGraph 378 ms
| nodes | build | FunctionGraph |
|---:|---:|---:|
| 10,000 | 181 ms | 378 ms |
| 100,000 | 2.16 s | 3.23 s |

Machine: 2 cores.
"""

WORKLOADS = """| workload | numpy | lazygraph numba | ratio to numpy | jax.jit |
|---|---|---|---|---|
| a + a**10 (1M) | 12.0 ms | 3.5 ms | 0.29× | – |
| per-call overhead | 2.1 µs | 9.8 µs | 4.67× | 15.0 µs |

compile + first call of a 1,000-op elementwise chain: 0.52 s
"""


def test_parse_seconds_and_tables(report) -> None:
    assert report.parse_seconds("2.1 µs") == pytest.approx(2.1e-6)
    assert report.parse_seconds("1,234 ms") == pytest.approx(1.234)
    assert report.parse_seconds("0.29×") is None
    assert report.parse_seconds("not installed") is None
    (table,) = report.parse_tables(WORKLOADS)
    assert table.header[0] == "workload" and len(table.rows) == 2
    assert table.rows[1][4] == "15.0 µs"


def test_series(report) -> None:
    results = [
        report.Result("graph_core", "g", "ok", GRAPH_CORE, 1.0, report.parse_tables(GRAPH_CORE)),
        report.Result("numba_workloads", "n", "ok", WORKLOADS, 1.0, report.parse_tables(WORKLOADS)),
    ]
    work = report.workload_series(results)["numba_workloads"]
    assert set(work) == {"numpy", "lazygraph numba", "jax.jit"}  # the ratio column is not time
    assert work["lazygraph numba"]["a + a**10 (1M)"] == pytest.approx(3.5e-3)
    assert "a + a**10 (1M)" not in work["jax.jit"]
    sizes = report.size_series(results)
    assert sizes["graph_core: build"] == [(10_000, 0.181), (100_000, 2.16)]
    label = "numba_workloads: compile + first call (elementwise chain)"
    assert sizes[label] == [(1000, 0.52)]


def _run(report, quick: bool = False, before: float | None = 0.2, after: float | None = 1.0):
    results = [
        report.Result("graph_core", "g", "ok", GRAPH_CORE, 3.0, report.parse_tables(GRAPH_CORE)),
        report.Result("numba_workloads", "n", "ok", WORKLOADS, 9.0, report.parse_tables(WORKLOADS)),
        report.Result("jax_workloads", "j", "failed: boom"),
    ]
    machine = {"cpu": "Test CPU 9000", "cores": 4, "python": "3.11.7", "numpy": "2.4.6"}
    machine["blas_threads"] = "1"
    return report.Run("2026-11-26 10:00 UTC", quick, machine, before, after, results)


def test_page_is_generated_from_the_record_and_states_the_run(report, tmp_path: Path) -> None:
    report.publish(_run(report), tmp_path)
    assert report.check_published(tmp_path) == []
    page = (tmp_path / "README-table.md").read_text(encoding="utf-8")
    assert "Report of 2026-11-26 10:00 UTC, full sizes." in page
    assert "Machine: 4 cores (Test CPU 9000)" in page
    assert "Load average (1 minute): 0.2 before the run, 1 after it." in page
    assert "not representative" not in page  # full sizes on a quiet machine
    assert "| 100,000 | 2.16 s | 3.23 s |" in page
    assert "- compile + first call of a 1,000-op elementwise chain: 0.52 s" in page
    assert "`benchmarks/jax_workloads.py`: failed: boom." in page
    # the record keeps everything the page says: it regenerates the same page
    again = tmp_path / "again"
    assert report.main(["--from-dir", str(tmp_path), "--out", str(again)]) == 1  # jax failed
    assert (again / "README-table.md").read_text(encoding="utf-8") == page


@pytest.mark.parametrize(
    ("quick", "before", "after", "says"),
    [
        (True, 0.1, 1.0, "a `--quick` run"),
        (False, 2.0, 3.0, "a loaded machine (load average 2 on 4 cores)"),
        (False, 0.1, 9.2, "load average 9.2 on 4 cores after the run"),
        (False, None, 1.0, "no load average recorded before the run"),
    ],
)
def test_quick_or_loaded_runs_open_with_a_warning(
    report, tmp_path: Path, quick: bool, before: float | None, after: float, says: str
) -> None:
    report.publish(_run(report, quick, before, after), tmp_path)
    page = (tmp_path / "README-table.md").read_text(encoding="utf-8")
    head = page.split("Report of")[0]
    assert '!!! warning "These numbers are not representative"' in head and says in head


def test_check_finds_a_page_not_generated_from_the_current_record(report, tmp_path: Path) -> None:
    report.publish(_run(report), tmp_path)
    page = tmp_path / "README-table.md"
    good = page.read_text(encoding="utf-8")
    page.write_text(good.replace("0.29×", "0.01×"), encoding="utf-8")  # a hand edit
    assert any("not generated from the current" in p for p in report.check_published(tmp_path))
    assert report.main(["--check", "--out", str(tmp_path)]) == 1
    page.write_text(good, encoding="utf-8")
    assert report.main(["--check", "--out", str(tmp_path)]) == 0
    # a newer record beside the old page: the page is stale
    report.publish(_run(report, quick=True), tmp_path / "newer")
    (tmp_path / "results.json").write_bytes((tmp_path / "newer" / "results.json").read_bytes())
    assert any("not generated from the current" in p for p in report.check_published(tmp_path))


def test_check_finds_plots_of_another_run_and_a_missing_record(report, tmp_path: Path) -> None:
    assert "missing" in report.check_published(tmp_path)[0]
    run = _run(report)
    run.plots = {"time_per_workload.png": "0" * 64}
    (tmp_path / "time_per_workload.png").write_bytes(b"png of another run")
    (tmp_path / "compile_time_vs_size.png").write_bytes(b"left over")
    text = report.results_text(run)
    (tmp_path / "results.json").write_text(text, encoding="utf-8")
    digest = report.sha256(tmp_path / "results.json")
    (tmp_path / "README-table.md").write_text(report.render(run, digest), encoding="utf-8")
    problems = report.check_published(tmp_path)
    assert any("time_per_workload.png is not the plot" in p for p in problems)
    assert any("compile_time_vs_size.png is not a plot of the run" in p for p in problems)


def test_record_without_machine_or_load_is_refused(report, tmp_path: Path) -> None:
    data = _run(report).to_json()
    del data["load_before"]
    with pytest.raises(ValueError, match="load_before"):
        report.Run.from_json(data)
    data = _run(report).to_json()
    data["machine"] = {"cores": 2}
    with pytest.raises(ValueError, match="CPU model"):
        report.Run.from_json(data)


def test_a_run_records_date_machine_load_and_quick(report, tmp_path: Path, monkeypatch) -> None:
    """main() end to end on a stand-in script (the real ones take minutes)."""
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    (scripts / "fake.py").write_text(
        "import sys\n"
        "if '--help' in sys.argv: print('--quick --no-write'); sys.exit()\n"
        "print('| nodes | build |\\n|---:|---:|\\n| 1,000 | ' + str(len(sys.argv)) + ' ms |')\n"
    )
    monkeypatch.setattr(report, "HERE", scripts)
    monkeypatch.setattr(report, "SCRIPTS", (("fake", "A stand-in"),))
    out = tmp_path / "out"
    assert report.main(["--quick", "--out", str(out)]) == 0
    run = report.read_run(out)
    assert run.quick and run.date.endswith(" UTC") and run.machine["cores"] >= 1
    assert run.machine["cpu"]
    assert run.load_before is not None and run.load_after is not None  # Linux CI
    assert run.results[0].tables[0].rows == [["1,000", "3 ms"]]  # fake.py --quick --no-write
    assert report.check_published(out) == []
    assert "a `--quick` run" in (out / "README-table.md").read_text(encoding="utf-8")


def test_the_published_page_is_the_current_records_own() -> None:
    """docs/benchmarks/README-table.md, which the docs site shows, is exactly what
    docs/benchmarks/results.json generates, its plots included."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "report.py"), "--check"],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
