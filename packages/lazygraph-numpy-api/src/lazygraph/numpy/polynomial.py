"""``lazygraph.numpy.polynomial``: numpy.polynomial, re-exported as it is.

The convenience classes (``Polynomial``, ``Chebyshev``...) and the series
modules are numpy's; they take lazy arrays. Their arithmetic on coefficient
arrays runs through numpy functions, so a series evaluated at a lazy array
often stays lazy (``polynomial.polyval``), and a fit computes its data.

>>> import lazygraph.numpy as lnp
>>> p = lnp.polynomial.Polynomial([1.0, 2.0])
>>> p(lnp.asarray([0.0, 1.0])).tolist()
[1.0, 3.0]
>>> lnp.polynomial.polynomial.polyval(lnp.asarray(2.0), [1.0, 2.0, 3.0]).compute()
array(17.)
"""

import numpy.polynomial as _numpy_polynomial
from numpy.polynomial import *  # noqa: F403
from numpy.polynomial import polyutils as polyutils
from numpy.polynomial import test as test

__all__ = [*_numpy_polynomial.__all__, "polyutils", "test"]
