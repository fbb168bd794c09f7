"""What every elementwise function of the namespace shares: numpy's ufunc
keywords (``out=``, ``where=``, ``dtype=``, ``casting=``...) and the messages
for the ones lazygraph cannot honour.

>>> from lazygraph.numpy._ufunc import ufunc_dtype
>>> ufunc_dtype("exp", None, {"dtype": "float32"})
dtype('float32')
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import lazygraph.tensor as lt
import numpy as np
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import as_variable, wrap
from lazygraph.numpy._eager import elementwise
from lazygraph.numpy._errors import UnsupportedArgumentsError
from lazygraph.numpy._views import order_argument
from lazygraph.tensor.dtypes import is_weak_scalar

__all__: list[str] = []

F = TypeVar("F", bound=Callable[..., Any])

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
    order_argument(kwargs.get("order"), name)
    dtype = kwargs.get("dtype")
    return None if dtype is None else np.dtype(dtype)


def _huge_ints_beside_inexact(args: Sequence[Any]) -> Sequence[Any]:
    """``args`` with each Python int beyond int64 made a Python float when another
    operand is inexact: numpy converts such an int to the float it meets
    (``add(1.0, 2**100)`` is a float64), where alone it would need an object
    array."""
    huge = [type(a) is int and not -(2**63) <= a < 2**63 for a in args]
    if not any(huge):
        return args
    inexact = any(
        isinstance(a, (float, complex)) or (hasattr(a, "dtype") and np.dtype(a.dtype).kind in "fc")
        for a, h in zip(args, huge, strict=True)
        if not h
    )
    if not inexact:
        return args
    return [float(a) if h else a for a, h in zip(args, huge, strict=True)]


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
    args = _huge_ints_beside_inexact(args)
    if out is None and not kwargs:
        result = elementwise(fn, args)  # known small operands: computed at once
        if result is not None:
            return result
    if out is not None or "where" in kwargs:
        where = kwargs.pop("where", True)
        result = apply_ufunc(name, fn, args, None, kwargs)
        return write_out(name, result, out, where, kwargs.get("casting", "same_kind"))
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


def single_out(name: str, out: Any) -> Any:
    """``out=`` as one array: numpy takes ``out=arr`` or ``out=(arr,)``."""
    if isinstance(out, tuple):
        if len(out) != 1:
            raise ValueError(
                f"{name}: The 'out' tuple must have exactly one entry per ufunc output"
            )
        out = out[0]
    if out is not None and not isinstance(out, (Array, np.ndarray)):
        raise TypeError(f"{name}: return arrays must be of ArrayType")
    return out


def write_out(
    name: str,
    result: Array,
    out: Any,
    where: Any = True,
    casting: str = "same_kind",
    kind: str = "ufunc",
) -> Any:
    """``result`` written into ``out`` as numpy's ``out=`` / ``where=`` do, and
    ``out`` returned (``result`` itself when there is no ``out``).

    A lazy ``out`` is rebound (``out[...] = result``), a numpy ``out`` written
    in place; either way the result broadcasts to ``out``'s shape, never the
    other way, and casts to its dtype under ``casting`` (numpy's errors
    otherwise). ``where=`` keeps ``out``'s old elements where it is False (a
    fresh result has zeros there; numpy leaves them uninitialised).
    ``kind="ufunc"`` words the casting error as numpy's ufuncs do.

    >>> import numpy
    >>> buf = numpy.zeros(3)
    >>> write_out("add", wrap(lt.as_tensor_variable([1.0, 2.0, 3.0])), buf, [True, False, True])
    array([1., 0., 3.])
    """
    out = single_out(name, out)
    if out is None:
        if where is not True:
            fill = lt.zeros_like(result._var)
            result = wrap(lt.where(as_variable(where), result._var, fill))
        return result
    got, dtype = result.dtype, np.dtype(out.dtype)
    if got != dtype and not np.can_cast(got, dtype, casting):
        if kind == "ufunc":
            raise TypeError(
                f"Cannot cast ufunc {name!r} output from {got!r} to {dtype!r} "
                f"with casting rule {casting!r}"
            )
        raise TypeError(
            f"Cannot cast array data from {got!r} to {dtype!r} according to the rule {casting!r}"
        )
    shape, out_shape = tuple(result.shape), tuple(out.shape)
    try:
        joint = np.broadcast_shapes(shape, out_shape)
    except ValueError:
        joint = None
    if joint != out_shape:
        raise ValueError(
            f"{name}: non-broadcastable output operand with shape {out_shape} doesn't "
            f"match the broadcast shape {joint if joint is not None else shape}"
        )
    if got != dtype:
        result = result.astype(dtype)
    if where is not True:
        result = wrap(lt.where(as_variable(where), result._var, as_variable(out)))
    if isinstance(out, Array):
        out[...] = result
    else:
        np.copyto(out, np.asarray(result), casting="unsafe")
    return out


def out_position(func: Callable[..., Any]) -> int:
    """The position at which ``func`` takes ``out`` as a positional argument, -1
    where it takes none (keyword-only, after ``*operands``, or no ``out``).

    >>> out_position(lambda a, axis=None, out=None: None), out_position(lambda *a, out=None: None)
    (2, -1)
    """
    try:
        params = list(inspect.signature(func).parameters.values())
    except (TypeError, ValueError):
        return -1
    positional = (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    for i, p in enumerate(params):
        if p.kind not in positional:
            return -1
        if p.name == "out":
            return i
    return -1


def check_exact_out(
    name: str, result: Any, out: Any, error: type[Exception] = ValueError, same_dtype: bool = False
) -> None:
    """numpy's error for an ``out`` that is not of the result's shape (or, with
    ``same_dtype``, dtype and C order): a reduction is never broadcast into ``out``."""
    got, want = tuple(out.shape), tuple(result.shape)
    if got != want:
        raise error(f"{name}: output array has the wrong shape: expected {want}, got {got}")
    if same_dtype and (np.dtype(out.dtype) != result.dtype or not out.flags.c_contiguous):
        raise ValueError(
            f"{name}: output array is not acceptable: it must be C-contiguous, of the "
            f"result's dtype {result.dtype}; got dtype {np.dtype(out.dtype)}"
        )


def accepts_out(
    kind: str = "array",
    casting: str = "unsafe",
    exact: type[Exception] | None = ValueError,
    same_dtype: bool = False,
) -> Callable[[F], F]:
    """Give a namespace function numpy's ``out=`` (keyword or positional): the
    function computes its result as usual, which is then written into ``out``
    (:func:`write_out`) and ``out`` returned. Reductions and the other
    non-ufunc functions cast into ``out`` unsafely, as numpy's do, and need an
    ``out`` of exactly the result's shape (``exact``: the error numpy raises
    otherwise; None for a function that broadcasts into ``out`` as a ufunc
    does); ``same_dtype``: also of exactly its dtype, C-contiguous (``dot``).

    >>> import numpy
    >>> @accepts_out()
    ... def double(x, out=None):
    ...     return wrap(lt.multiply(as_variable(x), 2))
    >>> buf = numpy.zeros(2)
    >>> double([1, 2], out=buf) is buf, buf
    (True, array([2., 4.]))
    """

    def decorate(func: F) -> F:
        at = out_position(func)
        if at < 0:
            at = 1 << 30  # a keyword-only ``out`` (after ``*operands``): never positional
        name = func.__name__

        @functools.wraps(func)
        def with_out(*args: Any, **kwargs: Any) -> Any:
            if len(args) > at:
                out = args[at]
                if out is not None:
                    args = (*args[:at], None, *args[at + 1 :])
            else:
                out = kwargs.pop("out", None)
            if out is None:
                return func(*args, **kwargs)
            result = func(*args, **kwargs)
            if exact is not None:
                check_exact_out(name, result, single_out(name, out), exact, same_dtype)
            return write_out(name, result, out, casting=casting, kind=kind)

        return with_out  # type: ignore[return-value]

    return decorate
