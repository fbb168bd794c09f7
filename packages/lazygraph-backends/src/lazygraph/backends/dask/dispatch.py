"""The lowering registry: ``lower(node, values)`` returns the list of the node's
output values, chosen by the class of its Op (nearest in the MRO).

``values`` are the node's input values: dask arrays (graph inputs and what was
computed from them) or numpy values (constants, shapes, and what was computed
from those alone). A node whose inputs are all numpy values runs its ``perform``
at once (shape arithmetic), unless its lowering is registered with
``creates=True`` (``Alloc``, ``ARange``...: a large result from small inputs,
made chunk by chunk instead).

A lowering that cannot handle a particular node raises :class:`Unsupported`; the
linker then runs the node through its ``perform`` on one chunk holding each whole
input (:func:`lazygraph.backends.dask.blocks.whole_array_perform`), with a
:class:`DaskFallbackWarning` naming the Op.

>>> import lazygraph.tensor as lt
>>> node = lt.exp(lt.dvector()).owner
>>> lowering_for(node) is not None
True
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from lazygraph.graph.basic import Apply

__all__ = ["DaskFallbackWarning", "Lowering", "Unsupported", "lowering_for", "register"]


class DaskFallbackWarning(UserWarning):
    """A node the dask backend cannot lower runs through its python ``perform`` on
    one chunk holding each whole input (or, for an elementwise node, per chunk)."""


class Unsupported(Exception):
    """No dask lowering for this node: it runs through its ``perform``. The
    message says why, and which rechunking would let it lower where that is
    the reason."""


@dataclass(frozen=True)
class Lowering:
    """A registered lowering: ``lower(node, values)``; ``creates``: computed chunk
    by chunk even when every input is a numpy value."""

    lower: Callable[[Apply, Sequence[Any]], list[Any]]
    creates: bool = False


_lowerings: dict[type, Lowering] = {}


def register(
    *op_classes: type, creates: bool = False
) -> Callable[[Callable[..., list[Any]]], Callable[..., list[Any]]]:
    """Decorator: ``lower(node, values)`` lowers nodes of ``op_classes`` (and their
    subclasses without a lowering of their own)."""

    def decorate(lower: Callable[..., list[Any]]) -> Callable[..., list[Any]]:
        for cls in op_classes:
            _lowerings[cls] = Lowering(lower, creates)
        return lower

    return decorate


@functools.cache
def _ensure_registered() -> None:
    # Importing the op-family modules registers their lowerings.
    from lazygraph.backends.dask import (  # noqa: F401
        blas,
        elemwise,
        indexing,
        linalg,
        reduction,
        setops,
        shape,
        spectral,
        structure,
    )


def lowering_for(node: Apply) -> Lowering | None:
    """The registered lowering of ``node``'s Op class, or None."""
    _ensure_registered()
    for cls in type(node.op).__mro__:
        found = _lowerings.get(cls)
        if found is not None:
            return found
    return None
