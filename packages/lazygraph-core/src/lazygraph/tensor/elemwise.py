"""``Elemwise``: a scalar op broadcast over arrays with numpy's rules, and
``SumToShape`` (a gradient summed back to its input's shape). The elementwise
functions themselves (``add``, ``exp``...) are in :mod:`lazygraph.tensor.math`
and :mod:`lazygraph.tensor.math_binary`; ``DimShuffle`` and the axis
functions (``transpose``, ``expand_dims``...) in
:mod:`lazygraph.tensor.dimshuffle`.

>>> import lazygraph.tensor as lt
>>> x, y = lt.tensor("float32", (None, 3)), lt.tensor("int8", (1, 3))
>>> z = Elemwise(lt.scalar_op("add"))(x, y)
>>> z.type
TensorType(float32, shape=(?, 3))
"""

from __future__ import annotations

import contextlib
import functools
import math
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

import numpy as np

from lazygraph.graph.basic import Apply, Constant, Op, Variable
from lazygraph.tensor.dtypes import is_weak_scalar
from lazygraph.tensor.fperrors import quiet
from lazygraph.tensor.scalar import CATEGORIES, Composite, ScalarOp, scalar_op
from lazygraph.tensor.type import TensorType
from lazygraph.tensor.variable import TensorVariable, as_tensor_variable, constant

__all__ = [
    "Elemwise",
    "SumToShape",
    "broadcast_static_shape",
    "scalar_op",
]


def _shape_str(shape: Sequence[int | None]) -> str:
    inner = ", ".join("?" if s is None else str(s) for s in shape)
    return f"({inner}{',' if len(shape) == 1 else ''})"


def broadcast_static_shape(name: str, shapes: Sequence[Sequence[int | None]]) -> tuple[Any, ...]:
    """The broadcast of static shapes (``None``: unknown), or numpy's ``ValueError``
    naming the op and every shape when two known sizes clash."""
    ndim = max((len(s) for s in shapes), default=0)
    padded = [(1,) * (ndim - len(s)) + tuple(s) for s in shapes]
    out: list[int | None] = []
    for dims in zip(*padded, strict=True):
        known = {d for d in dims if d is not None and d != 1}
        if len(known) > 1:
            raise ValueError(
                f"{name}: operands could not be broadcast together with shapes "
                + " ".join(_shape_str(s) for s in shapes)
            )
        if known:
            out.append(known.pop())
        elif all(d == 1 for d in dims):
            out.append(1)
        else:
            out.append(None)  # a None that may be 1 (broadcast) or 0 at run time
    return tuple(out)


def _is_int(s: Any) -> bool:
    return isinstance(s, (int, np.integer))


def _elemwise_inputs(op: Any, raw: Sequence[Any]) -> list[TensorVariable]:
    """Inputs as tensor variables, with Python scalars converted as numpy 2 does
    (NEP 50): a weak scalar takes the dtype its promotion group would have."""
    converted: list[Any] = [None if is_weak_scalar(x) else as_tensor_variable(x) for x in raw]
    for i, (target, strong) in _weak_targets(op, raw, converted).items():
        converted[i] = constant(op.convert_weak(raw[i], target, strong))
    return converted


def _weak_targets(
    op: Any, raw: Sequence[Any], converted: Sequence[TensorVariable | None]
) -> dict[int, tuple[str, list[np.dtype]]]:
    """For each Python scalar operand (None in ``converted``): the dtype it
    converts to and the dtypes of the arrays in its promotion group."""
    targets: dict[int, tuple[str, list[np.dtype]]] = {}
    if all(c is not None for c in converted):
        return targets
    groups: list[tuple[int, ...]]
    if isinstance(op, ScalarOp):
        promoted = op.row.promoted_inputs()
        groups = [promoted] + [(i,) for i in range(len(raw)) if i not in promoted]
    else:
        groups = [(i,) for i in range(len(raw))]
    for group in groups:
        strong = [converted[i].type.numpy_dtype for i in group if converted[i] is not None]
        for i in group:
            if converted[i] is not None:
                continue
            if isinstance(op, Composite):
                target = op.input_dtypes[i]
            elif isinstance(op, ScalarOp) and group is not groups[0] and op.row.promote is not None:
                # outside the promotion group (ldexp's exponent): its own dtype,
                # a C int for an integer as numpy's loops take it
                # (once the promoted operands are of a type it takes: numpy's
                # TypeError for a complex x comes first)
                exponent = type(raw[i]) is int and op.row.others != "all"
                if exponent and _first_group_refused(op, converted, groups[0]):
                    exponent = False
                target = "int32" if exponent else np.result_type(*strong, raw[i]).name
            else:
                beside = any(
                    c is not None and c.type.dtype == "bool"
                    for j, c in enumerate(converted)
                    if j not in group
                )
                target = op.weak_dtype(strong, raw[i], beside)
            targets[i] = (target, strong)
    return targets


def _first_group_refused(
    op: ScalarOp, converted: Sequence[TensorVariable | None], group: tuple[int, ...]
) -> bool:
    strong = [converted[i].type.dtype for i in group if converted[i] is not None]
    return bool(strong) and np.result_type(*strong).name not in CATEGORIES[op.row.accepts]


_FLIPPED = {
    "less": "greater",
    "less_equal": "greater_equal",
    "greater": "less",
    "greater_equal": "less_equal",
    "equal": "equal",
    "not_equal": "not_equal",
}
# x OP v for a Python int v above (below) the range of x's integer dtype has a
# constant answer, which numpy 2 gives; x OP' max (min) gives the same answer.
_ABOVE = {
    "less": "less_equal",  # always True  == x <= max
    "less_equal": "less_equal",
    "not_equal": "less_equal",
    "greater": "greater",  # always False == x > max
    "greater_equal": "greater",
    "equal": "greater",
}
_BELOW = {
    "less": "less",  # always False == x < min
    "less_equal": "less",
    "equal": "less",
    "greater": "greater_equal",  # always True == x >= min
    "greater_equal": "greater_equal",
    "not_equal": "greater_equal",
}


def exact_int_comparison(name: str, x: Any, y: Any) -> tuple[str, Any, Any]:
    """The comparison ``name(x, y)`` rewritten so that a Python int operand out of
    the range of the other operand's integer dtype compares exactly, as numpy 2
    does (``int8_x < 1000`` is all True), instead of overflowing."""
    if is_weak_scalar(x) and not is_weak_scalar(y):
        name, x, y = _FLIPPED[name], y, x
    if type(y) is int and not is_weak_scalar(x):
        x = as_tensor_variable(x)
        if x.type.numpy_dtype.kind in "iu":
            info = np.iinfo(x.type.numpy_dtype)
            if y > info.max:
                name, y = _ABOVE[name], int(info.max)
            elif y < info.min:
                name, y = _BELOW[name], int(info.min)
    return name, x, y


# -- gradient helpers (lazygraph.gradient imports lazygraph.tensor: reach it at
# call time) --------------------------------------------------------------------


def _disconnected() -> Variable:
    """The gradient of an input that cannot have one (integers, bools)."""
    from lazygraph.gradient import disconnected_type

    return disconnected_type()  # type: ignore[no-any-return]


def _is_disconnected(v: Any) -> bool:
    from lazygraph.gradient import is_disconnected

    return v is None or bool(is_disconnected(v))


def _as_grad_dtype(g: Variable, dtype: str) -> Variable:
    from lazygraph.gradient._build import as_grad_dtype

    return as_grad_dtype(g, dtype)


def _as_complex_operands(op: Elemwise, inputs: Sequence[Any], outputs: Sequence[Any]) -> list:
    """``inputs`` for evaluating a row's derivative: when the output is complex,
    the real operands of the promoted group in the output's dtype (so that, e.g.,
    ``d/dy x**y = x**y log(x)`` at a negative real ``x`` is the complex log, as
    numpy computes ``x**y`` itself), constants staying constants."""
    dtype = outputs[0].type.dtype
    if np.dtype(dtype).kind != "c":
        return list(inputs)
    promoted = op.scalar_op.row.promoted_inputs()  # type: ignore[union-attr]
    args = list(inputs)
    for i in promoted:
        x = args[i]
        if x.type.numpy_dtype.kind == "c":
            continue
        if isinstance(x, Constant):
            args[i] = constant(np.asarray(x.data).astype(dtype))
        else:
            args[i] = _cast(x, dtype)
    return args


def _fill(shape_of: Variable, value: Any) -> TensorVariable:
    """``value`` broadcast to the shape of ``broadcast(shape_of, value)`` (Theano's fill)."""
    return Elemwise(scalar_op("second"))(shape_of, value)  # type: ignore[no-any-return]


def _zeros_like(x: Variable, dtype: str | None = None) -> TensorVariable:
    return _fill(x, constant(0, dtype=dtype or x.type.dtype))  # type: ignore[attr-defined]


def _cast(x: Variable, dtype: str) -> TensorVariable:
    x = as_tensor_variable(x)
    if x.type.dtype == dtype:
        return x
    return Elemwise(scalar_op("cast", dtype))(x)  # type: ignore[no-any-return]


def _sum_to_shape(g: Variable, x: Variable, operands: Sequence[Variable]) -> TensorVariable:
    """``g`` (the shape of the broadcast of ``operands``, of which ``x`` is one)
    summed back to ``x``'s shape: the reduction every broadcasting op's gradient
    needs. Skipped when no axis of ``x`` can have been broadcast."""
    g = as_tensor_variable(g)
    xs = x.type.shape  # type: ignore[attr-defined]
    ndim = max([len(xs), g.type.ndim] + [v.type.ndim for v in operands])  # type: ignore[attr-defined]
    others = [
        (1,) * (ndim - v.type.ndim) + tuple(v.type.shape)  # type: ignore[attr-defined]
        for v in operands
        if v is not x
    ]

    def cannot_broadcast(k: int) -> bool:
        # x's size is known not to be 1, or every other operand has size 1 there
        size = xs[k]
        return (_is_int(size) and size != 1) or all(o[ndim - len(xs) + k] == 1 for o in others)

    if g.type.ndim == len(xs) == ndim and all(cannot_broadcast(k) for k in range(len(xs))):
        return g
    return SumToShape()(g, x)  # type: ignore[no-any-return]


class SumToShape(Op):
    """``g`` summed over the axes along which ``x`` was broadcast to make it (the
    leading axes ``x`` lacks, and the size-1 axes of ``x`` where ``g`` is larger).

    ``x`` supplies only its run-time shape (sizes unknown at build time may turn out
    to be 1). The result may be ``g`` itself, hence the ``view_map``.
    """

    __props__: ClassVar[tuple[str, ...]] = ()
    view_map: ClassVar[dict[int, list[int]]] = {0: [0]}  # type: ignore[misc]

    def make_node(self, g: Any, x: Any) -> Apply:
        g, x = as_tensor_variable(g), as_tensor_variable(x)
        if g.ndim < x.ndim:
            raise ValueError(f"SumToShape: {g.type} has fewer dimensions than {x.type}")
        broadcast_static_shape("SumToShape", [g.type.shape, x.type.shape])
        return Apply(self, [g, x], [TensorType(g.dtype, x.type.shape)()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        g, x = inputs
        lead = g.ndim - x.ndim
        axes = tuple(range(lead)) + tuple(
            lead + i for i, n in enumerate(x.shape) if n == 1 and g.shape[lead + i] != 1
        )
        result = g.sum(axis=axes, keepdims=True) if axes else g
        output_storage[0][0] = np.asarray(result).reshape(x.shape)

    def infer_shape(self, fgraph: Any, node: Apply, input_shapes: Sequence[Any]) -> list[Any]:
        return [tuple(input_shapes[1])]

    def connection_pattern(self, node: Apply) -> list[list[bool]]:
        return [[True], [False]]

    def L_op(self, inputs: Sequence[Any], outputs: Sequence[Any], output_grads: Any) -> list[Any]:
        return [_fill(inputs[0], output_grads[0]), _disconnected()]

    def R_op(self, inputs: Sequence[Any], eval_points: Sequence[Any]) -> list[Any]:
        if eval_points[0] is None:
            return [None]
        return [self(eval_points[0], inputs[1])]


# -- Elemwise -------------------------------------------------------------------


@functools.lru_cache(maxsize=4096)
def _ufunc_out_dtype(fn: np.ufunc, dtypes: tuple[np.dtype, ...]) -> np.dtype | None:
    """The output dtype of ``fn``'s loop for these input dtypes (None: no loop)."""
    try:
        return fn.resolve_dtypes((*dtypes, None))[-1]
    except (TypeError, ValueError):
        return None


#: Input signatures remembered per Elemwise op, the oldest dropped first beyond
#: it (a program meets a handful of signatures per op; one whose arrays change
#: shape meets new ones all along).
_PLANS_PER_OP = 256
_CONSTANTS_PER_PLAN = 64
_WEAK_TYPES = (bool, int, float, complex)
_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1


def _signature(inputs: Sequence[Any]) -> tuple[Any, ...] | None:
    """What the output types of an Elemwise node depend on: the input variables'
    types, and for a Python scalar its class (a Python int only within int64,
    where numpy's promotion does not look at its value). None: no shortcut."""
    key = []
    for x in inputs:
        if isinstance(x, TensorVariable):
            key.append(x.type)
        elif type(x) in _WEAK_TYPES:
            if type(x) is int and not _INT64_MIN <= x <= _INT64_MAX:
                return None
            key.append(type(x))
        else:
            return None
    return tuple(key)


def _value_key(value: bool | int | float | complex) -> Any:
    """A dict key telling apart the scalars numpy tells apart: ``0.0 == -0.0``
    and hash alike, so a float's sign (a complex's two signs) is part of its key."""
    if type(value) is float:
        return (value, math.copysign(1.0, value))
    if type(value) is complex:
        return (value, math.copysign(1.0, value.real), math.copysign(1.0, value.imag))
    return value


class _Plan:
    """The typing of one Elemwise input signature: the output types, and for
    each Python scalar operand the dtype it converts to (with the dtypes of its
    promotion group, which numpy's conversion rules read), its constant's type,
    and the constants made so far by value (``x * 2`` in a loop makes one)."""

    __slots__ = ("out_types", "weak")

    def __init__(self, op: Any, raw: Sequence[Any], out_types: list[TensorType]) -> None:
        self.out_types = out_types
        converted = [x if isinstance(x, TensorVariable) else None for x in raw]
        self.weak = [
            (i, op, target, strong, TensorType(target, ()), {})
            for i, (target, strong) in _weak_targets(op, raw, converted).items()
        ]

    def inputs(self, raw: Sequence[Any]) -> list[Any]:
        tensors = list(raw)
        for i, op, target, strong, ctype, made in self.weak:
            value = raw[i]
            key = _value_key(value)
            const = made.get(key)
            if const is None:
                data = op.convert_weak(value, target, strong)
                data.flags.writeable = False  # new: the constant needs no copy
                const = ctype.make_constant(data)
                if len(made) < _CONSTANTS_PER_PLAN:
                    made[key] = const
            tensors[i] = const
        return tensors

    def values(self, raw: Sequence[Any]) -> tuple[list[Any], list[Any]]:
        """``raw`` with each Python scalar converted as :meth:`inputs` converts it
        (without making a constant), and the converted scalars."""
        values = list(raw)
        scalars = []
        for i, op, target, strong, _ctype, made in self.weak:
            value = raw[i]
            const = made.get(_value_key(value))
            data = op.convert_weak(value, target, strong) if const is None else const.data
            values[i] = data
            scalars.append(data)
        return values, scalars


class Elemwise(Op):
    """``scalar_op`` applied elementwise with numpy broadcasting.

    ``inplace_pattern`` (pairs ``(output, input)``) makes an output overwrite an
    input's buffer; the inplace rewrite sets it once the DestroyHandler proves it
    safe.
    """

    __props__: ClassVar[tuple[str, ...]] = ("scalar_op", "inplace_pattern")

    def __init__(self, scalar_op: ScalarOp | Composite, inplace_pattern: Any = ()) -> None:
        self.scalar_op = scalar_op
        pairs = inplace_pattern.items() if isinstance(inplace_pattern, dict) else inplace_pattern
        self.inplace_pattern = tuple(sorted((int(o), int(i)) for o, i in pairs))
        self.destroy_map = {o: [i] for o, i in self.inplace_pattern}
        self.nin = scalar_op.nin
        self.nout = scalar_op.nout

    def __str__(self) -> str:
        if self.inplace_pattern:
            pattern = ", ".join(f"{o}<-{i}" for o, i in self.inplace_pattern)
            return f"Elemwise{{{self.scalar_op}, inplace {pattern}}}"
        return f"Elemwise{{{self.scalar_op}}}"

    @property
    def name(self) -> str:
        return str(self.scalar_op.name)

    def make_node(self, *inputs: Any) -> Apply:
        # Recording: every numpy call on an Array comes through here. The types
        # of the outputs (and of the Python scalars' constants) depend only on
        # the inputs' types, so they are worked out once per input signature.
        key = _signature(inputs)
        plan = self._plans.get(key) if key is not None else None
        if plan is None:
            if len(inputs) != self.nin:
                raise TypeError(f"{self.name} takes {self.nin} inputs, {len(inputs)} given")
            tensors = _elemwise_inputs(self.scalar_op, inputs)
            dtypes = self.scalar_op.output_dtypes([x.type.dtype for x in tensors])
            shape = broadcast_static_shape(self.name, [x.type.shape for x in tensors])
            for o, i in self.inplace_pattern:
                if tensors[i].type.dtype != dtypes[o] or tensors[i].type.shape != shape:
                    raise TypeError(f"{self}: output {o} cannot overwrite input {i}")
            out_types = [TensorType(d, shape) for d in dtypes]
            if key is not None:
                plans = self._plans
                if len(plans) >= _PLANS_PER_OP:
                    # the oldest goes (a program that meets ever new shapes, as an
                    # array growing in a loop, keeps its newest signatures: a
                    # full table once stopped every new one from its plan, and
                    # lazygraph.numpy's eager lane with it); another thread may be
                    # doing the same: then that one's eviction is enough
                    with contextlib.suppress(RuntimeError, StopIteration, KeyError):
                        del plans[next(iter(plans))]
                plans[key] = _Plan(self.scalar_op, inputs, out_types)
            return Apply(self, tensors, [t.make_variable() for t in out_types])
        return Apply(self, plan.inputs(inputs), [t.make_variable() for t in plan.out_types])

    def perform_values(
        self,
        signature: tuple[Any, ...],
        raw: Sequence[Any],
        mark: Callable[[list[Any]], bool] | None = None,
    ) -> tuple[np.ndarray, TensorType, bool] | None:
        """The output value and type that :meth:`perform` gives a node of this input
        ``signature`` (the operands' types, a Python scalar's class: see
        ``_signature``), on ``raw`` (the tensor operands' values, the Python
        scalars themselves), without building the node: lazygraph.numpy's known
        small values in element loops; and what ``mark`` says of the values of
        the node's constants (the converted Python scalars). None where this
        signature was not recorded by :meth:`make_node` yet, or the op has
        several outputs or works in place."""
        if self.nout != 1 or self.inplace_pattern:
            return None
        plan = self._plans.get(signature)
        if plan is None:
            return None
        out_type = plan.out_types[0]
        inputs, scalars = plan.values(raw)
        marked = mark is not None and mark(scalars)
        (result,) = self.scalar_op.impl(inputs, [out_type.dtype])
        if result.base is not None or any(result is x for x in inputs):
            result = result.copy()  # as perform: the output owns its buffer
        return result, out_type, marked

    @property
    def _plans(self) -> dict[tuple[Any, ...], _Plan]:
        # not a prop, not pickled (Op.__getstate__): built again in each process
        plans = self.__dict__.get("_plan_cache")
        if plans is None:
            plans = self.__dict__["_plan_cache"] = {}
        return plans

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        out_dtypes = [o.type.dtype for o in node.outputs]  # type: ignore[attr-defined]
        if self.inplace_pattern and self._perform_into(inputs, out_dtypes[0], output_storage):
            return
        results = self.scalar_op.impl(inputs, out_dtypes)
        for k, result in enumerate(results):
            # e.g. numpy's real() of a real array is the array; a composite's real(y)
            # beside y is a view of y (an inplace op on y would change it)
            if any(np.may_share_memory(result, x) for x in (*inputs, *results[:k])):
                result = result.copy()
            output_storage[k][0] = result
        for o, i in self.inplace_pattern:
            np.copyto(inputs[i], output_storage[o][0])
            output_storage[o][0] = inputs[i]

    def _perform_into(self, inputs: Sequence[Any], out_dtype: str, output_storage: Any) -> bool:
        """Compute straight into the destroyed input with the ufunc's ``out=``; False
        (nothing done) unless the scalar op is a plain ufunc row whose own loop
        already yields ``out_dtype`` (then the values are exactly what
        :meth:`ScalarOp.impl` returns, without a temporary and a copy)."""
        op = self.scalar_op
        if len(self.inplace_pattern) != 1 or not isinstance(op, ScalarOp) or op.params:
            return False
        fn = op.row.fn
        if not isinstance(fn, np.ufunc) or fn.nout != 1 or fn.nin != len(inputs):
            return False
        ((_, i),) = self.inplace_pattern
        target = inputs[i]
        dtype = np.dtype(out_dtype)
        if type(target) is not np.ndarray or target.dtype != dtype or not target.flags.writeable:
            return False
        if not all(isinstance(x, np.ndarray | np.generic) for x in inputs):
            return False
        args = list(inputs)
        if op.row.cast_inputs:  # as impl does
            args = [x.astype(dtype) if x.dtype.kind in "biu" else x for x in args]
        if _ufunc_out_dtype(fn, tuple(x.dtype for x in args)) != dtype:
            return False
        with quiet():
            fn(*args, out=target)
        output_storage[0][0] = target
        return True

    def infer_shape(self, fgraph: Any, node: Apply, input_shapes: Sequence[Any]) -> list[Any]:
        static = node.outputs[0].type.shape  # type: ignore[attr-defined]
        ndim = len(static)
        padded = [(1,) * (ndim - len(s)) + tuple(s) for s in input_shapes]
        in_static = [
            (1,) * (ndim - x.type.ndim) + tuple(x.type.shape)  # type: ignore[attr-defined]
            for x in node.inputs
        ]
        shape: list[Any] = []
        for k in range(ndim):
            if static[k] is not None:
                shape.append(static[k])
                continue
            candidates = [s[k] for s, t in zip(padded, in_static, strict=True) if t[k] != 1]
            known = [int(c) for c in candidates if _is_int(c) and c != 1]
            symbolic = [c for c in candidates if not _is_int(c)]
            if known:
                shape.append(known[0])
            elif not symbolic:
                shape.append(1)
            else:
                import lazygraph.tensor as lt

                # at run time a size-1 operand broadcasts: keep the other size
                dim = symbolic[0]
                for other in symbolic[1:]:
                    dim = lt.where(lt.equal(dim, 1), other, dim)
                shape.append(dim)
        return [tuple(shape)] * self.nout

    # -- derivatives -----------------------------------------------------------

    def _row_grads(self, inputs: Sequence[Any], outputs: Sequence[Any], gz: Any) -> list[Any]:
        """The table derivative of each input, in the output's shape (None: zero)."""
        row = self.scalar_op.row  # type: ignore[union-attr]
        if row.grad is None:
            return [None] * self.nin
        grads = row.grad(*inputs, outputs[0], gz)
        return [grads] if self.nin == 1 else list(grads)

    def _row_tangents(self, inputs: Sequence[Any], outputs: Sequence[Any], e: Any) -> list[Any]:
        """The table's forward derivative along the tangent ``e``, per input (see R_op)."""
        row = self.scalar_op.row  # type: ignore[union-attr]
        if row.jvp is None or not any(x.type.numpy_dtype.kind == "c" for x in inputs):
            return self._row_grads(inputs, outputs, e)
        tangents = row.jvp(*inputs, outputs[0], e)
        return [tangents] if self.nin == 1 else list(tangents)

    def L_op(
        self, inputs: Sequence[Any], outputs: Sequence[Any], output_grads: Sequence[Any]
    ) -> list[Any]:
        # Complex numbers: cotangents pass by transposition, without conjugation
        # (JAX's convention, see lazygraph.gradient.core): a holomorphic row's rule
        # gz * f'(x) holds as written, evaluated in the complex output dtype, and a
        # real input keeps the real part of its gradient (as_grad_dtype). Rows of
        # non-holomorphic functions (abs, imag, sign...) handle complex x themselves.
        if isinstance(self.scalar_op, Composite):
            raw = _composite_vjp(self.scalar_op, inputs, output_grads)
        else:
            raw = self._row_grads(
                _as_complex_operands(self, inputs, outputs), outputs, output_grads[0]
            )
        result = []
        for x, g in zip(inputs, raw, strict=True):
            if x.type.numpy_dtype.kind in "biu":
                result.append(_disconnected())
            elif _is_disconnected(g):
                result.append(_zeros_like(x))
            else:
                g = _as_grad_dtype(as_tensor_variable(g), x.type.dtype)
                result.append(_sum_to_shape(g, x, inputs))
        return result

    def R_op(self, inputs: Sequence[Any], eval_points: Sequence[Any]) -> list[Any]:
        outputs = self.make_node(*inputs).outputs
        if isinstance(self.scalar_op, Composite):
            jvps = _composite_jvp(self.scalar_op, inputs, eval_points)
        else:
            terms = []
            args = _as_complex_operands(self, inputs, outputs)
            for i, e in enumerate(eval_points):
                # a constant's tangent is zero whatever we are given: skipping it also
                # avoids 0 * nan from partials undefined there (pow's log(x), x < 0)
                if e is None or isinstance(inputs[i], Constant):
                    continue
                if inputs[i].type.numpy_dtype.kind in "biu":
                    continue
                # An elementwise VJP is linear in gz: with gz = e_i the i-th entry is
                # e_i * d out / d x_i, the i-th term of the JVP. With complex values
                # (no conjugation) that holds for holomorphic rows, and for real
                # outputs once the real part is taken (the cast below): the VJP
                # z_bar = c * y_bar means dy = Re(c dz). Other rows give their JVP.
                g = self._row_tangents(args, outputs, e)[i]
                if g is not None:
                    terms.append(g)
            total = None
            for t in terms:
                total = t if total is None else total + t
            jvps = [total]
        result = []
        for out, j in zip(outputs, jvps, strict=True):
            dtype = out.type.dtype
            if out.type.numpy_dtype.kind in "biu":
                dtype = "float64"
            if j is None:
                result.append(_zeros_like(out, dtype))
                continue
            j = as_tensor_variable(j)
            if j.type.shape != out.type.shape or None in out.type.shape:
                j = _fill(out, j)  # a term from a broadcast input: give it out's shape
            result.append(_cast(j, dtype))
        return result


def _composite_vjp(comp: Composite, inputs: Sequence[Any], output_grads: Sequence[Any]) -> list:
    """Reverse mode through the composite's subgraph, expanded to Elemwise nodes."""
    from lazygraph.graph.traversal import io_toposort

    outs = comp.expand(inputs)
    grads: dict[Variable, Any] = {}
    for o, g in zip(outs, output_grads, strict=True):
        if not _is_disconnected(g):
            grads[o] = g if o not in grads else grads[o] + g
    for node in reversed(io_toposort(list(inputs), outs)):
        gzs = [grads.get(o) for o in node.outputs]
        if all(g is None for g in gzs):
            continue
        gzs = [_zeros_like(o) if g is None else g for o, g in zip(node.outputs, gzs, strict=True)]
        for v, g in zip(node.inputs, node.op.L_op(node.inputs, node.outputs, gzs), strict=True):
            if v.type.numpy_dtype.kind in "biu" or _is_disconnected(g):  # type: ignore[attr-defined]
                continue
            grads[v] = g if v not in grads else grads[v] + g
    return [grads.get(x) for x in inputs]


def _composite_jvp(comp: Composite, inputs: Sequence[Any], eval_points: Sequence[Any]) -> list:
    """Forward mode through the composite's subgraph, expanded to Elemwise nodes."""
    from lazygraph.graph.traversal import io_toposort

    outs = comp.expand(inputs)
    tangents: dict[Variable, Any] = {
        x: e for x, e in zip(inputs, eval_points, strict=True) if e is not None
    }
    for node in io_toposort(list(inputs), outs):
        points = [tangents.get(v) for v in node.inputs]
        if all(p is None for p in points):
            continue
        for o, t in zip(node.outputs, node.op.R_op(node.inputs, points), strict=True):
            tangents[o] = t
    return [tangents.get(o) for o in outs]
