"""``TensorVariable``: a graph variable of a :class:`TensorType`, with numpy-style
operators, indexing and methods; ``TensorConstant``; and ``as_tensor_variable``.

Operators build graph nodes by calling the functions of :mod:`lazygraph.tensor`
(``x + y`` is ``lazygraph.tensor.add(x, y)``). ``==`` and ``!=`` keep Python's
identity meaning, because variables are dictionary keys all through the graph
machinery; use ``lazygraph.tensor.equal``. A variable has no truth value.

>>> from lazygraph.tensor.variable import as_tensor_variable
>>> c = as_tensor_variable(2.5)
>>> c.type, c.data
(TensorType(float64, shape=()), array(2.5))
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import numpy as np

from lazygraph.graph.basic import Constant, Variable
from lazygraph.tensor.type import TensorType, normalize_dtype

__all__ = ["TensorConstant", "TensorVariable", "as_tensor_variable", "constant"]


def _lt() -> Any:
    # The op families import this module; import the namespace at call time.
    import lazygraph.tensor as lt

    return lt


class TensorVariable(Variable):
    """A variable holding an n-d array."""

    __slots__ = ()
    type: TensorType

    # -- static facts ---------------------------------------------------------

    @property
    def dtype(self) -> str:
        return self.type.dtype

    @property
    def ndim(self) -> int:
        return self.type.ndim

    @property
    def broadcastable(self) -> tuple[bool, ...]:
        return self.type.broadcastable

    @property
    def shape(self) -> Any:
        """The symbolic shape (a 1-d int64 variable); ``x.type.shape`` is the static one."""
        return _lt().shape(self)

    @property
    def size(self) -> Any:
        return _lt().prod(self.shape)

    @property
    def T(self) -> TensorVariable:
        return _lt().transpose(self)

    @property
    def mT(self) -> TensorVariable:
        return _lt().matrix_transpose(self)

    @property
    def real(self) -> TensorVariable:
        return _lt().real(self)

    @property
    def imag(self) -> TensorVariable:
        return _lt().imag(self)

    # -- Python protocol: symbolic values have no truth value or length -------

    def __bool__(self) -> bool:
        raise TypeError(
            f"a symbolic variable ({self}) has no truth value; compute it first, or use "
            "lazygraph.tensor.where / switch for a data-dependent choice"
        )

    def __len__(self) -> int:
        if self.ndim == 0:
            raise TypeError("len() of a 0-d variable")
        n = self.type.shape[0]
        if n is None:
            raise TypeError(
                f"len() of {self}: its first dimension is not known until it is computed"
            )
        return n

    def __iter__(self) -> Iterator[TensorVariable]:
        for i in range(len(self)):
            yield self[i]

    # -- arithmetic -----------------------------------------------------------

    def __add__(self, other: Any) -> Any:
        return _lt().add(self, other)

    def __radd__(self, other: Any) -> Any:
        return _lt().add(other, self)

    def __sub__(self, other: Any) -> Any:
        return _lt().subtract(self, other)

    def __rsub__(self, other: Any) -> Any:
        return _lt().subtract(other, self)

    def __mul__(self, other: Any) -> Any:
        return _lt().multiply(self, other)

    def __rmul__(self, other: Any) -> Any:
        return _lt().multiply(other, self)

    def __truediv__(self, other: Any) -> Any:
        return _lt().divide(self, other)

    def __rtruediv__(self, other: Any) -> Any:
        return _lt().divide(other, self)

    def __floordiv__(self, other: Any) -> Any:
        return _lt().floor_divide(self, other)

    def __rfloordiv__(self, other: Any) -> Any:
        return _lt().floor_divide(other, self)

    def __mod__(self, other: Any) -> Any:
        return _lt().remainder(self, other)

    def __rmod__(self, other: Any) -> Any:
        return _lt().remainder(other, self)

    def __pow__(self, other: Any) -> Any:
        return _lt().power(self, other)

    def __rpow__(self, other: Any) -> Any:
        return _lt().power(other, self)

    def __matmul__(self, other: Any) -> Any:
        return _lt().matmul(self, other)

    def __rmatmul__(self, other: Any) -> Any:
        return _lt().matmul(other, self)

    def __neg__(self) -> Any:
        return _lt().negative(self)

    def __pos__(self) -> Any:
        return _lt().positive(self)

    def __abs__(self) -> Any:
        return _lt().abs(self)

    def __invert__(self) -> Any:
        return _lt().bitwise_invert(self)

    def __and__(self, other: Any) -> Any:
        return _lt().bitwise_and(self, other)

    def __rand__(self, other: Any) -> Any:
        return _lt().bitwise_and(other, self)

    def __or__(self, other: Any) -> Any:
        return _lt().bitwise_or(self, other)

    def __ror__(self, other: Any) -> Any:
        return _lt().bitwise_or(other, self)

    def __xor__(self, other: Any) -> Any:
        return _lt().bitwise_xor(self, other)

    def __rxor__(self, other: Any) -> Any:
        return _lt().bitwise_xor(other, self)

    def __lshift__(self, other: Any) -> Any:
        return _lt().bitwise_left_shift(self, other)

    def __rlshift__(self, other: Any) -> Any:
        return _lt().bitwise_left_shift(other, self)

    def __rshift__(self, other: Any) -> Any:
        return _lt().bitwise_right_shift(self, other)

    def __rrshift__(self, other: Any) -> Any:
        return _lt().bitwise_right_shift(other, self)

    # Comparisons other than == / != (see the module docstring).
    def __lt__(self, other: Any) -> Any:
        return _lt().less(self, other)

    def __le__(self, other: Any) -> Any:
        return _lt().less_equal(self, other)

    def __gt__(self, other: Any) -> Any:
        return _lt().greater(self, other)

    def __ge__(self, other: Any) -> Any:
        return _lt().greater_equal(self, other)

    # -- indexing -------------------------------------------------------------

    def __getitem__(self, index: Any) -> Any:
        return _lt().getitem(self, index)

    # -- methods numpy users reach for ----------------------------------------

    def astype(self, dtype: Any) -> Any:
        return _lt().cast(self, normalize_dtype(dtype))

    def reshape(self, *shape: Any) -> Any:
        if len(shape) == 1 and not isinstance(shape[0], int):
            shape = shape[0]
        return _lt().reshape(self, shape)

    def flatten(self) -> Any:
        return _lt().reshape(self, (-1,))

    ravel = flatten

    def transpose(self, *axes: Any) -> Any:
        if len(axes) == 1 and not isinstance(axes[0], int):
            axes = axes[0]
        return _lt().transpose(self, axes or None)

    def dimshuffle(self, *pattern: Any) -> Any:
        """Theano's ``dimshuffle``: reorder axes, ``"x"`` inserts a broadcastable axis."""
        if len(pattern) == 1 and isinstance(pattern[0], (list, tuple)):
            pattern = tuple(pattern[0])
        return _lt().dimshuffle(self, pattern)

    def squeeze(self, axis: Any = None) -> Any:
        return _lt().squeeze(self, axis)

    def swapaxes(self, a: int, b: int) -> Any:
        return _lt().swapaxes(self, a, b)

    def sum(self, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
        return _lt().sum(self, axis=axis, dtype=dtype, keepdims=keepdims)

    def prod(self, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
        return _lt().prod(self, axis=axis, dtype=dtype, keepdims=keepdims)

    def mean(self, axis: Any = None, dtype: Any = None, keepdims: bool = False) -> Any:
        return _lt().mean(self, axis=axis, dtype=dtype, keepdims=keepdims)

    def var(self, axis: Any = None, ddof: float = 0, keepdims: bool = False) -> Any:
        return _lt().var(self, axis=axis, correction=ddof, keepdims=keepdims)

    def std(self, axis: Any = None, ddof: float = 0, keepdims: bool = False) -> Any:
        return _lt().std(self, axis=axis, correction=ddof, keepdims=keepdims)

    def max(self, axis: Any = None, keepdims: bool = False) -> Any:
        return _lt().max(self, axis=axis, keepdims=keepdims)

    def min(self, axis: Any = None, keepdims: bool = False) -> Any:
        return _lt().min(self, axis=axis, keepdims=keepdims)

    def all(self, axis: Any = None, keepdims: bool = False) -> Any:
        return _lt().all(self, axis=axis, keepdims=keepdims)

    def any(self, axis: Any = None, keepdims: bool = False) -> Any:
        return _lt().any(self, axis=axis, keepdims=keepdims)

    def argmax(self, axis: Any = None, keepdims: bool = False) -> Any:
        return _lt().argmax(self, axis=axis, keepdims=keepdims)

    def argmin(self, axis: Any = None, keepdims: bool = False) -> Any:
        return _lt().argmin(self, axis=axis, keepdims=keepdims)

    def cumsum(self, axis: Any = None) -> Any:
        return _lt().cumsum(self, axis=axis)

    def cumprod(self, axis: Any = None) -> Any:
        return _lt().cumprod(self, axis=axis)

    def clip(self, min: Any = None, max: Any = None) -> Any:
        return _lt().clip(self, min, max)

    def round(self, decimals: int = 0) -> Any:
        return _lt().round(self, decimals)

    def conj(self) -> Any:
        return _lt().conj(self)

    def dot(self, other: Any) -> Any:
        return _lt().dot(self, other)

    def sort(self, axis: int = -1) -> Any:
        return _lt().sort(self, axis=axis)

    def argsort(self, axis: int = -1) -> Any:
        return _lt().argsort(self, axis=axis)

    def take(self, indices: Any, axis: Any = None) -> Any:
        return _lt().take(self, indices, axis=axis)

    def repeat(self, repeats: Any, axis: Any = None) -> Any:
        return _lt().repeat(self, repeats, axis=axis)

    def diagonal(self, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Any:
        return _lt().diagonal(self, offset=offset, axis1=axis1, axis2=axis2)

    def trace(self, offset: int = 0) -> Any:
        return _lt().trace(self, offset=offset)

    def nonzero(self) -> Any:
        return _lt().nonzero(self)

    def copy(self) -> Any:
        return _lt().copy(self)


class TensorConstant(TensorVariable, Constant):
    """A constant n-d array; read-only and merged by value (bytes, so -0.0 ≠ 0.0)."""

    __slots__ = ()

    def __str__(self) -> str:
        if self.name is not None:
            return self.name
        data = self.data
        if data.size <= 8:
            return np.array2string(data, separator=", ") if data.ndim else repr(data.item())
        return f"TensorConstant{{{self.type.dtype}, shape={data.shape}}}"


def _default_dtype(x: Any) -> str:
    if isinstance(x, bool):
        return "bool"
    if isinstance(x, int):
        return "int64"
    if isinstance(x, float):
        return "float64"
    if isinstance(x, complex):
        return "complex128"
    return normalize_dtype(np.asarray(x).dtype)


def constant(x: Any, dtype: Any = None, name: str | None = None) -> TensorConstant:
    """A :class:`TensorConstant` holding ``x`` (converted to ``dtype`` if given).

    Its static shape is the data's shape. A Python int that does not fit the
    dtype raises ``OverflowError``, as numpy does.
    """
    dtype = _default_dtype(x) if dtype is None else normalize_dtype(dtype)
    data = np.asarray(x, dtype=dtype)
    if data.dtype == object:
        raise TypeError(f"cannot make a tensor constant from {type(x).__name__}")
    return TensorConstant(TensorType(dtype, data.shape), data, name)


def as_tensor_variable(
    x: Any, name: str | None = None, ndim: int | None = None, dtype: Any = None
) -> TensorVariable:
    """``x`` as a tensor variable: variables pass through (checked), Python and
    numpy data become constants.

    ``ndim`` checks the result's number of dimensions; ``dtype`` converts data
    (but is only checked for variables).
    """
    if isinstance(x, Variable):
        if not isinstance(x.type, TensorType):
            raise TypeError(f"expected a tensor variable, got {x} of type {x.type}")
        var: TensorVariable = x  # type: ignore[assignment]
        if dtype is not None and var.dtype != normalize_dtype(dtype):
            raise TypeError(
                f"expected dtype {normalize_dtype(dtype)}, got {var} of dtype {var.dtype}"
            )
    elif hasattr(x, "__lazygraph_variable__"):
        var = x.__lazygraph_variable__()
    else:
        try:
            var = constant(x, dtype=dtype, name=name)
        except (ValueError, TypeError) as exc:
            raise TypeError(f"cannot convert {type(x).__name__} to a tensor: {exc}") from exc
    if ndim is not None and var.ndim != ndim:
        raise ValueError(f"expected {ndim} dimensions, got {var} with {var.ndim}")
    return var
