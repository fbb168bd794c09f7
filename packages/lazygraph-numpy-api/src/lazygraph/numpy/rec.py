"""``lazygraph.numpy.rec``: numpy.rec (record arrays), re-exported as it is.

Record arrays have structured dtypes, which lazygraph does not record; numpy's
constructors take lazy arrays (computed through ``__array__``).

>>> import lazygraph.numpy as lnp
>>> r = lnp.rec.fromarrays([lnp.arange(2), lnp.ones(2)], names="a,b")
>>> r.a.tolist(), r.b.tolist()
([0, 1], [1.0, 1.0])
"""

import numpy.rec as _numpy_rec
from numpy.rec import *  # noqa: F403

__all__ = list(_numpy_rec.__all__)
