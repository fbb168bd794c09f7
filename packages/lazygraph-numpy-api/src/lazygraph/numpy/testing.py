"""``lazygraph.numpy.testing``: numpy.testing, re-exported as it is.

numpy's assertions take lazy arrays: they read them through ``__array__``,
which computes them, so ``import lazygraph.numpy.testing as npt`` works where
``import numpy.testing as npt`` did.

>>> import lazygraph.numpy as lnp
>>> import lazygraph.numpy.testing as npt
>>> npt.assert_allclose(lnp.arange(3.0) * 2, [0.0, 2.0, 4.0])
>>> npt.assert_array_equal(lnp.ones(2, dtype="int64"), lnp.asarray([1, 1]))
"""

import numpy.testing as _numpy_testing
from numpy.testing import *  # noqa: F403
from numpy.testing import extbuild as extbuild
from numpy.testing import test as test

__all__ = [*_numpy_testing.__all__, "extbuild", "test"]
