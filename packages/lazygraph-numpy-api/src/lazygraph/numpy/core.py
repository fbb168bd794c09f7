"""``lazygraph.numpy.core``: numpy.core, numpy's own (a deprecated alias of
numpy's private ``numpy._core``; numpy warns when its names are used).

It has no public names of its own; an attribute is read from numpy.core when
asked for, so numpy's ``DeprecationWarning`` comes from the user's line.

>>> import warnings
>>> import lazygraph.numpy as lnp
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     _ = lnp.core.multiarray
>>> caught[0].category.__name__
'DeprecationWarning'
"""

import importlib as _importlib
from typing import Any as _Any


def __getattr__(name: str) -> _Any:
    if name.startswith("__"):
        raise AttributeError(name)
    return getattr(_importlib.import_module("numpy.core"), name)
