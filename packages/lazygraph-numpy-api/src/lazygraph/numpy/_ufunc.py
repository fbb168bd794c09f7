"""What every elementwise function of the namespace shares: numpy's ufunc
keywords (``out=``, ``where=``, ``dtype=``, ``casting=``...) and the messages
for the ones lazygraph cannot honour.

>>> from lazygraph.numpy._ufunc import ufunc_dtype
>>> ufunc_dtype("exp", None, {"dtype": "float32"})
dtype('float32')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import lazygraph.tensor as lt
import numpy as np
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import as_variable, wrap
from lazygraph.numpy._eager import elementwise
from lazygraph.numpy._errors import UnsupportedArgumentsError
from lazygraph.tensor.dtypes import is_weak_scalar

__all__: list[str] = []

#: What namespace functions accept: an Array, numpy data, a list or a Python scalar.
ArrayLike = Any
#: A dtype, as numpy accepts one (a dtype, a scalar type, a string).
DTypeLike = Any

_UFUNC_KEYWORDS = frozenset({"where", "casting", "order", "dtype", "subok", "signature"})
_CASTINGS = ("no", "equiv", "safe", "same_kind", "unsafe")


def reject_out(name: str, out: Any) -> None:
    """Raise the error for ``out=``: lazygraph arrays are values, not buffers."""
    if out is not None:
        raise UnsupportedArgumentsError(
            f"{name}: out= is not supported by lazygraph; arrays are immutable graph "
            f"values, so assign the result instead (y = {name}(...)), or write into "
            f"an existing array with y[...] = {name}(...)"
        )


def ufunc_dtype(name: str, out: Any, kwargs: dict[str, Any]) -> np.dtype[Any] | None:
    """Check numpy's ufunc keywords and return the ``dtype=`` asked for, if any."""
    reject_out(name, out)
    for key in kwargs:
        if key not in _UFUNC_KEYWORDS:
            raise TypeError(f"{name}() got an unexpected keyword argument {key!r}")
    where = kwargs.get("where", True)
    if where is not True:
        raise UnsupportedArgumentsError(
            f"{name}: where= is not supported by lazygraph (it leaves the other "
            f"elements of out= untouched); use where(mask, {name}(...), other) instead"
        )
    if kwargs.get("signature") is not None:
        raise UnsupportedArgumentsError(f"{name}: signature= is not supported by lazygraph")
    casting = kwargs.get("casting", "same_kind")
    if casting not in _CASTINGS:
        raise ValueError(
            f"{name}: casting must be one of 'no', 'equiv', 'safe', 'same_kind', or "
            f"'unsafe' (got {casting!r})"
        )
    if kwargs.get("order", "K") not in ("K", "A", "C", "F", None):
        raise ValueError(f"{name}: order must be one of 'C', 'F', 'A', or 'K'")
    dtype = kwargs.get("dtype")
    return None if dtype is None else np.dtype(dtype)


def apply_ufunc(
    name: str,
    fn: Callable[..., Any],
    args: Sequence[ArrayLike],
    out: Any,
    kwargs: dict[str, Any],
) -> Array:
    """``fn(*args)`` on converted arguments, honouring numpy's ufunc keywords.

    ``dtype=`` casts the inputs (as ``casting`` allows) and must be the result's
    dtype, as numpy's loop selection requires (``exp(ints, dtype=int64)`` is a
    TypeError there too). The public function's wrapper
    (:mod:`lazygraph.numpy._errors`) names ``name`` in the errors raised here.
    """
    if out is None and not kwargs:
        result = elementwise(fn, args)  # known small operands: computed at once
        if result is not None:
            return result
    dtype = ufunc_dtype(name, out, kwargs)
    variables = [as_variable(a) for a in args]
    if dtype is None:
        return wrap(fn(*variables))
    casting = kwargs.get("casting", "same_kind")
    cast_inputs = []
    for v in variables:
        if is_weak_scalar(v):
            cast_inputs.append(v)
            continue
        if not np.can_cast(np.dtype(v.dtype), dtype, casting):
            raise TypeError(
                f"{name}: cannot cast input from dtype('{v.dtype}') to {dtype!r} "
                f"with casting rule {casting!r}"
            )
        cast_inputs.append(lt.cast(v, dtype))
    result = fn(*cast_inputs)
    if np.dtype(result.dtype) != dtype:
        # numpy looks for a loop computing in ``dtype``; this function has none.
        raise TypeError(
            f"No loop matching the specified signature and casting was found for ufunc {name}"
        )
    return wrap(result)
