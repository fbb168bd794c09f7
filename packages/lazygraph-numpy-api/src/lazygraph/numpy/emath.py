"""``lazygraph.numpy.emath``: numpy.emath's (``numpy.lib.scimath``'s) functions,
whose results are complex where the input is outside the real domain:
``sqrt``, ``log``, ``log2``, ``log10``, ``logn``, ``power``, ``arccos``,
``arcsin`` and ``arctanh``.

Whether the result is complex depends on the values (``sqrt(-1)`` is ``1j``,
``sqrt(4)`` is ``2.0``), so each function computes only that domain check, a
small reduction (``any(x < 0)``, or ``any(|x| > 1)``), from the value when it
is known or by computing it, and then records the ordinary function on ``x``
or on ``x`` cast to complex as numpy does. Unsigned, bool and complex inputs
need no check.

>>> import lazygraph.numpy as lnp
>>> lnp.emath.sqrt([-4.0, 4.0]).compute()
array([0.+2.j, 2.+0.j])
>>> lnp.emath.sqrt([4.0]).compute()
array([2.])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import lazygraph.tensor as lt
import numpy as np
from lazygraph.numpy import _elementwise as _binary
from lazygraph.numpy import _elementwise_unary as _unary
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import asarray, known_value, wrap
from lazygraph.numpy._errors import name_public_errors
from lazygraph.numpy._ufunc import ArrayLike
from lazygraph.tensor.fperrors import quiet

__all__ = ["arccos", "arcsin", "arctanh", "log", "log2", "log10", "logn", "power", "sqrt"]

#: numpy's _tocomplex: these real dtypes become complex64, the others complex128
_TO_COMPLEX64 = frozenset({"float32", "int8", "int16", "uint8", "uint16"})


def _any(x: Array, test: Callable[[Any], Any]) -> bool:
    """Whether ``test`` holds anywhere in ``x``: from its value when known,
    else by computing that one reduction."""
    value = known_value(x._var)
    if value is not None:
        with quiet():
            return bool(np.any(test(value)))
    return bool(wrap(lt.any(test(x._var))))


def _to_complex(x: Array) -> Array:
    target = "complex64" if x.dtype.name in _TO_COMPLEX64 else "complex128"
    return x.astype(target)


def _fix_real_lt_zero(x: ArrayLike) -> Array:
    """``x`` as an array, cast to complex if it is real and has a negative value."""
    a = asarray(x)
    if a.dtype.kind in "if" and _any(a, lambda v: v < 0):
        return _to_complex(a)
    return a


def _fix_int_lt_zero(x: ArrayLike) -> Array:
    """``x`` as an array, times 1.0 (a float) if it is an integer with a negative value."""
    a = asarray(x)
    if a.dtype.kind == "i" and _any(a, lambda v: v < 0):  # (floats: a no-op)
        return _binary.multiply(a, 1.0)
    return a


def _fix_real_abs_gt_1(x: ArrayLike) -> Array:
    """``x`` as an array, cast to complex if it is real and has a value beyond ±1."""
    a = asarray(x)
    if a.dtype.kind in "iuf" and _any(a, lambda v: abs(v) > 1):
        return _to_complex(a)
    return a


def sqrt(x: ArrayLike) -> Array:
    """The square root, complex where ``x`` has a negative value
    (``numpy.emath.sqrt``).

    >>> sqrt([-1.0, 4.0]).compute()
    array([0.+1.j, 2.+0.j])
    """
    return _unary.sqrt(_fix_real_lt_zero(x))


def log(x: ArrayLike) -> Array:
    """The natural logarithm, complex where ``x`` has a negative value
    (``numpy.emath.log``).

    >>> log([-1.0]).compute()
    array([0.+3.14159265j])
    """
    return _unary.log(_fix_real_lt_zero(x))


def log2(x: ArrayLike) -> Array:
    """The base-2 logarithm, complex where ``x`` has a negative value
    (``numpy.emath.log2``).

    >>> log2([8.0, 0.5]).compute()
    array([ 3., -1.])
    """
    return _unary.log2(_fix_real_lt_zero(x))


def log10(x: ArrayLike) -> Array:
    """The base-10 logarithm, complex where ``x`` has a negative value
    (``numpy.emath.log10``).

    >>> log10([-10.0]).compute()
    array([1.+1.36437635j])
    """
    return _unary.log10(_fix_real_lt_zero(x))


def logn(n: ArrayLike, x: ArrayLike) -> Array:
    """The base-``n`` logarithm ``log(x) / log(n)``, complex where ``x`` or ``n``
    has a negative value (``numpy.emath.logn``).

    >>> logn(2, [4.0, 8.0]).compute()
    array([2., 3.])
    """
    xs = _fix_real_lt_zero(x)
    ns = _fix_real_lt_zero(n)
    return _binary.divide(_unary.log(xs), _unary.log(ns))


def power(x: ArrayLike, p: ArrayLike) -> Array:
    """``x ** p``, complex where ``x`` has a negative value, and in floats where
    an integer ``p`` has one (``numpy.emath.power``).

    >>> power([-2.0, 2.0], 2).compute()
    array([4.-0.j, 4.+0.j])
    >>> power(2, -1).compute()
    array(0.5)
    """
    return _binary.power(_fix_real_lt_zero(x), _fix_int_lt_zero(p))


def arccos(x: ArrayLike) -> Array:
    """The inverse cosine, complex where ``|x| > 1`` somewhere
    (``numpy.emath.arccos``).

    >>> arccos([1.0, 2.0]).compute()
    array([0.-0.j        , 0.-1.3169579j])
    """
    return _unary.arccos(_fix_real_abs_gt_1(x))


def arcsin(x: ArrayLike) -> Array:
    """The inverse sine, complex where ``|x| > 1`` somewhere
    (``numpy.emath.arcsin``).

    >>> arcsin([0.0, 1.0]).compute()
    array([0.        , 1.57079633])
    """
    return _unary.arcsin(_fix_real_abs_gt_1(x))


def arctanh(x: ArrayLike) -> Array:
    """The inverse hyperbolic tangent, complex where ``|x| > 1`` somewhere
    (``numpy.emath.arctanh``).

    >>> arctanh([0.5]).compute()
    array([0.54930614])
    """
    return _unary.arctanh(_fix_real_abs_gt_1(x))


name_public_errors(globals(), __all__, prefix="emath.")
