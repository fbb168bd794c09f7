"""``lazygraph.numpy.typing``: numpy.typing's annotations, re-exported as they
are (``ArrayLike`` covers lazy arrays at run time: they have ``__array__``).

>>> import numpy.typing
>>> import lazygraph.numpy as lnp
>>> lnp.typing.NDArray is numpy.typing.NDArray
True
"""

import numpy.typing as _numpy_typing
from numpy.typing import *  # noqa: F403

__all__ = list(_numpy_typing.__all__)
