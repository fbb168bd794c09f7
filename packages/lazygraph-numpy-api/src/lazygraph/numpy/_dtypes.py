"""Data types, their inspection functions, and the constants.

The dtype objects are numpy's own, so ``lazygraph.numpy.float64 is
numpy.float64``: ``np.float64(1.0)`` and ``dtype=np.float32`` keep working in
code that changed only its import line. lazygraph has no float16: it is exported
so the name resolves, but a float16 array is a TypeError.

Promotion is numpy 2's (NEP 50): arrays (ours or numpy's) and numpy scalars
are strong, Python scalars weak.

>>> import numpy
>>> x = astype([1, 2], int8)
>>> float64 is numpy.float64, result_type(x, 1), result_type(x, 1.0)
(True, dtype('int8'), dtype('float64'))
"""

from __future__ import annotations

import math
from typing import Any

import lazygraph.tensor as lt
import numpy as np
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import as_variable, wrap
from lazygraph.numpy._ufunc import ArrayLike, DTypeLike
from lazygraph.tensor.dtypes import is_weak_scalar

__all__ = [
    "False_",
    "ScalarType",
    "True_",
    "astype",
    "bool",
    "bool_",
    "byte",
    "bytes_",
    "can_cast",
    "cdouble",
    "character",
    "clongdouble",
    "common_type",
    "complex64",
    "complex128",
    "complexfloating",
    "csingle",
    "datetime64",
    "double",
    "dtype",
    "e",
    "euler_gamma",
    "flexible",
    "float16",
    "float32",
    "float64",
    "floating",
    "generic",
    "half",
    "iinfo",
    "inexact",
    "inf",
    "int8",
    "int16",
    "int32",
    "int64",
    "int_",
    "intc",
    "integer",
    "intp",
    "isdtype",
    "issubdtype",
    "little_endian",
    "long",
    "longdouble",
    "longlong",
    "min_scalar_type",
    "mintypecode",
    "nan",
    "ndarray",
    "newaxis",
    "number",
    "object_",
    "pi",
    "promote_types",
    "result_type",
    "sctypeDict",
    "short",
    "signedinteger",
    "single",
    "str_",
    "timedelta64",
    "typecodes",
    "typename",
    "ubyte",
    "uint",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "uintc",
    "uintp",
    "ulong",
    "ulonglong",
    "unsignedinteger",
    "ushort",
    "void",
]

# -- dtypes: numpy's objects --------------------------------------------------

bool = np.bool
int8 = np.int8
int16 = np.int16
int32 = np.int32
int64 = np.int64
uint8 = np.uint8
uint16 = np.uint16
uint32 = np.uint32
uint64 = np.uint64
float16 = np.float16
float32 = np.float32
float64 = np.float64
complex64 = np.complex64
complex128 = np.complex128

bool_ = np.bool_
byte = np.byte
ubyte = np.ubyte
short = np.short
ushort = np.ushort
intc = np.intc
uintc = np.uintc
int_ = np.int_
uint = np.uint
intp = np.intp
uintp = np.uintp
longlong = np.longlong
ulonglong = np.ulonglong
half = np.half
single = np.single
double = np.double
csingle = np.csingle
cdouble = np.cdouble

dtype = np.dtype
generic = np.generic
number = np.number
integer = np.integer
signedinteger = np.signedinteger
unsignedinteger = np.unsignedinteger
inexact = np.inexact
floating = np.floating
complexfloating = np.complexfloating

# -- constants ----------------------------------------------------------------

e = math.e
pi = math.pi
inf = math.inf
nan = math.nan
euler_gamma = float(np.euler_gamma)
newaxis = None

# -- inspection ---------------------------------------------------------------


def _dtype_of(x: Any) -> Any:
    """What numpy's dtype functions accept for ``x``: a dtype for arrays (ours
    or numpy's) and dtype specifications, Python scalars unchanged (weak)."""
    if isinstance(x, Array):
        return np.dtype(x._var.dtype)
    if hasattr(x, "__lazygraph_variable__"):
        return np.dtype(x.__lazygraph_variable__().dtype)
    if isinstance(x, lt.TensorVariable):
        return np.dtype(x.dtype)
    if is_weak_scalar(x):
        return x
    if isinstance(x, np.ndarray | np.generic):
        return x.dtype
    return x


def result_type(*arrays_and_dtypes: ArrayLike | DTypeLike) -> np.dtype[Any]:
    """The dtype numpy 2 gives an operation on the arguments: arrays, numpy
    scalars and dtypes are strong, Python scalars weak (``numpy.result_type``).

    >>> result_type(float32, 1.0), result_type(float32, float64(1.0)), result_type(1, 2.0)
    (dtype('float32'), dtype('float64'), dtype('float64'))
    """
    if not arrays_and_dtypes:
        raise ValueError("result_type: at least one array or dtype is required")
    return np.result_type(*(_dtype_of(x) for x in arrays_and_dtypes))


def promote_types(type1: DTypeLike, type2: DTypeLike) -> np.dtype[Any]:
    """The smallest dtype both ``type1`` and ``type2`` cast to safely
    (``numpy.promote_types``).

    >>> promote_types(int8, uint8)
    dtype('int16')
    """
    return np.promote_types(_dtype_of(type1), _dtype_of(type2))


def can_cast(from_: ArrayLike | DTypeLike, to: DTypeLike, casting: str = "safe") -> bool:
    """Whether ``from_`` (an array or dtype) casts to ``to`` under the
    ``casting`` rule (``numpy.can_cast``).

    >>> can_cast(int8, float32), can_cast(float64, int64), can_cast(float64, int64, "unsafe")
    (True, False, True)
    """
    from_ = _dtype_of(from_)
    if is_weak_scalar(from_):
        raise TypeError(
            "can_cast() does not support Python int, float or complex; use a dtype "
            "or an array (numpy 2 behaviour)"
        )
    return np.can_cast(from_, _dtype_of(to), casting)  # type: ignore[arg-type]


def isdtype(dtype: DTypeLike, kind: Any) -> bool:
    """Whether ``dtype`` is of ``kind``: a dtype, one of ``'bool'``, ``'signed
    integer'``, ``'unsigned integer'``, ``'integral'``, ``'real floating'``,
    ``'complex floating'``, ``'numeric'``, or a tuple of those (``numpy.isdtype``).

    >>> isdtype(float32, "real floating"), isdtype(int8, ("bool", "unsigned integer"))
    (True, False)
    """
    return np.isdtype(_dtype_of(dtype), kind)


def issubdtype(arg1: DTypeLike, arg2: DTypeLike) -> bool:
    """Whether ``arg1`` is lower than or equal to ``arg2`` in numpy's type
    hierarchy (``numpy.issubdtype``).

    >>> issubdtype(float32, floating), issubdtype(int8, floating)
    (True, False)
    """
    return np.issubdtype(_dtype_of(arg1), _dtype_of(arg2))


def iinfo(type: ArrayLike | DTypeLike) -> np.iinfo[Any]:
    """The limits of an integer dtype, or of an array's integer dtype (``numpy.iinfo``).

    >>> iinfo(int8).min, iinfo(uint16).max
    (-128, 65535)
    """
    return np.iinfo(_dtype_of(type))


def astype(x: ArrayLike, dtype: DTypeLike, /, *, copy: bool = True, device: Any = None) -> Array:
    """``x`` converted to ``dtype`` with numpy's unsafe casting (array API
    ``astype``). A lazy array is a value, so ``copy`` changes nothing.

    >>> astype([1.7, -1.7], int32).compute()
    array([ 1, -1], dtype=int32)
    """
    return wrap(lt.cast(as_variable(x), np.dtype(dtype)))


# -- numpy's other scalar types and type utilities ---------------------------------
# (lazygraph computes bool, integer, float32/64 and complex64/128 arrays; the other
# types resolve so that isinstance checks, dtype= specs and type tables keep
# working, and an array of one is numpy's TypeError naming the dtype)

long = np.long
ulong = np.ulong
longdouble = np.longdouble
clongdouble = np.clongdouble
object_ = np.object_
str_ = np.str_
bytes_ = np.bytes_
void = np.void
character = np.character
flexible = np.flexible
datetime64 = np.datetime64
timedelta64 = np.timedelta64
False_ = np.False_
True_ = np.True_
ScalarType = np.ScalarType
sctypeDict = np.sctypeDict  # noqa: N816 (numpy's name)
typecodes = np.typecodes
little_endian = np.little_endian
typename = np.typename
mintypecode = np.mintypecode
min_scalar_type = np.min_scalar_type  # (of a lazy array: numpy reads its value)


def common_type(*arrays: Any) -> type:
    """The inexact scalar type all ``arrays`` convert to (``numpy.common_type``),
    from their dtypes alone: nothing is computed.

    >>> common_type(astype([1, 2], int8), astype([1.0], float32))
    <class 'numpy.float64'>
    """
    dtypes = [a.dtype for a in arrays]  # (a list has none: numpy's AttributeError too)
    return np.common_type(*(np.empty(0, dtype=d) for d in dtypes))  # type: ignore[no-any-return]


for _name in ("float128", "complex256"):  # where this platform's numpy has them
    if hasattr(np, _name):
        globals()[_name] = getattr(np, _name)
        __all__.append(_name)


class _ArrayType(type):
    """``isinstance(x, ndarray)`` for a lazy Array and a numpy array alike."""

    def __instancecheck__(cls, obj: Any) -> bool:
        return isinstance(obj, (Array, np.ndarray))

    def __subclasscheck__(cls, sub: type) -> bool:
        return issubclass(sub, (Array, np.ndarray))


class ndarray(metaclass=_ArrayType):  # noqa: N801 (numpy's name)
    """numpy's array type, for code that names it: ``isinstance(x, np.ndarray)``
    holds for a lazy :class:`Array` and for a numpy array, ``np.ndarray`` and
    ``np.ndarray[Any, np.dtype[np.float64]]`` are annotations, and
    ``np.ndarray(shape, dtype)`` makes an array as numpy's does (its contents
    unspecified there; zeros here), or views ``buffer``.

    >>> import numpy
    >>> from lazygraph.numpy import asarray
    >>> x = asarray(numpy.array([1.0, 2.0]))
    >>> isinstance(x, ndarray), isinstance(numpy.zeros(2), ndarray), isinstance([1.0], ndarray)
    (True, True, False)
    >>> ndarray((2, 3), dtype=int8).shape
    (2, 3)
    """

    def __new__(  # type: ignore[misc]
        cls,
        shape: Any,
        dtype: DTypeLike = float,
        buffer: Any = None,
        offset: int = 0,
        strides: Any = None,
        order: Any = None,
    ) -> Array:
        from lazygraph.numpy._convert import asarray
        from lazygraph.numpy._creation import zeros

        if buffer is None and strides is None:
            return zeros(shape, dtype=dtype, order=order or "C")  # type: ignore[no-any-return]
        made = np.ndarray(shape, dtype, buffer, offset, strides, order)
        return asarray(made)  # type: ignore[no-any-return]

    def __class_getitem__(cls, item: Any) -> Any:
        return cls
