"""Linear algebra with numpy.linalg's semantics (array API names), batched over
leading axes: decompositions (:mod:`.decomp`), inverses and solves
(:mod:`.solve`), and norms and matrix functions (:mod:`.norms`).

>>> import numpy as np
>>> import lazygraph.tensor as lt
>>> a = lt.dmatrix("a")
>>> float(lt.linalg.det(a).eval({a: np.array([[1.0, 2.0], [3.0, 4.0]])}))
-2.0000000000000004
"""

# the argument check every linalg function makes, for lazygraph.numpy's own ones
# (public here, not in __all__: not a numpy.linalg name)
from lazygraph.tensor.linalg._common import as_matrix_stack as as_matrix_stack
from lazygraph.tensor.linalg.decomp import *  # noqa: F403
from lazygraph.tensor.linalg.decomp import __all__ as _decomp_all
from lazygraph.tensor.linalg.norms import *  # noqa: F403
from lazygraph.tensor.linalg.norms import __all__ as _norms_all
from lazygraph.tensor.linalg.solve import *  # noqa: F403
from lazygraph.tensor.linalg.solve import __all__ as _solve_all

__all__ = [*_decomp_all, *_norms_all, *_solve_all]
