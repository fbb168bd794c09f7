"""``lazygraph.numpy.strings``: numpy.strings (string ufuncs), re-exported as it
is: string dtypes are numpy's, lazygraph does not record them.

>>> import numpy
>>> import lazygraph.numpy as lnp
>>> lnp.strings.str_len(numpy.array(["ab", "cde"])).tolist()
[2, 3]
"""

import numpy.strings as _numpy_strings
from numpy.strings import *  # noqa: F403

__all__ = list(_numpy_strings.__all__)
