"""``lazygraph.config``: settings read from ``LAZYGRAPH_*`` environment variables at
import and changeable at run time, globally or for a ``with`` block.

>>> from lazygraph import config
>>> with config.change(print_rewrites=True):
...     config.print_rewrites
True
>>> config.print_rewrites
False
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
from collections.abc import Iterator
from dataclasses import dataclass, fields
from typing import Any

__all__ = ["Config", "config", "default_backend"]


def _env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in ("1", "true", "yes", "on")


def _env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    return int(value) if value else default


def default_backend() -> str:
    """``"numba"`` where numba and lazygraph's numba backend are installed, else
    ``"python"`` (checked without importing either)."""
    try:
        ready = all(
            importlib.util.find_spec(name) is not None
            for name in ("numba", "lazygraph.backends.numba")
        )
    except (ImportError, ValueError):
        ready = False
    return "numba" if ready else "python"


@dataclass
class Config:
    """Every setting, its environment variable and its default.

    - ``backend`` (``LAZYGRAPH_BACKEND``): the backend ``function`` compiles with
      when no mode names one: ``"numba"`` where numba is installed (the
      ``lazygraph-backends[numba]`` extra), else ``"python"``, which runs each Op's
      numpy ``perform``; ``"jax"`` runs on JAX/XLA; ``"dask"`` on dask.array chunks.
    - ``print_rewrites`` (``LAZYGRAPH_PRINT_REWRITES``): print every rewrite that fires.
    - ``on_unsupported`` (``LAZYGRAPH_ON_UNSUPPORTED``): ``"fallback"`` runs an Op a
      backend cannot lower through its python ``perform``; ``"raise"`` raises.
    - ``on_rewrite_error`` (``LAZYGRAPH_ON_REWRITE_ERROR``): ``"warn"`` skips a rewrite
      that raises, with a warning; ``"raise"`` re-raises (useful in tests).
    - ``on_numpy_fallback`` (``LAZYGRAPH_ON_NUMPY_FALLBACK``): what happens when a numpy
      function lazygraph.numpy does not implement is called on lazy arrays (it computes
      them and calls numpy): ``"warn"`` (once per function), ``"raise"`` or ``"ignore"``.
    - ``num_threads`` (``LAZYGRAPH_NUM_THREADS``): threads for compiled kernels; 0 = all
      cores but one (the Python thread's), so serial kernels on two cores.
    - ``numba_graph_after`` (``LAZYGRAPH_NUMBA_GRAPH_AFTER``): the numba backend runs a
      graph kernel by kernel for this many calls, then compiles it into one function.
    - ``numba_background_compile`` (``LAZYGRAPH_NUMBA_BACKGROUND_COMPILE``): the numba
      backend compiles new kernels on a background thread once a node has run long
      enough to repay the compile (a cost model: see lazygraph.backends.numba.background),
      running its numpy ``perform`` until they are ready; ``False`` (``0``) compiles
      each kernel at its first call, on the calling thread.
    - ``numba_flat_max_elements`` (``LAZYGRAPH_NUMBA_FLAT_MAX_ELEMENTS``): the numba
      backend runs an elementwise node whose inputs have fewer elements than this through
      one flat loop compiled per (scalar op, dtypes) for every rank and layout (see
      lazygraph.backends.numba.flat), larger ones through a kernel compiled for the
      node's ranks and layouts; 0 = never.
    - ``numba_prefer_numpy`` (``LAZYGRAPH_NUMBA_PREFER_NUMPY``): the numba backend runs
      the nodes numpy computes at least as fast as a kernel (views, copies and fills:
      reshape, transpose, slicing, concatenate, arange; sorts and searches) with numpy
      when it runs a graph kernel by kernel, and compiles their kernels only for a
      graph function; ``False`` (``0``) compiles them for every call (the backend's own
      lowering tests).
    - ``cache_dir`` (``LAZYGRAPH_CACHE_DIR``): on-disk compile cache; "" = per-user default.
    - ``compile_cache_size`` (``LAZYGRAPH_COMPILE_CACHE_SIZE``): how many compiled functions
      the in-memory structural cache keeps (least recently used dropped first); 0 = none.
    - ``eager_max_elements`` (``LAZYGRAPH_EAGER_MAX_ELEMENTS``): lazygraph.numpy computes
      a node at once, with numpy, when its inputs are known values and its result has
      at most this many elements (and no rewrite would change its value); 0 = never.
      The default, 131,072 (1 MiB of float64), is where numpy's own call starts to
      cost more than recording a node does (see docs/drop-in.md).
    - ``dask_chunk_size`` (``LAZYGRAPH_DASK_CHUNK_SIZE``): the dask backend cuts each
      numpy input into chunks of at most this many bytes (dask's ``"auto"`` chunking with
      this limit); default 128 MiB, dask's own default.
    - ``dask_chunk_kernels`` (``LAZYGRAPH_DASK_CHUNK_KERNELS``): how the dask backend
      computes a chunk of a fused elementwise region: ``"numba"`` (the region's numba
      kernel), ``"numpy"`` (its numpy ``perform`` over cache-sized blocks) or ``"auto"``
      (numpy for float regions whose transcendental ops numpy runs as SIMD loops; see
      lazygraph.backends.dask.blocked).
    - ``progress`` (``LAZYGRAPH_PROGRESS``): print a one-line status to standard error
      while a compile takes longer than about 1.5 s; ``False`` (``0``) keeps quiet.
    """

    backend: str = os.environ.get("LAZYGRAPH_BACKEND") or default_backend()
    print_rewrites: bool = _env_bool("LAZYGRAPH_PRINT_REWRITES", False)
    on_unsupported: str = os.environ.get("LAZYGRAPH_ON_UNSUPPORTED", "fallback")
    on_rewrite_error: str = os.environ.get("LAZYGRAPH_ON_REWRITE_ERROR", "warn")
    on_numpy_fallback: str = os.environ.get("LAZYGRAPH_ON_NUMPY_FALLBACK", "warn")
    num_threads: int = _env_int("LAZYGRAPH_NUM_THREADS", 0)
    numba_graph_after: int = _env_int("LAZYGRAPH_NUMBA_GRAPH_AFTER", 32)
    numba_background_compile: bool = _env_bool("LAZYGRAPH_NUMBA_BACKGROUND_COMPILE", True)
    numba_flat_max_elements: int = _env_int("LAZYGRAPH_NUMBA_FLAT_MAX_ELEMENTS", 4096)
    numba_prefer_numpy: bool = _env_bool("LAZYGRAPH_NUMBA_PREFER_NUMPY", True)
    cache_dir: str = os.environ.get("LAZYGRAPH_CACHE_DIR", "")
    compile_cache_size: int = _env_int("LAZYGRAPH_COMPILE_CACHE_SIZE", 512)
    progress: bool = _env_bool("LAZYGRAPH_PROGRESS", True)
    dask_chunk_size: int = _env_int("LAZYGRAPH_DASK_CHUNK_SIZE", 128 * 2**20)
    dask_chunk_kernels: str = os.environ.get("LAZYGRAPH_DASK_CHUNK_KERNELS", "auto")
    eager_max_elements: int = _env_int("LAZYGRAPH_EAGER_MAX_ELEMENTS", 131072)

    def __setattr__(self, name: str, value: Any) -> None:
        if name not in {f.name for f in fields(self)}:
            raise AttributeError(f"lazygraph.config has no setting {name!r}")
        super().__setattr__(name, value)

    @contextlib.contextmanager
    def change(self, **settings: Any) -> Iterator[Config]:
        """Change settings for the duration of a ``with`` block."""
        old = {name: getattr(self, name) for name in settings}
        try:
            for name, value in settings.items():
                setattr(self, name, value)
            yield self
        finally:
            for name, value in old.items():
                setattr(self, name, value)


config = Config()
