"""``lazygraph.numpy.ma``: numpy.ma (masked arrays), re-exported as it is.

Masked arrays are numpy's: lazygraph does not record them. numpy.ma's
constructors and functions take lazy arrays (they compute them through
``__array__``) and give numpy's ``MaskedArray``.

>>> import lazygraph.numpy as lnp
>>> masked = lnp.ma.masked_greater(lnp.arange(4.0), 2.0)
>>> type(masked).__name__, float(masked.sum())
('MaskedArray', 3.0)
"""

import numpy.ma as _numpy_ma
from numpy.ma import *  # noqa: F403
from numpy.ma import test as test

__all__ = [*_numpy_ma.__all__, "test"]
