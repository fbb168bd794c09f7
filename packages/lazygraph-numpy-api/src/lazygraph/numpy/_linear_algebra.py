"""Linear algebra in the main namespace, with numpy's signatures: ``matmul``,
``matvec``, ``vecmat``, ``dot``, ``vdot``, ``inner``, ``outer``, ``tensordot``,
``vecdot``, ``einsum`` (subscripts or sublists) and ``einsum_path``,
``matrix_transpose``, ``trace``, ``diagonal``, ``cross`` and ``kron``
(``lazygraph.numpy.linalg`` holds the decompositions and solvers).

>>> a = [[1.0, 2.0], [3.0, 4.0]]
>>> matmul(a, [1.0, 1.0]).compute()
array([3., 7.])
"""

from __future__ import annotations

import operator
import string
import warnings
from typing import Any

import lazygraph.tensor as lt
import numpy as np
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import as_tensor, as_variable, wrap
from lazygraph.numpy._errors import UnsupportedArgumentsError
from lazygraph.numpy._gufunc_axes import GUFUNC_KEYWORDS, call_with_axes
from lazygraph.numpy._ufunc import ArrayLike, DTypeLike, accepts_out, apply_ufunc
from lazygraph.tensor.shape import normalize_axis

__all__ = [
    "cross",
    "diagonal",
    "dot",
    "einsum",
    "einsum_path",
    "inner",
    "kron",
    "matmul",
    "matrix_transpose",
    "matvec",
    "outer",
    "tensordot",
    "trace",
    "vdot",
    "vecdot",
    "vecmat",
]

_NO_VALUE: Any = object()
_NUMPY_VERSION = tuple(int(p) for p in np.__version__.split(".")[:2])


def matmul(x1: ArrayLike, x2: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """The matrix product, broadcasting over leading (batch) axes; 1-d operands
    are vectors (``numpy.matmul``, the ``@`` operator). 0-d operands are a ValueError.

    >>> matmul([[1, 2], [3, 4]], [[1], [1]]).compute()
    array([[3],
           [7]])
    """
    if GUFUNC_KEYWORDS & kwargs.keys():
        return call_with_axes(
            "matmul", lt.matmul, (x1, x2), _matmul_cores, _matmul_out_cores, out, kwargs
        )
    return apply_ufunc("matmul", lt.matmul, (x1, x2), out, kwargs)


def _matmul_cores(xs: Any) -> tuple[int, ...]:
    return tuple(min(x.ndim, 2) for x in xs)  # (a vector has one core axis)


def _matmul_out_cores(xs: Any) -> int:
    return sum(x.ndim >= 2 for x in xs)


def vecdot(
    x1: ArrayLike, x2: ArrayLike, /, out: None = None, *, axis: int | None = None, **kwargs: Any
) -> Array:
    """The dot product of vectors along ``axis`` (the last by default; the first
    operand conjugated), broadcasting over the other axes (``numpy.vecdot``).

    >>> vecdot([[1, 2], [3, 4]], [1, 1]).compute()
    array([3, 7])
    """
    if GUFUNC_KEYWORDS & kwargs.keys():
        if axis is not None:
            kwargs["axis"] = axis
        return call_with_axes(
            "vecdot", lt.vecdot, (x1, x2), lambda xs: (1, 1), lambda xs: 0, out, kwargs
        )
    axis = -1 if axis is None else axis
    return apply_ufunc("vecdot", lambda a, b: lt.vecdot(a, b, axis=axis), (x1, x2), out, kwargs)


def _core_dims(name: str, signature: str, operands: Any, needs: tuple[int, int]) -> None:
    """numpy's errors for a gufunc's operands with too few dimensions."""
    for i, (v, need) in enumerate(zip(operands, needs, strict=True)):
        if v.ndim < need:
            raise ValueError(
                f"{name}: Input operand {i} does not have enough dimensions (has {v.ndim}, "
                f"gufunc core with signature {signature} requires {need})"
            )


def _same_core_size(name: str, signature: str, size: Any, other: Any) -> None:
    """numpy's error when operand 1's first core size (``size``) is not operand
    0's (``other``), where both are known."""
    if size is not None and other is not None and size != other:
        raise ValueError(
            f"{name}: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
            f"signature {signature} (size {size} is different from {other})"
        )


def _matvec(a: Any, v: Any) -> Any:
    signature = "(m,n),(n)->(m)"
    _core_dims("matvec", signature, (a, v), (2, 1))
    _same_core_size("matvec", signature, v.type.shape[-1], a.type.shape[-1])
    return lt.getitem(lt.matmul(a, lt.expand_dims(v, -1)), (Ellipsis, 0))


def _vecmat(v: Any, a: Any) -> Any:
    signature = "(n),(n,m)->(m)"
    _core_dims("vecmat", signature, (v, a), (1, 2))
    _same_core_size("vecmat", signature, a.type.shape[-2], v.type.shape[-1])
    if np.dtype(v.dtype).kind == "c":
        v = lt.conj(v)
    return lt.getitem(lt.matmul(lt.expand_dims(v, -2), a), (Ellipsis, 0, slice(None)))


def matvec(x1: ArrayLike, x2: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """The product of each matrix in ``x1`` with each vector in ``x2`` (the last
    axes), broadcasting over the others (``numpy.matvec``, numpy 2.2+:
    ``sum(x1 * x2[..., None, :], axis=-1)``), as a matrix product.

    >>> matvec([[1, 2], [3, 4]], [1, 1]).compute()
    array([3, 7])
    """
    if GUFUNC_KEYWORDS & kwargs.keys():
        return call_with_axes(
            "matvec", _matvec, (x1, x2), lambda xs: (2, 1), lambda xs: 1, out, kwargs
        )
    return apply_ufunc("matvec", _matvec, (x1, x2), out, kwargs)


def vecmat(x1: ArrayLike, x2: ArrayLike, /, out: None = None, **kwargs: Any) -> Array:
    """The product of each vector in ``x1`` (conjugated) with each matrix in
    ``x2``, broadcasting over the other axes (``numpy.vecmat``, numpy 2.2+:
    ``sum(conj(x1)[..., :, None] * x2, axis=-2)``), as a matrix product.

    >>> vecmat([1, 1], [[1, 2], [3, 4]]).compute()
    array([4, 6])
    """
    if GUFUNC_KEYWORDS & kwargs.keys():
        return call_with_axes(
            "vecmat", _vecmat, (x1, x2), lambda xs: (1, 2), lambda xs: 1, out, kwargs
        )
    return apply_ufunc("vecmat", _vecmat, (x1, x2), out, kwargs)


def matrix_transpose(x: ArrayLike, /) -> Array:
    """``x`` with its last two axes swapped (``numpy.matrix_transpose``; needs 2 or
    more dimensions).

    >>> matrix_transpose([[1, 2, 3]]).shape
    (3, 1)
    """
    from lazygraph.numpy._manipulation import shuffled

    return shuffled(x, lt.matrix_transpose(as_variable(x)))


@accepts_out(same_dtype=True)
def dot(a: ArrayLike, b: ArrayLike, out: None = None) -> Array:
    """The dot product (``numpy.dot``): inner product of vectors, matrix product of
    matrices, a sum over the last axis of ``a`` and the second-to-last of ``b`` in
    general; a 0-d operand multiplies.

    >>> dot([1, 2, 3], [4, 5, 6]).compute()
    array(32)
    """
    return wrap(lt.dot(as_variable(a), as_variable(b)))


def vdot(a: ArrayLike, b: ArrayLike, /) -> Array:
    """The dot product of the flattened arrays, the first one conjugated
    (``numpy.vdot``).

    >>> vdot([1j, 2], [1j, 2]).compute()
    array(5.+0.j)
    """
    x, y = lt.ravel(as_tensor(a)), lt.ravel(as_tensor(b))
    if np.dtype(x.dtype).kind == "c":
        x = lt.conj(x)
    return wrap(lt.dot(x, y))


def inner(a: ArrayLike, b: ArrayLike, /) -> Array:
    """The sum product over the last axes of ``a`` and ``b`` (``numpy.inner``); a
    0-d operand multiplies.

    >>> inner([[1, 2], [3, 4]], [1, 1]).compute()
    array([3, 7])
    """
    x, y = as_tensor(a), as_tensor(b)
    if x.ndim == 0 or y.ndim == 0:
        return wrap(lt.multiply(x, y))
    return wrap(lt.tensordot(x, y, axes=([-1], [-1])))


@accepts_out(exact=None)  # (numpy: multiply into out, which broadcasts)
def outer(a: ArrayLike, b: ArrayLike, out: None = None) -> Array:
    """The outer product of the flattened arrays: ``a[i] * b[j]`` (``numpy.outer``).

    >>> outer([1, 2], [1, 10, 100]).compute()
    array([[  1,  10, 100],
           [  2,  20, 200]])
    """
    # numpy's definition, a broadcast multiply (so -0.0 products keep their sign).
    column = lt.expand_dims(lt.ravel(as_tensor(a)), 1)
    return wrap(lt.multiply(column, lt.expand_dims(lt.ravel(as_tensor(b)), 0)))


def tensordot(a: ArrayLike, b: ArrayLike, axes: Any = 2) -> Array:
    """The sum product over the last ``axes`` axes of ``a`` and the first of ``b``,
    or over the axes named by a pair of sequences (``numpy.tensordot``).

    >>> tensordot([[1, 2], [3, 4]], [[1, 0], [0, 1]]).compute()
    array(5)
    """
    return wrap(lt.tensordot(as_variable(a), as_variable(b), axes))


#: numpy's letters for sublist labels 0 to 51
_EINSUM_LABELS = string.ascii_uppercase + string.ascii_lowercase


def _labels(sublist: Any) -> str:
    """A sublist (ints in ``range(52)`` and ``...``) as subscript letters, with
    numpy's errors."""
    text = ""
    for s in sublist:
        if s is Ellipsis:
            text += "..."
            continue
        try:
            label = operator.index(s)
        except TypeError:
            raise TypeError("each subscript must be either an integer or an ellipsis") from None
        if not 0 <= label < len(_EINSUM_LABELS):
            raise ValueError("subscript is not within the valid range [0, 52)")
        text += _EINSUM_LABELS[label]
    return text


def _operand_positions(args: tuple[Any, ...]) -> list[int]:
    """Where the operands are in numpy's two forms of ``einsum`` arguments:
    ``(subscripts, *operands)``, or sublists ``(op0, sublist0, op1, sublist1,
    ..., [sublist_out])``."""
    if args and isinstance(args[0], str):
        return list(range(1, len(args)))
    return [2 * i for i in range(len(args) // 2)]


def _einsum_operands(args: tuple[Any, ...]) -> tuple[str, list[Any]]:
    """The subscripts and the operands of ``einsum``'s arguments (either form),
    with numpy's errors."""
    if not args:
        raise TypeError("einsum() missing required argument 'subscripts' (pos 0)")
    positions = _operand_positions(args)
    if isinstance(args[0], str):
        return args[0], [args[i] for i in positions]
    if len(args) < 2:
        raise ValueError("must provide at least an operand and a subscripts list to einsum")
    text = ",".join(_labels(args[i + 1]) for i in positions)
    if len(args) % 2:
        text += "->" + _labels(args[-1])
    return text, [args[i] for i in positions]


@accepts_out()
def einsum(*operands: Any, out: None = None, **kwargs: Any) -> Array:
    """Einstein summation (``numpy.einsum``), with ``...`` for broadcast axes and
    the implicit alphabetical output when ``->`` is absent; or numpy's sublist
    form ``einsum(op0, sublist0, op1, sublist1, ..., [sublist_out])``, labels
    ints from 0 to 51 and ``...``. ``optimize`` is accepted (lazygraph's
    rewrites choose the contraction); ``dtype=`` casts the operands first.

    >>> einsum("ij,j->i", [[1, 2], [3, 4]], [1, 1]).compute()
    array([3, 7])
    >>> einsum([[1, 2], [3, 4]], [0, 1], [1, 1], [1], [0]).compute()
    array([3, 7])
    """
    subscripts, arrays = _einsum_operands(operands)
    kwargs.pop("optimize", None)
    dtype = kwargs.pop("dtype", None)
    casting = kwargs.pop("casting", "safe")
    kwargs.pop("order", None)
    if kwargs:
        raise TypeError(f"einsum() got an unexpected keyword argument {next(iter(kwargs))!r}")
    variables = [as_tensor(x) for x in arrays]
    if dtype is not None:
        dt = np.dtype(dtype)
        for v in variables:
            if not np.can_cast(np.dtype(v.dtype), dt, casting):
                raise TypeError(
                    f"einsum: cannot cast operand from dtype('{v.dtype}') to {dt!r} "
                    f"with casting rule {casting!r}"
                )
        variables = [lt.cast(v, dt) for v in variables]
    return wrap(lt.einsum(subscripts, *variables))


def _stand_in(x: Any) -> Any:
    """An operand as ``einsum_path`` sees it: an array of its shape and dtype
    that holds no data (a lazy array is not computed; only a size that depends
    on the data is)."""
    if isinstance(x, Array) or hasattr(x, "__lazygraph_variable__"):
        arr = x if isinstance(x, Array) else wrap(as_tensor(x))
        return np.broadcast_to(np.zeros((), dtype=arr.dtype), arr.shape)
    return x


def einsum_path(*operands: Any, optimize: Any = "greedy", einsum_call: bool = False) -> Any:
    """numpy's contraction order for ``einsum`` with these operands and its
    report (``numpy.einsum_path``): it depends on their shapes alone, so numpy
    answers for stand-ins of those shapes and nothing is computed.

    >>> import lazygraph.numpy as lnp
    >>> a, b, c = lnp.ones((2, 3)), lnp.ones((3, 4)), lnp.ones((4, 5))
    >>> path, report = einsum_path("ij,jk,kl->il", a, b, c)
    >>> path
    ['einsum_path', (1, 2), (0, 1)]
    """
    if einsum_call:
        raise UnsupportedArgumentsError(
            "einsum_path: einsum_call=True (numpy's internal hand-over to einsum) is "
            "not supported by lazygraph"
        )
    positions = set(_operand_positions(operands))
    # numpy reads the rest (and raises its errors): a lazy array there, its value
    args = [
        _stand_in(x) if i in positions else np.asarray(x) if isinstance(x, Array) else x
        for i, x in enumerate(operands)
    ]
    return np.einsum_path(*args, optimize=optimize)


@accepts_out()
def trace(
    a: ArrayLike,
    offset: int = 0,
    axis1: int = 0,
    axis2: int = 1,
    dtype: DTypeLike = None,
    out: None = None,
) -> Array:
    """The sum along the ``offset`` diagonal of the 2-d sub-arrays on ``axis1``,
    ``axis2`` (``numpy.trace``; integers accumulate as ``sum`` does).

    >>> trace([[1, 2], [3, 4]]).compute()
    array(5)
    """
    return wrap(lt.trace(as_variable(a), offset, axis1, axis2, dtype=dtype))


def diagonal(a: ArrayLike, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Array:
    """The ``offset`` diagonal of the 2-d sub-arrays on ``axis1``, ``axis2``, as the
    last axis of the result (``numpy.diagonal``).

    >>> diagonal([[1, 2], [3, 4]], offset=1).compute()
    array([2])
    """
    return wrap(lt.diagonal(as_variable(a), offset, axis1, axis2))


def cross(
    a: ArrayLike,
    b: ArrayLike,
    axisa: int = -1,
    axisb: int = -1,
    axisc: int = -1,
    axis: int | None = None,
) -> Array:
    """The cross product of 3-vectors along ``axisa``/``axisb`` (``axis`` sets all
    three), broadcasting over the other axes (``numpy.cross``). 2-vectors are
    deprecated in numpy 2 and work as there: their z component is 0, and two
    2-vectors give the z component alone (numpy 2.5 removed them: a
    ``ValueError`` there, as here).

    >>> cross([1, 0, 0], [0, 1, 0]).compute()
    array([0, 0, 1])
    """
    x, y = as_tensor(a), as_tensor(b)
    if axis is not None:
        axisa = axisb = axisc = axis
    for v in (x, y):
        if v.ndim == 0:
            raise ValueError("cross: inputs must have at least one dimension")
    x = lt.moveaxis(x, normalize_axis(axisa, x.ndim, "cross"), -1)
    y = lt.moveaxis(y, normalize_axis(axisb, y.ndim, "cross"), -1)
    nx, ny = x.type.shape[-1], y.type.shape[-1]
    if _NUMPY_VERSION >= (2, 5) and 2 in (nx, ny):  # 2-vectors were removed
        raise ValueError(
            "cross: both input arrays must be (arrays of) 3-dimensional vectors, but they "
            f"are {nx} and {ny} dimensional instead"
        )
    if nx not in (2, 3) or ny not in (2, 3):
        raise ValueError("incompatible dimensions for cross product\n(dimension must be 2 or 3)")
    if nx == 2 or ny == 2:
        warnings.warn(
            "Arrays of 2-dimensional vectors are deprecated. Use arrays of "
            "3-dimensional vectors instead. (deprecated in NumPy 2.0)",
            DeprecationWarning,
            stacklevel=2,
        )
    if nx == 2 and ny == 2:
        z = lt.subtract(lt.multiply(x[..., 0], y[..., 1]), lt.multiply(x[..., 1], y[..., 0]))
        return wrap(z)
    result = lt.cross(x, y, axis=-1) if nx == ny else _cross_2_3(x, y, nx)
    return wrap(lt.moveaxis(result, -1, normalize_axis(axisc, result.ndim, "cross")))


def _cross_2_3(x: Any, y: Any, nx: int) -> Any:
    """The cross product of a 2-vector and a 3-vector (either way round) along the
    last axis, term by term as numpy computes it: the missing component is not a
    zero that multiplies (``0 * inf`` would be NaN, and ``0 - 0.0 * -1`` loses the
    sign of a zero result), its terms are left out."""
    a0, a1 = x[..., 0], x[..., 1]
    b0, b1 = y[..., 0], y[..., 1]
    c2 = lt.subtract(lt.multiply(a0, b1), lt.multiply(a1, b0))
    if nx == 2:  # a2 = 0
        b2 = y[..., 2]
        c0, c1 = lt.multiply(a1, b2), lt.negative(lt.multiply(a0, b2))
    else:  # b2 = 0
        a2 = x[..., 2]
        c0, c1 = lt.negative(lt.multiply(a2, b1)), lt.multiply(a2, b0)
    c0, c1, c2 = lt.broadcast_arrays(c0, c1, c2)
    return lt.stack([c0, c1, c2], axis=-1)


def kron(a: ArrayLike, b: ArrayLike) -> Array:
    """The Kronecker product: blocks of ``b`` scaled by the elements of ``a``
    (``numpy.kron``).

    >>> kron([1, 10], [1, 2]).compute()
    array([ 1,  2, 10, 20])
    """
    x, y = as_tensor(a), as_tensor(b)
    nd = max(x.ndim, y.ndim)
    x = lt.reshape(x, (1,) * (nd - x.ndim) + tuple(lt.shape_tuple(x))) if x.ndim < nd else x
    y = lt.reshape(y, (1,) * (nd - y.ndim) + tuple(lt.shape_tuple(y))) if y.ndim < nd else y
    # Interleave the axes: x's axis i at 2i, y's at 2i + 1, then merge each pair.
    xe = lt.expand_dims(x, tuple(2 * i + 1 for i in range(nd)))
    ye = lt.expand_dims(y, tuple(2 * i for i in range(nd)))
    product = lt.multiply(xe, ye)
    sx, sy = lt.shape_tuple(x), lt.shape_tuple(y)
    sizes = [
        sx[i] * sy[i]
        if isinstance(sx[i], int) and isinstance(sy[i], int)
        else lt.multiply(sx[i], sy[i])
        for i in range(nd)
    ]
    return wrap(lt.reshape(product, sizes))
