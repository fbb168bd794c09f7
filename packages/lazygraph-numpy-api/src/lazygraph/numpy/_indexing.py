"""Indexing functions: the array API's ``take`` and ``take_along_axis``, and
numpy's indexing routines: ``select``; the index arrays ``indices``, ``ix_``,
``unravel_index``, ``diag_indices``, ``tril_indices`` and ``triu_indices``; and
``fill_diagonal``, which writes in place. (``a[...]`` itself is the Array's.)

>>> take([10, 20, 30], [2, 0]).compute()
array([30, 10])
"""

from __future__ import annotations

import math
import operator
from typing import Any

import lazygraph.tensor as lt
import numpy as np
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import as_tensor, as_variable, known_value, wrap
from lazygraph.numpy._ufunc import ArrayLike, DTypeLike, accepts_out
from lazygraph.tensor.shape import normalize_axis

__all__ = [
    "diag_indices",
    "fill_diagonal",
    "index_exp",
    "indices",
    "ix_",
    "ndindex",
    "s_",
    "select",
    "take",
    "take_along_axis",
    "tril_indices",
    "triu_indices",
    "unravel_index",
]


@accepts_out()
def take(
    a: ArrayLike, indices: ArrayLike, axis: int | None = None, out: None = None, mode: str = "raise"
) -> Array:
    """Elements of ``a`` at ``indices`` along ``axis`` (of the flattened array if
    None) (``numpy.take``; ``mode`` ``"raise"``, ``"wrap"`` or ``"clip"``).

    >>> take([10, 20, 30], [2, 0]).compute()
    array([30, 10])
    >>> take([10, 20, 30], [5, -4], mode="wrap").compute()
    array([30, 30])
    """
    if mode not in ("raise", "wrap", "clip"):
        raise ValueError(f"take: mode must be 'raise', 'wrap' or 'clip' (got {mode!r})")
    x = as_tensor(a)
    idx = as_variable(indices)
    if mode != "raise":
        if axis is None:
            x, axis = lt.ravel(x), 0
        n = lt.shape_tuple(x)[normalize_axis(axis, x.ndim, "take")]
        idx = lt.remainder(idx, n) if mode == "wrap" else lt.clip(idx, 0, lt.subtract(n, 1))
    return wrap(lt.take(x, idx, axis=axis))


def take_along_axis(arr: ArrayLike, indices: ArrayLike, axis: int | None = -1) -> Array:
    """Values of ``arr`` at ``indices`` matched along ``axis``, as returned by
    ``argsort`` (``numpy.take_along_axis``).

    >>> take_along_axis([[3, 1, 2]], [[1, 2, 0]], axis=1).compute()
    array([[1, 2, 3]])
    """
    return wrap(lt.take_along_axis(as_variable(arr), as_variable(indices), axis=axis))


def select(condlist: Any, choicelist: Any, default: ArrayLike = 0) -> Array:
    """Elements of the first choice whose condition is true, else ``default``
    (``numpy.select``); all broadcast, conditions must be boolean.

    >>> select([[True, False, False], [True, True, False]], [[1, 2, 3], [4, 5, 6]], -1).compute()
    array([ 1,  5, -1])
    """
    conds = [lt.as_tensor_variable(as_variable(c)) for c in condlist]
    choices = [as_variable(c) for c in choicelist]
    if len(conds) != len(choices):
        raise ValueError("list of cases must be same length as list of conditions")
    if not choices:
        raise ValueError("select with an empty condition list is not possible")
    for i, c in enumerate(conds):
        if np.dtype(c.dtype).kind != "b":
            raise TypeError(f"invalid entry {i} in condlist: should be boolean ndarray")
    default = as_variable(default)
    dtype = lt.result_type(*choices, default)
    result = lt.cast(default, dtype) if lt.is_weak_scalar(default) else default
    for cond, choice in zip(reversed(conds), reversed(choices), strict=True):
        result = lt.where(cond, choice, result)
    # Every condition and choice took part in a where: the result is broadcast.
    return wrap(lt.cast(result, dtype))


# -- index arrays -----------------------------------------------------------------


def _index_constants(arrays: tuple[np.ndarray, ...]) -> tuple[Array, ...]:
    return tuple(wrap(lt.constant(a)) for a in arrays)


def triu_indices(n: int, k: int = 0, m: int | None = None) -> tuple[Array, ...]:
    """The row and column indices of the upper triangle of an ``(n, m)`` array,
    from the ``k``-th diagonal (``numpy.triu_indices``; sizes known when building).

    >>> [i.compute() for i in triu_indices(2)]
    [array([0, 0, 1]), array([0, 1, 1])]
    """
    return _index_constants(np.triu_indices(n, k, m))


def tril_indices(n: int, k: int = 0, m: int | None = None) -> tuple[Array, ...]:
    """The row and column indices of the lower triangle of an ``(n, m)`` array
    (``numpy.tril_indices``).

    >>> [i.compute() for i in tril_indices(2)]
    [array([0, 1, 1]), array([0, 0, 1])]
    """
    return _index_constants(np.tril_indices(n, k, m))


def diag_indices(n: int, ndim: int = 2) -> tuple[Array, ...]:
    """The indices of the main diagonal of an ``n`` x ... x ``n`` array
    (``numpy.diag_indices``).

    >>> [i.compute() for i in diag_indices(2)]
    [array([0, 1]), array([0, 1])]
    """
    return _index_constants(np.diag_indices(n, ndim))


def indices(dimensions: Any, dtype: DTypeLike = int, sparse: bool = False) -> Any:
    """A grid of the indices of an array of shape ``dimensions``
    (``numpy.indices``): one array stacked along the first axis, or a tuple of
    broadcastable arrays with ``sparse=True``.

    >>> indices((2, 2)).compute()[0]
    array([[0, 0],
           [1, 1]])
    """
    grid = np.indices(tuple(dimensions), dtype=dtype, sparse=sparse)
    if sparse:
        return _index_constants(tuple(grid))
    return wrap(lt.constant(grid))


def ix_(*args: ArrayLike) -> tuple[Array, ...]:
    """Open-mesh index arrays from 1-d sequences, for indexing the cross product
    (``numpy.ix_``; boolean sequences become the indices of their true entries).

    >>> [a.shape for a in ix_([0, 1], [2, 0, 1])]
    [(2, 1), (1, 3)]
    """
    out = []
    n = len(args)
    for k, seq in enumerate(args):
        v = lt.as_tensor_variable(as_variable(seq))
        if v.ndim != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if v.type.shape[0] == 0 and not isinstance(seq, Array):
            v = lt.cast(v, "int64")  # numpy: an empty sequence is an empty index
        if np.dtype(v.dtype).kind == "b":
            (v,) = lt.nonzero(v)
        shape = [1] * n
        shape[k] = -1
        out.append(wrap(lt.reshape(v, shape)))
    return tuple(out)


def unravel_index(indices: ArrayLike, shape: Any, order: str = "C") -> tuple[Array, ...]:
    """The coordinates in an array of ``shape`` of each flat index
    (``numpy.unravel_index``; ``shape`` known when building). numpy's errors
    for bad shapes and for indices out of range when their values are known
    (pending indices are not checked: they wrap).

    >>> [c.compute() for c in unravel_index([5, 1], (2, 3))]
    [array([1, 0]), array([2, 1])]
    """
    if isinstance(shape, int | np.integer):
        shape = (shape,)
    dims = tuple(operator.index(s) for s in shape)
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    if isinstance(indices, list | tuple) and np.size(indices) == 0:
        raise TypeError(
            "unravel_index: indices must be integral: the provided empty sequence was "
            "inferred as float. Wrap it with 'np.array(indices, dtype=np.intp)'"
        )
    idx = lt.as_tensor_variable(as_variable(indices))
    if np.dtype(idx.dtype).kind not in "biu":
        raise TypeError("unravel_index: only int indices permitted")
    size = math.prod(dims)
    if size > np.iinfo(np.intp).max:
        raise ValueError(
            "unravel_index: dimensions are too large; arrays and shapes with a total size "
            "greater than 'intp' are not supported."
        )
    value = known_value(idx)
    if value is not None and value.size:
        bad = value[(value < 0) | (value >= size)]
        if bad.size:
            raise ValueError(
                f"unravel_index: index {bad.flat[0]} is out of bounds for array with size {size}"
            )
    if not dims and idx.ndim:
        raise ValueError("unravel_index: multiple indices are not supported for 0d arrays")
    idx = lt.cast(idx, "int64")
    coords: list[Any] = []
    strides = list(reversed(dims)) if order == "C" else list(dims)
    for n in strides:
        coords.append(lt.remainder(idx, n))
        idx = lt.floor_divide(idx, n)
    if order == "C":
        coords.reverse()
    return tuple(wrap(c) for c in coords)


# -- writing in place -------------------------------------------------------------


def fill_diagonal(a: Any, val: Any, wrap: bool = False) -> None:
    """Write ``val`` on the main diagonal of ``a`` in place (``numpy.fill_diagonal``):
    a lazy array is rebound to the updated value, numpy arrays are written.

    >>> import numpy
    >>> x = numpy.zeros((2, 2))
    >>> fill_diagonal(x, 5.0); x
    array([[5., 0.],
           [0., 5.]])
    """
    if not isinstance(a, Array):
        np.fill_diagonal(a, val, wrap=wrap)
        return
    if a.ndim < 2:
        raise ValueError("array must be at least 2-d")
    shape = a.shape
    if None in shape:
        raise ValueError("fill_diagonal: the shape of a lazy array must be known")
    if a.ndim > 2 and len(set(shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    # numpy's flat positions: every step-th element (the whole array with
    # ``wrap`` for tall matrices, else the leading square).
    end = None
    if a.ndim == 2:
        step = shape[1] + 1
        if not wrap:
            end = shape[1] * shape[1]
    else:
        step = 1 + int(np.cumprod(shape[:-1]).sum())
    positions = np.arange(int(np.prod(shape)))[:end:step]
    coords = np.unravel_index(positions, shape)
    if not isinstance(val, Array) and np.ndim(val) > 0:
        val = np.resize(np.asarray(val), len(positions))  # numpy cycles the values
    a[coords] = val


# numpy's own: they build index tuples and iterate over index tuples, no arrays
s_ = np.s_
index_exp = np.index_exp
ndindex = np.ndindex
