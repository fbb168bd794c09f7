"""``lazygraph.numpy.lib``: numpy.lib's names, with lazygraph's
:mod:`~lazygraph.numpy.lib.stride_tricks` (``sliding_window_view`` is lazy).

The rest is numpy's own (``NumpyVersion``, ``mixins``, ``format``, ``npyio``,
``array_utils``...), re-exported as it is; ``scimath`` is
``lazygraph.numpy.emath`` where lazygraph has one, else numpy's.

>>> import lazygraph.numpy as lnp
>>> from lazygraph.numpy.lib.stride_tricks import sliding_window_view
>>> sliding_window_view(lnp.arange(4), 2).tolist()
[[0, 1], [1, 2], [2, 3]]
>>> lnp.lib.NumpyVersion("2.1.0") > "2.0.0"
True
"""

import importlib as _importlib
from typing import Any as _Any

from lazygraph.numpy.lib import stride_tricks
from numpy.lib import (
    Arrayterator,
    NumpyVersion,
    add_docstring,
    add_newdoc,
    array_utils,
    format,
    introspect,
    mixins,
    npyio,
    test,
    tracemalloc_domain,
)

__all__ = [
    "Arrayterator",
    "NumpyVersion",
    "add_docstring",
    "add_newdoc",
    "array_utils",
    "format",
    "introspect",
    "mixins",
    "npyio",
    "scimath",
    "stride_tricks",
    "test",
    "tracemalloc_domain",
]


def __getattr__(name: str) -> _Any:
    # (read when asked: lazygraph.numpy's emath may be registered after this module)
    if name == "scimath":
        namespace = _importlib.import_module("lazygraph.numpy")
        emath = getattr(namespace, "emath", None)
        return emath if emath is not None else _importlib.import_module("numpy.lib.scimath")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
