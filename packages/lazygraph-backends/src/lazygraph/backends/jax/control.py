"""JAX lowerings of the control-flow Ops: ``Scan`` as ``lax.scan``, ``While`` as
``lax.while_loop``, ``IfElse`` as ``lax.cond``.

Each inner graph is rewritten as the jax backend rewrites a graph (no
``fusion`` nor ``inplace``) and lowered node by node with the same registry
the linker uses (:func:`~lazygraph.backends.jax.dispatch.lowering_for`), into
one function that XLA compiles as the loop's body: the loop is never
unrolled. An inner node that cannot be lowered (no lowering, a host step, a
size computed from data) makes the whole loop :class:`Unsupported`, so it runs
through its ``perform`` on the host. The run-time checks inner nodes record
(an index out of range...) are carried out of the loop and raise as they do
outside one.

>>> import numpy as np
>>> import lazygraph
>>> from lazygraph.compile.mode import Mode
>>> import lazygraph.tensor as lt
>>> xs = lt.dvector("xs")
>>> total, ys = lazygraph.scan(lambda c, x: (c + x, c * x), lt.constant(0.0), xs)
>>> lazygraph.function([xs], ys, mode=Mode(backend="jax"))(np.arange(1.0, 4.0))
array([0., 2., 9.])
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from lazygraph.backends.jax.dispatch import (
    HOST_BY_DESIGN,
    Context,
    Unsupported,
    lowering_for,
    register,
)
from lazygraph.compile.function import rewrite_graph
from lazygraph.compile.mode import Mode
from lazygraph.graph.basic import Apply, Constant, Variable
from lazygraph.graph.fg import FunctionGraph
from lazygraph.tensor.control import IfElse, InnerGraph, Scan, While

__all__: list[str] = []

Fn = Callable[..., Any]
_MODE = Mode(backend="jax").excluding("fusion", "inplace")


class _Body:
    """An inner graph as a function of jax values: ``body(*inputs)`` returns
    ``(outputs, flags)``, ``flags`` the traced booleans of the checks its
    nodes recorded (``messages`` holds their exception types and messages,
    from the latest trace)."""

    def __init__(self, inner: InnerGraph) -> None:
        fgraph = FunctionGraph(inner.inputs, inner.outputs, clone=True)
        rewrite_graph(fgraph, _MODE)
        self.fgraph = fgraph
        static: set[Variable] = {v for v in fgraph.variables if isinstance(v, Constant)}
        self.steps: list[tuple[Apply, Fn, Context]] = []
        for node in fgraph.toposort():
            lowering = lowering_for(node)
            name = type(node.op).__name__
            if lowering is None:
                raise Unsupported(
                    f"a loop or branch body holds {name}, which has no jax lowering",
                    name if name in HOST_BY_DESIGN else None,
                )
            host = lowering.host(node) if lowering.host is not None else None
            if host is not None:
                raise Unsupported(
                    f"a loop or branch body holds {name}, which runs on the host", host
                )
            if not all(node.inputs[i] in static for i in lowering.static_inputs(node)):
                raise Unsupported(
                    f"a loop or branch body computes a size of {name} from data",
                    "sizes from data",
                )
            ctx = Context()
            fn = lowering.make(node.op, node, ctx)
            if getattr(fn, "static_outputs", False):
                static.update(node.outputs)
            self.steps.append((node, fn, ctx))
        self.messages: list[tuple[type[BaseException], str]] = []

    def __call__(self, *args: Any) -> tuple[list[Any], list[Any]]:
        env: dict[Variable, Any] = dict(zip(self.fgraph.inputs, args, strict=True))
        for _, _, ctx in self.steps:
            ctx.checks.clear()
        for node, fn, _ in self.steps:
            # (v.data exists only for constants: no env.get(v, v.data))
            values = [env[v] if v in env else v.data for v in node.inputs]  # type: ignore[attr-defined]  # noqa: SIM401
            for out, value in zip(node.outputs, fn(*values), strict=True):
                env[out] = _cast(value, out)
        outs = [
            _cast(env[v], v) if v in env else jnp.asarray(v.data)  # type: ignore[attr-defined]
            for v in self.fgraph.outputs
        ]
        checks = [c for _, _, ctx in self.steps for c in ctx.checks]
        self.messages = [(exc, msg) for _, exc, msg in checks]
        return outs, [jnp.any(flag) for flag, _, _ in checks]


def _cast(value: Any, var: Variable) -> Any:
    dtype = np.dtype(var.type.dtype)  # type: ignore[attr-defined]
    if getattr(value, "dtype", None) == dtype and not isinstance(value, np.ndarray | np.generic):
        return value
    return jnp.asarray(value, dtype=dtype)


#: inner graph -> its lowered body; equal inner graphs (equal loops) share one
_BODIES: weakref.WeakKeyDictionary[InnerGraph, _Body] = weakref.WeakKeyDictionary()


def _body(inner: InnerGraph) -> _Body:
    body = _BODIES.get(inner)
    if body is None:
        body = _BODIES[inner] = _Body(inner)
    return body


def _count_flags(body: _Body, args: Sequence[Any]) -> int:
    """How many checks ``body`` records for arguments like ``args`` (traced
    abstractly, no compile); ``body.messages`` then holds theirs."""
    avals = [jax.ShapeDtypeStruct(jnp.shape(a), jnp.asarray(a).dtype) for a in args]
    _, flags = jax.eval_shape(body, *avals)
    return len(flags)


def _report(ctx: Context, messages: list[tuple[type[BaseException], str]], flags: Any) -> None:
    for flag, (exc, msg) in zip(flags, messages, strict=True):
        ctx.check(jnp.any(flag), exc, msg)


@register(Scan, static=(0,))
def _scan(op: Scan, node: Apply, ctx: Context) -> Fn:
    body = _body(op.inner)
    nc, ns = op.n_carry, op.n_seq

    def run(length: Any, *args: Any) -> list[Any]:
        steps = int(np.asarray(length))
        if steps < 0:
            raise ValueError(f"scan: length must be non-negative, got {steps}")
        init = [_cast(a, v) for a, v in zip(args[:nc], node.inputs[1 : 1 + nc], strict=True)]
        xs, params = list(args[nc : nc + ns]), list(args[nc + ns :])
        for j, x in enumerate(xs):
            if jnp.shape(x)[0] != steps:
                raise ValueError(f"scan: sequence {j} has {jnp.shape(x)[0]} rows for {steps} steps")

        def step(carry: tuple[Any, ...], x: tuple[Any, ...]) -> tuple[Any, Any]:
            outs, flags = body(*carry, *x, *params)
            return tuple(outs[:nc]), (tuple(outs[nc:]), tuple(flags))

        carry, (ys, flags) = jax.lax.scan(
            step, tuple(init), tuple(xs), length=steps, reverse=op.reverse
        )
        _report(ctx, body.messages, flags)
        return [*carry, *ys]

    return run


@register(While)
def _while(op: While, node: Apply, ctx: Context) -> Fn:
    cond, body = _body(op.cond), _body(op.body)
    nc, bound = op.n_carry, op.max_steps

    def run(*args: Any) -> list[Any]:
        init = tuple(_cast(a, v) for a, v in zip(args[:nc], node.inputs[:nc], strict=True))
        params = list(args[nc:])
        n_cond = _count_flags(cond, [*init, *params])
        n_body = _count_flags(body, [*init, *params])
        no = jnp.zeros((), dtype=bool)

        def keep_going(state: tuple[Any, ...]) -> Any:
            k, carry, _ = state
            pred, _ = cond(*carry, *params)
            go = pred[0]
            return go if bound is None else jnp.logical_and(go, k < bound)

        def step(state: tuple[Any, ...]) -> tuple[Any, ...]:
            k, carry, seen = state
            _, cflags = cond(*carry, *params)
            new, bflags = body(*carry, *params)
            flags = tuple(
                jnp.logical_or(s, f) for s, f in zip(seen, [*cflags, *bflags], strict=True)
            )
            return k + 1, tuple(new), flags

        start = (jnp.zeros((), dtype=np.int64), init, (no,) * (n_cond + n_body))
        _, final, flags = jax.lax.while_loop(keep_going, step, start)
        _report(ctx, cond.messages + body.messages, flags)
        return list(final)

    return run


@register(IfElse)
def _if_else(op: IfElse, node: Apply, ctx: Context) -> Fn:
    for k, (a, b) in enumerate(zip(op.then_graph.outputs, op.else_graph.outputs, strict=True)):
        sa, sb = a.type.shape, b.type.shape  # type: ignore[attr-defined]
        if any(x is not None and y is not None and x != y for x, y in zip(sa, sb, strict=True)):
            raise Unsupported(
                f"cond: output {k} has shape {sa} in one branch and {sb} in the other; "
                "lax.cond needs equal shapes"
            )
    then, other = _body(op.then_graph), _body(op.else_graph)

    def run(pred: Any, *operands: Any) -> list[Any]:
        n_then = _count_flags(then, operands)
        n_else = _count_flags(other, operands)
        no = jnp.zeros((), dtype=bool)

        def take_then(*ops: Any) -> tuple[Any, ...]:
            outs, flags = then(*ops)
            return tuple(outs), (*flags, *(no,) * n_else)

        def take_else(*ops: Any) -> tuple[Any, ...]:
            outs, flags = other(*ops)
            return tuple(outs), (*(no,) * n_then, *flags)

        outs, flags = jax.lax.cond(jnp.asarray(pred) != 0, take_then, take_else, *operands)
        _report(ctx, then.messages + other.messages, flags)
        return [_cast(o, v) for o, v in zip(outs, node.outputs, strict=True)]

    return run
