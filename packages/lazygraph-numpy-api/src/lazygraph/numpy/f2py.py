"""``lazygraph.numpy.f2py``: numpy.f2py (Fortran wrappers), numpy's own.

f2py builds extension modules; it has nothing to record. Its names are read
from numpy.f2py when first used, so importing lazygraph.numpy does not import
f2py (which is slow to import).

>>> import numpy.f2py
>>> import lazygraph.numpy as lnp
>>> lnp.f2py.get_include() == numpy.f2py.get_include()
True
"""

import importlib
from typing import Any


def __getattr__(name: str) -> Any:
    if name.startswith("__"):
        raise AttributeError(name)
    return getattr(importlib.import_module("numpy.f2py"), name)


def __dir__() -> list[str]:
    return sorted(set(dir(importlib.import_module("numpy.f2py"))) | set(globals()))
