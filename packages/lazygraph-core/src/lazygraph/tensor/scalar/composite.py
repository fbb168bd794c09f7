"""``Composite``: a graph of scalar ops packed into one scalar op, so that
``Elemwise(Composite(...))`` computes a whole elementwise expression in one
node (what the fusion rewrite builds).

>>> import numpy as np
>>> from lazygraph.tensor.scalar.basic import ScalarType, scalar_op
>>> x, y = ScalarType("float64")("x"), ScalarType("float64")("y")
>>> comp = Composite([x, y], [scalar_op("exp")(scalar_op("add")(x, y))])
>>> str(comp), comp.output_dtypes(["float64", "float64"])
('Composite{exp(add(i0, i1))}', ['float64'])
>>> comp.impl([np.array([0.0, 1.0]), np.array(0.0)], ["float64"])[0]
array([1.        , 2.71828183])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from lazygraph.graph.basic import Apply, Constant, Op, Variable
from lazygraph.graph.clone import clone_get_equiv
from lazygraph.graph.traversal import io_toposort
from lazygraph.tensor.scalar.basic import ScalarOp, ScalarType, as_scalar

__all__ = ["Composite"]


class Composite(Op):
    """The scalar subgraph from ``inputs`` to ``outputs`` (variables of
    :class:`ScalarType` built with :class:`ScalarOp` s and nested composites)
    as one scalar op with fixed input dtypes.

    Two composites with the same structure (ops, wiring, constants, dtypes) are
    equal, so merge can share their ``Elemwise`` nodes.
    """

    __props__: ClassVar[tuple[str, ...]] = ("signature",)

    def __init__(
        self, inputs: Sequence[Variable], outputs: Sequence[Variable], *, copy: bool = True
    ) -> None:
        # copy=False: the caller built this scalar graph for this composite alone
        # (the fusion rewrite), so it is adopted as is instead of copied.
        if copy:
            equiv = clone_get_equiv(list(inputs), list(outputs), copy_inputs=True)
            self.inputs = [equiv[v] for v in inputs]
            self.outputs = [equiv[v] for v in outputs]
        else:
            self.inputs, self.outputs = list(inputs), list(outputs)
        self.nodes: list[Apply] = io_toposort(self.inputs, self.outputs)
        for node in self.nodes:
            if not isinstance(node.op, (ScalarOp, Composite)):
                raise TypeError(f"Composite: {node.op} is not a scalar op")
        for v in self.inputs + self.outputs:
            if not isinstance(v.type, ScalarType):
                raise TypeError(f"Composite: {v} is not a scalar variable")
        self.nin = len(self.inputs)
        self.nout = len(self.outputs)
        self.input_dtypes = [v.type.dtype for v in self.inputs]  # type: ignore[attr-defined]
        self.out_dtypes = [v.type.dtype for v in self.outputs]  # type: ignore[attr-defined]
        self.signature, self.name = self._describe()

    def _describe(self) -> tuple[Any, str]:
        ref: dict[Variable, Any] = {v: ("i", k) for k, v in enumerate(self.inputs)}
        text: dict[Variable, str] = {v: f"i{k}" for k, v in enumerate(self.inputs)}
        rows = []
        for n, node in enumerate(self.nodes):
            args = []
            for v in node.inputs:
                if v not in ref:
                    if not isinstance(v, Constant):
                        raise ValueError(f"Composite: {v} is neither an input nor a constant")
                    data = np.asarray(v.data)
                    ref[v] = ("c", data.dtype.str, data.tobytes())
                    text[v] = repr(data.item())
                args.append(ref[v])
            rows.append((node.op, tuple(args)))
            for k, out in enumerate(node.outputs):
                ref[out] = ("n", n, k)
                expr = f"{node.op}({', '.join(text[v] for v in node.inputs)})"
                # abbreviated past a bound, so naming a long chain stays linear
                text[out] = expr if len(expr) <= 160 else f"{node.op}(...)"
                if len(node.outputs) > 1:
                    text[out] += f".{k}"
        for v in self.outputs:
            if v not in ref:
                raise ValueError(f"Composite: output {v} does not depend on the inputs")
        signature = (
            tuple(self.input_dtypes),
            tuple(rows),
            tuple(ref[v] for v in self.outputs),
        )
        return signature, f"Composite{{{', '.join(text[v] for v in self.outputs)}}}"

    def __str__(self) -> str:
        return self.name

    # -- the scalar-op interface Elemwise uses ---------------------------------

    def output_dtypes(self, input_dtypes: Sequence[str]) -> list[str]:
        if list(input_dtypes) != self.input_dtypes:
            raise TypeError(
                f"{self.name}: expects input dtypes ({', '.join(self.input_dtypes)}), "
                f"got ({', '.join(input_dtypes)})"
            )
        return list(self.out_dtypes)

    def convert_weak(self, value: Any, dtype: str, strong_dtypes: Sequence[Any] = ()) -> np.ndarray:
        return np.asarray(value, dtype=dtype)

    def impl(self, inputs: Sequence[np.ndarray], out_dtypes: Sequence[str]) -> list[np.ndarray]:
        """Evaluate the subgraph on whole arrays, one numpy call per inner node."""
        env: dict[Variable, Any] = dict(zip(self.inputs, inputs, strict=True))
        for node in self.nodes:
            args = [v.data if isinstance(v, Constant) else env[v] for v in node.inputs]
            dtypes = [o.type.dtype for o in node.outputs]  # type: ignore[attr-defined]
            for out, value in zip(node.outputs, node.op.impl(args, dtypes), strict=True):  # type: ignore[attr-defined]
                env[out] = value
        results = []
        for v in self.outputs:
            value = np.asarray(v.data if isinstance(v, Constant) else env[v])
            # An output that is an input must still be a fresh array.
            results.append(value.copy() if v in self.inputs else value)
        return results

    def expand(self, inputs: Sequence[Variable]) -> list[Variable]:
        """The same computation on tensor ``inputs``: one ``Elemwise`` node per inner
        node (used to differentiate a composite)."""
        import lazygraph.tensor as lt

        env: dict[Variable, Variable] = dict(zip(self.inputs, inputs, strict=True))
        for node in self.nodes:
            args = [
                lt.constant(np.asarray(v.data)) if isinstance(v, Constant) else env[v]
                for v in node.inputs
            ]
            outs = lt.Elemwise(node.op).make_node(*args).outputs
            env.update(zip(node.outputs, outs, strict=True))
        return [env[v] for v in self.outputs]

    # -- as an Op over scalar variables ----------------------------------------

    def make_node(self, *inputs: Any) -> Apply:
        converted = [as_scalar(x, dtype=d) for x, d in zip(inputs, self.input_dtypes, strict=True)]
        self.output_dtypes([x.type.dtype for x in converted])  # type: ignore[attr-defined]
        return Apply(self, converted, [ScalarType(d)() for d in self.out_dtypes])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        for cell, value in zip(output_storage, self.impl(inputs, self.out_dtypes), strict=True):
            cell[0] = value
