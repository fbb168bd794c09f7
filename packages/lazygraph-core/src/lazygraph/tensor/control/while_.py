"""``While``: repeat a body while a condition holds, as one node.

A ``While`` node's inputs are ``[*init, *params]``; its two inner graphs,
``cond`` (to a 0-d bool) and ``body`` (to the new carries), both read
``[*carries, *params]``. Its outputs are the final carries. With
``max_steps`` the loop also stops after that many steps.

Reverse mode needs the carries of every step, so it needs a bound on their
number: a ``While`` with ``max_steps`` differentiates as the scan of
``max_steps`` steps ``c = where(cond(c), body(c), c)`` (which computes the
same carries, as ``cond`` stays false once it is false); without
``max_steps``, asking for its gradient is a ``ValueError``.

>>> import numpy as np
>>> import lazygraph.tensor as lt
>>> c = lt.lscalar("c")
>>> (final,) = while_apply([lt.constant(1)], [c], c < 100, [c * 3])
>>> int(final.eval())
243
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from lazygraph.graph.basic import Apply, Op, Variable
from lazygraph.tensor.control.inner import InnerGraph, check_same_type, closure, unaliased
from lazygraph.tensor.variable import as_tensor_variable

__all__ = ["While", "while_apply"]


class While(Op):
    """``while cond(c): c = body(c)`` over ``n_carry`` carries (see the module
    docstring); ``max_steps`` (an int or None) bounds the number of steps."""

    __props__: ClassVar[tuple[str, ...]] = ("cond", "body", "n_carry", "max_steps")
    #: the python perform interprets the body step by step, far slower than
    #: compiling the loop: a compiling backend never runs it while it compiles
    slow_perform: ClassVar[bool] = True

    def __init__(
        self, cond: InnerGraph, body: InnerGraph, n_carry: int, max_steps: int | None = None
    ) -> None:
        if [v.type for v in cond.inputs] != [v.type for v in body.inputs]:
            raise ValueError("While: cond and body must read the same inputs")
        if len(cond.outputs) != 1 or len(body.outputs) != n_carry:
            raise ValueError("While: cond has one output and body one per carry")
        pred = cond.outputs[0].type
        if getattr(pred, "dtype", None) != "bool" or getattr(pred, "ndim", None) != 0:
            raise TypeError(f"while_loop: cond_fun must return a boolean scalar, got {pred}")
        for i in range(n_carry):
            check_same_type(
                f"while_loop: body_fun's output carry {i} must have the type of its input carry",
                body.inputs[i],
                body.outputs[i],
            )
        if max_steps is not None and (int(max_steps) != max_steps or max_steps < 0):
            raise ValueError(f"while_loop: max_steps must be a non-negative int, got {max_steps}")
        self.cond = cond
        self.body = body
        self.n_carry = int(n_carry)
        self.max_steps = None if max_steps is None else int(max_steps)

    def __str__(self) -> str:
        bound = "" if self.max_steps is None else f", max_steps={self.max_steps}"
        return f"While{{carries={self.n_carry}{bound}}}"

    def do_constant_folding(self, fgraph: Any, node: Apply) -> bool:
        return False  # a loop is work: never run one while compiling

    def make_node(self, *args: Any) -> Apply:
        if len(args) != len(self.body.inputs):
            raise TypeError(f"{self}: takes {len(self.body.inputs)} inputs, {len(args)} given")
        args = tuple(as_tensor_variable(a) for a in args)
        for k, (inner, outer) in enumerate(zip(self.body.inputs, args, strict=True)):
            what = f"initial carry {k}" if k < self.n_carry else f"non-carry input {k}"
            check_same_type(f"while_loop: {what}", inner, outer)
        outputs = [self.body.inputs[i].type() for i in range(self.n_carry)]
        return Apply(self, list(args), outputs)

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        nc = self.n_carry
        carries, params = list(inputs[:nc]), list(inputs[nc:])
        cond, body = self.cond.python_function(), self.body.python_function()
        shapes = [np.shape(c) for c in carries]
        steps = 0
        while (self.max_steps is None or steps < self.max_steps) and cond(*carries, *params)[0]:
            carries = body(*carries, *params)
            steps += 1
            for i, (c, shape) in enumerate(zip(carries, shapes, strict=True)):
                if np.shape(c) != shape:
                    raise ValueError(
                        f"while_loop: the body changed the shape of carry {i} from {shape} to "
                        f"{np.shape(c)}"
                    )
        for i, value in enumerate(unaliased(carries, inputs)):
            output_storage[i][0] = value

    def infer_shape(self, fgraph: Any, node: Apply, input_shapes: Sequence[Any]) -> list[Any]:
        return [tuple(input_shapes[i]) for i in range(self.n_carry)]

    def as_scan(self, inputs: Sequence[Variable]) -> Apply:
        """The ``Scan`` node of ``max_steps`` steps computing the same carries
        from ``inputs`` (``c = where(cond(c), body(c), c)``)."""
        import lazygraph.tensor as lt
        from lazygraph.tensor.control.scan import scan_apply

        if self.max_steps is None:
            raise ValueError(
                "while_loop: reverse-mode differentiation needs a bound on the number of "
                "steps (the carries of every step are kept); pass max_steps=, or use scan / "
                "fori_loop with static bounds"
            )
        nc = self.n_carry
        holders = self.body.fresh_inputs()
        pred = self.cond.apply(holders)[0]
        new = self.body.apply(holders)
        step = [lt.where(pred, n, c) for n, c in zip(new, holders[:nc], strict=True)]
        outs = scan_apply(
            self.max_steps,
            list(inputs[:nc]),
            [],
            holders[:nc],
            [],
            step,
            [],
            params=list(zip(holders[nc:], inputs[nc:], strict=True)),
        )
        return outs[0].owner  # type: ignore[return-value]

    def L_op(
        self,
        inputs: Sequence[Variable],
        outputs: Sequence[Variable],
        output_grads: Sequence[Variable],
    ) -> list[Variable]:
        from lazygraph.gradient import disconnected_type
        from lazygraph.tensor.control.scan import scan_vjp

        node = self.as_scan(inputs)
        grads = scan_vjp(node.op, node.inputs, node.outputs, output_grads)  # type: ignore[arg-type]
        # the scan's inputs: [length, *init, *params] in this node's order
        return [disconnected_type() if g is None else g for g in grads[1 : 1 + len(inputs)]]


def while_apply(
    init: Sequence[Any],
    carry_in: Sequence[Variable],
    pred: Variable,
    carry_out: Sequence[Variable],
    max_steps: int | None = None,
) -> list[Variable]:
    """The final carries of a ``While`` whose condition is the graph from the
    placeholders ``carry_in`` to ``pred`` and whose body is the graph from them
    to ``carry_out``; what either reads from outside becomes an input."""
    import lazygraph.tensor as lt

    pred = as_tensor_variable(pred)
    if pred.type.ndim != 0 or pred.type.dtype != "bool":  # type: ignore[attr-defined]
        raise TypeError(f"while_loop: cond_fun must return a boolean scalar, got {pred.type}")
    carry_out = [as_tensor_variable(c) for c in carry_out]
    for i, (cin, cout) in enumerate(zip(carry_in, carry_out, strict=True)):
        check_same_type(
            f"while_loop: body_fun's output carry {i} must have the type of its input carry",
            cin,
            cout,
        )
        if cout.type != cin.type:
            carry_out[i] = lt.specify_shape(cout, cin.type.shape)  # type: ignore[attr-defined]
    holders = list(carry_in)
    free = closure(holders, [pred, *carry_out])
    cond = InnerGraph(holders + free, [pred])
    body = InnerGraph(holders + free, carry_out)
    op = While(cond, body, len(holders), max_steps)
    return list(op.make_node(*init, *free).outputs)
