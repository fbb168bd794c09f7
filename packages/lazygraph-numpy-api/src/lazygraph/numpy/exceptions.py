"""``lazygraph.numpy.exceptions``: numpy's exceptions and warnings, re-exported
as they are: lazygraph raises numpy's (an out-of-range axis is numpy's
``AxisError``), so ``except`` clauses written for numpy keep working.

>>> import lazygraph.numpy as lnp
>>> try:
...     lnp.sum(lnp.ones(2), axis=3)
... except lnp.exceptions.AxisError:
...     print("AxisError")
AxisError
"""

import numpy.exceptions as _numpy_exceptions
from numpy.exceptions import *  # noqa: F403
from numpy.exceptions import RankWarning as RankWarning

__all__ = [*_numpy_exceptions.__all__, "RankWarning"]
