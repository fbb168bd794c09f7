"""The inner graph a control-flow Op holds, and closure conversion.

An :class:`InnerGraph` is a private copy of the graph from its ``inputs`` to
its ``outputs``: every variable it reads is one of its inputs or a (small)
constant. Two inner graphs with the same structure (ops, wiring, constants,
input types) are equal and hash alike, so two loops over equal bodies are
equal Ops and the merge rewrite merges them.

:func:`closure` finds what a traced body reads from outside: the variables
that are neither its placeholders nor computed from them. A control-flow Op
takes those as explicit inputs (``non-sequences``): a value computed outside
the loop is computed once, outside, never per step.

>>> import lazygraph.tensor as lt
>>> c, w = lt.dscalar("c"), lt.dscalar("w")
>>> out = c * lt.exp(w)
>>> closure([c], [out])  # exp(w) does not depend on c: computed outside, once
[Elemwise{exp}.out]
>>> g = InnerGraph([c, w], [c * lt.exp(w)])
>>> g == InnerGraph([c, w], [c * lt.exp(w)]), str(g)
(True, 'Elemwise{multiply}(i0, Elemwise{exp}(i1))')
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from lazygraph.graph.basic import Apply, Constant, Variable
from lazygraph.graph.clone import clone_get_equiv
from lazygraph.graph.traversal import io_toposort

__all__ = ["INLINE_CONSTANT_SIZE", "InnerGraph", "closure", "unaliased"]

#: Constants of at most this many elements stay inside an inner graph (they
#: take part in its rewrites and lower as literals); larger ones become inputs.
INLINE_CONSTANT_SIZE = 16


def _inline(v: Variable) -> bool:
    return isinstance(v, Constant) and np.size(v.data) <= INLINE_CONSTANT_SIZE


def closure(placeholders: Sequence[Variable], outputs: Sequence[Variable]) -> list[Variable]:
    """The outer variables the graph from ``placeholders`` to ``outputs`` reads:
    every variable it uses that does not depend on a placeholder (graph inputs,
    large constants, values computed outside), in first-use order. Small
    constants (:data:`INLINE_CONSTANT_SIZE`) are not listed: they stay inside."""
    inside = set(placeholders)
    order = io_toposort(list(placeholders), list(outputs))
    free: dict[Variable, None] = {}
    for node in order:  # the nodes whose value depends on a placeholder
        if any(v in inside for v in node.inputs):
            inside.update(node.outputs)
    for node in order:
        if not any(o in inside for o in node.outputs):
            continue
        for v in node.inputs:
            if v not in inside and not _inline(v):
                free[v] = None
    for v in outputs:
        if v not in inside and not _inline(v):
            free[v] = None
    return list(free)


class InnerGraph:
    """A copy of the graph from ``inputs`` to ``outputs`` (which must read
    nothing else but small constants: see :func:`closure`).

    ``inputs`` / ``outputs`` are the copy's own variables; :meth:`apply` copies
    the graph again onto other variables (to differentiate it, or to inline
    it). Equality and hash come from :attr:`signature`, the structure.
    """

    def __init__(
        self, inputs: Sequence[Variable], outputs: Sequence[Variable], copy: bool = True
    ) -> None:
        if copy:
            # an input that is a constant (a large one the body reads: see
            # closure) is a placeholder of its type inside: its value comes in
            # from outside, as every input's does
            memo: dict[Any, Any] = {v: v.type() for v in inputs if isinstance(v, Constant)}
            equiv = clone_get_equiv(list(inputs), list(outputs), copy_inputs=True, memo=memo)
            self.inputs: list[Variable] = [equiv[v] for v in inputs]  # type: ignore[misc]
            self.outputs: list[Variable] = [equiv[v] for v in outputs]  # type: ignore[misc]
        else:
            self.inputs, self.outputs = list(inputs), list(outputs)
        self.nodes: list[Apply] = io_toposort(self.inputs, self.outputs)
        self.signature, self.text = self._describe()
        self._hash = hash(self.signature)

    def _describe(self) -> tuple[Any, str]:
        ref: dict[Variable, Any] = {v: ("i", k) for k, v in enumerate(self.inputs)}
        text: dict[Variable, str] = {v: f"i{k}" for k, v in enumerate(self.inputs)}
        rows = []

        def leaf(v: Variable) -> Any:
            if v not in ref:
                if not isinstance(v, Constant):
                    raise ValueError(
                        f"inner graph: {v} is neither an input nor a constant (its value "
                        "comes from outside: pass it as an input; see closure())"
                    )
                ref[v] = ("c", v.signature())
                text[v] = str(v)
            return ref[v]

        for n, node in enumerate(self.nodes):
            args = tuple(leaf(v) for v in node.inputs)
            rows.append((node.op, args))
            for k, out in enumerate(node.outputs):
                ref[out] = ("n", n, k)
                expr = f"{node.op}({', '.join(text[v] for v in node.inputs)})"
                text[out] = expr if len(expr) <= 120 else f"{node.op}(...)"
                if len(node.outputs) > 1:
                    text[out] += f".{k}"
        outs = tuple(leaf(v) for v in self.outputs)
        signature = (tuple(v.type for v in self.inputs), tuple(rows), outs)
        return signature, ", ".join(text[v] for v in self.outputs)

    def __eq__(self, other: object) -> bool:
        return self is other or (
            type(other) is type(self)
            and self._hash == other._hash  # type: ignore[attr-defined]
            and self.signature == other.signature  # type: ignore[attr-defined]
        )

    def __hash__(self) -> int:
        return self._hash

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"InnerGraph({self.text})"

    def __getstate__(self) -> dict[str, Any]:
        return {"inputs": self.inputs, "outputs": self.outputs}

    def __setstate__(self, state: dict[str, Any]) -> None:
        self.__init__(state["inputs"], state["outputs"], copy=False)  # type: ignore[misc]

    def apply(self, inputs: Sequence[Variable]) -> list[Variable]:
        """The outputs of a new copy of this graph reading ``inputs`` (variables
        of the inner inputs' types) instead of its own inputs."""
        if len(inputs) != len(self.inputs):
            raise ValueError(f"inner graph takes {len(self.inputs)} inputs, {len(inputs)} given")
        memo: dict[Any, Any] = dict(zip(self.inputs, inputs, strict=True))
        equiv = clone_get_equiv(self.inputs, self.outputs, copy_inputs=False, memo=memo)
        return [equiv[v] for v in self.outputs]  # type: ignore[misc]

    def fresh_inputs(self) -> list[Variable]:
        """New ownerless variables of the inner inputs' types."""
        return [v.type() for v in self.inputs]

    def python_function(self) -> Callable[..., list[Any]]:
        """The graph compiled once with the python backend (rewritten as
        ``lazygraph.function`` rewrites), as a callable taking the input values
        in order and returning the list of output values, unchecked."""
        fn = self.__dict__.get("_python_fn")
        if fn is None:
            from lazygraph.compile.function import function
            from lazygraph.compile.mode import Mode

            compiled = function(self.inputs, self.outputs, mode=Mode(backend="python"))
            fn = self.__dict__["_python_fn"] = compiled.fn
        return fn  # type: ignore[no-any-return]


def unaliased(values: Sequence[Any], inputs: Sequence[Any]) -> list[Any]:
    """``values`` (a loop's final carries), each one that may share memory with
    one of ``inputs`` or with an earlier value copied: the loop Ops declare no
    views, so an in-place node downstream may overwrite their outputs."""
    out: list[Any] = []
    for value in values:
        if any(np.may_share_memory(value, other) for other in (*inputs, *out)):
            value = value.copy()
        out.append(value)
    return out


def check_same_type(what: str, expected: Variable, got: Variable) -> None:
    """``TypeError`` unless ``got`` has ``expected``'s dtype and rank and no
    static size that contradicts it (JAX's rule for loop carries and branches)."""
    et, gt = expected.type, got.type
    e_dtype, g_dtype = getattr(et, "dtype", None), getattr(gt, "dtype", None)
    e_shape, g_shape = getattr(et, "shape", None), getattr(gt, "shape", None)
    ok = e_dtype == g_dtype and e_shape is not None and g_shape is not None
    ok = ok and len(e_shape) == len(g_shape)  # type: ignore[arg-type]
    if ok:
        ok = all(
            a is None or b is None or a == b
            for a, b in zip(e_shape, g_shape, strict=True)  # type: ignore[arg-type]
        )
    if not ok:
        raise TypeError(f"{what}: expected {_type_text(et)}, got {_type_text(gt)}")


def _type_text(t: Any) -> str:
    shape = getattr(t, "shape", None)
    if shape is None:
        return str(t)
    dims = ", ".join("?" if s is None else str(s) for s in shape)
    return f"{t.dtype}[{dims}]"
