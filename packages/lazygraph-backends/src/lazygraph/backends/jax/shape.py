"""JAX lowerings: shape ops (``Shape``, ``Reshape``, ``Alloc``...) and the
structure ops (``Flip``, ``Roll``, ``Repeat``, ``Pad``).

Sizes are static in XLA: the sizes given to ``Reshape`` and ``Alloc`` must be
known when the graph is traced. ``Shape`` and ``Shape_i`` give numpy values
while tracing, and small computations on them fold through the ops' numpy
``perform``, so ``reshape(x, (x.shape[0] * 2, -1))`` traces fine.

>>> import numpy as np
>>> import lazygraph, lazygraph.tensor as lt
>>> x = lt.dmatrix("x")
>>> f = lazygraph.function([x], lt.reshape(x, (-1,)), mode="jax")
>>> f(np.ones((2, 3))).shape
(6,)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax.numpy as jnp
import numpy as np

from lazygraph.backends.jax.dispatch import Context, register
from lazygraph.graph.basic import Apply
from lazygraph.tensor.broadcast import Alloc, BroadcastSize
from lazygraph.tensor.indexing import SliceLength
from lazygraph.tensor.shape import MakeVector, Reshape, Shape, Shape_i, SpecifyShape
from lazygraph.tensor.structure import Flip, Pad, PadGrad, Repeat, RepeatGrad, Roll

__all__: list[str] = []

Fn = Callable[..., Any]


def _all_inputs(node: Apply) -> tuple[int, ...]:
    return tuple(range(len(node.inputs)))


def _after_first(node: Apply) -> tuple[int, ...]:
    return tuple(range(1, len(node.inputs)))


def perform_at_trace(op: Any, node: Apply, ctx: Context) -> Fn:
    """A lowering that runs the op's numpy ``perform`` while tracing (every
    input is static)."""

    def run(*values: Any) -> list[Any]:
        cells: list[list[Any]] = [[None] for _ in node.outputs]
        op.perform(node, [np.asarray(v) for v in values], cells)
        return [c[0] for c in cells]

    return run


register(BroadcastSize, SliceLength, static=_all_inputs)(perform_at_trace)


@register(RepeatGrad, static=(1, 2))
def _repeat_grad(op: RepeatGrad, node: Apply, ctx: Context) -> Fn:
    import jax

    def run(g: Any, repeats: Any, n: Any) -> list[Any]:
        n, axis, reps = int(n), op.axis, np.asarray(repeats)
        if reps.ndim == 0:
            split = (*g.shape[:axis], n, int(reps), *g.shape[axis + 1 :])
            return [jnp.sum(jnp.reshape(g, split), axis=axis + 1, dtype=g.dtype)]
        owner = np.repeat(np.arange(n), np.broadcast_to(reps, (n,)))
        out = jax.ops.segment_sum(jnp.moveaxis(g, axis, 0), owner, num_segments=n)
        return [jnp.moveaxis(out, 0, axis)]

    return run


@register(Shape)
def _shape(op: Shape, node: Apply, ctx: Context) -> Fn:
    def run(x: Any) -> list[Any]:
        return [np.asarray(np.shape(x), dtype=np.int64)]

    run.static_outputs = True  # type: ignore[attr-defined]
    return run


@register(Shape_i)
def _shape_i(op: Shape_i, node: Apply, ctx: Context) -> Fn:
    def run(x: Any) -> list[Any]:
        return [np.asarray(np.shape(x)[op.i], dtype=np.int64)]

    run.static_outputs = True  # type: ignore[attr-defined]
    return run


@register(MakeVector)
def _make_vector(op: MakeVector, node: Apply, ctx: Context) -> Fn:
    def run(*xs: Any) -> list[Any]:
        if all(isinstance(x, (np.ndarray, np.generic)) for x in xs):
            return [np.array(xs, dtype=op.dtype).reshape(len(xs))]
        return [jnp.stack([jnp.asarray(x).astype(op.dtype) for x in xs]).reshape(len(xs))]

    return run


@register(Reshape, static=(1,))
def _reshape(op: Reshape, node: Apply, ctx: Context) -> Fn:
    def run(x: Any, shp: Any) -> list[Any]:
        target = tuple(int(s) for s in np.asarray(shp))
        try:
            return [jnp.reshape(x, target)]
        except (TypeError, ValueError, ZeroDivisionError) as exc:
            raise ValueError(
                f"Reshape: cannot reshape array of shape {np.shape(x)} into {target}"
            ) from exc

    return run


@register(SpecifyShape, static=_after_first)
def _specify_shape(op: SpecifyShape, node: Apply, ctx: Context) -> Fn:
    def run(x: Any, *sizes: Any) -> list[Any]:
        it = iter(sizes)
        for d, g in enumerate(op.given):
            if g:
                want = int(next(it))
                if np.shape(x)[d] != want:
                    raise ValueError(f"SpecifyShape: axis {d} of shape {np.shape(x)} is not {want}")
        return [x]

    return run


@register(Alloc, static=_after_first)
def _alloc(op: Alloc, node: Apply, ctx: Context) -> Fn:
    def run(value: Any, *sizes: Any) -> list[Any]:
        shp = tuple(int(s) for s in sizes)
        np.broadcast_shapes(np.shape(value), shp)  # numpy's ValueError
        return [jnp.broadcast_to(value, shp)]

    return run


@register(Flip)
def _flip(op: Flip, node: Apply, ctx: Context) -> Fn:
    def run(x: Any) -> list[Any]:
        return [jnp.flip(x, op.axes) if op.axes else x]

    return run


@register(Roll)
def _roll(op: Roll, node: Apply, ctx: Context) -> Fn:
    def run(x: Any, shifts: Any) -> list[Any]:
        if not op.axes:
            return [x]
        return [jnp.roll(x, tuple(shifts[k] for k in range(len(op.axes))), axis=op.axes)]

    return run


@register(Repeat, static=(1,))
def _repeat(op: Repeat, node: Apply, ctx: Context) -> Fn:
    def run(x: Any, repeats: Any) -> list[Any]:
        reps = np.asarray(repeats)
        n = np.shape(x)[op.axis]
        # numpy's checks and the output length, from a zero-strided dummy axis
        dummy = np.lib.stride_tricks.as_strided(np.zeros(1, bool), shape=(n,), strides=(0,))
        total = len(np.repeat(dummy, reps))
        return [jnp.repeat(x, reps, axis=op.axis, total_repeat_length=total)]

    return run


@register(Pad)
def _pad(op: Pad, node: Apply, ctx: Context) -> Fn:
    def run(x: Any, *rest: Any) -> list[Any]:
        if not op.pad_width:
            return [x]
        if op.mode == "constant":
            cv = jnp.asarray(rest[0]).astype(x.dtype)
            return [jnp.pad(x, op.pad_width, mode="constant", constant_values=cv)]
        return [jnp.pad(x, op.pad_width, mode=op.mode)]

    return run


@register(PadGrad)
def _pad_grad(op: PadGrad, node: Apply, ctx: Context) -> Fn:
    # the transpose of padding, whatever the mode: jax's VJP of jnp.pad
    import jax

    def run(g: Any) -> list[Any]:
        shp = tuple(s - b - a for s, (b, a) in zip(g.shape, op.pad_width, strict=True))
        primal = jnp.zeros(shp, g.dtype)

        def pad(x: Any) -> Any:
            if op.mode == "constant":
                return jnp.pad(x, op.pad_width, mode="constant")
            return jnp.pad(x, op.pad_width, mode=op.mode)

        _, vjp = jax.vjp(pad, primal)
        return [vjp(g)[0]]

    return run
