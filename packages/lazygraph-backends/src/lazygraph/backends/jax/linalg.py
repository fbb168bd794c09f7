"""JAX lowerings: ``inv``, ``solve``, ``det`` (and the adjugate of its gradient),
``slogdet``, ``pinv``, ``cholesky`` and the value-only ``eigvalsh`` / ``svdvals``.

numpy raises ``LinAlgError`` for a singular or non positive-definite matrix
where LAPACK inside XLA returns inf/NaN: the compiled function checks the
result and raises the same error after the call. Decompositions whose vectors
are only defined up to sign or phase (``eigh``, ``svd`` with vectors, ``qr``),
the general ``eig`` / ``eigvals`` and ``lstsq`` run on the host through numpy,
so they agree with numpy exactly.

>>> import numpy as np
>>> import lazygraph, lazygraph.tensor as lt
>>> a = lt.dmatrix("a")
>>> f = lazygraph.function([a], lt.linalg.inv(a), mode="jax")
>>> f(np.eye(2) * 2)
array([[0.5, 0. ],
       [0. , 0.5]])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from lazygraph.backends.jax.dispatch import Context, Unsupported, register
from lazygraph.graph.basic import Apply
from lazygraph.tensor.linalg.decomp import SVD, Cholesky, Eig, Eigh
from lazygraph.tensor.linalg.solve import Adjugate, Det, Inv, Pinv, SlogDet, Solve

__all__: list[str] = []

Fn = Callable[..., Any]


def _dtype(node: Apply, k: int = 0) -> str:
    return node.outputs[k].type.dtype  # type: ignore[attr-defined,no-any-return]


def _finite_in_bad_out(ctx: Context, x: Any, out: Any, message: str) -> None:
    ctx.check(
        jnp.all(jnp.isfinite(x)) & ~jnp.all(jnp.isfinite(out)),
        np.linalg.LinAlgError,
        message,
    )


@register(Inv)
def _inv(op: Inv, node: Apply, ctx: Context) -> Fn:
    dtype = _dtype(node)

    def run(x: Any) -> list[Any]:
        x = jnp.asarray(x).astype(dtype)
        out = jnp.linalg.inv(x)
        _finite_in_bad_out(ctx, x, out, "Singular matrix")
        return [out]

    return run


@register(Solve)
def _solve(op: Solve, node: Apply, ctx: Context) -> Fn:
    dtype = _dtype(node)

    def run(a: Any, b: Any) -> list[Any]:
        a, b = jnp.asarray(a).astype(dtype), jnp.asarray(b).astype(dtype)
        out = jnp.linalg.solve(a, b)
        _finite_in_bad_out(ctx, a, out, "Singular matrix")
        return [out]

    return run


@register(Det)
def _det(op: Det, node: Apply, ctx: Context) -> Fn:
    dtype = _dtype(node)

    def run(x: Any) -> list[Any]:
        return [jnp.linalg.det(jnp.asarray(x).astype(dtype))]

    return run


@register(Adjugate)
def _adjugate(op: Adjugate, node: Apply, ctx: Context) -> Fn:
    # The python perform's formula: det(U) det(Vh) V diag(p) U^H, p_i the product
    # of the other singular values (NaN in, NaN out: XLA's SVD does not raise).
    dtype = _dtype(node)

    def run(x: Any) -> list[Any]:
        x = jnp.asarray(x).astype(dtype)
        if x.shape[-1] == 0:
            return [x]
        u, s, vh = jnp.linalg.svd(x)
        ones = jnp.ones_like(s[..., :1])
        before = jnp.cumprod(jnp.concatenate([ones, s[..., :-1]], axis=-1), axis=-1)
        after = jnp.cumprod(jnp.concatenate([ones, s[..., :0:-1]], axis=-1), axis=-1)
        p = (before * after[..., ::-1]).astype(dtype)
        phase = jnp.linalg.det(u) * jnp.linalg.det(vh)
        v = jnp.conj(jnp.swapaxes(vh, -1, -2)) * p[..., None, :]
        out = jnp.matmul(v, jnp.conj(jnp.swapaxes(u, -1, -2)), precision=jax.lax.Precision.HIGHEST)
        return [phase[..., None, None] * out]

    return run


@register(SlogDet)
def _slogdet(op: SlogDet, node: Apply, ctx: Context) -> Fn:
    dtype = _dtype(node)

    def run(x: Any) -> list[Any]:
        sign, logdet = jnp.linalg.slogdet(jnp.asarray(x).astype(dtype))
        return [sign, logdet]

    return run


@register(Pinv)
def _pinv(op: Pinv, node: Apply, ctx: Context) -> Fn:
    dtype = _dtype(node)

    def run(x: Any, cutoffs: Any = None) -> list[Any]:
        x = jnp.asarray(x)
        if 0 in x.shape[-2:]:
            return [jnp.zeros((*x.shape[:-2], x.shape[-1], x.shape[-2]), dtype)]
        rtol = op.rtol if op.rtol != "input" else jnp.asarray(cutoffs)
        return [jnp.linalg.pinv(x.astype(dtype), rtol=rtol)]

    return run


@register(Cholesky)
def _cholesky(op: Cholesky, node: Apply, ctx: Context) -> Fn:
    dtype = _dtype(node)

    def run(x: Any) -> list[Any]:
        x = jnp.asarray(x).astype(dtype)
        # numpy reads only the lower (upper=True: the upper) triangle; jnp would
        # symmetrize the input. Upper: U = L^H with L L^H = conj(x^T), which
        # reads x's upper triangle.
        a = jnp.conj(jnp.swapaxes(x, -1, -2)) if op.upper else x
        out = jax.lax.linalg.cholesky(a, symmetrize_input=False)
        if op.upper:
            out = jnp.conj(jnp.swapaxes(out, -1, -2))
        _finite_in_bad_out(ctx, x, out, "Matrix is not positive definite")
        return [out]

    return run


@register(Eigh)
def _eigh(op: Eigh, node: Apply, ctx: Context) -> Fn:
    if op.compute_v:
        raise Unsupported("eigh with vectors runs through numpy", "eigh vectors")
    dtype = _dtype(node)

    def run(x: Any) -> list[Any]:
        x = jnp.asarray(x).astype(x.dtype if np.dtype(x.dtype).kind == "c" else dtype)
        # numpy reads only the UPLO triangle; jnp would symmetrize the input
        return [jnp.linalg.eigh(x, UPLO=op.UPLO, symmetrize_input=False)[0]]

    return run


@register(Eig)
def _eig(op: Eig, node: Apply, ctx: Context) -> Fn:
    raise Unsupported("the general eig runs through numpy", "eig")


@register(SVD)
def _svd(op: SVD, node: Apply, ctx: Context) -> Fn:
    if op.compute_uv:
        raise Unsupported("svd with vectors runs through numpy", "svd vectors")
    dtype = _dtype(node)

    def run(x: Any) -> list[Any]:
        x = jnp.asarray(x)
        real = np.dtype(dtype).kind == "f" and x.dtype.kind == "c"
        compute = x.dtype if real else dtype
        return [jnp.linalg.svd(x.astype(compute), compute_uv=False)]

    return run
