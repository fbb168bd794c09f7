"""Arguments numpy hands an operation to: other array types' own semantics.

numpy lets other array types answer its functions. A ufunc call with an
operand whose type overrides ``__array_ufunc__`` (a pandas Series or
DataFrame, an xarray DataArray, an astropy or pint quantity) is that type's to
compute: pandas aligns two Series on their index. ``sum``, ``mean``, ``std``,
``max``, ``argmax``, ``round``, ``clip``... call the argument's own method
when it is not a plain ndarray: a pandas Series skips NaN, a masked array its
masked elements. An ndarray subclass (``numpy.ma`` masked arrays,
``numpy.matrix``) keeps its meaning through both. Reading such an argument as
a plain array would drop that meaning (the mask, the alignment, the skipped
NaN) and give a different answer without a word. So a lazygraph.numpy ufunc
called with one, or one of those functions called with one as its array, runs
numpy's function of the same name: the answer (and its type) is numpy's, and
not lazy. lazygraph's own arrays, numpy arrays and memory maps, and the dask
and jax arrays lazygraph takes as inputs on those backends are not foreign.

Every other function reads a foreign argument through ``__array__``, as numpy
does (``numpy.where(series > 0, series, 0)`` is an ndarray in numpy too).

>>> import numpy
>>> import lazygraph.numpy as lnp
>>> masked = numpy.ma.array([1.0, 2.0, 30.0], mask=[False, False, True])
>>> float(lnp.mean(masked)), lnp.add(masked, 1).mask.tolist()
(1.5, [False, False, True])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = ["METHOD_OF", "deferring_function", "is_foreign", "numpy_call"]

#: numpy functions that call a non-ndarray argument's own method, and the
#: method's name (numpy/_core/fromnumeric.py: ``_wrapfunc``,
#: ``_wrapreduction``, and ``mean`` / ``std`` / ``var``)
METHOD_OF = {
    **{
        name: name
        for name in (
            "all", "any", "argmax", "argmin", "argpartition", "argsort", "choose", "clip",
            "compress", "cumprod", "cumsum", "max", "mean", "min", "nonzero", "prod", "put",
            "repeat", "reshape", "round", "searchsorted", "squeeze", "std", "sum",
            "swapaxes", "take", "transpose", "var",
        )
    },
    "amax": "max",
    "amin": "min",
    "around": "round",
}  # fmt: skip

#: types read as arrays without a look at their attributes (the common operands)
_PLAIN: set[type] = {np.ndarray, np.memmap, int, float, complex, bool, str, list, tuple, type(None)}
_OURS: list[type] = []  # lazygraph.numpy.Array, filled in at the first check


def _ours() -> type:
    if not _OURS:
        from lazygraph.numpy._array import Array

        _OURS.append(Array)
    return _OURS[0]


def _not_foreign(t: type) -> bool:
    if issubclass(t, (_ours(), np.generic, np.memmap)):
        return True
    module = t.__module__ or ""
    # dask and jax arrays are lazygraph inputs on their backends (_distributed,
    # the jax backend's device support): read as arrays, as before
    return module.startswith(("dask.", "jax", "jaxlib"))


def is_foreign(x: Any) -> bool:
    """Whether numpy would let ``x``'s own type compute a ufunc on it: an
    ndarray subclass other than a memory map, or a type overriding
    ``__array_ufunc__`` (see the module docstring)."""
    t = type(x)
    if t in _PLAIN or _not_foreign(t):
        return False
    if issubclass(t, np.ndarray):
        return True
    override = getattr(t, "__array_ufunc__", None)
    return override is not None and override is not np.ndarray.__array_ufunc__


def numpy_call(function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """numpy's ``function`` on the arguments, lazy arrays among them computed to
    the ndarrays they stand for (numpy would otherwise hand the call back to
    them through their own ``__array_ufunc__``)."""
    ours = _ours()
    args = tuple(np.asarray(a) if isinstance(a, ours) else a for a in args)
    kwargs = {k: np.asarray(v) if isinstance(v, ours) else v for k, v in kwargs.items()}
    return function(*args, **kwargs)


def deferring_function(public: str) -> Callable[[tuple[Any, ...], dict[str, Any]], Any] | None:
    """For the namespace function named ``public``, a check ``(args, kwargs) ->
    numpy's function or None``: numpy's function when the call has an argument
    numpy would hand the operation to; None for a function numpy never defers."""
    numpy_function = getattr(np, public, None) if "." not in public else None
    if isinstance(numpy_function, np.ufunc):

        def ufunc_operands(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
            for arg in args:
                if type(arg) not in _PLAIN and is_foreign(arg):
                    return numpy_function
            out = kwargs.get("out")
            if out is not None and any(
                is_foreign(o) for o in (out if type(out) is tuple else (out,))
            ):
                return numpy_function
            return None

        return ufunc_operands
    method = METHOD_OF.get(public)
    if method is None or numpy_function is None:
        return None

    def own_method(args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        a = args[0] if args else kwargs.get("a")
        if type(a) in _PLAIN or not is_foreign(a) or getattr(a, method, None) is None:
            return None
        return numpy_function

    return own_method
