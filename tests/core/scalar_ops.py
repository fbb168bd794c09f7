"""The seed tutorials' scalar world: a ``double`` Type and ``add``/``sub``/``mul``/``div``
Ops (``str`` of each op is its name), plus helpers to build and evaluate random
expression DAGs. Shared by the rewriting tests, the seed-tutorial tests and the
benchmarks.

>>> x, y = double("x"), double("y")
>>> str(add(x, mul(x, y)).owner.op), evaluate([x, y], [add(x, mul(x, y))], [2.0, 3.0])
('add', [8.0])
"""

from __future__ import annotations

import math
import operator
import random
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from lazygraph.graph.basic import Apply, Constant, Op, Type, Variable
from lazygraph.graph.traversal import io_toposort

__all__ = [
    "Binary",
    "Double",
    "add",
    "constant",
    "div",
    "double",
    "evaluate",
    "identity",
    "mul",
    "neg",
    "random_dag",
    "sub",
]


class Double(Type):
    """Python floats."""

    def filter(self, data: Any, strict: bool = False, allow_downcast: bool | None = None) -> float:
        if strict and not isinstance(data, float):
            raise TypeError(f"{data!r} is not a float")
        return float(data)

    def values_eq_approx(self, a: Any, b: Any) -> bool:
        if math.isnan(a) and math.isnan(b):
            return True
        return math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12)

    def __str__(self) -> str:
        return "double"


double = Double()


def _as_var(value: Any) -> Variable:
    if isinstance(value, Variable):
        return value
    return double.make_constant(value)


def constant(value: float, name: str | None = None) -> Constant:
    return double.make_constant(value, name)


def _safe_div(a: float, b: float) -> float:
    if b == 0:
        return math.copysign(math.inf, a) if a != 0 else math.nan
    return a / b


class Binary(Op):
    """``name(a, b)`` on doubles, computed by ``fn``."""

    __props__ = ("name",)
    fns: ClassVar[dict[str, Callable[[float, float], float]]] = {
        "add": operator.add,
        "sub": operator.sub,
        "mul": operator.mul,
        "div": _safe_div,
    }

    def __init__(self, name: str) -> None:
        self.name = name

    def make_node(self, a: Any, b: Any) -> Apply:
        a, b = _as_var(a), _as_var(b)
        if a.type != double or b.type != double:
            raise TypeError(f"{self.name} takes doubles, got {a.type} and {b.type}")
        return Apply(self, [a, b], [double()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        output_storage[0][0] = self.fns[self.name](inputs[0], inputs[1])

    def __str__(self) -> str:
        return self.name


class Unary(Op):
    """``name(a)`` on doubles."""

    __props__ = ("name",)
    fns: ClassVar[dict[str, Callable[[float], float]]] = {
        "neg": operator.neg,
        "identity": lambda a: a,
    }

    def __init__(self, name: str) -> None:
        self.name = name

    def make_node(self, a: Any) -> Apply:
        a = _as_var(a)
        return Apply(self, [a], [double()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        output_storage[0][0] = self.fns[self.name](inputs[0])

    def __str__(self) -> str:
        return self.name


add, sub, mul, div = Binary("add"), Binary("sub"), Binary("mul"), Binary("div")
neg, identity = Unary("neg"), Unary("identity")
BINARY_OPS = (add, sub, mul, div)


def evaluate(
    inputs: Sequence[Variable], outputs: Sequence[Variable], values: Sequence[float]
) -> list[float]:
    """Compute ``outputs`` from ``values`` of ``inputs`` with each op's ``perform``
    (a tiny reference evaluator, independent of any backend)."""
    env: dict[Variable, Any] = dict(zip(inputs, values, strict=True))
    for node in io_toposort(inputs, outputs):
        args = []
        for v in node.inputs:
            if v in env:
                args.append(env[v])
            elif isinstance(v, Constant):
                args.append(v.data)
            else:
                raise KeyError(f"no value for {v}")
        storage: list[list[Any]] = [[None] for _ in node.outputs]
        node.op.perform(node, args, storage)
        for out, cell in zip(node.outputs, storage, strict=True):
            env[out] = cell[0]
    result = []
    for out in outputs:
        if out in env:
            result.append(env[out])
        elif isinstance(out, Constant):
            result.append(out.data)
        else:
            raise KeyError(f"no value for output {out}")
    return result


def random_dag(
    n_nodes: int,
    n_inputs: int = 4,
    seed: int = 0,
    dup_prob: float = 0.3,
    const_prob: float = 0.05,
    window: int | None = 64,
    n_outputs: int = 2,
) -> tuple[list[Variable], list[Variable]]:
    """A random DAG of about ``n_nodes`` binary scalar ops with duplicated subexpressions.

    Each new node reads the previous one (so every node feeds the last output)
    and a random earlier variable from the last ``window`` (``None``: any).
    With ``dup_prob`` the step instead rebuilds a copy of an earlier node's
    expression, one to three levels deep (duplicates whose merge cascades);
    with ``const_prob`` the second operand is a fresh constant equal to
    earlier ones. Built iteratively, so a million nodes is fine.
    """
    rng = random.Random(seed)
    inputs = [double(f"x{i}") for i in range(n_inputs)]
    pool: list[Variable] = list(inputs)
    made: list[Variable] = []
    count = 0
    while count < n_nodes:
        if made and rng.random() < dup_prob:
            original = made[rng.randrange(len(made))]
            copy, created = _copy_expression(original, rng.randrange(1, 4))
            # Read the copy right away, so that it feeds the outputs too.
            out = BINARY_OPS[rng.randrange(4)](pool[-1], copy)
            count += created + 1
        else:
            lo = 0 if window is None else max(0, len(pool) - window)
            a = pool[-1]
            if rng.random() < const_prob:
                b: Variable = constant(float(rng.randrange(1, 4)))
            else:
                b = pool[rng.randrange(lo, len(pool))]
            if rng.random() < 0.5:
                a, b = b, a
            out = BINARY_OPS[rng.randrange(4)](a, b)
            count += 1
        made.append(out)
        pool.append(out)
    outputs = pool[-n_outputs:] if made else list(inputs[:1])
    return inputs, outputs


def _copy_expression(var: Variable, depth: int) -> tuple[Variable, int]:
    """A fresh copy of ``var``'s expression ``depth`` levels deep (leaves shared)."""
    # Iterative post-order copy: depth is small but graphs are big.
    created = 0
    memo: dict[Variable, Variable] = {}
    stack: list[tuple[Variable, int, bool]] = [(var, depth, False)]
    while stack:
        v, d, expanded = stack.pop()
        if v in memo:
            continue
        if d == 0 or v.owner is None:
            memo[v] = v
            continue
        if not expanded:
            stack.append((v, d, True))
            stack.extend((i, d - 1, False) for i in v.owner.inputs)
            continue
        memo[v] = v.owner.op(*(memo[i] for i in v.owner.inputs))
        created += 1
    return memo[var], created
