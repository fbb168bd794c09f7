"""Conversions between user values and graph variables (contract; being extended).

- ``as_variable(x)``: an :class:`Array` gives its variable; a Python scalar
  stays weak (a constant the tensor layer promotes as NEP 50 says); numpy data
  becomes a graph input bound to its value (data is input, not constant).
- ``wrap(var)``: a tensor variable as an :class:`Array`.
"""

from __future__ import annotations

from typing import Any

from lazygraph.numpy._array import Array
from lazygraph.tensor.variable import TensorVariable, as_tensor_variable

__all__: list[str] = []


def as_variable(x: Any) -> Any:
    """``x`` as something every ``lazygraph.tensor`` function accepts."""
    if isinstance(x, Array):
        return x._var
    if isinstance(x, bool | int | float | complex):
        return x
    return as_tensor_variable(x)


def wrap(var: TensorVariable) -> Array:
    """A tensor variable as an Array."""
    return Array(var)
