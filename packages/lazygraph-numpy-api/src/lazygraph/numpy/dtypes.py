"""``lazygraph.numpy.dtypes``: numpy's dtype classes, re-exported as they are.

A lazy array's ``dtype`` is a numpy dtype, so the classes describe it too.

>>> import lazygraph.numpy as lnp
>>> isinstance(lnp.arange(2.0).dtype, lnp.dtypes.Float64DType)
True
"""

import numpy.dtypes as _numpy_dtypes
from numpy.dtypes import *  # noqa: F403

__all__ = list(_numpy_dtypes.__all__)
