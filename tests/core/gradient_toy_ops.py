"""Small ops with hand-written ``L_op`` / ``R_op`` for testing the gradient
machinery independently of the tensor op families.

All of them work on float64 tensors of equal static shapes (no broadcasting),
and their derivatives are built from these same ops, so second derivatives work.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import numpy as np

from lazygraph.gradient import disconnected_type, grad_undefined
from lazygraph.graph.basic import Apply, Op, Variable
from lazygraph.tensor.type import TensorType
from lazygraph.tensor.variable import as_tensor_variable


def _out(x: Variable, dtype: str | None = None) -> Variable:
    return TensorType(dtype or x.type.dtype, x.type.shape)()  # type: ignore[attr-defined]


class Unary(Op):
    """``name`` in ``UNARY``: an elementwise function and its derivative."""

    __props__: ClassVar[tuple[str, ...]] = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def make_node(self, x: Any) -> Apply:
        x = as_tensor_variable(x)
        return Apply(self, [x], [_out(x)])

    def perform(self, node: Apply, inputs: Sequence[Any], out: Any) -> None:
        out[0][0] = np.asarray(UNARY[self.name][0](inputs[0]), dtype=node.outputs[0].type.dtype)

    def infer_shape(self, fgraph: Any, node: Apply, shapes: Sequence[Any]) -> list[Any]:
        return [shapes[0]]

    def L_op(self, inputs: Any, outputs: Any, grads: Any) -> list[Any]:
        return [mul(grads[0], UNARY[self.name][1](inputs[0], outputs[0]))]

    def R_op(self, inputs: Any, eval_points: Any) -> list[Any]:
        return [mul(eval_points[0], UNARY[self.name][1](inputs[0], self(inputs[0])))]


class Binary(Op):
    """``add`` or ``mul`` of two same-shaped tensors."""

    __props__: ClassVar[tuple[str, ...]] = ("name",)

    def __init__(self, name: str) -> None:
        self.name = name

    def make_node(self, x: Any, y: Any) -> Apply:
        x, y = as_tensor_variable(x), as_tensor_variable(y)
        assert x.type.shape == y.type.shape, (x.type, y.type)
        return Apply(self, [x, y], [_out(x)])

    def perform(self, node: Apply, inputs: Sequence[Any], out: Any) -> None:
        fn = np.add if self.name == "add" else np.multiply
        out[0][0] = np.asarray(fn(*inputs))

    def infer_shape(self, fgraph: Any, node: Apply, shapes: Sequence[Any]) -> list[Any]:
        return [shapes[0]]

    def L_op(self, inputs: Any, outputs: Any, grads: Any) -> list[Any]:
        (g,) = grads
        x, y = inputs
        if self.name == "add":
            return [g, g]
        return [mul(g, y), mul(g, x)]

    def R_op(self, inputs: Any, eval_points: Any) -> list[Any]:
        x, y = inputs
        ex, ey = eval_points
        if self.name == "add":
            return [add(ex, ey)]
        return [add(mul(ex, y), mul(x, ey))]


class Sum(Op):
    """The sum of all elements (0-d result)."""

    __props__: ClassVar[tuple[str, ...]] = ()

    def make_node(self, x: Any) -> Apply:
        x = as_tensor_variable(x)
        return Apply(self, [x], [TensorType(x.type.dtype, ())()])

    def perform(self, node: Apply, inputs: Sequence[Any], out: Any) -> None:
        out[0][0] = np.asarray(np.sum(inputs[0]))

    def L_op(self, inputs: Any, outputs: Any, grads: Any) -> list[Any]:
        return [fill(grads[0], inputs[0])]

    def R_op(self, inputs: Any, eval_points: Any) -> list[Any]:
        return [self(eval_points[0])]


class Fill(Op):
    """A 0-d value repeated in the shape of a template (whose values are unused)."""

    __props__: ClassVar[tuple[str, ...]] = ()

    def make_node(self, value: Any, like: Any) -> Apply:
        value, like = as_tensor_variable(value), as_tensor_variable(like)
        return Apply(self, [value, like], [_out(like, value.type.dtype)])

    def perform(self, node: Apply, inputs: Sequence[Any], out: Any) -> None:
        out[0][0] = np.full(np.shape(inputs[1]), inputs[0], dtype=node.outputs[0].type.dtype)

    def connection_pattern(self, node: Apply) -> list[list[bool]]:
        return [[True], [False]]

    def L_op(self, inputs: Any, outputs: Any, grads: Any) -> list[Any]:
        return [Sum()(grads[0]), disconnected_type()]

    def R_op(self, inputs: Any, eval_points: Any) -> list[Any]:
        return [self(eval_points[0], inputs[1])]


class SinCos(Op):
    """Two outputs: ``sin(x)`` and ``cos(x)``."""

    __props__: ClassVar[tuple[str, ...]] = ()

    def make_node(self, x: Any) -> Apply:
        x = as_tensor_variable(x)
        return Apply(self, [x], [_out(x), _out(x)])

    def perform(self, node: Apply, inputs: Sequence[Any], out: Any) -> None:
        out[0][0] = np.sin(inputs[0])
        out[1][0] = np.cos(inputs[0])

    def L_op(self, inputs: Any, outputs: Any, grads: Any) -> list[Any]:
        s, c = outputs
        gs, gc = grads
        # d sin = cos, d cos = -sin
        return [add(mul(gs, c), mul(gc, neg(s)))]

    def R_op(self, inputs: Any, eval_points: Any) -> list[Any]:
        s, c = self(inputs[0])
        return [mul(eval_points[0], c), mul(eval_points[0], neg(s))]


class Floor(Op):
    """``floor(x)`` as int64: a discrete output (no gradient flows through it)."""

    __props__: ClassVar[tuple[str, ...]] = ()

    def make_node(self, x: Any) -> Apply:
        x = as_tensor_variable(x)
        return Apply(self, [x], [_out(x, "int64")])

    def perform(self, node: Apply, inputs: Sequence[Any], out: Any) -> None:
        out[0][0] = np.floor(inputs[0]).astype("int64")

    def L_op(self, inputs: Any, outputs: Any, grads: Any) -> list[Any]:
        raise AssertionError("the machinery must not call L_op for a discrete output")


class ToFloat(Op):
    """Any dtype to float64 (the cast PyTensor users know)."""

    __props__: ClassVar[tuple[str, ...]] = ("dtype",)

    def __init__(self, dtype: str = "float64") -> None:
        self.dtype = dtype

    def make_node(self, x: Any) -> Apply:
        x = as_tensor_variable(x)
        return Apply(self, [x], [_out(x, self.dtype)])

    def perform(self, node: Apply, inputs: Sequence[Any], out: Any) -> None:
        out[0][0] = np.asarray(inputs[0], dtype=self.dtype)

    def L_op(self, inputs: Any, outputs: Any, grads: Any) -> list[Any]:
        x = inputs[0]
        if x.type.numpy_dtype.kind in "biu":
            # Deliberately wrong dtype: the machinery must replace it with a zero.
            return [x]
        return [ToFloat(x.type.dtype)(grads[0])]

    def R_op(self, inputs: Any, eval_points: Any) -> list[Any]:
        return [ToFloat(self.dtype)(eval_points[0])]


class Scale(Op):
    """``x * k`` with ``k`` an integer "parameter" input whose gradient is disconnected."""

    __props__: ClassVar[tuple[str, ...]] = ()

    def make_node(self, x: Any, k: Any) -> Apply:
        x, k = as_tensor_variable(x), as_tensor_variable(k)
        return Apply(self, [x, k], [_out(x)])

    def perform(self, node: Apply, inputs: Sequence[Any], out: Any) -> None:
        out[0][0] = np.asarray(inputs[0] * inputs[1], dtype=node.outputs[0].type.dtype)

    def connection_pattern(self, node: Apply) -> list[list[bool]]:
        return [[True], [False]]

    def L_op(self, inputs: Any, outputs: Any, grads: Any) -> list[Any]:
        return [Scale()(grads[0], inputs[1]), disconnected_type()]


class Kink(Op):
    """``|x|`` whose gradient is declared undefined (to test NullType handling)."""

    __props__: ClassVar[tuple[str, ...]] = ()

    def make_node(self, x: Any) -> Apply:
        x = as_tensor_variable(x)
        return Apply(self, [x], [_out(x)])

    def perform(self, node: Apply, inputs: Sequence[Any], out: Any) -> None:
        out[0][0] = np.abs(inputs[0])

    def L_op(self, inputs: Any, outputs: Any, grads: Any) -> list[Any]:
        return [grad_undefined(self, 0, inputs[0], "it has a kink at 0")]


class NoRop(Op):
    """``x * x`` with an ``L_op`` but no ``R_op`` (forward mode must fall back)."""

    __props__: ClassVar[tuple[str, ...]] = ()

    def make_node(self, x: Any) -> Apply:
        x = as_tensor_variable(x)
        return Apply(self, [x], [_out(x)])

    def perform(self, node: Apply, inputs: Sequence[Any], out: Any) -> None:
        out[0][0] = inputs[0] * inputs[0]

    def L_op(self, inputs: Any, outputs: Any, grads: Any) -> list[Any]:
        x = inputs[0]
        return [mul(grads[0], add(x, x))]


def _unary(name: str) -> Callable[[Any], Any]:
    op = Unary(name)
    return lambda x: op(x)


UNARY: dict[str, tuple[Callable[[Any], Any], Callable[[Any, Any], Any]]] = {
    "exp": (np.exp, lambda x, y: y),
    "sin": (np.sin, lambda x, y: cos(x)),
    "cos": (np.cos, lambda x, y: neg(sin(x))),
    "neg": (np.negative, lambda x, y: fill(as_tensor_variable(-1.0), x)),
}

exp = _unary("exp")
sin = _unary("sin")
cos = _unary("cos")
neg = _unary("neg")
add_op = Binary("add")
mul_op = Binary("mul")


def add(x: Any, y: Any) -> Any:
    return add_op(x, y)


def mul(x: Any, y: Any) -> Any:
    return mul_op(x, y)


def fill(value: Any, like: Any) -> Any:
    return Fill()(value, like)


def total(x: Any) -> Any:
    return Sum()(x)


def vec(n: int, name: str = "x", dtype: str = "float64") -> Variable:
    return TensorType(dtype, (n,))(name)
