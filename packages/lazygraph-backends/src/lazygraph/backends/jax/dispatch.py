"""The lowering registry: ``jax_funcify(op, node, ctx)`` returns a function of
the node's input values (jax arrays while tracing) that returns the list of
its output values, chosen by the class of the Op.

A lowering may ask for some inputs to be *static* (known when the graph is
traced, like the sizes given to ``Alloc`` or ``Reshape``): it is registered
with ``static=(positions...)`` and receives numpy values there. A node whose
static inputs cannot be known at trace time, a node whose output shape depends
on its input values (``nonzero``, ``unique_*``, boolean masks) and a node with
no lowering run outside the jitted region through their python ``perform``.

A lowering that cannot handle a particular node raises :class:`Unsupported`
(the node then runs through ``perform`` too).

>>> import lazygraph.tensor as lt
>>> from lazygraph.backends.jax.dispatch import lowering_for
>>> node = lt.exp(lt.tensor("float64", (None,))).owner
>>> lowering_for(node) is not None
True
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from lazygraph.graph.basic import Apply, Op

__all__ = [
    "Context",
    "Lowering",
    "Unsupported",
    "jax_funcify",
    "lowering_for",
    "register",
]


class Unsupported(Exception):
    """No JAX lowering for this node: it runs outside jit through ``perform``."""


@dataclass
class Context:
    """What a lowered function may use besides its inputs while tracing.

    ``check(flag, exc_type, message)`` records a traced boolean: if it is true
    after the call, the compiled function raises ``exc_type(message)`` (numpy
    raises where XLA clamps or returns garbage, e.g. out-of-range indices).
    """

    checks: list[tuple[Any, type[BaseException], str]] = field(default_factory=list)

    def check(self, flag: Any, exc_type: type[BaseException], message: str) -> None:
        self.checks.append((flag, exc_type, message))


@dataclass(frozen=True)
class Lowering:
    """A registered lowering: ``make(op, node, ctx)`` returns the function of the
    input values; ``static`` lists the input positions that must be known when
    tracing; ``host(node)`` says when a node must run outside jit anyway."""

    make: Callable[..., Callable[..., Sequence[Any]]]
    static: tuple[int, ...] | Callable[[Apply], tuple[int, ...]] = ()
    host: Callable[[Apply], bool] | None = None

    def static_inputs(self, node: Apply) -> tuple[int, ...]:
        return self.static(node) if callable(self.static) else self.static


_lowerings: dict[type, Lowering] = {}


def register(
    *op_classes: type,
    static: tuple[int, ...] | Callable[[Apply], tuple[int, ...]] = (),
    host: Callable[[Apply], bool] | None = None,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Decorator: ``make(op, node, ctx)`` lowers nodes of ``op_classes`` (and
    their subclasses without a lowering of their own)."""

    def decorate(make: Callable[..., Any]) -> Callable[..., Any]:
        for cls in op_classes:
            _lowerings[cls] = Lowering(make, static, host)
        return make

    return decorate


@functools.cache
def _ensure_registered() -> None:
    # Importing the op-family modules registers their lowerings.
    from lazygraph.backends.jax import (  # noqa: F401
        blas,
        creation,
        elemwise,
        fft,
        join,
        linalg,
        reduction,
        shape,
        sort,
        subtensor,
    )


def lowering_for(node: Apply) -> Lowering | None:
    """The registered lowering of ``node``'s Op class (nearest in the MRO), or None."""
    _ensure_registered()
    for cls in type(node.op).__mro__:
        found = _lowerings.get(cls)
        if found is not None:
            return found
    return None


def jax_funcify(op: Op, node: Apply, ctx: Context) -> Callable[..., Sequence[Any]]:
    """The function computing ``node`` on its input values (a list of outputs);
    raises :class:`Unsupported` where there is no lowering."""
    lowering = lowering_for(node)
    if lowering is None:
        raise Unsupported(f"no jax lowering for {type(op).__name__}")
    return lowering.make(op, node, ctx)
