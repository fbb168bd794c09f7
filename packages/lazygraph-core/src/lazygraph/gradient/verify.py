"""Checking symbolic derivatives against finite differences: :func:`verify_grad`
(reverse mode, ``L_op``) and :func:`verify_rop` (forward mode, ``R_op``).

Both build graph inputs shaped like the test point, compile ``fn`` and its
derivative with :func:`lazygraph.function`, and compare with central differences
computed in float64. A mismatch raises :class:`~lazygraph.gradient.types.GradientError`
(an ``AssertionError``) naming the input, the index and both values.

:func:`verify_grad` also takes complex inputs and outputs, checked against the
convention of :mod:`lazygraph.gradient.core`: the gradient of a real cost ``C``
with respect to ``z = x + iy`` is ``dC/dx - i dC/dy`` (finite differences along
the real and the imaginary part of each element), and a complex output ``y`` is
projected to the real cost ``Re(sum(r * y))`` with a complex random ``r``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from lazygraph.gradient.core import grad
from lazygraph.gradient.forward import Rop
from lazygraph.gradient.types import GradientError
from lazygraph.tensor.type import TensorType
from lazygraph.tensor.variable import TensorVariable

__all__ = ["numeric_grad", "verify_grad", "verify_rop"]

# Per dtype: finite-difference step, absolute and relative tolerances. Steps are for
# central differences (error O(eps**2) + rounding/eps); tolerances follow PyTensor.
_EPS = {"float32": 1e-3, "float64": 1e-7}
_TOL = {"float32": 1e-2, "float64": 1e-4}

#: Inputs up to this many elements (all together) are checked element by element;
#: larger ones along random directions (two evaluations per direction).
MAX_ELEMENTWISE = 4096


def _rng(rng: Any) -> np.random.Generator:
    if rng is None:
        # Deterministic by default: a failing check fails the same way every time.
        return np.random.default_rng(42)
    if isinstance(rng, np.random.RandomState):
        return np.random.default_rng(rng.randint(2**31))
    return np.random.default_rng(rng)


#: complex dtype -> the dtype of its parts
_PART = {"complex64": "float32", "complex128": "float64"}


def _part_name(dtype: np.dtype[Any]) -> str:
    """The real dtype of ``dtype``'s parts (its own name for a real dtype)."""
    return _PART.get(dtype.name, dtype.name)


def _point(point: Sequence[Any], what: str, complex_ok: bool = False) -> list[np.ndarray]:
    if isinstance(point, np.ndarray) or not isinstance(point, (list, tuple)):
        raise TypeError(f"{what}: point must be a list of arrays, one per input of fn")
    arrays = [np.array(p) for p in point]  # copies: fn must not see the caller's buffers
    allowed = "float32/float64/complex64/complex128" if complex_ok else "float32/float64"
    for i, p in enumerate(arrays):
        name = _part_name(p.dtype) if complex_ok else p.dtype.name
        if name not in _EPS:
            raise TypeError(
                f"{what} works with {allowed} inputs only; input {i} has dtype {p.dtype}"
            )
    return arrays


def _inputs(point: list[np.ndarray], static_shape: bool) -> list[TensorVariable]:
    out: list[TensorVariable] = []
    for i, p in enumerate(point):
        shape = p.shape if static_shape else tuple(1 if s == 1 else None for s in p.shape)
        out.append(TensorType(p.dtype, shape)(f"input_{i}"))  # type: ignore[arg-type]
    return out


def _output(
    fn: Callable[..., Any], inputs: list[TensorVariable], what: str, complex_ok: bool = False
) -> TensorVariable:
    from lazygraph.tensor.variable import as_tensor_variable

    out = fn(*inputs)
    if isinstance(out, (list, tuple)):
        raise NotImplementedError(
            f"{what}: fn must return one tensor; combine several outputs into one "
            "(e.g. a weighted sum) or check each in turn"
        )
    out = as_tensor_variable(out)
    if out.type.numpy_dtype.kind not in ("fc" if complex_ok else "f"):
        kinds = "a float or complex" if complex_ok else "a float"
        raise TypeError(f"{what}: fn must return {kinds} tensor, got dtype {out.dtype}")
    return out


def _tolerances(
    point: list[np.ndarray], eps: float | None, abs_tol: float | None, rel_tol: float | None
) -> tuple[float, float, float]:
    names = [_part_name(p.dtype) for p in point] or ["float64"]
    # The least precise input sets the step and the tolerances.
    eps = max(_EPS[n] for n in names) if eps is None else eps
    abs_tol = max(_TOL[n] for n in names) if abs_tol is None else abs_tol
    rel_tol = max(_TOL[n] for n in names) if rel_tol is None else rel_tol
    return eps, abs_tol, rel_tol


def _scale(x: np.ndarray, relative: bool) -> np.ndarray:
    """Per-element step multipliers. Relative steps (``eps * max(1, |x|)``) keep
    the difference above rounding for large values; absolute ones (``eps``, at
    least a few ulps) keep it small for functions that vary fast."""
    xf = np.abs(np.asarray(x)).astype("float64")  # the modulus of complex x
    if relative:
        return np.where(np.isfinite(xf), np.maximum(1.0, xf), 1.0)
    return np.ones_like(xf)


def _perturb(x: np.ndarray, delta: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``x + delta`` and ``x - delta`` in ``x``'s dtype, and half the difference
    actually made (rounding makes it differ from ``delta``; it is never 0 for a
    finite ``x``). Non-finite elements are left alone, with a half-step of 0."""
    finite = np.isfinite(x)
    xf = np.where(finite, x, 0).astype("float64")
    spacing = np.spacing(np.abs(xf)).astype(x.dtype).astype("float64") * 4
    delta = np.where(finite, delta, 0.0)
    delta = np.where(finite & (np.abs(delta) < spacing), np.copysign(spacing, delta), delta)
    with np.errstate(over="ignore", invalid="ignore"):
        plus = np.where(finite, (xf + delta).astype(x.dtype), x)
        minus = np.where(finite, (xf - delta).astype(x.dtype), x)
        half = np.where(finite, (plus.astype("float64") - minus.astype("float64")) / 2, 0.0)
    return plus, minus, half


def numeric_grad(
    f: Callable[..., Any],
    point: Sequence[np.ndarray],
    eps: float | None = None,
    relative: bool = True,
    weights: np.ndarray | None = None,
) -> list[np.ndarray]:
    """The gradient of the scalar function ``f(*point)`` by central differences,
    one element at a time (two calls of ``f`` per element), in float64.

    ``f`` may return an array instead: the gradient is then that of
    ``sum(f(*point) * weights)`` (weights default to ones), with the differences
    taken element by element before weighting and summing, so that a large (or
    infinite) element does not swamp the change of a small one.

    The step for element ``x`` is ``eps * max(1, |x|)`` (``relative``) or ``eps``,
    and at least a few ulps of ``x``; the difference is divided by the step
    actually taken after rounding to ``x``'s dtype.

    >>> numeric_grad(lambda x: float((x**3).sum()), [np.array([1.0, 2.0])])
    [array([ 3., 12.])]
    """
    arrays = [np.array(p) for p in point]
    if eps is None:
        eps = max((_EPS.get(_part_name(p.dtype), 1e-7) for p in arrays), default=1e-7)
    grads = []
    for i, x in enumerate(arrays):
        cplx = x.dtype.kind == "c"
        g = np.zeros(x.shape, dtype="complex128" if cplx else "float64")
        gflat = g.reshape(-1)
        xflat = x.reshape(-1)
        deltas = (eps * _scale(x, relative)).reshape(-1)
        for k in range(x.size):
            # a complex element: the derivatives along its real and imaginary
            # parts give dC/dx - i dC/dy
            for part, factor in [("real", 1), ("imag", -1j)] if cplx else [(None, 1)]:
                plus, minus, half = _perturb_part(xflat[k : k + 1], deltas[k : k + 1], part)
                xp, xm = x.copy(), x.copy()
                xp.reshape(-1)[k] = plus[0]
                xm.reshape(-1)[k] = minus[0]
                args_p = [*arrays[:i], xp, *arrays[i + 1 :]]
                args_m = [*arrays[:i], xm, *arrays[i + 1 :]]
                # Copy each result before the next call: a compiled function may
                # return the same buffer every time.
                diff = _difference(np.array(f(*args_p)), np.array(f(*args_m)))
                if weights is not None:
                    diff = diff * weights
                # No derivative at inf or NaN: NaN, which verify_grad skips.
                total = np.sum(diff).real / (2 * half[0]) if half[0] != 0 else np.nan
                gflat[k] += factor * total
        grads.append(g)
    return grads


def _perturb_part(
    x: np.ndarray, delta: np.ndarray, part: str | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_perturb` of ``x``, or of the ``part`` (``"real"``/``"imag"``) of a
    complex ``x``, the other part left as it is."""
    if part is None:
        return _perturb(x, delta)
    plus, minus, half = _perturb(getattr(x, part), delta)
    other = x.imag if part == "real" else x.real
    if part == "real":
        return _complex(plus, other, x.dtype), _complex(minus, other, x.dtype), half
    return _complex(other, plus, x.dtype), _complex(other, minus, x.dtype), half


def _direction(gen: np.random.Generator, p: np.ndarray) -> np.ndarray:
    """A random direction for ``p``: standard normal (in both parts if complex)."""
    d = gen.standard_normal(p.shape)
    return d + 1j * gen.standard_normal(p.shape) if p.dtype.kind == "c" else d


def _step(p: np.ndarray, delta: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """:func:`_perturb` of ``p`` by ``delta``, part by part for a complex ``p``
    (the half-step actually made is then complex too)."""
    if p.dtype.kind != "c":
        return _perturb(p, delta)
    re_plus, re_minus, h_re = _perturb(p.real, delta.real)
    im_plus, im_minus, h_im = _perturb(p.imag, delta.imag)
    plus, minus = _complex(re_plus, im_plus, p.dtype), _complex(re_minus, im_minus, p.dtype)
    return plus, minus, h_re + 1j * h_im


def _complex(re: np.ndarray, im: np.ndarray, dtype: np.dtype[Any]) -> np.ndarray:
    out = np.empty(np.shape(re), dtype=dtype)
    out.real, out.imag = re, im
    return out


def _difference(y_plus: Any, y_minus: Any) -> np.ndarray:
    """``y_plus - y_minus`` in float64 (complex128 for complex values), 0 where
    the two are the same (so that an unchanged inf or NaN elsewhere in the output
    does not make everything NaN)."""
    cplx = np.iscomplexobj(y_plus) or np.iscomplexobj(y_minus)
    a = np.asarray(y_plus, dtype="complex128" if cplx else "float64")
    b = np.asarray(y_minus, dtype=a.dtype)
    same = (a == b) | (np.isnan(a) & np.isnan(b))
    with np.errstate(invalid="ignore", over="ignore"):
        return np.where(same, 0.0, a - b)


def _errors(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Absolute and relative errors; NaN agrees with NaN, anything else with NaN does not."""
    a = np.asarray(a, dtype="float64")
    b = np.asarray(b, dtype="float64")
    with np.errstate(invalid="ignore", divide="ignore"):
        abs_err = np.abs(a - b)
        denom = np.abs(a) + np.abs(b)
        rel_err = np.where(denom > 0, abs_err / denom, 0.0)
    both_nan = np.isnan(a) & np.isnan(b)
    same = both_nan | (a == b)  # equal infinities included
    # inf against anything else (inf - x, or inf / inf) is as wrong as it gets.
    bad = ~same & (np.isnan(abs_err) | np.isnan(rel_err) | np.isinf(abs_err))
    abs_err = np.where(same, 0.0, np.where(bad, np.inf, abs_err))
    rel_err = np.where(same, 0.0, np.where(bad, np.inf, rel_err))
    return abs_err, rel_err


def _compare(
    symbolic: np.ndarray,
    numeric: np.ndarray,
    abs_tol: float,
    rel_tol: float,
    arg: int | None,
    what: str,
    directional: bool = False,
) -> None:
    symbolic = np.asarray(symbolic)
    numeric = np.asarray(numeric)
    if np.iscomplexobj(symbolic) or np.iscomplexobj(numeric):
        for part in ("real", "imag"):
            _compare(
                getattr(symbolic, part),
                getattr(numeric, part),
                abs_tol,
                rel_tol,
                arg,
                f"{what} ({part} part)",
                directional,
            )
        return
    if symbolic.shape != numeric.shape:
        raise GradientError(
            arg, None, numeric.shape, np.nan, np.nan, np.inf, np.inf, abs_tol, rel_tol, what
        ) from ValueError(f"symbolic {what} has shape {symbolic.shape}, expected {numeric.shape}")
    if symbolic.size == 0:
        return
    abs_err, rel_err = _errors(symbolic, numeric)
    with np.errstate(invalid="ignore"):
        scaled = np.minimum(abs_err / abs_tol, rel_err / rel_tol)
    pos = int(np.argmax(scaled))
    if scaled.reshape(-1)[pos] > 1:
        raise GradientError(
            arg,
            None if directional else pos,
            numeric.shape,
            float(symbolic.reshape(-1)[pos]),
            float(numeric.reshape(-1)[pos]),
            float(abs_err.reshape(-1)[pos]),
            float(rel_err.reshape(-1)[pos]),
            abs_tol,
            rel_tol,
            what,
        )


def verify_grad(
    fn: Callable[..., Any],
    point: Sequence[Any],
    n_tests: int = 2,
    rng: Any = None,
    eps: float | None = None,
    abs_tol: float | None = None,
    rel_tol: float | None = None,
    mode: Any = None,
    cast_to_output_type: bool = False,
    out_type: str | None = None,
    *,
    static_shape: bool = True,
) -> None:
    """Check ``fn``'s symbolic gradient (every ``L_op`` on the way) against finite
    differences at ``point``; raise :class:`GradientError` on a mismatch.

    ``fn`` takes one tensor variable per array of ``point`` (float32/float64, or
    complex64/complex128) and returns one float or complex tensor ``y``. Each of
    the ``n_tests`` rounds draws a random projection ``r`` (uniform in
    [0.5, 1.5), in both parts for a complex ``y``) and compares the gradient of
    ``Re(sum(y * r))`` (built as a vector-Jacobian product; for a complex input
    ``z = x + iy`` it is ``d/dx - i d/dy``, the convention of
    :mod:`lazygraph.gradient.core`) with central differences:
    element by element for inputs up to :data:`MAX_ELEMENTWISE` elements in all,
    along random directions beyond. The error at an element is acceptable when
    the absolute error is within ``abs_tol`` or the relative error
    ``|a - n| / (|a| + |n|)`` within ``rel_tol`` (both 1e-4 for float64, 1e-2
    for float32). ``eps`` is the step (1e-7 for float64, 1e-3 for float32),
    scaled by ``max(1, |x|)``; where that disagrees, the check is repeated with
    unscaled steps, and the gradient passes if either agrees.

    ``rng``: a seed, a ``numpy.random.Generator`` or ``RandomState`` (default: a
    fixed seed). ``mode``: the compile mode. ``out_type``: the dtype in which the
    projected cost is accumulated (float64 by default); ``cast_to_output_type``
    accumulates it in ``y``'s own dtype instead. ``static_shape=False`` gives
    the inputs unknown sizes (except size-1 dimensions).

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> verify_grad(lambda x: x * x * x, [np.array([0.5, -2.0, 3.0])])
    >>> verify_grad(lambda z: lt.abs(lt.exp(z)), [np.array([0.5 - 1j, 2j])])
    """
    from lazygraph.compile.function import function

    what = "verify_grad"
    pt = _point(point, what, complex_ok=True)
    gen = _rng(rng)
    eps, abs_tol, rel_tol = _tolerances(pt, eps, abs_tol, rel_tol)
    inputs = _inputs(pt, static_shape)
    out = _output(fn, inputs, what, complex_ok=True)
    acc = out.type.dtype if cast_to_output_type else (out_type or "float64")
    complex_out = out.type.numpy_dtype.kind == "c"
    if complex_out:
        acc = np.result_type(acc, "complex64").name

    proj_var = TensorType(out.type.dtype, out.type.shape)("projection")
    grads = grad(None, inputs, known_grads={out: proj_var}, disconnected_inputs="ignore")
    f_out = function(inputs, out, mode=mode)
    f_grad = function([*inputs, proj_var], grads, mode=mode)
    out_shape = np.shape(f_out(*[p.copy() for p in pt]))
    elementwise = sum(p.size for p in pt) <= MAX_ELEMENTWISE

    def outputs(*xs: np.ndarray) -> np.ndarray:
        return np.array(f_out(*[x.copy() for x in xs]), dtype=acc)

    for _ in range(n_tests):
        proj = gen.random(out_shape) + 0.5
        if complex_out:
            proj = proj + 1j * (gen.random(out_shape) + 0.5)
        proj = proj.astype(out.type.dtype)
        weights = proj.astype(acc)
        symbolic = [np.array(g) for g in f_grad(*[p.copy() for p in pt], proj)]

        def check(relative: bool, weights: np.ndarray = weights, sym: Any = symbolic) -> None:
            if elementwise:
                numeric = numeric_grad(outputs, pt, eps, relative, weights)
                for i, (s, n) in enumerate(zip(sym, numeric, strict=True)):
                    # Where the input is inf or NaN there is nothing to compare with.
                    skip = ~np.isfinite(pt[i])
                    if s.shape == n.shape and skip.any():
                        s, n = np.where(skip, 0.0, s), np.where(skip, 0.0, n)
                    _compare(s, n, abs_tol, rel_tol, i, "gradient")
            else:
                _directional_check(outputs, weights, pt, sym, gen, eps, abs_tol, rel_tol, relative)

        _with_retry(check)


def _with_retry(check: Callable[[bool], None]) -> None:
    """Run ``check`` with relative steps, then with absolute ones: the symbolic
    derivative passes if either finite-difference estimate agrees (each fails
    where the other is accurate: large values, fast-varying functions)."""
    try:
        check(True)
    except GradientError as first:
        try:
            check(False)
        except GradientError:
            raise first from None


def _directional_check(
    outputs: Callable[..., Any],
    weights: np.ndarray,
    pt: list[np.ndarray],
    symbolic: list[np.ndarray],
    gen: np.random.Generator,
    eps: float,
    abs_tol: float,
    rel_tol: float,
    relative: bool = True,
) -> None:
    plus, minus, halves = [], [], []
    for p in pt:
        a, b, h = _step(p, eps * _scale(p, relative) * _direction(gen, p))
        plus.append(a)
        minus.append(b)
        halves.append(h)
    # Both sides are divided by eps: derivatives along (plus - minus) / (2 eps).
    # A complex gradient g = dC/dx - i dC/dy moves C by Re(g * h) along h.
    numeric = np.sum(_difference(outputs(*plus), outputs(*minus)) * weights).real / (2 * eps)
    analytic = sum(np.sum(g * h).real for g, h in zip(symbolic, halves, strict=True)) / eps
    _compare(np.array(analytic), np.array(numeric), abs_tol, rel_tol, None, "gradient", True)


def verify_rop(
    fn: Callable[..., Any],
    point: Sequence[Any],
    n_tests: int = 2,
    rng: Any = None,
    eps: float | None = None,
    abs_tol: float | None = None,
    rel_tol: float | None = None,
    mode: Any = None,
    method: str = "r_op",
    *,
    static_shape: bool = True,
) -> None:
    """Check ``fn``'s forward derivative (every ``R_op`` on the way, with the
    default ``method="r_op"``; see :func:`~lazygraph.gradient.Rop`) against
    central differences along random directions at ``point``; raise
    :class:`GradientError` at the worst output element on a mismatch.
    Arguments as in :func:`verify_grad`; complex inputs move along random
    complex directions, complex outputs are compared part by part.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> verify_rop(lambda x: x * x * x, [np.array([0.5, -2.0, 3.0])])
    """
    from lazygraph.compile.function import function

    what = "verify_rop"
    pt = _point(point, what, complex_ok=True)
    gen = _rng(rng)
    eps, abs_tol, rel_tol = _tolerances(pt, eps, abs_tol, rel_tol)
    inputs = _inputs(pt, static_shape)
    out = _output(fn, inputs, what, complex_ok=True)
    acc = "complex128" if out.type.numpy_dtype.kind == "c" else "float64"
    tangents = [
        TensorType(v.type.dtype, v.type.shape)(f"tangent_{i}") for i, v in enumerate(inputs)
    ]
    jvp = Rop(out, inputs, tangents, disconnected_outputs="ignore", method=method)  # type: ignore[arg-type]
    f_out = function(inputs, out, mode=mode)
    f_jvp = function([*inputs, *tangents], jvp, mode=mode)

    for _ in range(n_tests):
        dirs = [_direction(gen, p) for p in pt]

        def check(relative: bool, dirs: list[np.ndarray] = dirs) -> None:
            plus, minus, tangent = [], [], []
            for p, d in zip(pt, dirs, strict=True):
                a, b, h = _step(p, eps * _scale(p, relative) * d)
                plus.append(a)
                minus.append(b)
                # The direction actually taken, (plus - minus) / (2 eps).
                tangent.append((h / eps).astype(p.dtype))
            y_plus = np.array(f_out(*plus), dtype=acc)  # copied before the next call
            y_minus = np.array(f_out(*minus), dtype=acc)
            numeric = _difference(y_plus, y_minus) / (2 * eps)
            symbolic = np.asarray(f_jvp(*[p.copy() for p in pt], *tangent), dtype=acc)
            _compare(symbolic, numeric, abs_tol, rel_tol, None, "directional derivative (R_op)")

        _with_retry(check)
