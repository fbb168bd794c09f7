"""``lazygraph.numpy.linalg``: the array API's linalg extension with numpy.linalg's
signatures, plus the numpy.linalg names code uses most (``norm``, ``lstsq``,
``multi_dot``, ``cond``, ``tensorsolve``, ``tensorinv``).

Each function converts its arguments, calls the strict ``lazygraph.tensor.linalg``
function and wraps the result. Errors are numpy's: a 1-d or non-square input
raises ``LinAlgError`` when the graph is built (if its static shape shows it);
a singular matrix raises ``LinAlgError`` when the result is computed.
``eig`` and ``eigvals`` (general, non-symmetric matrices) keep numpy's
value-dependent dtype when their input's value is known, and are otherwise lazy
and complex, as in JAX (see :func:`eig`).

>>> import numpy as np
>>> import lazygraph.numpy as lnp
>>> a = lnp.asarray(np.array([[3.0, 1.0], [1.0, 2.0]]))
>>> lnp.linalg.solve(a, np.array([9.0, 8.0])).compute()
array([2., 3.])
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Sequence
from typing import Any, NamedTuple

import lazygraph.tensor as lt
import numpy as np
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import as_variable, wrap
from lazygraph.numpy._errors import name_public_errors
from lazygraph.tensor.variable import TensorVariable

__all__ = [
    "EigResult",
    "EighResult",
    "LinAlgError",
    "QRResult",
    "SVDResult",
    "SlogdetResult",
    "cholesky",
    "cond",
    "cross",
    "det",
    "diagonal",
    "eig",
    "eigh",
    "eigvals",
    "eigvalsh",
    "inv",
    "lstsq",
    "matmul",
    "matrix_norm",
    "matrix_power",
    "matrix_rank",
    "matrix_transpose",
    "multi_dot",
    "norm",
    "outer",
    "pinv",
    "qr",
    "slogdet",
    "solve",
    "svd",
    "svdvals",
    "tensordot",
    "tensorinv",
    "tensorsolve",
    "test",
    "trace",
    "vecdot",
    "vector_norm",
]

LinAlgError = np.linalg.LinAlgError
#: numpy.linalg's test runner (numpy's own object: it runs numpy's tests)
test = np.linalg.test

L = lt.linalg


class EigResult(NamedTuple):
    """``eig``'s result, as numpy's: the eigenvalues and right eigenvectors."""

    eigenvalues: Array
    eigenvectors: Array


class EighResult(NamedTuple):
    """``eigh``'s result, as numpy's: ascending eigenvalues and the eigenvectors."""

    eigenvalues: Array
    eigenvectors: Array


class QRResult(NamedTuple):
    """``qr``'s result, as numpy's."""

    Q: Array
    R: Array


class SlogdetResult(NamedTuple):
    """``slogdet``'s result, as numpy's."""

    sign: Array
    logabsdet: Array


class SVDResult(NamedTuple):
    """``svd``'s result, as numpy's."""

    U: Array
    S: Array
    Vh: Array


def _var(x: Any) -> Any:
    """``x`` as a tensor variable (Python scalars too: linalg has no weak scalars)."""
    return lt.as_tensor_variable(as_variable(x))


# -- decompositions -----------------------------------------------------------------


def cholesky(x: Any, /, *, upper: bool = False) -> Array:
    """The Cholesky factor of each Hermitian positive-definite matrix: lower ``L``
    with ``x = L @ L.conj().T`` (or upper ``U`` with ``x = U.conj().T @ U``).

    >>> import numpy as np
    >>> import lazygraph.numpy as lnp
    >>> lnp.linalg.cholesky(np.array([[4.0, 2.0], [2.0, 2.0]])).compute()
    array([[2., 0.],
           [1., 1.]])
    """
    return wrap(L.cholesky(_var(x), upper=upper))


def eigh(x: Any, /, UPLO: str = "L") -> EighResult:
    """Eigenvalues (ascending) and eigenvectors of symmetric/Hermitian matrices,
    reading the ``UPLO`` triangle.

    >>> import numpy as np
    >>> import lazygraph.numpy as lnp
    >>> w, v = lnp.linalg.eigh(np.array([[2.0, 1.0], [1.0, 2.0]]))
    >>> w.compute()
    array([1., 3.])
    """
    w, v = L.eigh(_var(x), UPLO=UPLO)
    return EighResult(wrap(w), wrap(v))


def eigvalsh(x: Any, /, UPLO: str = "L") -> Array:
    """The eigenvalues (ascending) of symmetric/Hermitian matrices.

    >>> import numpy as np
    >>> import lazygraph.numpy as lnp
    >>> lnp.linalg.eigvalsh(np.array([[2.0, 1.0], [1.0, 2.0]])).compute()
    array([1., 3.])
    """
    return wrap(L.eigvalsh(_var(x), UPLO=UPLO))


def _hermitian_svd(a: Any, compute_uv: bool) -> Any:
    """numpy's ``svd(hermitian=True)``: from ``eigh``, singular values are the
    absolute eigenvalues sorted descending."""
    if not compute_uv:
        s = lt.abs(L.eigvalsh(a))
        return lt.flip(lt.sort(s, axis=-1), axis=-1)
    w, u = L.eigh(a)
    sgn = lt.sign(w)
    s = lt.abs(w)
    order = lt.flip(lt.argsort(s, axis=-1), axis=-1)
    s = lt.take_along_axis(s, order, axis=-1)
    sgn = lt.take_along_axis(sgn, order, axis=-1)
    u = lt.take_along_axis(u, lt.expand_dims(order, -2), axis=-1)
    vh = lt.conj(lt.matrix_transpose(lt.multiply(u, lt.expand_dims(sgn, -2))))
    return u, s, vh


def svd(
    x: Any, /, full_matrices: bool = True, compute_uv: bool = True, hermitian: bool = False
) -> SVDResult | Array:
    """``U, S, Vh`` with ``x = U @ diag(S) @ Vh``, singular values descending; only
    ``S`` with ``compute_uv=False``.

    >>> import numpy as np
    >>> import lazygraph.numpy as lnp
    >>> lnp.linalg.svd(np.array([[0.0, 2.0], [1.0, 0.0]])).S.compute()
    array([2., 1.])
    """
    a = _var(x)
    if hermitian:
        from lazygraph.tensor.linalg import as_matrix_stack

        a = as_matrix_stack(a, "svd")
        if a.type.numpy_dtype.kind not in "fc":
            a = lt.cast(a, "float64")
        out = _hermitian_svd(a, compute_uv)
        if not compute_uv:
            return wrap(out)
        return SVDResult(*(wrap(v) for v in out))
    if not compute_uv:
        return wrap(L.svdvals(a))
    u, s, vh = L.svd(a, full_matrices=full_matrices)
    return SVDResult(wrap(u), wrap(s), wrap(vh))


def svdvals(x: Any, /) -> Array:
    """The singular values of each matrix, descending.

    >>> import numpy as np
    >>> import lazygraph.numpy as lnp
    >>> lnp.linalg.svdvals(np.array([[3.0, 0.0], [0.0, -4.0]])).compute()
    array([4., 3.])
    """
    return wrap(L.svdvals(_var(x)))


def qr(x: Any, /, mode: str = "reduced") -> QRResult | Array:
    """``Q, R`` with ``x = Q @ R`` (``mode="reduced"`` or ``"complete"``); ``R``
    alone with ``mode="r"``.

    >>> import numpy as np
    >>> import lazygraph.numpy as lnp
    >>> q, r = lnp.linalg.qr(np.array([[2.0, 0.0], [0.0, 3.0]]))
    >>> np.abs(r.compute())
    array([[2., 0.],
           [0., 3.]])
    """
    if mode not in ("reduced", "complete", "r"):
        raise ValueError(f"qr: unrecognized mode {mode!r} (supported: 'reduced', 'complete', 'r')")
    out = L.qr(_var(x), mode=mode)
    if mode == "r":
        return wrap(out)
    q, r = out
    return QRResult(wrap(q), wrap(r))


def _value_now(a: TensorVariable) -> np.ndarray | None:
    """The value of ``a`` if lazygraph.numpy may read it now (a constant, or data
    from numpy, with eager evaluation on), else None (a graph, or a traced
    argument)."""
    from lazygraph.configuration import config
    from lazygraph.graph.basic import Constant
    from lazygraph.numpy._eager import known_value

    if config.eager_max_elements <= 0:
        return None
    if isinstance(a, Constant):
        return np.asarray(a.data)
    return known_value(a) if a.owner is None else None


def eig(x: Any, /) -> EigResult:
    """Eigenvalues and right eigenvectors (unit norm) of general square matrices,
    in numpy's (LAPACK's) order.

    The dtype of numpy's result depends on the values: real when every
    eigenvalue is real (for a real input), else complex. When ``x``'s value is
    known at the call (numpy data, a small array computed at once) and eager
    evaluation is on (``config.eager_max_elements > 0``), numpy's dtype is kept
    and the result computed at once. Otherwise, as inside
    :func:`lazygraph.grad` and :func:`lazygraph.jit` or for a large lazy input,
    the result is a lazy graph and always complex (complex64 for float32
    inputs, complex128 otherwise), as in JAX; ``grad`` goes through it (JAX's
    complex convention; eigenvalues must be distinct, and only functions of the
    eigenvectors that do not depend on their phase have a gradient).

    >>> import numpy as np
    >>> import lazygraph.numpy as lnp
    >>> w, v = lnp.linalg.eig(np.diag([1.0, 2.0]))
    >>> w.compute()
    array([1., 2.])
    >>> w, v = lnp.linalg.eig(np.array([[0.0, -1.0], [1.0, 0.0]]))
    >>> w.compute()
    array([0.+1.j, 0.-1.j])
    """
    a = L.as_matrix_stack(_var(x), "eig")
    value = _value_now(a)
    if value is not None:
        from lazygraph.numpy._convert import known_array

        w, v = np.linalg.eig(value)
        return EigResult(known_array(w), known_array(v))
    w, v = L.eig(a)
    return EigResult(wrap(w), wrap(v))


def eigvals(x: Any, /) -> Array:
    """The eigenvalues of general square matrices, in numpy's order; dtype as in
    :func:`eig` (numpy's when ``x``'s value is known, else complex).

    >>> import numpy as np
    >>> import lazygraph
    >>> import lazygraph.numpy as lnp
    >>> lnp.linalg.eigvals(np.array([[2.0, 1.0], [0.0, 3.0]])).compute()
    array([2., 3.])
    >>> def trace_of_square(a):
    ...     return lnp.real(lnp.sum(lnp.linalg.eigvals(a) ** 2))
    >>> lazygraph.grad(trace_of_square)(np.array([[1.0, 2.0], [3.0, 4.0]]))  # 2 a.T
    array([[2., 6.],
           [4., 8.]])
    """
    a = L.as_matrix_stack(_var(x), "eigvals")
    value = _value_now(a)
    if value is not None:
        from lazygraph.numpy._convert import known_array

        return known_array(np.linalg.eigvals(value))
    return wrap(L.eigvals(a))


# -- inverses, solves, determinants ------------------------------------------------


def inv(x: Any, /) -> Array:
    """The inverse of each square matrix.

    >>> import numpy as np
    >>> import lazygraph.numpy as lnp
    >>> lnp.linalg.inv(np.array([[2.0, 0.0], [0.0, 4.0]])).compute()
    array([[0.5 , 0.  ],
           [0.  , 0.25]])
    """
    return wrap(L.inv(_var(x)))


def solve(x1: Any, x2: Any, /) -> Array:
    """The solution of ``x1 @ x = x2`` (numpy 2: ``x2`` is a vector only when 1-d).

    >>> import numpy as np
    >>> import lazygraph.numpy as lnp
    >>> lnp.linalg.solve(np.array([[2.0, 0.0], [0.0, 4.0]]), np.array([1.0, 1.0])).compute()
    array([0.5 , 0.25])
    """
    return wrap(L.solve(_var(x1), _var(x2)))


def det(x: Any, /) -> Array:
    """The determinant of each square matrix.

    >>> import numpy as np
    >>> import lazygraph.numpy as lnp
    >>> float(lnp.linalg.det(np.array([[1.0, 2.0], [3.0, 4.0]])))
    -2.0000000000000004
    """
    return wrap(L.det(_var(x)))


def slogdet(x: Any, /) -> SlogdetResult:
    """``sign, logabsdet`` of each determinant (``det = sign * exp(logabsdet)``).

    >>> import numpy as np
    >>> import lazygraph.numpy as lnp
    >>> sign, logabsdet = lnp.linalg.slogdet(np.array([[-2.0, 0.0], [0.0, 1.0]]))
    >>> float(sign), float(logabsdet)
    (-1.0, 0.6931471805599453)
    """
    sign, logabsdet = L.slogdet(_var(x))
    return SlogdetResult(wrap(sign), wrap(logabsdet))


_UNSET: Any = object()


def pinv(x: Any, /, rcond: Any = None, hermitian: bool = False, *, rtol: Any = _UNSET) -> Array:
    """The Moore-Penrose pseudo-inverse; singular values below ``rcond`` (numpy's
    default 1e-15) or ``rtol`` (``None``: ``max(M, N) * eps``) times the largest
    are dropped; an array cutoff broadcasts against ``x.shape[:-2]`` (one per
    matrix). ``hermitian`` is accepted and ignored (the result is the same).

    >>> import numpy as np
    >>> import lazygraph.numpy as lnp
    >>> lnp.linalg.pinv(np.array([[2.0, 0.0]])).compute()
    array([[0.5],
           [0. ]])
    """
    lazy = (Array, TensorVariable)
    if isinstance(rcond, lazy):  # an array of cutoffs (one per matrix) in the graph
        rcond = _var(rcond)
    if rtol is _UNSET:
        return wrap(L.pinv(_var(x), rcond))
    return wrap(L.pinv(_var(x), rcond, rtol=_var(rtol) if isinstance(rtol, lazy) else rtol))


def lstsq(a: Any, b: Any, /, rcond: Any = None) -> tuple[Array, Array, Array, Array]:
    """``x, residuals, rank, s`` minimising ``|b - a @ x|`` (numpy.linalg.lstsq);
    ``rcond=None`` is machine precision times ``max(M, N)``.

    >>> import numpy as np
    >>> import lazygraph.numpy as lnp
    >>> x, res, rank, s = lnp.linalg.lstsq(np.eye(3, 2), np.array([1.0, 2.0, 3.0]))
    >>> x.compute(), res.compute(), int(rank)
    (array([1., 2.]), array([9.]), 2)
    """
    x, res, rank, s = L.lstsq(_var(a), _var(b), rcond=rcond)
    return wrap(x), wrap(res), wrap(rank), wrap(s)


def tensorsolve(a: Any, b: Any, /, axes: Sequence[int] | None = None) -> Array:
    """numpy.linalg.tensorsolve: ``x`` with ``tensordot(a, x, x.ndim) == b``
    (static shapes needed).

    >>> import numpy as np
    >>> import lazygraph.numpy as lnp
    >>> a = np.eye(6).reshape(6, 2, 3)
    >>> lnp.linalg.tensorsolve(a, np.arange(6.0)).shape
    (2, 3)
    """
    av, bv = _var(a), _var(b)
    if axes is not None:
        axes = [operator.index(k) % av.ndim for k in axes]
        rest = [k for k in range(av.ndim) if k not in axes]
        av = lt.permute_dims(av, [*rest, *axes])
    shape_a, shape_b = av.type.shape, bv.type.shape
    if None in shape_a or None in shape_b:
        raise ValueError("tensorsolve: needs static shapes")
    x_shape = shape_a[bv.ndim :]
    prod = functools.reduce(operator.mul, x_shape, 1)
    if functools.reduce(operator.mul, shape_a[: bv.ndim], 1) != prod:
        raise LinAlgError(
            f"tensorsolve: Last 2 dimensions of the array must be square (a of shape "
            f"{shape_a} with b of shape {shape_b})"
        )
    sol = L.solve(lt.reshape(av, (prod, prod)), lt.reshape(bv, (prod,)))
    return wrap(lt.reshape(sol, x_shape))


def tensorinv(a: Any, /, ind: int = 2) -> Array:
    """numpy.linalg.tensorinv: the inverse of ``a`` seen as a matrix whose rows
    are its first ``ind`` axes (static shapes needed).

    >>> import numpy as np
    >>> import lazygraph.numpy as lnp
    >>> lnp.linalg.tensorinv(np.eye(4).reshape(4, 2, 2), ind=1).shape
    (2, 2, 4)
    """
    av = _var(a)
    if ind <= 0:
        raise ValueError("Invalid ind argument.")
    shape = av.type.shape
    if None in shape:
        raise ValueError("tensorinv: needs static shapes")
    inv_shape = (*shape[ind:], *shape[:ind])
    prod = functools.reduce(operator.mul, shape[ind:], 1)
    return wrap(lt.reshape(L.inv(lt.reshape(av, (-1, prod))), inv_shape))


# -- products and matrix functions -------------------------------------------------


def matmul(x1: Any, x2: Any, /) -> Array:
    """The matrix product ``x1 @ x2`` (batched; numpy's 1-d rules).

    >>> import numpy as np
    >>> import lazygraph.numpy as lnp
    >>> lnp.linalg.matmul(np.eye(2), np.array([1.0, 2.0])).compute()
    array([1., 2.])
    """
    return wrap(lt.matmul(as_variable(x1), as_variable(x2)))


def tensordot(x1: Any, x2: Any, /, *, axes: Any = 2) -> Array:
    """Sum products over ``axes`` (an int: the last ``axes`` of ``x1`` with the first
    of ``x2``; or a pair of axis sequences).

    >>> import numpy as np
    >>> import lazygraph.numpy as lnp
    >>> lnp.linalg.tensordot(np.ones((2, 3)), np.ones((3, 4)), axes=1).shape
    (2, 4)
    """
    return wrap(lt.tensordot(as_variable(x1), as_variable(x2), axes=axes))


def vecdot(x1: Any, x2: Any, /, *, axis: int = -1) -> Array:
    """``sum(conj(x1) * x2, axis)`` with broadcasting.

    >>> import numpy as np
    >>> import lazygraph.numpy as lnp
    >>> lnp.linalg.vecdot(np.array([1.0, 2.0]), np.array([3.0, 4.0])).compute()
    array(11.)
    """
    return wrap(lt.vecdot(as_variable(x1), as_variable(x2), axis=axis))


def outer(x1: Any, x2: Any, /) -> Array:
    """The outer product of two vectors (numpy.linalg.outer: 1-d inputs only).

    >>> import numpy as np
    >>> import lazygraph.numpy as lnp
    >>> lnp.linalg.outer(np.array([1, 2]), np.array([3, 4])).compute()
    array([[3, 4],
           [6, 8]])
    """
    a, b = _var(x1), _var(x2)
    if a.ndim != 1 or b.ndim != 1:
        raise ValueError(
            f"outer: Input arrays must be one-dimensional, but they are {a.ndim}-d and "
            f"{b.ndim}-d (shapes {a.type.shape} and {b.type.shape})"
        )
    return wrap(lt.outer(a, b))


def cross(x1: Any, x2: Any, /, *, axis: int = -1) -> Array:
    """The cross product of 3-element vectors along ``axis`` (numpy.linalg.cross).

    >>> import numpy as np
    >>> import lazygraph.numpy as lnp
    >>> lnp.linalg.cross(np.array([1, 0, 0]), np.array([0, 1, 0])).compute()
    array([0, 0, 1])
    """
    a, b = _var(x1), _var(x2)
    for v in (a, b):
        if v.ndim == 0 or not -v.ndim <= axis < v.ndim:
            raise np.exceptions.AxisError(axis, v.ndim, "cross")
        size = v.type.shape[axis]
        if size is not None and size != 3:
            raise ValueError(
                f"cross: both input arrays must be (arrays of) 3-dimensional vectors, but "
                f"they have {a.type.shape[axis]} and {b.type.shape[axis]} dimensions"
            )
    return wrap(lt.cross(a, b, axis=axis))


def matrix_transpose(x: Any, /) -> Array:
    """``x`` with its last two axes swapped.

    >>> import numpy as np
    >>> import lazygraph.numpy as lnp
    >>> lnp.linalg.matrix_transpose(np.ones((2, 3, 4))).shape
    (2, 4, 3)
    """
    v = _var(x)
    if v.ndim < 2:
        raise ValueError(
            f"matrix_transpose: input must be at least 2-dimensional, got shape {v.type.shape}"
        )
    from lazygraph.numpy._manipulation import shuffled

    return shuffled(x, lt.matrix_transpose(v))


def diagonal(x: Any, /, *, offset: int = 0) -> Array:
    """The ``offset`` diagonal of each matrix in the last two axes.

    >>> import numpy as np
    >>> import lazygraph.numpy as lnp
    >>> lnp.linalg.diagonal(np.arange(9).reshape(3, 3), offset=1).compute()
    array([1, 5])
    """
    v = _var(x)
    if v.ndim < 2:
        raise ValueError(f"diagonal: array must be at least 2-d, got shape {v.type.shape}")
    return wrap(lt.diagonal(v, offset=offset, axis1=-2, axis2=-1))


def trace(x: Any, /, *, offset: int = 0, dtype: Any = None) -> Array:
    """The sum of the ``offset`` diagonal of each matrix in the last two axes.

    >>> import numpy as np
    >>> import lazygraph.numpy as lnp
    >>> lnp.linalg.trace(np.arange(8).reshape(2, 2, 2)).compute()
    array([ 3, 11])
    """
    v = _var(x)
    if v.ndim < 2:
        raise ValueError(f"trace: array must be at least 2-d, got shape {v.type.shape}")
    return wrap(lt.trace(v, offset=offset, axis1=-2, axis2=-1, dtype=dtype))


def matrix_power(x: Any, n: int, /) -> Array:
    """``x`` multiplied by itself ``n`` times (the inverse's powers for ``n < 0``).

    >>> import numpy as np
    >>> import lazygraph.numpy as lnp
    >>> lnp.linalg.matrix_power(np.array([[1, 1], [0, 1]]), 3).compute()
    array([[1, 3],
           [0, 1]])
    """
    return wrap(L.matrix_power(_var(x), n))


def matrix_rank(x: Any, /, tol: Any = None, hermitian: bool = False, *, rtol: Any = None) -> Array:
    """The number of singular values above ``tol`` (absolute) or ``rtol`` times the
    largest (default ``max(M, N) * eps``).

    >>> import numpy as np
    >>> import lazygraph.numpy as lnp
    >>> int(lnp.linalg.matrix_rank(np.array([[1.0, 2.0], [2.0, 4.0]])))
    1
    """
    if tol is not None and rtol is not None:
        raise ValueError("`tol` and `rtol` can't be both set.")
    v = _var(x)
    if tol is None or v.ndim < 2:
        return wrap(L.matrix_rank(v, rtol=None if rtol is None else _var(rtol)))
    s = lt.abs(L.eigvalsh(v)) if hermitian else L.svdvals(v)
    tol_v = lt.expand_dims(_var(tol), -1)
    return wrap(lt.count_nonzero(lt.greater(s, tol_v), axis=-1))


def multi_dot(arrays: Sequence[Any], *, out: Any = None) -> Array:
    """The product of several matrices, in the cheapest order (numpy's chain
    order, from the static shapes); a 1-d first (last) operand is a row (column).

    >>> import numpy as np
    >>> import lazygraph.numpy as lnp
    >>> lnp.linalg.multi_dot([np.ones(2), np.eye(2), np.ones(2)]).compute()
    array(2.)
    """
    if out is not None:
        raise TypeError("multi_dot: out= is not supported by lazygraph.numpy")
    vs = [_var(a) for a in arrays]
    if len(vs) < 2:
        raise ValueError("Expecting at least two arrays.")
    if len(vs) == 2:
        return wrap(lt.dot(vs[0], vs[1]))
    first_1d, last_1d = vs[0].ndim == 1, vs[-1].ndim == 1
    if first_1d:
        vs[0] = lt.expand_dims(vs[0], 0)
    if last_1d:
        vs[-1] = lt.expand_dims(vs[-1], -1)
    for v in vs:
        if v.ndim != 2:
            raise LinAlgError(f"{v.ndim}-dimensional array given. Array must be two-dimensional")
    dims = [v.type.shape[0] for v in vs] + [vs[-1].type.shape[1]]
    if None in dims:
        result = functools.reduce(lt.matmul, vs)
    else:
        result = _chain(vs, _chain_order([int(d) for d in dims]), 0, len(vs) - 1)
    if first_1d:
        result = lt.squeeze(result, 0)
    if last_1d:
        result = lt.squeeze(result, -1)
    return wrap(result)


def _chain_order(p: list[int]) -> list[list[int]]:
    """The classic matrix-chain dynamic programme: ``split[i][j]`` is where the
    cheapest product of matrices ``i..j`` splits."""
    n = len(p) - 1
    cost = [[0] * n for _ in range(n)]
    split = [[0] * n for _ in range(n)]
    for length in range(1, n):
        for i in range(n - length):
            j = i + length
            cost[i][j] = -1
            for k in range(i, j):
                c = cost[i][k] + cost[k + 1][j] + p[i] * p[k + 1] * p[j + 1]
                if cost[i][j] < 0 or c < cost[i][j]:
                    cost[i][j], split[i][j] = c, k
    return split


def _chain(vs: list[Any], split: list[list[int]], i: int, j: int) -> Any:
    if i == j:
        return vs[i]
    k = split[i][j]
    return lt.matmul(_chain(vs, split, i, k), _chain(vs, split, k + 1, j))


# -- norms ---------------------------------------------------------------------------


def vector_norm(
    x: Any, /, *, axis: int | tuple[int, ...] | None = None, keepdims: bool = False, ord: Any = 2
) -> Array:
    """The ``ord``-norm over ``axis`` (all axes by default).

    >>> import numpy as np
    >>> import lazygraph.numpy as lnp
    >>> float(lnp.linalg.vector_norm(np.array([3.0, -4.0])))
    5.0
    """
    return wrap(L.vector_norm(_var(x), axis=axis, keepdims=keepdims, ord=ord))


def matrix_norm(x: Any, /, *, keepdims: bool = False, ord: Any = "fro") -> Array:
    """The ``ord``-norm of each matrix in the last two axes.

    >>> import numpy as np
    >>> import lazygraph.numpy as lnp
    >>> float(lnp.linalg.matrix_norm(np.array([[1.0, -2.0], [3.0, 4.0]]), ord=1))
    6.0
    """
    return wrap(L.matrix_norm(_var(x), keepdims=keepdims, ord=ord))


def norm(x: Any, ord: Any = None, axis: Any = None, keepdims: bool = False) -> Array:
    """numpy.linalg.norm: a vector norm (``axis`` an int, or ``None`` with a 1-d
    ``x``), a matrix norm (``axis`` a pair, or ``None`` with a 2-d ``x``), or with
    ``ord=None`` and ``axis=None`` the 2-norm of the flattened ``x``.

    >>> import numpy as np
    >>> import lazygraph.numpy as lnp
    >>> float(lnp.linalg.norm(np.array([[1.0, 2.0], [2.0, 4.0]])))
    5.0
    """
    v = _var(x)
    nd = v.ndim
    if axis is None:
        if ord is None:
            out = L.vector_norm(v, axis=None, keepdims=False, ord=2)
            if keepdims:
                out = lt.reshape(out, (1,) * nd)
            return wrap(out)
        if nd == 1:
            axis = (0,)
        elif nd == 2:
            axis = (0, 1)
        else:
            raise ValueError("Improper number of dimensions to norm.")
    elif not isinstance(axis, tuple):
        try:
            axis = (operator.index(axis),)
        except TypeError as exc:
            raise TypeError("'axis' must be None, an integer or a tuple of integers") from exc
    if len(axis) == 1:
        if isinstance(ord, str):
            raise ValueError(f"Invalid norm order '{ord}' for vectors")
        return wrap(L.vector_norm(v, axis=axis, keepdims=keepdims, ord=2 if ord is None else ord))
    if len(axis) == 2:
        row, col = (operator.index(a) for a in axis)
        for a in (row, col):
            if not -nd <= a < nd:
                raise np.exceptions.AxisError(a, nd, "norm")
        row, col = row % nd, col % nd
        if row == col:
            raise ValueError("Duplicate axes given.")
        moved = lt.moveaxis(v, (row, col), (-2, -1))
        out = L.matrix_norm(moved, keepdims=False, ord="fro" if ord is None else ord)
        if keepdims:
            out = lt.expand_dims(out, tuple(sorted((row, col))))
        return wrap(out)
    raise ValueError("Improper number of dimensions to norm.")


def cond(x: Any, p: Any = None) -> Array:
    """numpy.linalg.cond: the condition number in the ``p`` norm (``None``/2/-2:
    from the singular values; otherwise ``norm(x, p) * norm(inv(x), p)``).

    >>> import numpy as np
    >>> import lazygraph.numpy as lnp
    >>> float(lnp.linalg.cond(np.diag([1.0, 4.0])))
    4.0
    """
    v = _var(x)
    if p is None or p == 2 or p == -2:
        s = L.svdvals(v)
        first, last = s[..., 0], s[..., -1]
        return wrap(lt.divide(last, first) if p == -2 else lt.divide(first, last))
    return wrap(
        lt.multiply(
            L.matrix_norm(v, ord=p),
            L.matrix_norm(L.inv(v), ord=p),
        )
    )


# Every public function names itself (and the user's line) in the errors it raises.
name_public_errors(globals(), __all__, prefix="linalg.")
