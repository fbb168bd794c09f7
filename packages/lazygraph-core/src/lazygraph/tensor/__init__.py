"""The typed tensor layer: ``TensorType``, tensor variables and every tensor Op,
reachable as functions named as in numpy (``lazygraph.tensor.exp``, ``.sum``,
``.matmul``, ``.reshape``, ...); linear algebra under ``lazygraph.tensor.linalg``.

This layer is strict: it checks dtypes and shapes and applies numpy 2's type
promotion, but converts nothing implicitly beyond Python scalars and arrays
becoming constants. ``lazygraph.numpy`` builds the drop-in namespace on top.

>>> import lazygraph.tensor as lt
>>> x = lt.dvector("x")
>>> x.type
TensorType(float64, shape=(?,))
"""

from lazygraph.tensor import fft as fft
from lazygraph.tensor import linalg as linalg
from lazygraph.tensor.advanced_subtensor import *  # noqa: F403
from lazygraph.tensor.blas import *  # noqa: F403
from lazygraph.tensor.broadcast import *  # noqa: F403
from lazygraph.tensor.creation import *  # noqa: F403
from lazygraph.tensor.cumulative import *  # noqa: F403
from lazygraph.tensor.dimshuffle import *  # noqa: F403
from lazygraph.tensor.dtypes import *  # noqa: F403
from lazygraph.tensor.elemwise import *  # noqa: F403
from lazygraph.tensor.fused import *  # noqa: F403
from lazygraph.tensor.join import *  # noqa: F403
from lazygraph.tensor.math import *  # noqa: F403
from lazygraph.tensor.math_binary import *  # noqa: F403
from lazygraph.tensor.reduction import *  # noqa: F403
from lazygraph.tensor.search import *  # noqa: F403
from lazygraph.tensor.shape import *  # noqa: F403
from lazygraph.tensor.sort import *  # noqa: F403
from lazygraph.tensor.structure import *  # noqa: F403
from lazygraph.tensor.subtensor import *  # noqa: F403
from lazygraph.tensor.type import *  # noqa: F403
from lazygraph.tensor.variable import *  # noqa: F403
