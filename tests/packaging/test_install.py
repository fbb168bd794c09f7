"""The three distributions share the import package ``lazygraph``; both ways of
installing them must import every subpackage.

- editable (the development setup nox makes): checked in this interpreter;
- wheels: built from a copy of packages/, installed into a fresh venv, and
  imported there from a clean directory, so no source tree can leak in.

These tests build and install things, so they run once per ``nox -s tests``
(in the python backend's session) and in ``nox -s packaging``.
"""

from __future__ import annotations

import importlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import zipfile
from importlib import metadata
from pathlib import Path
from types import ModuleType

import pytest

REPO = Path(__file__).resolve().parents[2]
DISTRIBUTIONS = ("lazygraph-core", "lazygraph-numpy-api", "lazygraph-backends")
MODULES = (
    "lazygraph",
    "lazygraph.graph",
    "lazygraph.rewriting",
    "lazygraph.numpy",
    "lazygraph.backends",
    "lazygraph.backends.numba",
    "lazygraph.backends.jax",
)

pytestmark = [
    pytest.mark.packaging,
    pytest.mark.skipif(
        os.environ.get("LAZYGRAPH_BACKEND", "python") != "python",
        reason="packaging tests run once, in the python backend's session",
    ),
]


def _location(module: ModuleType) -> Path:
    """The module's file, or its first directory for a namespace package."""
    return Path(module.__file__ or next(iter(module.__path__))).resolve()


def _is_editable(distribution: str) -> bool:
    try:
        direct_url = metadata.distribution(distribution).read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        return False
    return bool(direct_url) and json.loads(direct_url).get("dir_info", {}).get("editable", False)


@pytest.mark.parametrize("name", MODULES)
def test_installed_lazygraph_imports(name: str) -> None:
    module = importlib.import_module(name)
    # A directory with no __init__.py still imports here (as a namespace portion)
    # but ships nothing in a wheel when it holds no modules.
    assert module.__file__ is not None, f"{name} has no __init__.py: {list(module.__path__)}"
    if all(_is_editable(distribution) for distribution in DISTRIBUTIONS):
        assert _location(module).is_relative_to(REPO / "packages"), (
            f"{name} comes from {_location(module)}, not from this repository's packages/"
        )


def test_versions_come_from_the_installed_distributions() -> None:
    import lazygraph
    import lazygraph.numpy

    assert lazygraph.__version__ == metadata.version("lazygraph-core")
    assert lazygraph.numpy.__version__ == metadata.version("lazygraph-numpy-api")


NUMBA_CHILD = """
import numpy as np
import lazygraph.numpy as lnp

x = lnp.asarray(np.arange(12.0).reshape(3, 4))
print(float((lnp.sum(x[lnp.asarray(np.array([-1, 0]))]) + lnp.sum(x @ x.T)).compute()))
"""


def test_no_numba_cache_files_in_the_packages(tmp_path: Path) -> None:
    """Numba's cache files belong in LAZYGRAPH_CACHE_DIR: none may be in the source
    tree (here, after a numba compute using the backend's cached helpers, and
    whatever the test suite ran before)."""
    if importlib.util.find_spec("numba") is not None:
        env = {k: v for k, v in os.environ.items() if not k.startswith("LAZYGRAPH_")}
        env.update(LAZYGRAPH_BACKEND="numba", LAZYGRAPH_CACHE_DIR=str(tmp_path / "cache"))
        subprocess.run(
            [sys.executable, "-c", NUMBA_CHILD], env=env, cwd=tmp_path, timeout=300, check=True
        )
    found = sorted(
        str(p.relative_to(REPO))
        for pattern in ("*.nbi", "*.nbc")
        for p in (REPO / "packages").rglob(pattern)
    )
    assert not found, f"{len(found)} Numba cache files in packages/, e.g. {found[:3]}"


def _setuptools_can_build_here() -> bool:
    """setuptools >= 77 (bdist_wheel built in, PEP 639 license expressions) is
    importable: no build isolation needed."""
    try:
        major, minor = (int(part) for part in metadata.version("setuptools").split(".")[:2])
    except (metadata.PackageNotFoundError, ValueError):
        return False
    return (major, minor) >= (77, 0)


def _run(command: list[str], cwd: Path) -> str:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    result = subprocess.run(
        command, cwd=cwd, env=env, capture_output=True, text=True, timeout=180, check=False
    )
    assert result.returncode == 0, (
        f"{' '.join(command)} exited {result.returncode}\n{result.stdout}\n{result.stderr}"
    )
    return result.stdout


CHECK_IN_VENV = """
import importlib, sys
from importlib.metadata import entry_points
from pathlib import Path

prefix = Path(sys.prefix).resolve()
for name in sys.argv[1:]:
    module = importlib.import_module(name)
    location = Path(module.__file__ or next(iter(module.__path__))).resolve()
    if not location.is_relative_to(prefix):
        sys.exit(f"{name} was imported from {location}, outside the venv {prefix}")
import lazygraph, lazygraph.numpy
from importlib.metadata import version
if lazygraph.__version__ != version("lazygraph-core"):
    sys.exit(f"lazygraph.__version__ is {lazygraph.__version__!r}")
if lazygraph.numpy.__version__ != version("lazygraph-numpy-api"):
    sys.exit(f"lazygraph.numpy.__version__ is {lazygraph.numpy.__version__!r}")
backends = {ep.name for ep in entry_points(group="lazygraph.backends")}
if not {"numba", "jax"} <= backends:
    sys.exit(f"lazygraph.backends entry points missing: {sorted(backends)}")
print("ok")
"""


def test_wheels_install_side_by_side(tmp_path: Path) -> None:
    if importlib.util.find_spec("pip") is None:
        pytest.skip("pip is not installed in this interpreter")

    # Build from a copy so that no build/ or *.egg-info lands in (or leaks from) the tree.
    sources = tmp_path / "sources"
    for distribution in DISTRIBUTIONS:
        shutil.copytree(
            REPO / "packages" / distribution,
            sources / distribution,
            ignore=shutil.ignore_patterns("build", "dist", "*.egg-info", "__pycache__"),
        )
    wheel_dir = tmp_path / "wheels"
    build = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(wheel_dir)]
    if _setuptools_can_build_here():
        build.append("--no-build-isolation")
    _run([*build, *(str(sources / d) for d in DISTRIBUTIONS)], cwd=tmp_path)

    wheels = sorted(wheel_dir.glob("*.whl"))
    assert len(wheels) == len(DISTRIBUTIONS), wheels
    for wheel in wheels:
        with zipfile.ZipFile(wheel) as archive:
            meta = next(n for n in archive.namelist() if n.endswith(".dist-info/METADATA"))
            headers = archive.read(meta).decode().split("\n\n", 1)[0].splitlines()
        # PEP 639: an SPDX expression, not the deprecated free-text License field
        assert "License-Expression: BSD-3-Clause" in headers, (wheel.name, headers)
        assert not any(h.startswith("License:") for h in headers), (wheel.name, headers)
    owners = [w.name for w in wheels if "lazygraph/__init__.py" in zipfile.ZipFile(w).namelist()]
    assert len(owners) == 1, f"lazygraph/__init__.py must come from core only, found in {owners}"
    assert owners[0].startswith("lazygraph_core-")

    venv_dir = tmp_path / "venv"
    _run(
        [sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", str(venv_dir)],
        cwd=tmp_path,
    )
    python = venv_dir / ("Scripts" if os.name == "nt" else "bin") / "python"
    # Inside a nox venv the "system" site-packages is the base interpreter's, which
    # may lack numpy: point the new venv at this interpreter's numpy as well.
    numpy_spec = importlib.util.find_spec("numpy")
    if numpy_spec is not None and numpy_spec.origin is not None:
        purelib = _run(
            [str(python), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
            cwd=tmp_path,
        ).strip()
        numpy_home = Path(numpy_spec.origin).parent.parent
        (Path(purelib) / "_outer_numpy.pth").write_text(f"{numpy_home}\n")

    install = [sys.executable, "-m", "pip", "--python", str(python), "install", "--no-deps"]
    _run([*install, "--no-index", "--quiet", *map(str, wheels)], cwd=tmp_path)
    output = _run([str(python), "-I", "-c", CHECK_IN_VENV, *MODULES], cwd=tmp_path)
    assert output.strip() == "ok"
