"""Polynomials (numpy's ``poly*`` functions, coefficients highest power first):
``polyval``, ``polyadd``, ``polysub``, ``polymul``, ``polydiv``, ``polyder``,
``polyint``, ``polyfit``, ``poly`` (coefficients from roots) and ``roots``.
The class ``poly1d`` is in :mod:`lazygraph.numpy._poly1d`; ``vander``, which
builds a matrix of powers, is in :mod:`lazygraph.numpy._creation`.

Coefficients stay lazy arrays. Where numpy's result length depends on the
values (``polymul`` and ``poly1d`` drop leading zeros, ``polydiv`` drops a
remainder's leading near-zeros, ``roots`` drops leading and trailing zeros),
just those counts are computed (from the values when known). ``roots`` is
not lazy: how many roots there are and whether they are real depend on the
values, so numpy computes the companion matrix's eigenvalues.

>>> polyadd([1, 2], [1, 0, 0]).compute()
array([1, 1, 2])
>>> q, r = polydiv([1.0, -3.0, 2.0], [1.0, -1.0])
>>> q.compute(), r.compute()
(array([ 1., -2.]), array([0.]))
"""

from __future__ import annotations

import operator
import warnings
from typing import Any

import lazygraph.tensor as lt
import numpy as np
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import as_tensor, as_variable, asarray, known_value, wrap
from lazygraph.numpy._ufunc import ArrayLike
from lazygraph.tensor.variable import TensorVariable

__all__ = [
    "poly",
    "polyadd",
    "polyder",
    "polydiv",
    "polyfit",
    "polyint",
    "polymul",
    "polysub",
    "polyval",
    "roots",
]


def polyval(p: ArrayLike, x: ArrayLike) -> Array:
    """The polynomial with coefficients ``p`` (highest power first) at ``x``, by
    Horner's rule (``numpy.polyval``).

    >>> polyval([3, 0, 1], [1.0, 2.0]).compute()
    array([ 4., 13.])
    """
    coeffs = as_tensor(p)
    if coeffs.ndim != 1 or coeffs.type.shape[0] is None:
        raise ValueError("polyval: p must be a 1-d sequence of known length")
    xv = as_variable(x)
    y = lt.zeros_like(lt.as_tensor_variable(xv))
    for i in range(coeffs.type.shape[0]):
        y = lt.add(lt.multiply(y, xv), lt.getitem(coeffs, i))
    return wrap(y)


# -- helpers ------------------------------------------------------------------------


def _sequence(x: Any, name: str) -> None:
    """numpy's dispatcher for ``poly``/``roots`` iterates its argument: a scalar
    is a TypeError there."""
    if not _is_poly1d(x) and np.ndim(x) == 0:
        raise TypeError(f"{name}: expected a sequence of coefficients or roots, not a scalar")


def _is_poly1d(x: Any) -> bool:
    from lazygraph.numpy._poly1d import poly1d

    return isinstance(x, poly1d)


def _as_poly1d(x: Any) -> Any:
    from lazygraph.numpy._poly1d import poly1d

    return poly1d(x)


def atleast_1d_tensor(x: Any) -> TensorVariable:
    """``numpy.atleast_1d(x)``: Python scalars become arrays of numpy's default
    dtypes (strong, as ``asarray`` makes them)."""
    v = asarray(x)._var
    return lt.expand_dims(v, 0) if v.ndim == 0 else v


def length(v: TensorVariable, name: str) -> int:
    size = lt.shape_tuple(v)[0]
    if not isinstance(size, int):
        raise ValueError(f"{name}: the number of coefficients must be known")
    return size


def value_of(v: TensorVariable) -> np.ndarray:
    """``v``'s value: known, or computed (for a length that depends on it)."""
    value = known_value(v)
    return value if value is not None else wrap(v).compute()


def leading_count(v: TensorVariable, keep: Any) -> int:
    """How many leading elements of the 1-d ``v`` fail ``keep`` (an elementwise
    test, on values or on tensors): from the value when known, else computed."""
    value = known_value(v)
    if value is None:
        hits = keep(v)
        n = length(v, "poly")
        found = lt.where(lt.any(hits), lt.argmax(hits), n) if n else 0
        return int(wrap(lt.as_tensor_variable(found)).compute())
    with np.errstate(all="ignore"):
        hits = keep(value)
    return int(np.argmax(hits)) if hits.any() else len(value)


def _padded_sum(name: str, a1: ArrayLike, a2: ArrayLike, subtract: bool) -> Any:
    truepoly = _is_poly1d(a1) or _is_poly1d(a2)
    x, y = atleast_1d_tensor(a1), atleast_1d_tensor(a2)
    diff = length(y, name) - length(x, name)
    if diff > 0:
        x = lt.concatenate([lt.zeros((diff,), dtype=x.dtype), x])
    elif diff < 0:
        y = lt.concatenate([lt.zeros((-diff,), dtype=y.dtype), y])
    val = wrap(lt.subtract(x, y) if subtract else lt.add(x, y))
    return _as_poly1d(val) if truepoly else val


# -- arithmetic ---------------------------------------------------------------------


def polyadd(a1: ArrayLike, a2: ArrayLike) -> Any:
    """The sum of two polynomials, the shorter padded with leading zeros
    (``numpy.polyadd``; a ``poly1d`` if either is one).

    >>> polyadd([1.0, 2.0], [3.0]).compute()
    array([1., 5.])
    """
    return _padded_sum("polyadd", a1, a2, subtract=False)


def polysub(a1: ArrayLike, a2: ArrayLike) -> Any:
    """The difference ``a1 - a2`` of two polynomials (``numpy.polysub``).

    >>> polysub([2, 10, -2], [3, 10, -4]).compute()
    array([-1,  0,  2])
    """
    return _padded_sum("polysub", a1, a2, subtract=True)


def polymul(a1: ArrayLike, a2: ArrayLike) -> Any:
    """The product of two polynomials (``numpy.polymul``: the convolution of
    their coefficients, leading zeros dropped first).

    >>> polymul([1, 2, 3], [9, 5, 1]).compute()
    array([ 9, 23, 38, 17,  3])
    """
    from lazygraph.numpy._signal import convolve

    truepoly = _is_poly1d(a1) or _is_poly1d(a2)
    p1, p2 = _as_poly1d(a1), _as_poly1d(a2)
    val = convolve(p1.coeffs, p2.coeffs)
    return _as_poly1d(val) if truepoly else val


def polydiv(u: ArrayLike, v: ArrayLike) -> tuple[Any, Any]:
    """The quotient and remainder of polynomial division (``numpy.polydiv``, float
    results; the remainder's leading near-zeros, ``allclose(r[0], 0)``, are
    dropped: its length is computed).

    >>> q, r = polydiv([3.0, 5.0, 2.0], [2.0, 1.0])
    >>> q.compute(), r.compute()
    (array([1.5 , 1.75]), array([0.25]))
    """
    truepoly = _is_poly1d(u) or _is_poly1d(v)
    uu = lt.add(atleast_1d_tensor(u), 0.0)
    vv = lt.add(atleast_1d_tensor(v), 0.0)
    dtype = lt.result_type(uu, vv)
    m, n = length(uu, "polydiv") - 1, length(vv, "polydiv") - 1
    if m < 0 or n < 0:
        raise IndexError("index 0 is out of bounds for axis 0 with size 0")
    scale = lt.true_divide(1.0, lt.getitem(vv, 0))
    r = lt.cast(uu, dtype)
    quotient = []
    for k in range(m - n + 1):
        d = lt.multiply(scale, lt.getitem(r, k))
        quotient.append(lt.cast(d, dtype))
        window = lt.getitem(r, slice(k, k + n + 1))
        r = lt.set_subtensor(window, lt.subtract(window, lt.multiply(d, vv)))
    q = lt.stack(quotient) if quotient else lt.zeros((1,), dtype=dtype)
    size = length(r, "polydiv")

    def far(x: Any) -> Any:  # not allclose(x, 0, rtol=1e-14): |x| > 1e-8, or NaN
        if isinstance(x, TensorVariable):
            return lt.logical_not(lt.less_equal(lt.abs(x), 1e-8))
        return ~(np.abs(x) <= 1e-8)

    drop = min(leading_count(r, far), size - 1) if size else 0
    r = lt.getitem(r, slice(drop, None))
    if truepoly:
        return _as_poly1d(wrap(q)), _as_poly1d(wrap(r))
    return wrap(q), wrap(r)


# -- calculus -----------------------------------------------------------------------


def polyder(p: ArrayLike, m: int = 1) -> Any:
    """The ``m``-th derivative of a polynomial (``numpy.polyder``).

    >>> polyder([1, 1, 1, 1]).compute()
    array([3, 2, 1])
    """
    m = int(m)
    if m < 0:
        raise ValueError("Order of derivative must be positive (see polyint)")
    truepoly = _is_poly1d(p)
    val = asarray(p)
    if val.ndim == 0:
        raise TypeError("len() of unsized object")
    for _ in range(m):
        n = len(val) - 1
        powers = lt.constant(np.arange(n, 0, -1))
        val = wrap(lt.multiply(lt.getitem(val._var, slice(None, -1)), powers))
    return _as_poly1d(val) if truepoly else val


def polyint(p: ArrayLike, m: int = 1, k: ArrayLike = None) -> Any:
    """The ``m``-th antiderivative of a polynomial, with integration constants
    ``k`` (numpy.polyint: one per integration, or one for all; default 0).

    >>> polyint([3.0, 2.0, 1.0]).compute()
    array([1., 1., 1., 0.])
    """
    m = int(m)
    if m < 0:
        raise ValueError("Order of integral must be positive (see polyder)")
    ks = wrap(lt.constant(np.zeros(m, float)) if k is None else atleast_1d_tensor(k))
    if len(ks) == 1 and m > 1:
        ks = wrap(lt.multiply(lt.getitem(ks._var, 0), lt.ones((m,), dtype="float64")))
    if len(ks) < m:
        raise ValueError("k must be a scalar or a rank-1 array of length 1 or >m.")
    truepoly = _is_poly1d(p)
    val = asarray(p)
    for i in range(m):
        divided = lt.true_divide(val._var, lt.constant(np.arange(len(val), 0, -1)))
        constant = lt.expand_dims(lt.getitem(ks._var, i), 0)
        val = wrap(lt.concatenate([divided, constant]))
    return _as_poly1d(val) if truepoly else val


# -- from roots, to roots -----------------------------------------------------------


def poly(seq_of_zeros: ArrayLike) -> Any:
    """The coefficients of the monic polynomial with the given roots, or of a
    square matrix's characteristic polynomial (``numpy.poly``; its eigenvalues
    are computed by numpy). Complex coefficients of conjugate-paired roots come
    back real: that check is computed.

    >>> poly([1, 2, 3]).compute()
    array([ 1., -6., 11., -6.])
    """
    from lazygraph.numpy import linalg
    from lazygraph.numpy._signal import convolve

    _sequence(seq_of_zeros, "poly")
    zeros = atleast_1d_tensor(seq_of_zeros)
    shape = lt.shape_tuple(zeros)
    if len(shape) == 2 and shape[0] == shape[1] and shape[0] != 0:
        zeros = as_tensor(linalg.eigvals(wrap(zeros)))
    elif len(shape) == 1:
        zeros = lt.cast(zeros, np.mintypecode(np.dtype(zeros.dtype).char))
    else:
        raise ValueError("input must be 1d or non-empty square 2d array.")
    count = length(zeros, "poly")
    if count == 0:
        return 1.0
    dtype = zeros.dtype
    a = wrap(lt.ones((1,), dtype=dtype))
    one = lt.ones((1,), dtype=dtype)
    for i in range(count):
        factor = lt.concatenate([one, lt.expand_dims(lt.negative(lt.getitem(zeros, i)), 0)])
        a = convolve(a, wrap(factor))
    if np.dtype(a.dtype).kind == "c":
        # real coefficients when the roots pair up with their conjugates
        roots_ = lt.cast(zeros, "complex128")
        paired = lt.all(lt.equal(lt.sort(roots_), lt.sort(lt.conj(roots_))))
        value = known_value(wrap(paired)._var)
        if bool(value if value is not None else wrap(paired).compute()):
            a = wrap(lt.real(a._var))
    return a


def roots(p: ArrayLike) -> Array:
    """The roots of the polynomial with coefficients ``p`` (``numpy.roots``: the
    eigenvalues of its companion matrix, then one zero per trailing zero
    coefficient). Not lazy: the result's length and dtype (real when every
    root is, as numpy's) depend on the values, so numpy's ``linalg.eigvals``
    computes them.

    >>> r = roots([1.0, -3.0, 2.0])
    >>> r.compute()
    array([2., 1.])
    """
    _sequence(p, "roots")
    v = atleast_1d_tensor(p)
    if v.ndim != 1:
        raise ValueError("Input must be a rank-1 array.")
    value = value_of(v)
    non_zero = np.nonzero(value.ravel())[0]
    if len(non_zero) == 0:
        return wrap(lt.constant(np.array([])))
    trailing = len(value) - int(non_zero[-1]) - 1
    value = value[int(non_zero[0]) : int(non_zero[-1]) + 1]
    if value.dtype.kind not in "fc":
        value = value.astype(float)
    size = len(value)
    if size > 1:
        companion = np.diag(np.ones((size - 2,), value.dtype), -1)
        companion[0, :] = -value[1:] / value[0]
        found = as_tensor(np.linalg.eigvals(companion))
    else:
        found = lt.constant(np.array([]))
    return wrap(lt.concatenate([found, lt.zeros((trailing,), dtype=found.dtype)]))


# -- fitting ------------------------------------------------------------------------


def polyfit(
    x: ArrayLike,
    y: ArrayLike,
    deg: int,
    rcond: float | None = None,
    full: bool = False,
    w: ArrayLike = None,
    cov: bool | str = False,
) -> Any:
    """The least-squares fit of a polynomial of degree ``deg`` to the points
    ``(x, y)`` (``numpy.polyfit``: ``lstsq`` on the Vandermonde matrix with its
    columns scaled to unit norm; ``y`` may hold several data sets as columns;
    ``w`` weighs the points; ``full`` also returns the residuals, rank, singular
    values and ``rcond``; ``cov`` the coefficients' covariance). numpy's
    RankWarning is given for known, small data (the rank is computed then).

    >>> polyfit([0.0, 1.0, 2.0], [1.0, 3.0, 5.0], 1).compute()
    array([2., 1.])
    """
    from lazygraph.numpy import linalg

    order = int(deg) + 1
    raw = [asarray(x)._var, asarray(y)._var]
    xs, ys = (lt.add(v, 0.0) for v in raw)
    if deg < 0:
        raise ValueError("expected deg >= 0")
    if xs.ndim != 1:
        raise TypeError("expected 1D vector for x")
    n_points = length(xs, "polyfit")
    if n_points == 0:
        raise TypeError("expected non-empty vector for x")
    if ys.ndim < 1 or ys.ndim > 2:
        raise TypeError("expected 1D or 2D array for y")
    if lt.shape_tuple(ys)[0] != n_points:
        raise TypeError("expected x and y to have same length")
    if rcond is None:
        rcond = n_points * np.finfo(np.dtype(xs.dtype)).eps
    lhs = lt.as_tensor_variable(_vander(xs, order))
    rhs = ys
    if w is not None:
        raw.append(asarray(w)._var)
        ws = lt.add(raw[-1], 0.0)
        if ws.ndim != 1:
            raise TypeError("expected a 1-d array for weights")
        if lt.shape_tuple(ws)[0] != lt.shape_tuple(ys)[0]:
            raise TypeError("expected w and y to have the same length")
        column = lt.expand_dims(ws, 1)
        lhs = lt.cast(lt.multiply(lhs, column), lhs.dtype)  # numpy's in-place *=
        rhs = lt.cast(lt.multiply(rhs, column if rhs.ndim == 2 else ws), rhs.dtype)
    scale = lt.sqrt(lt.sum(lt.multiply(lhs, lhs), axis=0))
    lhs = lt.cast(lt.true_divide(lhs, scale), lhs.dtype)
    c, resids, rank, s = linalg.lstsq(wrap(lhs), wrap(rhs), rcond)
    c = wrap(lt.transpose(lt.true_divide(lt.transpose(c._var), scale)))
    if not full and _known_rank(raw, rank, n_points * order) not in (None, order):
        from lazygraph.numpy._interop import _user_stacklevel

        warnings.warn(
            "Polyfit may be poorly conditioned",
            np.exceptions.RankWarning,
            stacklevel=_user_stacklevel(),
        )
    if full:
        return c, resids, rank, s, rcond
    if not cov:
        return c
    base = linalg.inv(wrap(lt.dot(lt.transpose(lhs), lhs)))._var
    base = lt.true_divide(base, lt.outer(scale, scale))
    if cov == "unscaled":
        fac: Any = 1
    else:
        if n_points <= order:
            raise ValueError(
                "the number of data points must exceed order to scale the covariance matrix"
            )
        fac = lt.true_divide(resids._var, n_points - order)
    if ys.ndim == 1:
        return c, wrap(lt.multiply(base, fac))
    return c, wrap(lt.multiply(lt.expand_dims(base, 2), fac))


def _known_rank(inputs: list[TensorVariable], rank: Array, size: int) -> int | None:
    """The fit's rank, for numpy's RankWarning, when the data is known and small
    (as small known values are computed at once); None otherwise."""
    from lazygraph.configuration import config

    if size > config.eager_max_elements or any(known_value(v) is None for v in inputs):
        return None
    return int(rank.compute())


def _vander(x: TensorVariable, order: int) -> Any:
    from lazygraph.numpy._creation import vander

    return vander(wrap(x), operator.index(order))._var
