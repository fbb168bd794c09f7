"""The lazygraph demo, for now: build a small graph from the graph core and print it.

This is a placeholder until ``lazygraph.numpy`` can run numpy code; ``nox -s demo``
runs it. It needs ``lazygraph.graph`` and ``lazygraph.printing``.
"""

from __future__ import annotations

import sys
from typing import Any

try:
    from lazygraph.graph import Apply, Op, Type, Variable
    from lazygraph.printing import dprint
except ImportError as error:
    sys.exit(
        f"demo: lazygraph cannot run the demo yet: {error}\n"
        "demo: it needs lazygraph.graph and lazygraph.printing (install with `nox -s demo`)."
    )


class Scalar(Type):
    """A Python float."""

    def filter(self, data: Any, strict: bool = False, allow_downcast: bool | None = None) -> float:
        if strict and not isinstance(data, float):
            raise TypeError(f"expected a float, got {type(data).__name__}")
        return float(data)


class Add(Op):
    def make_node(self, x: Variable, y: Variable) -> Apply:
        return Apply(self, [x, y], [Scalar()()])

    def perform(self, node: Apply, inputs: Any, output_storage: Any) -> None:
        output_storage[0][0] = inputs[0] + inputs[1]


class Mul(Op):
    def make_node(self, x: Variable, y: Variable) -> Apply:
        return Apply(self, [x, y], [Scalar()()])

    def perform(self, node: Apply, inputs: Any, output_storage: Any) -> None:
        output_storage[0][0] = inputs[0] * inputs[1]


def main() -> None:
    x, y = Scalar()("x"), Scalar()("y")
    z = Mul()(Add()(x, y), x)
    print("z = (x + y) * x, recorded as a graph:")
    dprint(z)


if __name__ == "__main__":
    main()
