"""numpy's index tricks: the objects ``r_``, ``c_`` (concatenation by slicing
syntax), ``mgrid`` and ``ogrid`` (grids by slicing syntax), and the functions
``fromfunction``, ``diag_indices_from``, ``tril_indices_from``,
``triu_indices_from``, ``mask_indices`` and ``ravel_multi_index``.

Results are graph: ranges are ``arange`` / ``linspace`` nodes, joined with
lazy arrays by ``concatenate``. Sizes come from Python numbers (a lazy 0-d
bound of a slice is computed: it decides the shape). ``ravel_multi_index``
with ``mode="raise"`` checks its indices' range when called, as numpy raises
its ValueError: known indices are checked at once, pending ones by computing
the check alone (a boolean), so it cannot run in a traced function: there,
use ``mode="wrap"`` or ``"clip"``.

>>> r_[1:4, 0, [5, 6]].compute()
array([1, 2, 3, 0, 5, 6])
>>> mgrid[0:2, 0:3].shape
(2, 2, 3)
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from typing import Any

import lazygraph.tensor as lt
import numpy as np
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import as_tensor, wrap
from lazygraph.numpy._creation import arange, linspace
from lazygraph.numpy._editing import MODES, check_in_range, is_lazy, static_shape, value_now
from lazygraph.numpy._errors import UnsupportedArgumentsError
from lazygraph.numpy._indexing import diag_indices, tril_indices, triu_indices
from lazygraph.numpy._joining import _sequence, concatenate
from lazygraph.numpy._ufunc import ArrayLike, DTypeLike

__all__ = [
    "c_",
    "diag_indices_from",
    "fromfunction",
    "mask_indices",
    "mgrid",
    "ogrid",
    "r_",
    "ravel_multi_index",
    "tril_indices_from",
    "triu_indices_from",
]


def _number(x: Any) -> Any:
    """A slice bound: a lazy one as numpy's 0-d value (it decides a size)."""
    return value_now(x) if is_lazy(x) else x


def _ndmin(x: Any, ndmin: int) -> Any:
    """``x`` with size-1 axes put in front up to ``ndmin`` dimensions."""
    var = as_tensor(x)
    if var.ndim >= ndmin:
        return var
    return lt.expand_dims(var, tuple(range(ndmin - var.ndim)))


# -- r_ and c_ ------------------------------------------------------------------------


def _range_of(item: slice) -> Any:
    """An ``r_`` slice: ``arange``, or ``linspace`` for a complex step (a count)."""
    start, stop, step = (_number(v) for v in (item.start, item.stop, item.step))
    start = 0 if start is None else start
    step = 1 if step is None else step
    if isinstance(step, complex | np.complexfloating):
        return linspace(start, stop, num=int(abs(step)))._var
    return arange(start, stop, step)._var


class AxisConcatenator:
    """Concatenation by slicing syntax along an axis: the class of :data:`r_` and
    :data:`c_` (numpy's ``AxisConcatenator``).

    An entry may be a lazy or numpy array, a sequence, a scalar, or a slice
    (``start:stop:step`` is ``arange``; a complex step ``n*1j`` is ``linspace``
    with ``n`` points). A first string entry sets the axis (``"1"``), the
    minimum dimensions and where a 1-d entry's axis goes (``"0,2,0"``). The
    matrix directives ``"r"`` and ``"c"`` make a ``numpy.matrix``, which
    lazygraph does not have: they raise :class:`UnsupportedArgumentsError`.

    >>> r_["0,2", [1, 2], [3, 4]].compute()
    array([[1, 2],
           [3, 4]])
    >>> r_[-1:1:5j].compute()
    array([-1. , -0.5,  0. ,  0.5,  1. ])
    """

    __slots__ = ("axis", "ndmin", "trans1d")

    def __init__(self, axis: int = 0, ndmin: int = 1, trans1d: int = -1) -> None:
        self.axis = axis
        self.ndmin = ndmin
        self.trans1d = trans1d

    def __getitem__(self, key: Any) -> Array:
        if isinstance(key, str):
            raise UnsupportedArgumentsError(
                "r_/c_ of a string builds a numpy.matrix, which lazygraph does not have"
            )
        if not isinstance(key, tuple):
            key = (key,)
        axis, ndmin, trans1d = self.axis, self.ndmin, self.trans1d
        objs: list[Any] = []
        kinds: list[Any] = []  # dtypes, or the scalars themselves (weak in promotion)
        for k, item in enumerate(key):
            scalar = False
            if isinstance(item, slice):
                obj = _range_of(item)
                if ndmin > 1:
                    obj = _ndmin(obj, ndmin)
                    if trans1d != -1:
                        obj = lt.swapaxes(obj, -1, trans1d)
            elif isinstance(item, str):
                if k != 0:
                    raise ValueError("special directives must be the first entry.")
                if item in ("r", "c"):
                    raise UnsupportedArgumentsError(
                        f"the {item!r} directive builds a numpy.matrix, which lazygraph does not "
                        "have; use numpy.r_ on computed values"
                    )
                if "," in item:
                    vec = item.split(",")
                    try:
                        axis, ndmin = (int(x) for x in vec[:2])
                        if len(vec) == 3:
                            trans1d = int(vec[2])
                        continue
                    except Exception as e:
                        raise ValueError(f"unknown special directive {item!r}") from e
                try:
                    axis = int(item)
                    continue
                except (ValueError, TypeError) as e:
                    raise ValueError("unknown special directive") from e
            elif type(item) in np.ScalarType:
                scalar = True
                obj = item
            else:
                var = as_tensor(item)
                item_ndim = var.ndim
                obj = _ndmin(var, ndmin)
                if trans1d != -1 and item_ndim < ndmin:
                    k2 = ndmin - item_ndim
                    k1 = trans1d + (k2 + 1 if trans1d < 0 else 0)
                    axes = list(range(ndmin))
                    obj = lt.transpose(obj, axes[:k1] + axes[k2:] + axes[k1:k2])
            objs.append(obj)
            kinds.append(item if scalar else np.dtype(obj.dtype))
        if kinds:
            final = np.result_type(*kinds)
            objs = [lt.cast(o, final.name) for o in _as_arrays(objs, ndmin, final)]
        return concatenate(objs, axis=axis)

    def __len__(self) -> int:
        return 0


def _as_arrays(objs: list[Any], ndmin: int, dtype: np.dtype[Any]) -> list[Any]:
    """Scalars as ``ndmin``-d arrays of ``dtype`` (numpy converts them: its errors)."""
    out = []
    for o in objs:
        if isinstance(o, lt.TensorVariable):
            out.append(o)
        else:
            out.append(lt.constant(np.array(o, dtype=dtype, ndmin=ndmin)))
    return out


class RClass(AxisConcatenator):
    """Joining along the first axis by slicing syntax (``numpy.r_``).

    >>> r_[[1, 2], 0:3, 9.5].compute()
    array([1. , 2. , 0. , 1. , 2. , 9.5])
    """

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__(0)


class CClass(AxisConcatenator):
    """Joining along the last axis by slicing syntax, 1-d entries as columns
    (``numpy.c_``).

    >>> c_[[1, 2], [3, 4]].compute()
    array([[1, 3],
           [2, 4]])
    """

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__(-1, ndmin=2, trans1d=0)


#: joining along the first axis by slicing syntax (``numpy.r_``)
r_ = RClass()
#: joining along the last axis by slicing syntax (``numpy.c_``)
c_ = CClass()


# -- mgrid and ogrid -----------------------------------------------------------------------


class GridClass:
    """Grids by slicing syntax: the class of :data:`mgrid` (dense) and
    :data:`ogrid` (open, ``sparse``) (numpy's ``nd_grid``). ``start:stop:step``
    steps from ``start`` up to ``stop``; a complex step ``n*1j`` gives ``n``
    points from ``start`` to ``stop`` inclusive.

    >>> mgrid[0:1:3j].compute()
    array([0. , 0.5, 1. ])
    >>> [g.shape for g in ogrid[0:2, 0:3]]
    [(2, 1), (1, 3)]
    """

    __slots__ = ("sparse",)

    def __init__(self, sparse: bool = False) -> None:
        self.sparse = sparse

    def __getitem__(self, key: Any) -> Any:
        try:
            size = []
            num_list: list[Any] = [0]
            for k in range(len(key)):
                step, start, stop = (_number(v) for v in (key[k].step, key[k].start, key[k].stop))
                start = 0 if start is None else start
                step = 1 if step is None else step
                if isinstance(step, complex | np.complexfloating):
                    step = abs(step)
                    size.append(int(step))
                else:
                    size.append(math.ceil((stop - start) / step))
                num_list += [start, stop, step]
        except (IndexError, TypeError):
            return _grid_line(key)
        dtype = np.result_type(*num_list)
        if not self.sparse and any(s < 0 for s in size):
            raise ValueError("negative dimensions are not allowed")
        lines = []
        for k, kk in enumerate(key):
            start, step = _number(kk.start), _number(kk.step)
            start = 0 if start is None else start
            step = 1 if step is None else step
            if isinstance(step, complex | np.complexfloating):
                step = int(abs(step))
                if step != 1:
                    step = (_number(kk.stop) - start) / float(step - 1)
            lines.append((arange(size[k], dtype=dtype) * step + start)._var)
        n = len(lines)
        if self.sparse:
            return tuple(
                wrap(lt.reshape(line, [-1 if d == k else 1 for d in range(n)]))
                for k, line in enumerate(lines)
            )
        if n == 0:
            return wrap(lt.zeros((0,), dtype=dtype.name))
        grids = [
            lt.broadcast_to(lt.reshape(line, [-1 if d == k else 1 for d in range(n)]), size)
            for k, line in enumerate(lines)
        ]
        return wrap(lt.cast(lt.stack(grids, axis=0), dtype.name))


def _grid_line(key: Any) -> Array:
    """``mgrid``/``ogrid`` of one slice: a range (numpy's ``nd_grid`` fallback)."""
    step, stop, start = (_number(v) for v in (key.step, key.stop, key.start))
    start = 0 if start is None else start
    if isinstance(step, complex | np.complexfloating):
        step_float = abs(step)
        step = length = int(step_float)
        if step != 1:
            step = (stop - start) / float(step - 1)
        dtype = np.result_type(start, stop, step_float)
        return arange(0, length, 1, dtype=dtype) * step + start  # type: ignore[no-any-return]
    return arange(start, stop, step)


#: a dense grid by slicing syntax (``numpy.mgrid``)
mgrid = GridClass(sparse=False)
#: an open grid by slicing syntax (``numpy.ogrid``)
ogrid = GridClass(sparse=True)


# -- functions ----------------------------------------------------------------------------


def fromfunction(
    function: Callable[..., Any],
    shape: Any,
    *,
    dtype: DTypeLike = float,
    like: Any = None,
    **kwargs: Any,
) -> Any:
    """``function`` called with one lazy index array per axis of ``shape``, each
    of that shape and ``dtype`` (``numpy.fromfunction``; what it returns is
    returned).

    >>> fromfunction(lambda i, j: i + 10 * j, (2, 3), dtype=int).compute()
    array([[ 0, 10, 20],
           [ 1, 11, 21]])
    """
    shape = tuple(operator.index(s) for s in shape)
    n = len(shape)
    grids = []
    for k, size in enumerate(shape):
        line = arange(size, dtype=dtype)._var
        grid = lt.broadcast_to(lt.reshape(line, [-1 if d == k else 1 for d in range(n)]), shape)
        grids.append(wrap(grid))
    return function(*grids, **kwargs)


def diag_indices_from(arr: ArrayLike) -> tuple[Array, ...]:
    """The indices of the main diagonal of ``arr``, an n-d array of equal sides
    (``numpy.diag_indices_from``).

    >>> [i.compute() for i in diag_indices_from([[1, 2], [3, 4]])]
    [array([0, 1]), array([0, 1])]
    """
    x = as_tensor(arr)
    if not x.ndim >= 2:
        raise ValueError("input array must be at least 2-d")
    shape = static_shape(x)
    if len(set(shape)) != 1:
        raise ValueError("All dimensions of input must be of equal length")
    return diag_indices(shape[0], x.ndim)


def tril_indices_from(arr: ArrayLike, k: int = 0) -> tuple[Array, ...]:
    """The indices of the lower triangle of the 2-d ``arr``, from the ``k``-th
    diagonal (``numpy.tril_indices_from``).

    >>> [i.compute() for i in tril_indices_from([[1, 2], [3, 4]])]
    [array([0, 1, 1]), array([0, 0, 1])]
    """
    x = as_tensor(arr)
    if x.ndim != 2:
        raise ValueError("input array must be 2-d")
    rows, cols = static_shape(x)
    return tril_indices(rows, k=k, m=cols)


def triu_indices_from(arr: ArrayLike, k: int = 0) -> tuple[Array, ...]:
    """The indices of the upper triangle of the 2-d ``arr``, from the ``k``-th
    diagonal (``numpy.triu_indices_from``).

    >>> [i.compute() for i in triu_indices_from([[1, 2], [3, 4]], k=1)]
    [array([0]), array([1])]
    """
    x = as_tensor(arr)
    if x.ndim != 2:
        raise ValueError("input array must be 2-d")
    rows, cols = static_shape(x)
    return triu_indices(rows, k=k, m=cols)


def mask_indices(n: int, mask_func: Callable[..., Any], k: Any = 0) -> tuple[Array, ...]:
    """The indices of the nonzero entries of ``mask_func(ones((n, n)), k)``
    (``numpy.mask_indices``; ``mask_func`` gets a numpy array, as numpy calls
    it, and its result is computed: it decides the sizes).

    >>> import numpy
    >>> [i.compute() for i in mask_indices(2, numpy.triu)]
    [array([0, 0, 1]), array([0, 1, 1])]
    """
    mask = value_now(mask_func(np.ones((n, n), dtype=int), k)) != 0
    return tuple(wrap(lt.constant(i)) for i in np.nonzero(mask))


def ravel_multi_index(multi_index: Any, dims: Any, mode: Any = "raise", order: str = "C") -> Array:
    """The flat index in an array of shape ``dims`` of each tuple of coordinates
    (``numpy.ravel_multi_index``; the coordinate arrays broadcast together).
    ``mode`` (one, or one per axis): ``"raise"`` (numpy's ValueError for a
    coordinate out of range, checked when called: see the module docstring),
    ``"wrap"`` or ``"clip"``; ``order``: ``"C"`` or ``"F"``.

    >>> ravel_multi_index(([0, 1, 1], [2, 0, 1]), (2, 3)).compute()
    array([2, 3, 4])
    >>> ravel_multi_index(([-1, 3],), (3,), mode="wrap").compute()
    array([2, 0])
    """
    if isinstance(dims, int | np.integer):
        dims = (dims,)
    dims = tuple(operator.index(d) for d in dims)
    nd = len(dims)
    modes = (mode,) * nd if isinstance(mode, str) else tuple(mode)
    if len(modes) != nd:
        raise ValueError(f"list of clipmodes has wrong length ({len(modes)} instead of {nd})")
    for m in modes:
        if m not in MODES:
            raise ValueError(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {m!r})")
    if order not in ("C", "F"):
        raise ValueError("only 'C' or 'F' order is permitted")
    if isinstance(multi_index, Array | np.ndarray):
        rows = _sequence("ravel_multi_index", multi_index)
    else:
        if any(isinstance(r, list | tuple) and np.size(r) == 0 for r in multi_index):
            raise TypeError(
                "ravel_multi_index: indices must be integral: the provided empty sequence "
                "was inferred as float. Wrap it with 'np.array(indices, dtype=np.intp)'"
            )
        rows = [as_tensor(r) for r in multi_index]
    if len(rows) != nd:
        raise ValueError(f"parameter multi_index must be a sequence of length {nd}")
    for r in rows:
        if np.dtype(r.dtype).kind not in "biu":
            raise TypeError("only int indices permitted")
    if math.prod(dims) > np.iinfo(np.intp).max:
        raise ValueError(
            "invalid dims: array size defined by dims is larger than the maximum possible size."
        )
    coords = lt.broadcast_arrays(*(lt.cast(r, "int64") for r in rows)) if rows else []
    if not coords or math.prod(static_shape(coords[0])) > 0:
        for r, d, m in zip(rows, dims, modes, strict=True):
            if m == "raise":
                check_in_range(r, 0, d, ValueError("invalid entry in coordinates array"))
            elif d == 0:
                raise ValueError("cannot unravel if shape has zero entries (is empty).")
    strides = [math.prod(dims[k + 1 :]) if order == "C" else math.prod(dims[:k]) for k in range(nd)]
    flat: Any = lt.constant(np.int64(0))
    for c, d, m, s in zip(coords, dims, modes, strides, strict=True):
        if m == "wrap":
            c = lt.remainder(c, d)
        elif m == "clip":
            c = lt.clip(c, 0, d - 1)
        flat = lt.add(flat, lt.multiply(c, s))
    return wrap(lt.cast(flat, "int64"))
