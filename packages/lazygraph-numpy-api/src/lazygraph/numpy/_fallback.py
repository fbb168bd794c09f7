"""numpy's top-level names that are not array computation: eager fallbacks.

Printing (``array2string``, ``binary_repr``...), ``numpy.matrix`` helpers,
datetime and business-day functions, iteration helpers and numpy's process
settings have nothing to record lazily. Each function here computes its lazy
arguments (all in one call), runs numpy's function and hands back numpy's
answer, as a lazy :class:`~lazygraph.numpy.Array` where that answer is a plain
numeric ``numpy.ndarray`` or scalar. Nothing lazy is lost, so none of them
warns (unlike :func:`~lazygraph.numpy._interop.numpy_fallback`). The file
readers and writers are in :mod:`lazygraph.numpy._fallback_io`, re-exported here.

Each fallback is a plain function marked by :func:`fallback_of`: it carries
``__lazygraph_fallback__ = True`` (the tests and the docs' coverage table read
it) and shows numpy's signature (``inspect.signature`` follows ``__wrapped__``).
numpy's classes (``matrix``, ``recarray``, ``memmap``, ``nditer``...) and its
process settings (``setbufsize``, ``seterrcall``...) are numpy's own objects,
re-exported as they are: their constructors take lazy arrays through
``__array__``. The submodules numpy has (``testing``, ``ma``, ``polynomial``,
``lib``...) are registered at the bottom.

>>> import numpy
>>> import lazygraph.numpy as lnp
>>> lnp.array_str(lnp.arange(3) * 2) == numpy.array_str(numpy.arange(3) * 2)
True
>>> lnp.matrix is numpy.matrix
True
"""

from __future__ import annotations

import inspect
import os
import sys
from collections.abc import Callable
from typing import Any, TypeVar

import numpy as np
from lazygraph.numpy._interop import compute_arguments, wrap_result

F = TypeVar("F", bound=Callable[..., Any])

_PACKAGE_DIR = os.path.dirname(os.path.abspath(__file__)) + os.sep


def fallback_of(numpy_function: Callable[..., Any]) -> Callable[[F], F]:
    """Mark the decorated function as the eager fallback of ``numpy_function``.

    It gets ``__lazygraph_fallback__ = True`` and, where numpy's function has a
    signature ``inspect`` can read, ``__wrapped__ = numpy_function`` (so
    ``inspect.signature`` shows numpy's parameters); its own name and docstring
    stay.

    >>> import inspect
    >>> import numpy
    >>> @fallback_of(numpy.binary_repr)
    ... def binary_repr(*args, **kwargs):
    ...     return numpy.binary_repr(*args, **kwargs)
    >>> binary_repr.__lazygraph_fallback__, str(inspect.signature(binary_repr))
    (True, '(num, width=None)')
    """

    def mark(function: F) -> F:
        try:
            inspect.signature(numpy_function)
        except (TypeError, ValueError):  # (a builtin without a text signature)
            pass
        else:
            function.__wrapped__ = numpy_function  # type: ignore[attr-defined]
        function.__lazygraph_fallback__ = True  # type: ignore[attr-defined]
        return function

    return mark


def lazy_if_numeric(result: Any) -> Any:
    """``result`` with plain numeric ndarrays and numpy scalars as lazy arrays;
    numpy's ndarray subclasses (matrix, memmap, masked and record arrays) and
    everything else as numpy gave them.

    >>> import numpy
    >>> lazy_if_numeric((numpy.arange(2), numpy.asmatrix([[1]]), "x"))[0].compute()
    array([0, 1])
    """
    if isinstance(result, np.ndarray) and type(result) is not np.ndarray:
        return result
    if isinstance(result, tuple) and not hasattr(result, "_fields"):
        return tuple(lazy_if_numeric(r) for r in result)
    if isinstance(result, list):
        return [lazy_if_numeric(r) for r in result]
    return wrap_result(result)


def run_numpy(
    numpy_function: Callable[..., Any],
    args: tuple[Any, ...],
    kwargs: dict[str, Any],
    *,
    lazy_result: bool = True,
) -> Any:
    """Compute the lazy arguments (in one call), run ``numpy_function``, and give
    its result, numeric arrays as lazy arrays unless ``lazy_result`` is False.
    No warning: the callers lose nothing lazy.

    >>> import numpy
    >>> import lazygraph.numpy as lnp
    >>> run_numpy(numpy.binary_repr, (lnp.asarray(5),), {})
    '101'
    """
    values, kwvalues = compute_arguments(args, kwargs)
    result = numpy_function(*values, **kwvalues)
    return lazy_if_numeric(result) if lazy_result else result


# -- printing -----------------------------------------------------------------------


@fallback_of(np.array2string)
def array2string(a: Any, *args: Any, **kwargs: Any) -> str:
    """``numpy.array2string`` of the computed array: numpy's text, character for
    character (numpy's print options apply).

    >>> import lazygraph.numpy as lnp
    >>> lnp.array2string(lnp.linspace(0.0, 1.0, 3), separator=", ")
    '[0. , 0.5, 1. ]'
    """
    return run_numpy(np.array2string, (a, *args), kwargs)


@fallback_of(np.array_repr)
def array_repr(arr: Any, *args: Any, **kwargs: Any) -> str:
    """``numpy.array_repr`` of the computed array (``array([...])``, as numpy
    prints it).

    >>> import lazygraph.numpy as lnp
    >>> lnp.array_repr(lnp.arange(3.0))
    'array([0., 1., 2.])'
    """
    return run_numpy(np.array_repr, (arr, *args), kwargs)


@fallback_of(np.array_str)
def array_str(a: Any, *args: Any, **kwargs: Any) -> str:
    """``numpy.array_str`` of the computed array (``str`` of numpy's array).

    >>> import lazygraph.numpy as lnp
    >>> lnp.array_str(lnp.eye(2, dtype="int64"))
    '[[1 0]\\n [0 1]]'
    """
    return run_numpy(np.array_str, (a, *args), kwargs)


def _as_scalar(x: Any) -> Any:
    """A lazy 0-d array as the numpy scalar it stands for (numpy formats a
    float32 scalar as float32, but a 0-d float32 array as a Python float)."""
    (value,), _ = compute_arguments((x,), {})
    return value[()] if isinstance(value, np.ndarray) and value.ndim == 0 else value


@fallback_of(np.format_float_positional)
def format_float_positional(x: Any, *args: Any, **kwargs: Any) -> str:
    """``numpy.format_float_positional`` of a float; a lazy 0-d array is computed
    and formatted as the numpy scalar of its dtype.

    >>> import lazygraph.numpy as lnp
    >>> lnp.format_float_positional(lnp.asarray(0.1, dtype="float32"))
    '0.1'
    >>> lnp.format_float_positional(lnp.asarray(0.1) * 3, precision=4)
    '0.3000'
    """
    return run_numpy(np.format_float_positional, (_as_scalar(x), *args), kwargs)


@fallback_of(np.format_float_scientific)
def format_float_scientific(x: Any, *args: Any, **kwargs: Any) -> str:
    """``numpy.format_float_scientific`` of a float; a lazy 0-d array is computed
    and formatted as the numpy scalar of its dtype.

    >>> import lazygraph.numpy as lnp
    >>> lnp.format_float_scientific(lnp.asarray(1234.5), exp_digits=3)
    '1.2345e+003'
    """
    return run_numpy(np.format_float_scientific, (_as_scalar(x), *args), kwargs)


@fallback_of(np.base_repr)
def base_repr(number: Any, base: int = 2, padding: int = 0) -> str:
    """``numpy.base_repr``: ``number`` written in ``base`` (up to 36).

    >>> import lazygraph.numpy as lnp
    >>> lnp.base_repr(lnp.asarray(255), 16)
    'FF'
    """
    return run_numpy(np.base_repr, (number, base, padding), {})


@fallback_of(np.binary_repr)
def binary_repr(num: Any, width: int | None = None) -> str:
    """``numpy.binary_repr``: ``num`` in binary (two's complement with ``width``).

    >>> import lazygraph.numpy as lnp
    >>> lnp.binary_repr(-3, width=4)
    '1101'
    """
    return run_numpy(np.binary_repr, (num, width), {})


# -- numpy.matrix ----------------------------------------------------------------------


@fallback_of(np.asmatrix)
def asmatrix(data: Any, dtype: Any = None) -> np.matrix[Any, Any]:
    """``numpy.asmatrix`` of the computed data: a ``numpy.matrix`` (numpy's class,
    which lazygraph does not record; its ``*`` is a matrix product).

    >>> import lazygraph.numpy as lnp
    >>> m = lnp.asmatrix(lnp.eye(2))
    >>> type(m).__name__, (m * m).tolist()
    ('matrix', [[1.0, 0.0], [0.0, 1.0]])
    """
    return run_numpy(np.asmatrix, (data, dtype), {}, lazy_result=False)


@fallback_of(np.bmat)
def bmat(obj: Any, ldict: Any = None, gdict: Any = None) -> np.matrix[Any, Any]:
    """``numpy.bmat``: a ``numpy.matrix`` built from blocks (lazy blocks are
    computed; a string names the blocks in the caller's variables, as numpy's
    does).

    >>> import lazygraph.numpy as lnp
    >>> lnp.bmat([[lnp.eye(1), lnp.zeros((1, 1))]]).tolist()
    [[1.0, 0.0]]
    """
    if isinstance(obj, str) and ldict is None:
        # numpy reads the names from its caller's frame, which would be lazygraph's
        caller = sys._getframe(1)
        while caller.f_back is not None and caller.f_code.co_filename.startswith(_PACKAGE_DIR):
            caller = caller.f_back
        ldict, gdict = caller.f_locals, caller.f_globals
    return run_numpy(np.bmat, (obj, ldict, gdict), {}, lazy_result=False)


# -- datetime and business days ---------------------------------------------------------


@fallback_of(np.busday_count)
def busday_count(begindates: Any, enddates: Any, *args: Any, **kwargs: Any) -> Any:
    """``numpy.busday_count``: valid days between two dates (a lazy int64 array).

    >>> import lazygraph.numpy as lnp
    >>> int(lnp.busday_count("2024-01-01", "2024-02-01"))
    23
    """
    return run_numpy(np.busday_count, (begindates, enddates, *args), kwargs)


@fallback_of(np.busday_offset)
def busday_offset(dates: Any, offsets: Any, *args: Any, **kwargs: Any) -> Any:
    """``numpy.busday_offset``: dates moved by valid days (numpy's datetime64
    result; lazy offsets are computed).

    >>> import lazygraph.numpy as lnp
    >>> str(lnp.busday_offset("2024-01-05", lnp.asarray(1)))
    '2024-01-08'
    """
    return run_numpy(np.busday_offset, (dates, offsets, *args), kwargs)


@fallback_of(np.is_busday)
def is_busday(dates: Any, *args: Any, **kwargs: Any) -> Any:
    """``numpy.is_busday``: whether each date is a valid day (a lazy bool array).

    >>> import lazygraph.numpy as lnp
    >>> lnp.is_busday(["2024-01-06", "2024-01-08"]).tolist()
    [False, True]
    """
    return run_numpy(np.is_busday, (dates, *args), kwargs)


@fallback_of(np.datetime_as_string)
def datetime_as_string(arr: Any, *args: Any, **kwargs: Any) -> Any:
    """``numpy.datetime_as_string`` (numpy's string array).

    >>> import numpy
    >>> import lazygraph.numpy as lnp
    >>> lnp.datetime_as_string(numpy.datetime64("2024-01-02T03:04"), unit="D")
    np.str_('2024-01-02')
    """
    return run_numpy(np.datetime_as_string, (arr, *args), kwargs)


@fallback_of(np.datetime_data)
def datetime_data(dtype: Any, /) -> tuple[str, int]:
    """``numpy.datetime_data``: the unit and count of a datetime64/timedelta64 dtype.

    >>> import lazygraph.numpy as lnp
    >>> lnp.datetime_data("m8[5s]")
    ('s', 5)
    """
    return np.datetime_data(dtype)


@fallback_of(np.isnat)
def isnat(x: Any, /, *args: Any, **kwargs: Any) -> Any:
    """``numpy.isnat``: which datetimes are NaT (a lazy bool array; lazygraph's
    own arrays are never datetimes, so for them it raises numpy's TypeError).

    >>> import numpy
    >>> import lazygraph.numpy as lnp
    >>> lnp.isnat(numpy.array(["NaT", "2024-01-01"], dtype="M8[D]")).tolist()
    [True, False]
    """
    return run_numpy(np.isnat, (x, *args), kwargs)


# -- iteration --------------------------------------------------------------------------


@fallback_of(np.nested_iters)
def nested_iters(op: Any, axes: Any, *args: Any, **kwargs: Any) -> tuple[np.nditer, ...]:
    """``numpy.nested_iters`` over the computed operands (numpy's iterators).

    >>> import lazygraph.numpy as lnp
    >>> outer, inner = lnp.nested_iters(lnp.arange(4).reshape(2, 2), [[0], [1]])
    >>> [[int(v) for v in inner] for _ in outer]
    [[0, 1], [2, 3]]
    """
    return run_numpy(np.nested_iters, (op, axes, *args), kwargs, lazy_result=False)


# -- numpy's own objects, re-exported as they are ---------------------------------------

#: numpy's classes: their constructors take lazy arrays (through ``__array__``)
matrix = np.matrix
broadcast = np.broadcast
busdaycalendar = np.busdaycalendar
flatiter = np.flatiter
memmap = np.memmap
nditer = np.nditer
recarray = np.recarray
record = np.record

#: numpy's process settings and introspection (lazygraph runs numpy's kernels in
#: the same process, so they are one and the same setting)
get_include = np.get_include
getbufsize = np.getbufsize
setbufsize = np.setbufsize
geterrcall = np.geterrcall
seterrcall = np.seterrcall
info = np.info
show_config = np.show_config
show_runtime = np.show_runtime
test = np.test

_OWN = [
    "array2string",
    "array_repr",
    "array_str",
    "asmatrix",
    "base_repr",
    "binary_repr",
    "bmat",
    "broadcast",
    "busday_count",
    "busday_offset",
    "busdaycalendar",
    "datetime_as_string",
    "datetime_data",
    "flatiter",
    "format_float_positional",
    "format_float_scientific",
    "get_include",
    "getbufsize",
    "geterrcall",
    "info",
    "is_busday",
    "isnat",
    "matrix",
    "memmap",
    "nditer",
    "nested_iters",
    "recarray",
    "record",
    "setbufsize",
    "seterrcall",
    "show_config",
    "show_runtime",
    "test",
]

# The file readers and writers, and the submodules numpy has. Imported last:
# lib.stride_tricks marks its fallback with fallback_of, defined above.
from lazygraph.numpy import (  # noqa: E402
    _fallback_io,
    char,
    core,
    ctypeslib,
    dtypes,
    exceptions,
    f2py,
    lib,
    ma,
    polynomial,
    rec,
    strings,
    testing,
    typing,
)
from lazygraph.numpy._fallback_io import *  # noqa: E402, F403

SUBMODULES = {
    "char": char,
    "core": core,
    "ctypeslib": ctypeslib,
    "dtypes": dtypes,
    "exceptions": exceptions,
    "f2py": f2py,
    "lib": lib,
    "ma": ma,
    "polynomial": polynomial,
    "rec": rec,
    "strings": strings,
    "testing": testing,
    "typing": typing,
}

__all__ = sorted([*_OWN, *_fallback_io.__all__, *SUBMODULES])
