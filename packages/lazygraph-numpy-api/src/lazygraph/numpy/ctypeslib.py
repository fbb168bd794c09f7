"""``lazygraph.numpy.ctypeslib``: numpy.ctypeslib, re-exported as it is.

ctypes pointers need memory, so ``as_ctypes`` and ``ndpointer`` take numpy
arrays: compute a lazy array first (``numpy.asarray(x)``).

>>> import numpy
>>> import lazygraph.numpy as lnp
>>> lnp.ctypeslib.as_array(lnp.ctypeslib.as_ctypes(numpy.arange(3))).tolist()
[0, 1, 2]
"""

import numpy.ctypeslib as _numpy_ctypeslib
from numpy.ctypeslib import *  # noqa: F403
from numpy.ctypeslib import ctypes as ctypes

__all__ = [*_numpy_ctypeslib.__all__, "ctypes"]
