"""The numba backend's own cached helpers keep their machine code in lazygraph's
cache directory, never in the installed package.

``@njit(cache=True)`` puts Numba's ``.nbi``/``.nbc`` files in the ``__pycache__``
beside the source: inside site-packages, which may be read-only or shared by
every user, and outside ``LAZYGRAPH_CACHE_DIR`` and its ownership checks.
"""

from __future__ import annotations

import importlib.util
import json
import os
import stat
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.backend("numba")

# Indexing with negative numbers (subtensor's wrap_index) and matmul (blas):
# helpers of two modules compile; then every cached function of the backend's
# modules says where its cache is.
CHILD = textwrap.dedent(
    """
    import json, pkgutil, importlib
    import numpy as np
    import lazygraph.backends.numba as backend
    import lazygraph.numpy as lnp

    x = lnp.asarray(np.arange(12.0).reshape(3, 4))
    i = lnp.asarray(np.array([-1, 0]))
    out = lnp.sum(x[i]) + lnp.sum(x @ x.T)
    out.compute()

    # where every cached Numba function of the backend's modules keeps its files
    paths = {}
    for info in pkgutil.iter_modules(backend.__path__):
        module = importlib.import_module(f"{backend.__name__}.{info.name}")
        for name, obj in vars(module).items():
            cache = getattr(obj, "_cache", None)
            path = getattr(cache, "cache_path", None)  # None: not cached
            if getattr(obj, "py_func", None) is not None and path is not None:
                paths[f"{info.name}.{name}"] = path
    print(json.dumps(paths))
    """
)


def _run(tmp_path: Path, cache: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LAZYGRAPH_")}
    env.update(
        LAZYGRAPH_BACKEND="numba",
        LAZYGRAPH_NUMBA_BACKGROUND_COMPILE="0",
        # the child's small known arrays would otherwise run at once, with numpy
        LAZYGRAPH_EAGER_MAX_ELEMENTS="0",
        # and x[i] would run numpy's indexing (linker.numpy_ops): the kernels
        # compile, and the helpers they call
        LAZYGRAPH_NUMBA_PREFER_NUMPY="0",
        LAZYGRAPH_CACHE_DIR=str(cache),
    )
    return subprocess.run(
        [sys.executable, "-c", CHILD],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
        cwd=tmp_path,
    )


@pytest.mark.slow  # fresh interpreters compiling kernels
def test_helpers_cache_under_the_cache_directory(tmp_path: Path) -> None:
    if importlib.util.find_spec("numba") is None:
        pytest.skip("numba is not installed")
    from lazygraph.backends.numba.cache import FORMAT_VERSION

    cache = tmp_path / "cache"
    result = _run(tmp_path, cache)
    assert result.returncode == 0, result.stderr
    paths = json.loads(result.stdout.strip().splitlines()[-1])
    assert "helpers.row_max" in paths, sorted(paths)
    elsewhere = {name: p for name, p in paths.items() if not Path(p).is_relative_to(cache)}
    assert not elsewhere, f"cached outside LAZYGRAPH_CACHE_DIR: {elsewhere}"
    helpers = cache / f"numba-v{FORMAT_VERSION}" / "helpers"
    cached = {p.name.split(".")[0] for p in helpers.rglob("*.nbi")}
    assert {"subtensor", "blas"} <= cached, sorted(cached)
    for d in [helpers, *(p for p in helpers.rglob("*") if p.is_dir())]:
        assert stat.S_IMODE(d.stat().st_mode) == 0o700, d


@pytest.mark.slow
def test_untrusted_helper_cache_is_not_loaded(tmp_path: Path) -> None:
    """A helper cache directory others can write to is not loaded from: the
    helpers compile in memory, with a warning, and are cached nowhere else."""
    if importlib.util.find_spec("numba") is None:
        pytest.skip("numba is not installed")
    from lazygraph.backends.numba.cache import FORMAT_VERSION

    cache = tmp_path / "cache"
    helpers = cache / f"numba-v{FORMAT_VERSION}" / "helpers"
    helpers.mkdir(parents=True)
    for d in (cache, cache / f"numba-v{FORMAT_VERSION}"):
        d.chmod(0o700)
    helpers.chmod(0o777)
    result = _run(tmp_path, cache)
    assert result.returncode == 0, result.stderr
    assert "compiling the backend's helpers in memory" in result.stderr
    assert json.loads(result.stdout.strip().splitlines()[-1]) == {}, "helpers still cached"
    assert not list(helpers.rglob("*.nbi"))
