"""``lazygraph.numpy.char``: numpy.char (legacy string operations), re-exported
as it is: string dtypes are numpy's, lazygraph does not record them.

>>> import lazygraph.numpy as lnp
>>> lnp.char.upper(["ab", "c"]).tolist()
['AB', 'C']
"""

import numpy.char as _numpy_char
from numpy.char import *  # noqa: F403

__all__ = list(_numpy_char.__all__)
