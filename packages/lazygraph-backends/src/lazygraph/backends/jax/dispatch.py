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

Some of those host steps are by design: XLA needs static shapes, or only
numpy's own code gives numpy's exact answer. Each such case is an entry of
:data:`HOST_BY_DESIGN`, with its reason; every other host step is a fallback,
which warns once per Op and reason (``JaxFallbackWarning``) or, with
``config.on_unsupported == "raise"``, raises.

>>> import lazygraph.tensor as lt
>>> from lazygraph.backends.jax.dispatch import lowering_for
>>> node = lt.exp(lt.tensor("float64", (None,))).owner
>>> lowering_for(node) is not None
True
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from lazygraph.graph.basic import Apply, Op

__all__ = [
    "HOST_BY_DESIGN",
    "Context",
    "Lowering",
    "Unsupported",
    "jax_funcify",
    "lowering_for",
    "register",
]


#: The host steps that are by design, not for want of a lowering: key -> why
#: only the host (numpy's ``perform``) can run such a node. Keys are Op class
#: names (every node of an Op with no lowering at all) or the ``by_design`` key
#: a lowering names (in :class:`Unsupported`, a ``host`` predicate, or the
#: linker's static-size check). Nothing else runs on the host silently: with
#: ``config.on_unsupported == "raise"`` any other host step raises.
HOST_BY_DESIGN: dict[str, str] = {
    "Nonzero": "its output shape depends on the input values; XLA needs static shapes",
    "Unique": "its output shape depends on the input values; XLA needs static shapes",
    "boolean mask": (
        "indexing with a boolean mask selects a data-dependent number of elements; "
        "XLA needs static shapes"
    ),
    "sizes from data": (
        "an input the lowering needs while tracing (a shape, a slice bound, a scalar "
        "index) is computed from the data: shapes and slice bounds fix the output "
        "shape, which XLA needs statically (a scalar index could be traced with a "
        "dynamic slice: not done yet)"
    ),
    "unstable argsort": (
        "numpy's default sort (introsort) orders ties in an order of its own that no "
        "stable sort reproduces"
    ),
    "eigh vectors": (
        "each eigenvector's sign (phase) is LAPACK's choice; XLA's eigensolver picks "
        "others, so only numpy gives numpy's vectors"
    ),
    "eig": (
        "XLA's general eigensolver runs on the CPU only, and numpy's eigenvalue order "
        "and eigenvector phases are LAPACK geev's"
    ),
    "svd vectors": (
        "each singular vector's sign (phase) is LAPACK's choice; XLA's SVD picks "
        "others, so only numpy gives numpy's U and Vh"
    ),
    "QR": (
        "the sign of each column of Q (row of R) is the Householder convention of the "
        "library; XLA's QR on an accelerator need not match LAPACK's"
    ),
    "Lstsq": (
        "numpy's rank, singular values and residuals (empty unless the system is tall "
        "and of full rank) follow LAPACK gelsd and its rcond rule; not lowered yet"
    ),
    # Complex elementwise functions XLA computes with other formulas than numpy's
    # C99 (Annex G) loops: they agree on ordinary values but not at inf, NaN,
    # signed zeros on a branch cut, or near overflow (each checked on every pair of
    # parts from 0, -0, 1, -2.5, 1e300, 710, inf, -inf, NaN, ...).
    "complex abs": "|inf+nanj| is inf in numpy (C99 hypot), NaN in XLA",
    "complex sign": "numpy 2's z/|z| gives an infinite value's direction (sign(infj) == 1j)",
    "complex sqrt": "XLA ignores the sign of a zero imaginary part on the cut (-1-0j -> -1j)",
    "complex square": "XLA's real part (a-b)(a+b) stays finite where numpy's a*a-b*b overflows",
    "complex reciprocal": "1/0j is nan+nanj in numpy (Smith's division), inf+nanj in XLA",
    "complex divide": "numpy's Smith division differs from XLA's at zero, inf and NaN parts",
    "complex clip": "numpy's complex clip handles NaN parts its own way: maximum then minimum "
    "in numpy's complex order differs from it in 208 of 6,860 special-value triples",
    "complex pow": "numpy special-cases integer exponents, 0 and inf; XLA's exp(b log a) differs",
    **{
        f"complex {name}": "exp(inf+nanj) is inf+nanj in numpy, nan+nanj in XLA; "
        "expm1 also loses digits near 2**-30 relative where |imag| is large"
        for name in ("exp", "exp2", "expm1")
    },
    **{
        f"complex {name}": "log(inf+nanj) is inf+nanj in numpy, nan+nanj in XLA; "
        "log1p also loses arguments near 1e-300"
        for name in ("log", "log2", "log10", "log1p")
    },
    **{
        f"complex {name}": "at inf and NaN parts numpy keeps C99's exact zeros and signs "
        "(cosh(infj) == nan+0j) and stays finite up to the double range (cos(710j)); "
        "XLA gives NaN or inf"
        for name in ("sin", "cos", "tan", "sinh", "cosh", "tanh")
    },
    **{
        f"complex {name}": "on a branch cut the sign of a zero part picks the side in "
        "numpy, not in XLA; NaN parts differ too"
        for name in ("asin", "acos", "atan", "asinh", "acosh", "atanh")
    },
}


class Unsupported(Exception):
    """No JAX lowering for this node: it runs outside jit through ``perform``.

    ``by_design`` names the :data:`HOST_BY_DESIGN` entry when that is intended
    (no warning, never an error); without it the host step is a fallback.
    """

    def __init__(self, message: str, by_design: str | None = None) -> None:
        if by_design is not None and by_design not in HOST_BY_DESIGN:
            raise KeyError(f"jax backend: {by_design!r} is not an entry of HOST_BY_DESIGN")
        super().__init__(message)
        self.by_design = by_design


class Context:
    """What a lowered function may use besides its inputs while tracing.

    ``check(flag, exc_type, message)`` records a traced boolean: if it is true
    after the call, the compiled function raises ``exc_type(message)`` (numpy
    raises where XLA clamps or returns garbage, e.g. out-of-range indices).

    ``checks`` holds the checks of the trace running on the calling thread:
    several threads may trace one segment (for different shapes) at once.
    """

    def __init__(self) -> None:
        self._local = threading.local()

    @property
    def checks(self) -> list[tuple[Any, type[BaseException], str]]:
        checks: list[tuple[Any, type[BaseException], str]] | None
        checks = getattr(self._local, "checks", None)
        if checks is None:
            checks = self._local.checks = []
        return checks

    def check(self, flag: Any, exc_type: type[BaseException], message: str) -> None:
        self.checks.append((flag, exc_type, message))


@dataclass(frozen=True)
class Lowering:
    """A registered lowering: ``make(op, node, ctx)`` returns the function of the
    input values; ``static`` lists the input positions that must be known when
    tracing; ``host(node)`` says when a node must run outside jit anyway: the
    :data:`HOST_BY_DESIGN` key of why, or None."""

    make: Callable[..., Callable[..., Sequence[Any]]]
    static: tuple[int, ...] | Callable[[Apply], tuple[int, ...]] = ()
    host: Callable[[Apply], str | None] | None = None

    def static_inputs(self, node: Apply) -> tuple[int, ...]:
        return self.static(node) if callable(self.static) else self.static


_lowerings: dict[type, Lowering] = {}


def register(
    *op_classes: type,
    static: tuple[int, ...] | Callable[[Apply], tuple[int, ...]] = (),
    host: Callable[[Apply], str | None] | None = None,
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
        control,
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
