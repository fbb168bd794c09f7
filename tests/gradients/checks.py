"""A small gradient checker on the user-facing transforms (``lazygraph.vjp``,
``lazygraph.jvp``, ``lazygraph.grad``), in the manner of autograd's and JAX's
``check_grads``: first- and second-order derivatives of a function of
``lazygraph.numpy`` arrays against central finite differences of the same
function, real and complex.

The convention is JAX's (docs/transforms.md, "Complex numbers"): a cotangent
``w`` of an output ``y`` stands for ``dy -> Re(sum(w * dy))``, so for every
direction ``v`` of the inputs ``Re(sum(vjp(w) * v))`` must equal
``Re(sum(w * dy/dv))``, whether the function is holomorphic or not. Second
order checks the gradient of ``x -> Re(sum(w * f(x)))`` (the ``vjp`` as a
function of ``x``) in the same way, so grad-of-grad and forward-over-reverse
are exercised.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

import lazygraph
import lazygraph.numpy as lnp

EPS = 1e-6
RTOL = 1e-5
ATOL = 1e-6


def leaves(out: Any) -> list[np.ndarray]:
    """The output of ``f`` as a list of numpy arrays (tuples and lists flattened)."""
    if isinstance(out, (tuple, list)):
        return [a for item in out for a in leaves(item)]
    return [np.asarray(out)]


def _differentiable(a: np.ndarray) -> bool:
    return a.dtype.kind in "fc"


def _random_like(rng: np.random.Generator, a: np.ndarray) -> np.ndarray:
    r = rng.standard_normal(a.shape)
    if a.dtype.kind == "c":
        r = r + 1j * rng.standard_normal(a.shape)
    return r.astype(a.dtype)


def _inner(w: Sequence[np.ndarray], d: Sequence[np.ndarray]) -> float:
    """``Re(sum(w * d))`` summed over matching leaves (integer outputs skipped)."""
    return float(sum(np.real(np.sum(a * b)) for a, b in zip(w, d, strict=True)))


def _close(analytic: float, numeric: float, what: str, rtol: float, atol: float) -> None:
    scale = max(abs(analytic), abs(numeric), 1.0)
    if not abs(analytic - numeric) <= atol * scale + rtol * max(abs(analytic), abs(numeric)):
        raise AssertionError(
            f"{what}: analytic {analytic!r} != finite differences {numeric!r} "
            f"(difference {abs(analytic - numeric):.3g})"
        )


def _check_first_order(
    f: Callable[..., Any],
    point: list[np.ndarray],
    rng: np.random.Generator,
    modes: Sequence[str],
    eps: float,
    rtol: float,
    atol: float,
    label: str,
) -> None:
    out = leaves(f(*point))
    for o in out:
        assert np.all(np.isfinite(o)), f"{label}: the checked point gives non-finite {o}"
    keep = [_differentiable(o) for o in out]
    w = [_random_like(rng, o) if k else np.zeros(o.shape) for o, k in zip(out, keep, strict=True)]
    v = [_random_like(rng, p) for p in point]
    plus = leaves(f(*[p + eps * d for p, d in zip(point, v, strict=True)]))
    minus = leaves(f(*[p - eps * d for p, d in zip(point, v, strict=True)]))
    slope = [
        (np.asarray(a, dtype=np.result_type(a, float)) - b) / (2 * eps) if k else np.zeros(a.shape)
        for a, b, k in zip(plus, minus, keep, strict=True)
    ]
    numeric = _inner(w, slope)
    if "rev" in modes:
        primal, vjp_fn = lazygraph.vjp(f, *point)
        np.testing.assert_allclose(
            np.concatenate([np.ravel(a) for a in leaves(primal)] + [np.zeros(0)]),
            np.concatenate([np.ravel(a) for a in out] + [np.zeros(0)]),
            rtol=1e-12,
            atol=1e-12,
            err_msg=f"{label}: vjp's primal differs from the function's value",
        )
        cot = tuple(
            wi.astype(o.dtype) if k else np.zeros(o.shape, o.dtype)
            for wi, o, k in zip(w, out, keep, strict=True)
        )
        if hasattr(primal, "_fields"):  # a named tuple (slogdet, eigh...)
            grads = vjp_fn(type(primal)(*cot))
        elif isinstance(primal, (tuple, list)):
            grads = vjp_fn(type(primal)(cot))
        else:
            grads = vjp_fn(cot[0])
        for g, p in zip(grads, point, strict=True):
            g = np.asarray(g)
            assert g.shape == p.shape, f"{label}: gradient shape {g.shape} != input {p.shape}"
            assert g.dtype == p.dtype, f"{label}: gradient dtype {g.dtype} != input {p.dtype}"
        _close(_inner(grads, v), numeric, f"{label} (reverse mode)", rtol, atol)
    if "fwd" in modes:
        _, tangent = lazygraph.jvp(f, tuple(point), tuple(v))
        for t, s, k in zip(leaves(tangent), slope, keep, strict=True):
            if k:
                np.testing.assert_allclose(
                    t, s, rtol=100 * rtol, atol=100 * atol, err_msg=f"{label} (forward mode)"
                )


def check_grads(
    fun: Callable[..., Any],
    *args: Any,
    order: int = 2,
    modes: Sequence[str] = ("rev", "fwd"),
    eps: float = EPS,
    rtol: float = RTOL,
    atol: float = ATOL,
    seed: int = 0,
    label: str | None = None,
) -> None:
    """Check ``fun``'s derivatives with respect to every positional argument, to
    ``order`` (1 or 2), against central differences along random directions.

    ``fun`` takes and returns ``lazygraph.numpy`` arrays (or tuples of them); its
    arguments are float64 or complex128 values. Integer outputs are ignored.
    """
    label = label or getattr(fun, "__name__", "fun")
    point = [np.array(a) for a in args]
    for p in point:
        assert p.dtype.kind in "fc", f"{label}: check_grads differentiates floats only"
    rng = np.random.default_rng(seed)
    _check_first_order(fun, point, rng, modes, eps, rtol, atol, label)
    if order < 2:
        return
    out = leaves(fun(*point))
    w = [_random_like(rng, o) if _differentiable(o) else None for o in out]
    nargs = len(point)

    def cost(*xs: Any) -> Any:
        ys = fun(*xs)
        ys = list(ys) if isinstance(ys, (tuple, list)) else [ys]
        total = 0.0
        for y, wi in zip(ys, w, strict=True):
            if wi is not None:
                total = total + lnp.real(lnp.sum(y * wi))
        return total

    gradient = lazygraph.grad(cost, argnums=tuple(range(nargs)))
    _check_first_order(
        lambda *xs: tuple(gradient(*xs)),
        point,
        rng,
        ("rev", "fwd"),
        eps,
        10 * rtol,
        10 * atol,
        f"{label} (second order)",
    )
