"""``TensorType``: an n-d array type with a dtype and a static shape, and the
variable factories Theano users know (``dmatrix``, ``fvector``, ``lscalar``, ...).

Shape entries are ints where the size is known when the graph is built and
``None`` where it is not; a 1 means the dimension broadcasts.

>>> from lazygraph.tensor.type import TensorType, dmatrix
>>> TensorType("float32", (None, 3))
TensorType(float32, shape=(?, 3))
>>> x = dmatrix("x")
>>> x.type.dtype, x.type.ndim, x.type.broadcastable
('float64', 2, (False, False))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any, ClassVar

import numpy as np

from lazygraph.graph.basic import Type, Variable

__all__ = [
    "ALL_DTYPES",
    "COMPLEX_DTYPES",
    "FLOAT_DTYPES",
    "INT_DTYPES",
    "UINT_DTYPES",
    "TensorType",
    "bcol",
    "bmatrix",
    "brow",
    "bscalar",
    "btensor3",
    "bvector",
    "col",
    "dcol",
    "dmatrix",
    "drow",
    "dscalar",
    "dtensor3",
    "dtensor4",
    "dvector",
    "fcol",
    "fmatrix",
    "frow",
    "fscalar",
    "ftensor3",
    "ftensor4",
    "fvector",
    "icol",
    "imatrix",
    "irow",
    "iscalar",
    "itensor3",
    "ivector",
    "lcol",
    "lmatrix",
    "lrow",
    "lscalar",
    "ltensor3",
    "lvector",
    "matrix",
    "row",
    "scalar",
    "tensor",
    "tensor3",
    "tensor4",
    "tensor_type",
    "vector",
    "zmatrix",
    "zscalar",
    "zvector",
]

BOOL_DTYPES = ("bool",)
INT_DTYPES = ("int8", "int16", "int32", "int64")
UINT_DTYPES = ("uint8", "uint16", "uint32", "uint64")
FLOAT_DTYPES = ("float32", "float64")
COMPLEX_DTYPES = ("complex64", "complex128")
ALL_DTYPES = BOOL_DTYPES + INT_DTYPES + UINT_DTYPES + FLOAT_DTYPES + COMPLEX_DTYPES

_SUPPORTED = frozenset(ALL_DTYPES)
#: numpy's dtype (native byte order) -> its name, for the supported dtypes
_NAMES = {np.dtype(d): d for d in ALL_DTYPES}

#: The dtype of ``scalar()``, ``vector()``, ... when none is given.
DEFAULT_FLOAT = "float64"

ShapeLike = Sequence[int | None]


def normalize_dtype(dtype: Any) -> str:
    """The canonical dtype name, or ``TypeError`` for a dtype lazygraph does not support."""
    if isinstance(dtype, str) and dtype in _SUPPORTED:
        return dtype  # the common case, on the path of every TensorType(...)
    if isinstance(dtype, np.dtype):
        name = _NAMES.get(dtype)  # (a dtype's .name costs a microsecond)
        if name is not None:
            return name
    try:
        name = np.dtype(dtype).name
    except TypeError as exc:
        raise TypeError(f"data type {dtype!r} not understood") from exc
    if name not in ALL_DTYPES:
        raise TypeError(
            f"lazygraph does not support dtype {name!r}; supported: {', '.join(ALL_DTYPES)}"
        )
    return name


def _normalize_shape(shape: Iterable[int | None]) -> tuple[int | None, ...]:
    out = []
    for s in shape:
        if s is None:
            out.append(None)
            continue
        if isinstance(s, (bool, np.bool_)) or not isinstance(s, (int, np.integer)):
            raise TypeError(f"shape entries must be int or None, got {s!r}")
        if s < 0:
            raise ValueError(f"shape entries must be non-negative, got {s}")
        out.append(int(s))
    return tuple(out)


#: (class, dtype as given, shape as given) -> the type: types are values, and
#: recording a node makes one per output (normalising a dtype and a shape and
#: hashing them cost more than the rest of a small node)
_INTERNED: dict[tuple[Any, ...], Any] = {}
_INTERNED_MAX = 1 << 16


class _Interned(type):
    """The metaclass of :class:`TensorType`: ``TensorType(dtype, shape)`` of a
    tuple shape of Python ints and Nones gives the one type made for those
    arguments (an equal type either way: nothing changes a type once made)."""

    def __call__(cls, dtype: Any, shape: Any = ()) -> Any:
        if type(shape) is tuple:
            for s in shape:  # exact ints only: True == 1 and 1.0 == 1 are refused
                if type(s) is not int and s is not None:
                    break
            else:
                key = (cls, dtype, shape)
                try:
                    found = _INTERNED.get(key)
                except TypeError:  # an unhashable dtype argument
                    return super().__call__(dtype, shape)
                if found is None:
                    found = super().__call__(dtype, shape)
                    if len(_INTERNED) >= _INTERNED_MAX:
                        _INTERNED.clear()
                    _INTERNED[key] = found
                return found
        return super().__call__(dtype, shape)


def tensor_type(dtype: str, shape: tuple[int, ...]) -> TensorType:
    """``TensorType(dtype, shape)`` for a canonical dtype name and a static shape
    of Python ints, looked up in the interned types first: what a value's type
    costs on the paths that make one per small result (lazygraph.numpy).

    >>> tensor_type("float64", (2,)) is TensorType("float64", (2,))
    True
    """
    found = _INTERNED.get((TensorType, dtype, shape))
    return TensorType(dtype, shape) if found is None else found  # type: ignore[no-any-return]


class TensorType(Type, metaclass=_Interned):
    """An n-d array of ``dtype`` whose sizes are ``shape`` (ints, or ``None`` for unknown)."""

    __props__: ClassVar[tuple[str, ...]] = ("dtype", "shape")

    def __init__(self, dtype: Any, shape: ShapeLike = ()) -> None:
        self.dtype = normalize_dtype(dtype)
        self.shape = _normalize_shape(shape)
        self.numpy_dtype = np.dtype(self.dtype)
        self._hash = hash((TensorType, self.dtype, self.shape))
        # filter's fast path: an ndarray of this dtype and rank, sizes unconstrained
        self._any_sizes = all(d is None for d in self.shape)
        self._ndim = len(self.shape)

    # Equality is on the hot path of every replace and merge: keep it cheap.
    def __eq__(self, other: object) -> bool:
        return self is other or (
            type(other) is type(self)
            and self.dtype == other.dtype  # type: ignore[attr-defined]
            and self.shape == other.shape  # type: ignore[attr-defined]
        )

    def __hash__(self) -> int:
        return self._hash

    @property
    def ndim(self) -> int:
        return len(self.shape)

    @property
    def broadcastable(self) -> tuple[bool, ...]:
        """Which dimensions are known to have size 1."""
        return tuple(s == 1 for s in self.shape)

    def clone(self, dtype: Any = None, shape: ShapeLike | None = None) -> TensorType:
        """This type with another dtype and/or shape."""
        return type(self)(
            self.dtype if dtype is None else dtype, self.shape if shape is None else shape
        )

    def filter(self, data: Any, strict: bool = False, allow_downcast: bool | None = None) -> Any:
        """``data`` as an ndarray of this type, or ``TypeError`` explaining why not.

        Without ``strict``, data of another dtype is converted when numpy's
        ``can_cast(..., "same_kind")`` allows it without loss of kind (or always,
        with ``allow_downcast``); Python scalars convert when they fit.
        """
        if (
            type(data) is np.ndarray
            and self._any_sizes
            and data.ndim == self._ndim
            and data.dtype == self.numpy_dtype
        ):
            return data  # the common case of a compiled function's call
        if isinstance(data, np.ndarray) and data.dtype == self.numpy_dtype:
            arr = data
        elif strict:
            got = type(data).__name__
            if hasattr(data, "dtype"):
                got += f" of dtype {data.dtype}"
            raise TypeError(f"expected an ndarray of dtype {self.dtype}, got {got}")
        else:
            arr = self._convert(data, allow_downcast)
        if arr.ndim != self.ndim:
            raise TypeError(
                f"expected an array with {self.ndim} dimensions for {self}, got shape {arr.shape}"
            )
        for i, (want, got) in enumerate(zip(self.shape, arr.shape, strict=True)):
            if want is not None and want != got:
                raise TypeError(
                    f"expected shape {self._shape_str()} for {self}, "
                    f"got {arr.shape} (dimension {i})"
                )
        return arr

    def _convert(self, data: Any, allow_downcast: bool | None) -> np.ndarray:
        if isinstance(data, (bool, int, float, complex)) and not isinstance(data, np.generic):
            # Python scalars are weak (NEP 50): they take the type's dtype if they fit.
            try:
                return np.asarray(data, dtype=self.numpy_dtype)
            except (OverflowError, ValueError) as exc:
                raise TypeError(f"{data!r} does not fit in {self.dtype}: {exc}") from exc
        arr = np.asarray(data)
        if arr.dtype == object:
            raise TypeError(f"cannot convert {type(data).__name__} to an array of {self.dtype}")
        if arr.dtype == self.numpy_dtype:
            return arr
        if allow_downcast or np.can_cast(arr.dtype, self.numpy_dtype, "safe"):
            return arr.astype(self.numpy_dtype)
        raise TypeError(
            f"cannot convert data of dtype {arr.dtype} to {self.dtype} without loss "
            f"(pass allow_downcast=True, or cast first)"
        )

    # type.py and variable.py need each other; importing the variable classes
    # when first used lets either module be imported first.
    def make_variable(self, name: str | None = None) -> Variable:
        cls = _VARIABLE_CLASS
        if cls is None:  # first use (see above)
            cls = _variable_class()
        return cls(self, None, None, name)  # type: ignore[no-any-return]

    def make_constant(self, data: Any, name: str | None = None) -> Variable:
        from lazygraph.tensor.variable import TensorConstant

        return TensorConstant(self, data, name)

    def is_valid_value(self, data: Any) -> bool:
        try:
            self.filter(data, strict=True)
        except TypeError:
            return False
        return True

    def values_eq(self, a: Any, b: Any) -> bool:
        """Same shape, same dtype, same values (NaN equals NaN)."""
        a, b = np.asarray(a), np.asarray(b)
        if a.shape != b.shape or a.dtype != b.dtype:
            return False
        return bool(np.array_equal(a, b, equal_nan=a.dtype.kind in "fc"))

    def values_eq_approx(
        self, a: Any, b: Any, rtol: float | None = None, atol: float | None = None
    ) -> bool:
        a, b = np.asarray(a), np.asarray(b)
        if a.shape != b.shape:
            return False
        if a.dtype.kind not in "fc":
            return bool(np.array_equal(a, b))
        if rtol is None:
            rtol = 1e-4 if a.dtype in (np.float32, np.complex64) else 1e-7
        if atol is None:
            atol = 1e-6 if a.dtype in (np.float32, np.complex64) else 1e-12
        return bool(np.allclose(a, b, rtol=rtol, atol=atol, equal_nan=True))

    def constant_key(self, data: Any) -> Any:
        # Bytes, not values: 0.0 and -0.0 (or two NaN payloads) are different constants.
        arr = np.ascontiguousarray(data)
        return (arr.dtype.str, arr.shape, arr.tobytes())

    def convert_variable(self, var: Variable) -> Variable | None:
        """``var`` itself when its type is this type or a more specific one."""
        vt = var.type
        if vt == self:
            return var
        if (
            isinstance(vt, TensorType)
            and vt.dtype == self.dtype
            and vt.ndim == self.ndim
            and all(s is None or s == t for s, t in zip(self.shape, vt.shape, strict=True))
        ):
            return var
        return None

    def is_super(self, other: Type) -> bool:
        """Whether every value of ``other`` is a value of this type."""
        return isinstance(other, TensorType) and self.convert_variable(other()) is not None

    def _shape_str(self) -> str:
        inner = ", ".join("?" if s is None else str(s) for s in self.shape)
        return f"({inner}{',' if len(self.shape) == 1 else ''})"

    def __str__(self) -> str:
        return f"TensorType({self.dtype}, shape={self._shape_str()})"

    def __repr__(self) -> str:
        return str(self)


# -- variable factories -------------------------------------------------------


def tensor(dtype: Any = None, shape: ShapeLike | None = None, name: str | None = None) -> Variable:
    """A new input variable of ``TensorType(dtype, shape)`` (dtype defaults to float64)."""
    if shape is None:
        raise TypeError("tensor() needs a shape: a tuple of ints or None, one per dimension")
    return TensorType(DEFAULT_FLOAT if dtype is None else dtype, shape)(name)


def _factory(ndim_shape: tuple[int | None, ...], dtype: str | None, doc: str) -> Any:
    def make(
        name: str | None = None, dtype: Any = dtype, shape: ShapeLike | None = None
    ) -> Variable:
        return TensorType(DEFAULT_FLOAT if dtype is None else dtype, shape or ndim_shape)(name)

    make.__doc__ = doc
    return make


# Theano's prefixes: b int8, i int32, l int64, f float32, d float64, z complex128.
scalar = _factory((), None, "A 0-d input variable (float64 unless ``dtype`` is given).")
vector = _factory((None,), None, "A 1-d input variable of unknown length.")
row = _factory((1, None), None, "A 1×n input variable.")
col = _factory((None, 1), None, "An n×1 input variable.")
matrix = _factory((None, None), None, "A 2-d input variable.")
tensor3 = _factory((None,) * 3, None, "A 3-d input variable.")
tensor4 = _factory((None,) * 4, None, "A 4-d input variable.")

bscalar = _factory((), "int8", "A 0-d int8 input variable.")
bvector = _factory((None,), "int8", "A 1-d int8 input variable.")
brow = _factory((1, None), "int8", "A 1×n int8 input variable.")
bcol = _factory((None, 1), "int8", "An n×1 int8 input variable.")
bmatrix = _factory((None, None), "int8", "A 2-d int8 input variable.")
btensor3 = _factory((None,) * 3, "int8", "A 3-d int8 input variable.")
iscalar = _factory((), "int32", "A 0-d int32 input variable.")
ivector = _factory((None,), "int32", "A 1-d int32 input variable.")
irow = _factory((1, None), "int32", "A 1×n int32 input variable.")
icol = _factory((None, 1), "int32", "An n×1 int32 input variable.")
imatrix = _factory((None, None), "int32", "A 2-d int32 input variable.")
itensor3 = _factory((None,) * 3, "int32", "A 3-d int32 input variable.")
lscalar = _factory((), "int64", "A 0-d int64 input variable.")
lvector = _factory((None,), "int64", "A 1-d int64 input variable.")
lrow = _factory((1, None), "int64", "A 1×n int64 input variable.")
lcol = _factory((None, 1), "int64", "An n×1 int64 input variable.")
lmatrix = _factory((None, None), "int64", "A 2-d int64 input variable.")
ltensor3 = _factory((None,) * 3, "int64", "A 3-d int64 input variable.")
fscalar = _factory((), "float32", "A 0-d float32 input variable.")
fvector = _factory((None,), "float32", "A 1-d float32 input variable.")
frow = _factory((1, None), "float32", "A 1×n float32 input variable.")
fcol = _factory((None, 1), "float32", "An n×1 float32 input variable.")
fmatrix = _factory((None, None), "float32", "A 2-d float32 input variable.")
ftensor3 = _factory((None,) * 3, "float32", "A 3-d float32 input variable.")
ftensor4 = _factory((None,) * 4, "float32", "A 4-d float32 input variable.")
dscalar = _factory((), "float64", "A 0-d float64 input variable.")
dvector = _factory((None,), "float64", "A 1-d float64 input variable.")
drow = _factory((1, None), "float64", "A 1×n float64 input variable.")
dcol = _factory((None, 1), "float64", "An n×1 float64 input variable.")
dmatrix = _factory((None, None), "float64", "A 2-d float64 input variable.")
dtensor3 = _factory((None,) * 3, "float64", "A 3-d float64 input variable.")
dtensor4 = _factory((None,) * 4, "float64", "A 4-d float64 input variable.")
zscalar = _factory((), "complex128", "A 0-d complex128 input variable.")
zvector = _factory((None,), "complex128", "A 1-d complex128 input variable.")
zmatrix = _factory((None, None), "complex128", "A 2-d complex128 input variable.")


_VARIABLE_CLASS: Any = None


def _variable_class() -> Any:
    global _VARIABLE_CLASS
    from lazygraph.tensor.variable import TensorVariable

    _VARIABLE_CLASS = TensorVariable
    return TensorVariable
