"""Polynomials (numpy's ``poly*`` functions, coefficients highest power first):
``polyval``. (``vander``, which builds a matrix of powers, is in
:mod:`lazygraph.numpy._creation`.)
"""

from __future__ import annotations

import lazygraph.tensor as lt
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import as_tensor, as_variable, wrap
from lazygraph.numpy._ufunc import ArrayLike

__all__ = ["polyval"]


def polyval(p: ArrayLike, x: ArrayLike) -> Array:
    """The polynomial with coefficients ``p`` (highest power first) at ``x``, by
    Horner's rule (``numpy.polyval``).

    >>> polyval([3, 0, 1], [1.0, 2.0]).compute()
    array([ 4., 13.])
    """
    coeffs = as_tensor(p)
    if coeffs.ndim != 1 or coeffs.type.shape[0] is None:
        raise ValueError("polyval: p must be a 1-d sequence of known length")
    xv = as_variable(x)
    y = lt.zeros_like(lt.as_tensor_variable(xv))
    for i in range(coeffs.type.shape[0]):
        y = lt.add(lt.multiply(y, xv), lt.getitem(coeffs, i))
    return wrap(y)
