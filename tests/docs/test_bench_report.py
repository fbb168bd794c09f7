"""benchmarks/report.py: parsing the scripts' Markdown and writing the report."""

from __future__ import annotations

import importlib.util
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


def test_report_from_saved_outputs(report, tmp_path: Path) -> None:
    saved = tmp_path / "saved"
    saved.mkdir()
    (saved / "graph_core.txt").write_text(GRAPH_CORE)
    (saved / "numba_workloads.txt").write_text(WORKLOADS)
    out = tmp_path / "out"
    assert report.main(["--from-dir", str(saved), "--out", str(out)]) == 0
    text = (out / "README-table.md").read_text()
    assert "| 100,000 | 2.16 s | 3.23 s |" in text
    assert "rewrite_pipeline.py`: skipped" in text
    assert "- compile + first call of a 1,000-op elementwise chain: 0.52 s" in text
    plots = (out / "plots.md").read_text()
    if importlib.util.find_spec("matplotlib") is not None:
        assert (out / "time_per_workload.png").stat().st_size > 0
        assert (out / "compile_time_vs_size.png").stat().st_size > 0
        assert "](benchmarks/time_per_workload.png)" in plots
    else:
        assert plots == ""
