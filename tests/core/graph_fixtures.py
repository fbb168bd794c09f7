"""A tiny scalar world for the graph-core tests and benchmarks: a ``double`` Type and a
few float Ops, independent of lazygraph.tensor and of the rewriting tests' fixtures."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

from lazygraph.graph.basic import Apply, Constant, Op, Type, Variable


class DoubleType(Type):
    """Python floats."""

    __props__ = ()

    def filter(self, data: Any, strict: bool = False, allow_downcast: bool | None = None) -> float:
        if strict and not isinstance(data, float):
            raise TypeError(f"{data!r} is not a float")
        try:
            return float(data)
        except (TypeError, ValueError) as exc:
            raise TypeError(f"cannot convert {data!r} to a double") from exc

    def values_eq_approx(self, a: Any, b: Any) -> bool:
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12) or (math.isnan(a) and math.isnan(b))

    def __str__(self) -> str:
        return "double"


class IntType(Type):
    """Python ints (a second type, to test type mismatches)."""

    __props__ = ()

    def filter(self, data: Any, strict: bool = False, allow_downcast: bool | None = None) -> int:
        if (isinstance(data, bool) or not isinstance(data, int)) and (strict or int(data) != data):
            raise TypeError(f"{data!r} is not an int")
        return int(data)

    def __str__(self) -> str:
        return "int"


double = DoubleType()
integer = IntType()


def dvar(name: str | None = None) -> Variable:
    return double(name)


def dconst(value: float, name: str | None = None) -> Constant:
    return double.make_constant(value, name)


def as_double(x: Any) -> Variable:
    return x if isinstance(x, Variable) else dconst(float(x))


class BinaryOp(Op):
    __props__ = ()
    fn: Any = None
    name = "?"

    def make_node(self, x: Any, y: Any) -> Apply:
        x, y = as_double(x), as_double(y)
        for v in (x, y):
            if v.type != double:
                raise TypeError(f"{self.name} needs doubles, got {v.type}")
        return Apply(self, [x, y], [double()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        output_storage[0][0] = float(type(self).fn(*inputs))

    def __str__(self) -> str:
        return self.name


class UnaryOp(Op):
    __props__ = ()
    fn: Any = None
    name = "?"

    def make_node(self, x: Any) -> Apply:
        x = as_double(x)
        if x.type != double:
            raise TypeError(f"{self.name} needs a double, got {x.type}")
        return Apply(self, [x], [double()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        output_storage[0][0] = float(type(self).fn(inputs[0]))

    def __str__(self) -> str:
        return self.name


def _div(a: float, b: float) -> float:
    return a / b if b else math.copysign(math.inf, a) if a else math.nan


class Add(BinaryOp):
    name = "add"
    fn = staticmethod(lambda a, b: a + b)


class Sub(BinaryOp):
    name = "sub"
    fn = staticmethod(lambda a, b: a - b)


class Mul(BinaryOp):
    name = "mul"
    fn = staticmethod(lambda a, b: a * b)


class Div(BinaryOp):
    name = "div"
    fn = staticmethod(_div)


class Neg(UnaryOp):
    name = "neg"
    fn = staticmethod(lambda a: -a)


class Exp(UnaryOp):
    name = "exp"
    fn = staticmethod(lambda a: math.exp(min(a, 700.0)))


add, sub, mul, div, neg, exp = Add(), Sub(), Mul(), Div(), Neg(), Exp()


class Scale(Op):
    """An op with a prop: ``x * factor``."""

    __props__ = ("factor",)

    def __init__(self, factor: float) -> None:
        self.factor = factor

    def make_node(self, x: Any) -> Apply:
        return Apply(self, [as_double(x)], [double()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        output_storage[0][0] = inputs[0] * self.factor


class SplitOp(Op):
    """Two outputs, default output 1: ``(x, -x)``."""

    __props__ = ()
    default_output = 1

    def make_node(self, x: Any) -> Apply:
        return Apply(self, [as_double(x)], [double(), double()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        output_storage[0][0] = inputs[0]
        output_storage[1][0] = -inputs[0]


class ViewOp(Op):
    """Output 0 is a view of input 0."""

    __props__ = ()
    view_map = {0: [0]}  # noqa: RUF012

    def make_node(self, x: Any) -> Apply:
        return Apply(self, [x], [x.type()])


class InplaceNeg(Op):
    """Output 0 overwrites input 0."""

    __props__ = ()
    destroy_map = {0: [0]}  # noqa: RUF012

    def make_node(self, x: Any) -> Apply:
        return Apply(self, [x], [x.type()])


class PickFirst(Op):
    """Two inputs, output depends only on the first (connection_pattern)."""

    __props__ = ()

    def make_node(self, x: Any, y: Any) -> Apply:
        return Apply(self, [x, y], [x.type()])

    def connection_pattern(self, node: Apply) -> list[list[bool]]:
        return [[True], [False]]


BINARY_OPS = (add, sub, mul, div)


def random_dag(
    n_nodes: int,
    n_inputs: int = 100,
    dup_fraction: float = 0.2,
    window: int = 64,
    seed: int = 0,
    const_fraction: float = 0.0,
    neg_fraction: float = 0.0,
) -> tuple[list[Variable], list[Variable]]:
    """A random expression DAG of about ``n_nodes`` binary nodes over ``n_inputs`` inputs.

    Operands are drawn among the ``window`` most recent variables (so the graph is
    deep and local, like real programs); ``dup_fraction`` of the nodes rebuild an
    existing node's op and inputs (duplicated subexpressions for merge to find).
    ``const_fraction`` of the operands are the constants 0.0, 1.0 or 2.0 and
    ``neg_fraction`` of the nodes are ``neg`` (so simplifications have work to do).
    Returns ``(inputs, outputs)``; the outputs are the variables nobody reads.
    """
    rng = random.Random(seed)
    ins = [double(f"x{i}") for i in range(n_inputs)]
    pool: list[Variable] = list(ins)
    built: list[tuple[Op, Variable, Variable]] = []
    used: set[Variable] = set()
    ops_ = BINARY_OPS
    rand = rng.random
    randrange = rng.randrange
    consts = [dconst(0.0), dconst(1.0), dconst(2.0)] if const_fraction else []
    for _ in range(n_nodes):
        if built and rand() < dup_fraction:
            op, a, b = built[randrange(max(0, len(built) - window), len(built))]
        else:
            n = len(pool)
            lo = max(0, n - window)
            a = pool[randrange(lo, n)]
            b = pool[randrange(lo, n)]
            if consts and rand() < const_fraction:
                b = consts[randrange(3)]
            if consts and rand() < const_fraction:
                a = consts[randrange(3)]
            op = neg if neg_fraction and rand() < neg_fraction else ops_[randrange(4)]
            built.append((op, a, b))
        out = double()
        Apply(op, [a] if op is neg else [a, b], [out])
        used.add(a)
        if op is not neg:
            used.add(b)
        pool.append(out)
    outs = [v for v in pool[n_inputs:] if v not in used]
    return ins, outs


def chain(n: int, op: Op = neg) -> tuple[Variable, Variable]:
    """``op(op(...op(x)))`` with ``n`` nodes, built without ``make_node`` overhead."""
    x = double("x")
    v = x
    for _ in range(n):
        out = double()
        Apply(op, [v], [out])
        v = out
    return x, v
