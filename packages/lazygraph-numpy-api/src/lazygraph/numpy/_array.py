"""The Array object (minimal contract; being written).

An ``Array`` wraps a ``TensorVariable`` in ``_var``. It implements
``__lazygraph_variable__``, so every ``lazygraph.tensor`` function accepts it.
"""

from __future__ import annotations

from lazygraph.tensor.variable import TensorVariable

__all__ = ["Array"]


class Array:
    """A lazy n-dimensional array: a node of a lazygraph graph."""

    def __init__(self, var: TensorVariable) -> None:
        self._var = var

    def __lazygraph_variable__(self) -> TensorVariable:
        return self._var
