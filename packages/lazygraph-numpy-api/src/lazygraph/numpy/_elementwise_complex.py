"""Complex numbers, elementwise: the parts ``real``/``imag`` and the ``angle``,
and the tests ``iscomplex``/``isreal`` (of each element) and
``iscomplexobj``/``isrealobj`` (of the dtype, computing nothing). The ufunc
``conj``/``conjugate`` is in :mod:`lazygraph.numpy._elementwise_unary`.

>>> z = [1 + 2j, 3 - 1j]
>>> real(z).compute(), iscomplexobj(z)
(array([1., 3.]), True)
"""

from __future__ import annotations

from typing import Any

import lazygraph.tensor as lt
import numpy as np
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import as_variable, wrap
from lazygraph.numpy._ufunc import ArrayLike

__all__ = ["angle", "imag", "iscomplex", "iscomplexobj", "isreal", "isrealobj", "real"]


def real(val: ArrayLike) -> Any:
    """The real part (``val`` itself for real input) (``numpy.real``).

    >>> real([1 + 2j, 3 - 1j]).compute()
    array([1., 3.])
    >>> real(True)  # a Python scalar's own ``real``, as numpy returns it
    1
    """
    if lt.is_weak_scalar(val):
        return val.real
    return wrap(lt.real(as_variable(val)))


def imag(val: ArrayLike) -> Any:
    """The imaginary part (zeros of the same dtype for real input) (``numpy.imag``).

    >>> imag([1 + 2j, 3 - 1j]).compute()
    array([ 2., -1.])
    """
    if lt.is_weak_scalar(val):
        return val.imag
    return wrap(lt.imag(as_variable(val)))


def angle(z: ArrayLike, deg: bool = False) -> Array:
    """The counterclockwise angle of each complex number from the positive real
    axis, in radians, or degrees with ``deg=True`` (``numpy.angle``).

    >>> angle([1j, -1.0], deg=True).compute()
    array([ 90., 180.])
    """
    x = as_variable(z)
    if lt.is_weak_scalar(x):
        x = lt.as_tensor_variable(x)
    result = lt.atan2(lt.imag(x), lt.real(x)) if np.dtype(x.dtype).kind == "c" else lt.atan2(0, x)
    return wrap(lt.rad2deg(result) if deg else result)


def iscomplex(x: ArrayLike) -> Array:
    """Whether each element has a nonzero imaginary part (``numpy.iscomplex``).

    >>> iscomplex([1 + 0j, 1j]).compute()
    array([False,  True])
    """
    v = lt.as_tensor_variable(as_variable(x))
    return wrap(lt.not_equal(lt.imag(v), 0))


def isreal(x: ArrayLike) -> Any:
    """Whether each element has a zero imaginary part (``numpy.isreal``).

    >>> isreal([1 + 0j, 1j]).compute()
    array([ True, False])
    """
    if lt.is_weak_scalar(x):
        return x.imag == 0
    v = lt.as_tensor_variable(as_variable(x))
    return wrap(lt.equal(lt.imag(v), 0))


def iscomplexobj(x: ArrayLike) -> bool:
    """Whether ``x`` has a complex dtype (``numpy.iscomplexobj``; no computation).

    >>> iscomplexobj([1.0]), iscomplexobj([1j])
    (False, True)
    """
    try:
        kind = x.dtype.type  # (numpy reads any object's dtype: pandas' duck dtypes)
    except AttributeError:
        kind = np.dtype(lt.as_tensor_variable(as_variable(x)).dtype).type
    return issubclass(kind, np.complexfloating)


def isrealobj(x: ArrayLike) -> bool:
    """Whether ``x`` does not have a complex dtype (``numpy.isrealobj``).

    >>> isrealobj([1.0]), isrealobj([1j])
    (True, False)
    """
    return not iscomplexobj(x)
