"""Compiling graphs into callables: :func:`function`, modes and the backend registry.

>>> from lazygraph.compile import available_backends
>>> "python" in available_backends()
True
"""

from lazygraph.compile.backends import (
    Backend,
    available_backends,
    get_backend,
    register_backend,
)
from lazygraph.compile.cache import cached_function, clear_cache, stats
from lazygraph.compile.function import Function, function
from lazygraph.compile.mode import Mode, get_mode

__all__ = [
    "Backend",
    "Function",
    "Mode",
    "available_backends",
    "cached_function",
    "clear_cache",
    "function",
    "get_backend",
    "get_mode",
    "register_backend",
    "stats",
]
