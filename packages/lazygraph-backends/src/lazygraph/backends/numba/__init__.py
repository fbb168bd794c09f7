"""The Numba backend (CPU): compiles a rewritten graph into one Numba function.

``backend`` is the object the ``lazygraph.backends`` entry point names. It is
``None`` when numba cannot be imported, which the backend registry reads as
"not available". Importing this module does not import numba; compiling does.

>>> from lazygraph.backends.numba import backend
>>> backend.name
'numba'
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["NumbaBackendEntry", "backend"]


class NumbaBackendEntry:
    """The registered backend object; loads the linker on first compile."""

    name = "numba"

    def compile(self, fgraph: Any) -> Callable[..., Sequence[Any]]:
        return _linker().NumbaBackend().compile(fgraph)

    def lowers(self, node: Any) -> str | None:
        """The capability query: None when a kernel runs ``node``, else why its
        ``perform`` does (see ``NumbaBackend.lowers``)."""
        return _linker().NumbaBackend().lowers(node)  # type: ignore[no-any-return]

    def compile_profiled(self, fgraph: Any, rows: Sequence[Any]) -> Callable[..., Sequence[Any]]:
        """``fgraph`` kernel by kernel, each node timed into its row (``profile=True``)."""
        return _linker().NumbaBackend().compile_profiled(fgraph, rows)


def _linker() -> Any:
    """The linker module, imported (with numba and scipy) on the first compile
    without changing the user's global state
    (:func:`lazygraph.compile.backends.import_isolated`)."""
    from lazygraph.compile.backends import import_isolated

    return import_isolated("lazygraph.backends.numba.linker")


backend: NumbaBackendEntry | None = (
    NumbaBackendEntry() if importlib.util.find_spec("numba") is not None else None
)
