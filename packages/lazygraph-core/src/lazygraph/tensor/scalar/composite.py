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
from lazygraph.tensor.fperrors import quiet
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
        self._steps = self._plan_steps()

    def _plan_steps(self) -> list[tuple[Any, list[Variable]]]:
        """Per inner node: ``(reuse, dead)``. ``reuse`` is ``(ufunc, dtype, slots)``
        when the node is a plain ufunc call (:meth:`ScalarOp.plain_ufunc`) whose
        loop yields its output ``dtype`` and some of its inputs (``slots``) are
        fresh ufunc results of that dtype that no later node reads: :meth:`impl`
        then writes the result into one of them (``out=``), as numpy's own
        temporary elision does for ``a + b + c``, instead of allocating; else
        None. ``dead``: the intermediates no later node reads (dropped then)."""
        keep = set(self.inputs) | set(self.outputs)
        last: dict[Variable, int] = {}
        for k, node in enumerate(self.nodes):
            for v in node.inputs:
                last[v] = k
        fresh: set[Variable] = set()  # outputs of plain ufunc calls: owned buffers
        steps: list[tuple[Any, list[Variable]]] = []
        for k, node in enumerate(self.nodes):
            dead = [
                v
                for v in dict.fromkeys(node.inputs)
                if last[v] == k and v not in keep and not isinstance(v, Constant)
            ]
            op = node.op
            reuse = None
            ufunc = None
            if isinstance(op, ScalarOp) and len(node.outputs) == 1:
                dtypes = [np.dtype(v.type.dtype) for v in node.inputs]  # type: ignore[attr-defined]
                ufunc = op.plain_ufunc(dtypes)
            if ufunc is None:
                # impl may return a view of an input (real, imag of a complex
                # array): writing into that input later would change it
                fresh.difference_update(node.inputs)
            else:
                target = np.dtype(node.outputs[0].type.dtype)  # type: ignore[attr-defined]
                fresh.add(node.outputs[0])
                try:
                    loop = ufunc.resolve_dtypes((*dtypes, None))[-1]
                except (TypeError, ValueError):  # pragma: no cover - no such loop
                    loop = None
                slots = [
                    i
                    for i, v in enumerate(node.inputs)
                    if v in fresh and v in dead and np.dtype(v.type.dtype) == target  # type: ignore[attr-defined]
                ]
                if loop == target and slots:
                    reuse = (ufunc, target, slots)
            steps.append((reuse, dead))
        return steps

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
        for node, (reuse, dead) in zip(self.nodes, self._steps, strict=True):
            args = [v.data if isinstance(v, Constant) else env[v] for v in node.inputs]
            buffer = None if reuse is None else _buffer(args, reuse)
            if buffer is not None:  # the same ufunc loop, into a dead temporary
                with quiet():
                    reuse[0](*args, out=buffer)
                env[node.outputs[0]] = buffer
            else:
                dtypes = [o.type.dtype for o in node.outputs]  # type: ignore[attr-defined]
                for out, value in zip(node.outputs, node.op.impl(args, dtypes), strict=True):  # type: ignore[attr-defined]
                    env[out] = value
            for v in dead:
                del env[v]
        results = []
        for v in self.outputs:
            value = np.asarray(v.data if isinstance(v, Constant) else env[v])
            # An output that is an input must still be a fresh array.
            results.append(value.copy() if v in self.inputs else value)
        return results

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__dict__.update(state)
        if "_steps" not in state:  # (pickled before steps were planned)
            self._steps = self._plan_steps()

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


def _buffer(args: list[Any], reuse: tuple[Any, np.dtype[Any], list[int]]) -> np.ndarray | None:
    """A dead temporary among ``args`` (at ``reuse``'s slots) that the ufunc's
    result can be written into: an array of the result's dtype and shape (every
    other operand is 0-d or of its shape) that owns its memory."""
    _, target, slots = reuse
    for i in slots:
        buf = args[i]
        if type(buf) is not np.ndarray or buf.dtype != target or buf.ndim == 0:
            continue
        if not (buf.flags.owndata and buf.flags.writeable):
            continue
        shape = buf.shape
        if all(getattr(a, "shape", ()) in ((), shape) for a in args):
            return buf
    return None
