"""``Scan``: a loop over a leading axis, with carries, as one node.

A ``Scan`` node's inputs are ``[length, *init, *xs, *params]``: the number of
steps (a 0-d integer), the initial carries, the sequences (each with
``length`` rows) and the non-sequences (values the body reads from outside:
see :func:`~lazygraph.tensor.control.inner.closure`). Its inner graph maps
``[*carries, *x_rows, *params]`` to ``[*new_carries, *y_rows]``; the node's
outputs are ``[*final_carries, *ys]``, each ``ys`` the rows of all steps
stacked (``length`` rows). With ``reverse=True`` the steps run from the last
row to the first, and ``ys[t]`` still belongs to row ``t`` (as in
``jax.lax.scan``).

Reverse mode differentiates a scan with another scan, run the other way over
the carries the forward pass saved; the gradients of the non-sequences are
carried along and summed.

>>> import numpy as np
>>> import lazygraph.tensor as lt
>>> c, x = lt.dscalar("c"), lt.dscalar("x")
>>> xs = lt.dvector("xs")
>>> total, partial = scan_apply(xs.shape[0], [lt.constant(0.0)], [xs], [c], [x], [c + x], [c + x])
>>> partial.eval({xs: np.arange(1.0, 5.0)})
array([ 1.,  3.,  6., 10.])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from lazygraph.graph.basic import Apply, Constant, Op, Variable
from lazygraph.tensor.control.inner import InnerGraph, check_same_type, closure, unaliased
from lazygraph.tensor.type import TensorType
from lazygraph.tensor.variable import as_tensor_variable

__all__ = ["Scan", "scan_apply"]


def _is_float(v: Variable) -> bool:
    t = v.type
    return isinstance(t, TensorType) and t.numpy_dtype.kind in "fc"


def as_length(length: Any, who: str) -> Variable:
    """The number of steps as a 0-d int64 variable (``TypeError`` otherwise)."""
    import lazygraph.tensor as lt

    var = as_tensor_variable(length)
    if var.type.ndim != 0 or var.type.numpy_dtype.kind not in "iu":  # type: ignore[attr-defined]
        raise TypeError(f"{who}: length must be a 0-d integer, got {var.type}")
    return var if var.type.dtype == "int64" else lt.cast(var, "int64")  # type: ignore[attr-defined]


def static_length(length: Variable) -> int | None:
    if isinstance(length, Constant):
        return int(np.asarray(length.data))
    return None


def check_sequence(who: str, row: Variable, seq: Variable) -> None:
    """``TypeError`` unless ``seq`` can hold rows like ``row`` (dtype, rank, sizes)."""
    rt, st = row.type, seq.type
    ok = isinstance(st, TensorType) and isinstance(rt, TensorType)
    ok = ok and st.dtype == rt.dtype and st.ndim == rt.ndim + 1  # type: ignore[union-attr]
    if ok:
        ok = all(
            a is None or b is None or a == b
            for a, b in zip(rt.shape, st.shape[1:], strict=True)  # type: ignore[union-attr]
        )
    if not ok:
        raise TypeError(f"{who}: expected rows of {rt}, got the sequence {st}")


class Scan(Op):
    """A loop of ``length`` steps over an :class:`InnerGraph` (see the module
    docstring for the inputs and outputs). ``n_carry`` carries, ``n_seq``
    sequences; the remaining inner inputs are non-sequences and the remaining
    inner outputs are the per-step outputs ``ys``."""

    __props__: ClassVar[tuple[str, ...]] = ("inner", "n_carry", "n_seq", "reverse")
    #: the python perform interprets the body step by step, far slower than
    #: compiling the loop: a compiling backend never runs it while it compiles
    slow_perform: ClassVar[bool] = True

    def __init__(self, inner: InnerGraph, n_carry: int, n_seq: int, reverse: bool = False) -> None:
        if n_carry + n_seq > len(inner.inputs) or n_carry > len(inner.outputs):
            raise ValueError("Scan: the inner graph has too few inputs or outputs")
        self.inner = inner
        self.n_carry = int(n_carry)
        self.n_seq = int(n_seq)
        self.reverse = bool(reverse)
        self.n_ys = len(inner.outputs) - self.n_carry
        self.n_params = len(inner.inputs) - self.n_carry - self.n_seq
        for i in range(self.n_carry):
            check_same_type(
                f"scan: the body's output carry {i} must have the type of its input carry",
                inner.inputs[i],
                inner.outputs[i],
            )

    def __str__(self) -> str:
        order = "reverse, " if self.reverse else ""
        return f"Scan{{{order}carries={self.n_carry}, xs={self.n_seq}, ys={self.n_ys}}}"

    def do_constant_folding(self, fgraph: Any, node: Apply) -> bool:
        return False  # a loop is work: never run one while compiling

    def make_node(self, length: Any, *args: Any) -> Apply:
        nc, ns = self.n_carry, self.n_seq
        expected = nc + ns + self.n_params
        if len(args) != expected:
            raise TypeError(f"{self}: takes {expected} inputs after length, {len(args)} given")
        length = as_length(length, "scan")
        args = tuple(as_tensor_variable(a) for a in args)
        inner_in = self.inner.inputs
        for i in range(nc):
            check_same_type(f"scan: initial carry {i}", inner_in[i], args[i])
        for j in range(ns):
            check_sequence(f"scan: sequence {j}", inner_in[nc + j], args[nc + j])
        for k in range(nc + ns, expected):
            check_same_type(f"scan: non-sequence {k - nc - ns}", inner_in[k], args[k])
        steps = static_length(length)
        if steps is None:
            steps = next(
                (x.type.shape[0] for x in args[nc : nc + ns] if x.type.shape[0] is not None), None
            )  # type: ignore[attr-defined]
        for j in range(ns):
            rows = args[nc + j].type.shape[0]  # type: ignore[attr-defined]
            if steps is not None and rows is not None and rows != steps:
                raise ValueError(f"scan: sequence {j} has {rows} rows for {steps} steps")
        outputs = [inner_in[i].type() for i in range(nc)]
        for y in self.inner.outputs[nc:]:
            yt: TensorType = y.type  # type: ignore[assignment]
            outputs.append(TensorType(yt.dtype, (steps, *yt.shape))())
        return Apply(self, [length, *args], outputs)

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        nc, ns = self.n_carry, self.n_seq
        length = int(inputs[0])
        if length < 0:
            raise ValueError(f"scan: length must be non-negative, got {length}")
        carries = list(inputs[1 : 1 + nc])
        xs = inputs[1 + nc : 1 + nc + ns]
        params = list(inputs[1 + nc + ns :])
        for j, x in enumerate(xs):
            if x.shape[0] != length:
                raise ValueError(f"scan: sequence {j} has {x.shape[0]} rows for {length} steps")
        fn = self.inner.python_function()
        shapes = [np.shape(c) for c in carries]
        ys: list[Any] = [None] * self.n_ys
        steps = range(length - 1, -1, -1) if self.reverse else range(length)
        for t in steps:
            outs = fn(*carries, *[x[t] for x in xs], *params)
            carries = outs[:nc]
            for i, (c, shape) in enumerate(zip(carries, shapes, strict=True)):
                if np.shape(c) != shape:
                    raise ValueError(
                        f"scan: the body changed the shape of carry {i} from {shape} to "
                        f"{np.shape(c)}"
                    )
            for k in range(self.n_ys):
                y = outs[nc + k]
                if ys[k] is None:
                    ys[k] = np.empty((length, *np.shape(y)), dtype=node.outputs[nc + k].dtype)  # type: ignore[attr-defined]
                ys[k][t] = y
        for k in range(self.n_ys):
            if ys[k] is None:  # no steps: the rows' static shape says what is empty
                yt = self.inner.outputs[nc + k].type
                if any(s is None for s in yt.shape):  # type: ignore[attr-defined]
                    raise ValueError(
                        f"scan: with 0 steps the shape of output {k} is unknown ({yt})"
                    )
                ys[k] = np.empty((0, *yt.shape), dtype=yt.dtype)  # type: ignore[attr-defined]
        for i, value in enumerate(unaliased(carries, inputs[1:])):
            output_storage[i][0] = value
        for k in range(self.n_ys):
            output_storage[nc + k][0] = ys[k]

    def infer_shape(self, fgraph: Any, node: Apply, input_shapes: Sequence[Any]) -> list[Any]:
        nc = self.n_carry
        shapes = [tuple(input_shapes[1 + i]) for i in range(nc)]
        steps = static_length(node.inputs[0])
        length: Any = steps if steps is not None else node.inputs[0]
        for k in range(self.n_ys):
            rows = self.inner.outputs[nc + k].type.shape  # type: ignore[attr-defined]
            if any(s is None for s in rows):
                raise NotImplementedError(
                    "scan: an output's rows have sizes known only at run time"
                )
            shapes.append((length, *rows))
        return shapes

    def L_op(
        self,
        inputs: Sequence[Variable],
        outputs: Sequence[Variable],
        output_grads: Sequence[Variable],
    ) -> list[Variable]:
        from lazygraph.gradient import disconnected_type

        grads = scan_vjp(self, inputs, outputs, output_grads)
        return [disconnected_type() if g is None else g for g in grads]


def scan_vjp(
    op: Scan,
    inputs: Sequence[Variable],
    outputs: Sequence[Variable],
    output_grads: Sequence[Variable],
) -> list[Variable | None]:
    """The gradient of each input of a ``Scan`` node (None: none, e.g. an integer
    input): a scan run the other way over the carries a second forward scan
    saves (the carry entering each step)."""
    import lazygraph.tensor as lt
    from lazygraph.gradient import grad

    nc, ns, ny = op.n_carry, op.n_seq, op.n_ys
    length, init = inputs[0], list(inputs[1 : 1 + nc])
    xs, params = list(inputs[1 + nc : 1 + nc + ns]), list(inputs[1 + nc + ns :])
    inner = op.inner
    # the forward pass again, saving the carry that enters each step
    saving = Scan(InnerGraph(inner.inputs, inner.outputs + inner.inputs[:nc]), nc, ns, op.reverse)
    saved = saving.make_node(*inputs).outputs[nc + ny :]

    fc = [i for i in range(nc) if _is_float(init[i])]
    fx = [j for j in range(ns) if _is_float(xs[j])]
    fp = [k for k in range(len(params)) if _is_float(params[k])]
    fy = [k for k in range(ny) if _is_float(outputs[nc + k])]
    # one step of the body, on fresh placeholders, and its VJP
    c_t, x_t, p_t = (
        [v.type() for v in inner.inputs[:nc]],
        [v.type() for v in inner.inputs[nc : nc + ns]],
        [v.type() for v in inner.inputs[nc + ns :]],
    )
    outs = inner.apply(c_t + x_t + p_t)
    g_carry = [c_t[i].type() for i in fc]
    g_param_sum = [p_t[k].type() for k in fp]
    g_y = []
    for k in fy:
        gt: TensorType = output_grads[nc + k].type  # type: ignore[assignment]
        g_y.append(TensorType(outs[nc + k].type.dtype, gt.shape[1:])())  # type: ignore[attr-defined]
    known: dict[Variable, Variable] = {}
    for var, g in [
        *((outs[i], gc) for i, gc in zip(fc, g_carry, strict=True)),
        *((outs[nc + k], gy) for k, gy in zip(fy, g_y, strict=True)),
    ]:
        known[var] = known[var] + g if var in known else g
    wrt = [c_t[i] for i in fc] + [x_t[j] for j in fx] + [p_t[k] for k in fp]
    if known and wrt:
        step = grad(
            None, wrt, known_grads=known, disconnected_inputs="ignore", return_disconnected="zero"
        )
    else:
        from lazygraph.gradient._build import float_zeros_like

        step = [float_zeros_like(w) for w in wrt]
    d_c, d_x, d_p = step[: len(fc)], step[len(fc) : len(fc) + len(fx)], step[len(fc) + len(fx) :]
    new_sums = [s + d for s, d in zip(g_param_sum, d_p, strict=True)]

    results = scan_apply(
        length,
        [output_grads[i] for i in fc] + [lt.zeros_like(params[k]) for k in fp],
        saved + xs + [output_grads[nc + k] for k in fy],
        carry_in=g_carry + g_param_sum,
        x_in=c_t + x_t + g_y,
        carry_out=d_c + new_sums,
        ys_out=d_x,
        reverse=not op.reverse,
        params=list(zip(p_t, params, strict=True)),
    )
    g_init = dict(zip(fc, results[: len(fc)], strict=True))
    g_params = dict(zip(fp, results[len(fc) : len(fc) + len(fp)], strict=True))
    g_xs = dict(zip(fx, results[len(fc) + len(fp) :], strict=True))
    return [
        None,
        *(g_init.get(i) for i in range(nc)),
        *(g_xs.get(j) for j in range(ns)),
        *(g_params.get(k) for k in range(len(params))),
    ]


def scan_apply(
    length: Any,
    init: Sequence[Any],
    xs: Sequence[Any],
    carry_in: Sequence[Variable],
    x_in: Sequence[Variable],
    carry_out: Sequence[Variable],
    ys_out: Sequence[Variable],
    reverse: bool = False,
    params: Sequence[tuple[Variable, Variable]] = (),
) -> list[Variable]:
    """The outputs ``[*final_carries, *ys]`` of a ``Scan`` whose body is the
    graph from the placeholders ``carry_in`` (one per carry) and ``x_in`` (one
    row of each sequence) to ``carry_out`` and ``ys_out``. ``params`` pairs
    more placeholders with the outer values they stand for; whatever else the
    body reads from outside becomes a non-sequence input too.

    A carry the body returns with sizes it cannot know statically is checked
    (``specify_shape``) to keep the input carry's static sizes.
    """
    import lazygraph.tensor as lt

    carry_out = list(carry_out)
    for i, (cin, cout) in enumerate(zip(carry_in, carry_out, strict=True)):
        cout = as_tensor_variable(cout)
        check_same_type(
            f"scan: the body's output carry {i} must have the type of its input carry", cin, cout
        )
        if cout.type != cin.type:
            cout = lt.specify_shape(cout, cin.type.shape)  # type: ignore[attr-defined]
        carry_out[i] = cout
    outs = carry_out + [as_tensor_variable(y) for y in ys_out]
    holders = [*carry_in, *x_in, *(p for p, _ in params)]
    free = closure(holders, outs)
    inner = InnerGraph(holders + free, outs)
    op = Scan(inner, len(carry_in), len(x_in), reverse)
    node = op.make_node(length, *init, *xs, *(v for _, v in params), *free)
    return list(node.outputs)
