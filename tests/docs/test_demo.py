"""The demo (``nox -s demo``) runs end to end: a short run in a subprocess."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_demo_trains(tmp_path: Path) -> None:
    # the run's own backend (LAZYGRAPH_BACKEND, else the default), as `nox -s demo` does
    env = dict(os.environ, OPENBLAS_NUM_THREADS="1")
    cmd = [sys.executable, str(ROOT / "demo" / "run.py"), "--steps", "60", "--points", "300"]
    done = subprocess.run(
        [*cmd, "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    out = done.stdout
    losses = [float(v) for v in re.findall(r"step +\d+ +loss ([0-9.]+)", out)]
    assert len(losses) >= 3
    assert losses[-1] < 0.8 * losses[0]
    (acc,) = re.findall(r"training accuracy: ([0-9.]+)%", out)
    assert float(acc) > 60.0  # two balanced classes: chance is 50%
    written, after = map(
        int, re.search(r"graph: (\d+) nodes as written.*?(\d+) after", out).groups()
    )
    assert 0 < after <= written
    assert re.search(r"rewrites that fired \((\d+)\): \w", out)
    assert "hand-written numpy" in out and "summary" in out
    dot = (tmp_path / "step_graph.dot").read_text()
    assert dot.startswith("digraph") and dot.count("shape=ellipse") == after
    # the picture, drawn without Graphviz: one apply node per ellipse in the DOT source
    svg_path = tmp_path / "step_graph.svg"
    assert f"rewritten graph: {svg_path}" in out
    svg = ET.fromstring(svg_path.read_text(encoding="utf-8"))
    groups = svg.iter("{http://www.w3.org/2000/svg}g")
    assert sum(g.get("class") == "apply" for g in groups) == dot.count("shape=ellipse")
