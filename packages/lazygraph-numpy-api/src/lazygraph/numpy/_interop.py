"""numpy interoperability: ``__array_ufunc__`` and ``__array_function__`` for
:class:`~lazygraph.numpy.Array`, so that numpy's own functions called on lazy
arrays stay lazy, and the numpy fallback for the functions lazygraph.numpy
does not implement.

A numpy ufunc or function is mapped *by name* onto ``lazygraph.numpy`` (or its
``linalg`` / ``fft`` submodules). Where there is no lazy version, the lazy
arguments are computed, numpy is called, and array results are wrapped back
into lazy arrays; this warns once per function with
:class:`LazygraphFallbackWarning` (``lazygraph.config.on_numpy_fallback``:
``"warn"``, ``"raise"`` or ``"ignore"``).

>>> import numpy
>>> import lazygraph.numpy as lnp
>>> x = lnp.asarray(numpy.array([0.0, 1.0]))
>>> y = numpy.exp(x)
>>> type(y).__name__, y.compute()
('Array', array([1.        , 2.71828183]))
"""

from __future__ import annotations

import importlib
import os
import sys
import threading
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
from lazygraph.numpy._array import Array
from lazygraph.numpy._errors import UnsupportedArgumentsError

__all__ = ["LazygraphFallbackError", "LazygraphFallbackWarning"]


class LazygraphFallbackWarning(UserWarning):
    """A numpy function without a lazy version computed its lazy arguments and ran
    in numpy (``lazygraph.config.on_numpy_fallback = "warn"``)."""


class LazygraphFallbackError(NotImplementedError):
    """Raised instead of falling back to numpy when
    ``lazygraph.config.on_numpy_fallback == "raise"``."""


_warned: set[str] = set()
_dispatching = threading.local()

# numpy module -> the lazygraph.numpy module with the same names.
_MODULES = {
    "numpy": "lazygraph.numpy",
    "numpy.linalg": "lazygraph.numpy.linalg",
    "numpy.fft": "lazygraph.numpy.fft",
    "numpy.lib.scimath": "lazygraph.numpy.emath",
    "numpy.lib.stride_tricks": "lazygraph.numpy.lib.stride_tricks",
    "numpy.lib._stride_tricks_impl": "lazygraph.numpy.lib.stride_tricks",
}


def _lazy_function(module: str, name: str) -> Callable[..., Any] | None:
    target = _MODULES.get(module)
    if target is None:
        return None
    mod = importlib.import_module(target)
    fn = getattr(mod, name, None)
    return fn if callable(fn) else None


def _has_lazy(obj: Any) -> bool:
    if isinstance(obj, Array):
        return True
    if isinstance(obj, (list, tuple)):
        return any(_has_lazy(o) for o in obj)
    if isinstance(obj, dict):
        return any(_has_lazy(o) for o in obj.values())
    return False


def _computed(obj: Any, lazy: list[Array]) -> Any:
    """``obj`` with each lazy array replaced by its value (``lazy`` lists them in order)."""
    if isinstance(obj, Array):
        lazy.append(obj)
        return obj
    if isinstance(obj, (list, tuple)) and _has_lazy(obj):
        items = [_computed(o, lazy) for o in obj]
        return type(obj)(*items) if hasattr(obj, "_fields") else type(obj)(items)
    if isinstance(obj, dict) and _has_lazy(obj):
        return {k: _computed(v, lazy) for k, v in obj.items()}
    return obj


def _substitute(obj: Any, values: dict[int, np.ndarray]) -> Any:
    if isinstance(obj, Array):
        return values[id(obj)]
    if isinstance(obj, (list, tuple)) and _has_lazy(obj):
        items = [_substitute(o, values) for o in obj]
        return type(obj)(*items) if hasattr(obj, "_fields") else type(obj)(items)
    if isinstance(obj, dict) and _has_lazy(obj):
        return {k: _substitute(v, values) for k, v in obj.items()}
    return obj


def compute_arguments(args: Any, kwargs: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    """``args`` and ``kwargs`` with every lazy array computed (in one call)."""
    from lazygraph.numpy._compute import compute

    lazy: list[Array] = []
    _computed((args, kwargs), lazy)
    unique = list({id(a): a for a in lazy}.values())
    values = dict(zip((id(a) for a in unique), compute(*unique), strict=True))
    return _substitute(args, values), _substitute(kwargs, values)


def wrap_result(result: Any) -> Any:
    """numpy arrays and scalars in ``result`` as lazy arrays (bound to their values)."""
    from lazygraph.numpy._convert import asarray

    if isinstance(result, (np.ndarray, np.generic)) and not isinstance(result, np.str_):
        if result.dtype.kind in "biufc":
            try:
                return asarray(result, copy=True)
            except TypeError:
                return result  # a dtype lazygraph does not support (float16, ...)
        return result
    if isinstance(result, tuple):
        items = [wrap_result(r) for r in result]
        return type(result)(*items) if hasattr(result, "_fields") else tuple(items)
    if isinstance(result, list):
        return [wrap_result(r) for r in result]
    return result


_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__))


def _user_stacklevel() -> int:
    """The ``stacklevel`` that points a warning at the first frame outside
    lazygraph.numpy (the user's line)."""
    frame = sys._getframe(1)
    level = 1
    while frame is not None and os.path.dirname(frame.f_code.co_filename) == _PACKAGE_DIR:
        frame = frame.f_back  # type: ignore[assignment]
        level += 1
    return level


def _note_fallback(name: str, reason: str = "") -> None:
    from lazygraph.configuration import config

    mode = config.on_numpy_fallback
    msg = (
        f"{name} has no lazy lazygraph version{reason}: its lazy arguments are computed and "
        "numpy runs it (set lazygraph.config.on_numpy_fallback to 'ignore' or 'raise')"
    )
    if mode == "raise":
        raise LazygraphFallbackError(msg)
    if mode == "warn" and name not in _warned:
        _warned.add(name)
        warnings.warn(msg, LazygraphFallbackWarning, stacklevel=_user_stacklevel())


def numpy_fallback(
    func: Callable[..., Any], name: str, args: Any, kwargs: dict[str, Any], reason: str = ""
) -> Any:
    """Compute the lazy arguments, call ``func`` (a numpy function), wrap the result.

    numpy functions that write into an argument (``fill_diagonal``, ``put``,
    ``place``, ``putmask``, ``put_along_axis``) write into its computed value,
    which is then assigned back to the lazy array (``a[...] = value``).
    """
    _note_fallback(name, reason)
    values, kwargs_values = compute_arguments(args, kwargs)
    result = func(*values, **kwargs_values)
    mutates = getattr(func, "__name__", "") in _MUTATES_FIRST_ARGUMENT
    if mutates and args and isinstance(args[0], Array):
        args[0][...] = values[0]
    return wrap_result(result)


#: numpy functions (by name) that write their result into their first argument.
_MUTATES_FIRST_ARGUMENT = frozenset(("fill_diagonal", "put", "place", "putmask", "put_along_axis"))


# -- __array_ufunc__ ---------------------------------------------------------------


def array_ufunc(
    ufunc: np.ufunc, method: str, inputs: tuple[Any, ...], kwargs: dict[str, Any]
) -> Any:
    """``Array.__array_ufunc__``: the lazy version of ``ufunc.<method>(*inputs)``."""
    if not all(_known_operand(x) for x in (*inputs, *(kwargs.get("out") or ()))):
        return NotImplemented  # another array type: let it handle the ufunc
    if any(type(x) is not np.ndarray and isinstance(x, np.ndarray) for x in inputs):
        # an ndarray subclass with a meaning of its own (a masked array, a
        # matrix): numpy's ufunc on the computed operands gives its type
        from lazygraph.numpy._foreign import is_foreign, numpy_call

        if any(is_foreign(x) for x in inputs):
            return numpy_call(getattr(ufunc, method), *inputs, **kwargs)
    name = ufunc.__name__
    out = kwargs.pop("out", None)
    if out is not None:
        return _with_out(ufunc, method, inputs, kwargs, out)
    if method == "__call__":
        fn = _lazy_function("numpy", name)
        if fn is not None:
            try:
                return fn(*inputs, **kwargs)
            except UnsupportedArgumentsError as exc:  # (any other error is a bug: it surfaces)
                reason = f" for these arguments ({exc})"
                return numpy_fallback(ufunc, f"numpy.{name}", inputs, kwargs, reason)
    else:  # reduce, accumulate, outer, at, reduceat: the namespace ufunc's method
        lazy = _lazy_function("numpy", name)
        if lazy is not None and hasattr(lazy, method):
            return getattr(lazy, method)(*inputs, **kwargs)
    label = f"numpy.{name}" if method == "__call__" else f"numpy.{name}.{method}"
    return numpy_fallback(getattr(ufunc, method), label, inputs, kwargs)


def _known_operand(x: Any) -> bool:
    if isinstance(x, (Array, np.ndarray, np.generic, bool, int, float, complex, list, tuple)):
        return True
    from lazygraph.numpy._distributed import is_dask_array

    # a dask array defers to us: lazy on the dask backend, gathered elsewhere
    # (see _distributed), as an operator with it does
    return x is None or not hasattr(x, "__array_ufunc__") or is_dask_array(x)


def _with_out(
    ufunc: np.ufunc, method: str, inputs: tuple[Any, ...], kwargs: dict[str, Any], out: Any
) -> Any:
    """``ufunc(..., out=...)``: lazy outputs are rebound; numpy outputs are written."""
    outs = out if isinstance(out, tuple) else (out,)
    lazy = _lazy_function("numpy", ufunc.__name__)
    if len(outs) == 1 and lazy is not None and (method == "__call__" or hasattr(lazy, method)):
        # the namespace ufunc's out= (numpy's casting rules; a numpy buffer is
        # written with the computed result: nothing is lost by not warning)
        call = lazy if method == "__call__" else getattr(lazy, method)
        if method != "at":
            return call(*inputs, out=outs[0], **kwargs)
    if method == "__call__" and all(isinstance(o, Array) for o in outs):
        result = array_ufunc(ufunc, method, inputs, kwargs)
        results = result if isinstance(result, tuple) else (result,)
        for o, r in zip(outs, results, strict=True):
            o[...] = r
        return outs[0] if ufunc.nout == 1 else outs
    kwargs["out"] = out
    name = f"numpy.{ufunc.__name__}" if method == "__call__" else f"numpy.{ufunc.__name__}.{method}"
    _note_fallback(name, " with out=")
    (inputs, kwargs) = compute_arguments(inputs, kwargs)
    return getattr(ufunc, method)(*inputs, **kwargs)


# -- __array_function__ ---------------------------------------------------------------


def _shape(a: Any) -> Any:
    shape = a.shape if isinstance(a, Array) else np.shape(a)
    if None in shape:
        return np.shape(np.asarray(a))
    return shape


#: numpy functions answered without computing (static facts) or with special semantics.
_SPECIAL: dict[str, Callable[..., Any]] = {
    "shape": _shape,
    "ndim": lambda a: a.ndim if isinstance(a, Array) else np.ndim(a),
}


def array_function(func: Callable[..., Any], types: Any, args: Any, kwargs: dict[str, Any]) -> Any:
    """``Array.__array_function__``: numpy's ``func`` on lazy arrays, lazily where
    lazygraph.numpy has a function of the same name."""
    if not all(issubclass(t, (Array, np.ndarray)) for t in types):
        return NotImplemented
    name = func.__name__
    module = getattr(func, "__module__", "") or ""
    if module == "numpy" and name in _SPECIAL:
        return _SPECIAL[name](*args, **kwargs)
    fn = _lazy_function(module, name)
    label = f"{module}.{name}"
    active = _dispatching.__dict__.setdefault("active", set())
    if fn is not None and fn is not func and func not in active:
        # A lazy version that itself calls numpy's function on lazy arrays must not
        # come back here forever: the inner call falls back to numpy.
        active.add(func)
        try:
            return fn(*args, **kwargs)
        except UnsupportedArgumentsError as exc:  # (any other error is a bug: it surfaces)
            return numpy_fallback(func, label, args, kwargs, reason=f" for these arguments ({exc})")
        finally:
            active.discard(func)
    return numpy_fallback(func, label, args, kwargs)
