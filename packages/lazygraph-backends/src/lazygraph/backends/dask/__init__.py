"""The Dask backend: a rewritten graph becomes a ``dask.array`` computation.

Each numpy input is cut into chunks of at most ``lazygraph.config.dask_chunk_size``
bytes (dask's ``"auto"`` chunking with that limit; a dask array passed in keeps its
own chunks), each node becomes dask.array operations (a fused elementwise region
one ``blockwise`` layer running numba's kernel per chunk, a reduction a tree of
partial reductions), and a call computes the outputs on whatever dask scheduler
is current: a ``distributed.Client`` the user made, else dask's threaded
scheduler. See docs/backends-dask.md.

``backend`` is the object the ``lazygraph.backends`` entry point names. It is
``None`` where dask or numba cannot be imported, which the backend registry reads
as "not available". Importing this module imports neither; compiling does.

>>> import numpy as np
>>> import lazygraph, lazygraph.tensor as lt
>>> from lazygraph.compile.mode import Mode
>>> x = lt.dvector("x")
>>> f = lazygraph.function([x], lt.sum(lt.exp(x) * 2.0), mode=Mode(backend="dask"))
>>> float(f(np.zeros(3)))
6.0
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

__all__ = ["DaskBackend", "backend"]


class DaskBackend:
    """Compiles a ``FunctionGraph`` to dask.array (see the module docstring)."""

    name = "dask"
    #: rewrite tags ``lazygraph.function`` leaves out: dask hands the same chunk
    #: to several tasks, so no kernel may write into its inputs
    excluded_tags: tuple[str, ...] = ("inplace",)
    #: the keyword options of :meth:`compile` (``lazygraph.function(...,
    #: compile_options={"dask_arrays": True})``)
    compile_options: tuple[str, ...] = ("dask_arrays",)

    def compile(self, fgraph: Any, *, dask_arrays: bool = False) -> Callable[..., Sequence[Any]]:
        """A callable taking ``fgraph``'s input values in order (numpy or dask
        arrays) and returning the list of its outputs: numpy arrays, computed on
        the current dask scheduler, or with ``dask_arrays=True`` the dask arrays
        themselves, not computed.

        >>> import numpy as np
        >>> import lazygraph.tensor as lt
        >>> from lazygraph.graph.fg import FunctionGraph
        >>> x = lt.dvector("x")
        >>> fn = backend.compile(FunctionGraph([x], [x * 2.0]), dask_arrays=True)
        >>> (out,) = fn(np.arange(3.0))
        >>> type(out).__name__, out.compute()
        ('Array', array([0., 2., 4.]))
        """
        return _linker().compile_graph(fgraph, dask_arrays=dask_arrays)  # type: ignore[no-any-return]

    def program_key(self, options: Mapping[str, Any]) -> Hashable:
        """What a compiled program depends on besides its graph's structure (core's
        program cache): the output form and ``config.on_unsupported``."""
        from lazygraph.configuration import config

        return (config.on_unsupported, bool(options.get("dask_arrays", False)))

    def lowers(self, node: Any) -> str | None:
        """The capability query (see :func:`lazygraph.compile.backends.lowering_of`):
        None when ``node`` becomes dask.array operations, else why it runs through
        its ``perform`` on one chunk holding the whole array."""
        dispatch = _import("lazygraph.backends.dask.dispatch")
        if dispatch.lowering_for(node) is None:
            return f"no dask lowering for {type(node.op).__name__}"
        return None


def _import(name: str) -> Any:
    from lazygraph.compile.backends import import_isolated

    return import_isolated(name)


def _linker() -> Any:
    """The linker module, imported (with dask and numba) on the first compile
    without changing the user's global state."""
    return _import("lazygraph.backends.dask.linker")


backend: DaskBackend | None = (
    DaskBackend()
    if all(importlib.util.find_spec(m) is not None for m in ("dask", "numba"))
    else None
)
