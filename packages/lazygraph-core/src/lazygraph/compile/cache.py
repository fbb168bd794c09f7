"""The in-memory compile cache, keyed by a graph's structure and input types.

Placeholder (being written): ``cached_function`` compiles every time.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from lazygraph.compile.function import Function, function
from lazygraph.graph.basic import Variable

__all__ = ["cached_function"]


def cached_function(
    inputs: Sequence[Variable], outputs: Sequence[Variable], mode: Any = None
) -> Function:
    """A compiled function from ``inputs`` to the list ``outputs``, reused for
    every graph of the same structure and input types."""
    return function(list(inputs), list(outputs), mode=mode)
