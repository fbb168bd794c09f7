"""JAX lowerings: the ``FFT`` op (``numpy.fft``'s transforms and the transposes
its gradients use), through ``jax.numpy.fft``.

>>> import numpy as np
>>> import lazygraph, lazygraph.tensor as lt
>>> x = lt.dvector("x")
>>> f = lazygraph.function([x], lt.abs(lt.fft.fft(x)), mode="jax")
>>> f(np.ones(4)).round(12)
array([4., 0., 0., 0.])
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax.numpy as jnp
import numpy as np

from lazygraph.backends.jax.dispatch import Context, register
from lazygraph.graph.basic import Apply
from lazygraph.tensor.fft import FFT, hermitian_weights

__all__: list[str] = []

Fn = Callable[..., Any]


def _compute(op: FFT, x: Any) -> Any:
    axes, norm, kind, n = op.axes, op.norm, op.kind, op.last_size
    last = axes[-1]
    if kind == "fft":
        return jnp.fft.fftn(x, axes=axes, norm=norm)
    if kind == "ifft":
        return jnp.fft.ifftn(x, axes=axes, norm=norm)
    if kind == "rfft":
        return jnp.fft.rfftn(x, axes=axes, norm=norm)
    if kind == "ihfft":
        return jnp.fft.ihfft(x, axis=last, norm=norm)
    if kind == "irfft":
        s = [x.shape[a] for a in axes[:-1]] + [n]
        return jnp.fft.irfftn(x, s=s, axes=axes, norm=norm)
    if kind == "hfft":
        return jnp.fft.hfft(x, n=n, axis=last, norm=norm)
    if kind in ("rfft_T", "ihfft_T"):
        widths = [(0, 0)] * x.ndim
        widths[last] = (0, n - x.shape[last])
        full = jnp.pad(x, widths)
        transform = jnp.fft.fftn if kind == "rfft_T" else jnp.fft.ifftn
        return jnp.real(transform(full, axes=axes, norm=norm))
    transform = jnp.fft.ifftn if kind == "irfft_T" else jnp.fft.fftn
    full = transform(x, axes=axes, norm=norm)
    size = x.shape[last]
    half = jnp.take(full, jnp.arange(size // 2 + 1), axis=last)
    w = jnp.asarray(hermitian_weights(size, "float64"))
    return half * w.reshape((-1,) + (1,) * (full.ndim - 1 - last))


@register(FFT)
def _fft(op: FFT, node: Apply, ctx: Context) -> Fn:
    out_dtype = np.dtype(node.outputs[0].type.dtype)  # type: ignore[attr-defined]
    real = np.dtype("float32") if out_dtype in (np.complex64, np.float32) else np.dtype("float64")

    def run(x: Any) -> list[Any]:
        x = jnp.asarray(x)
        if x.dtype.kind in "biu":  # jnp would transform integers in float32
            x = x.astype(real)
        op._check_sizes(x.shape[op.axes[-1]], x.shape)
        out = _compute(op, x)
        if op.real_out:
            out = jnp.real(out)
        return [out]

    return run
