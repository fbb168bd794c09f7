"""Small operations on known values run at once.

A node whose inputs are all known values (data from numpy, computed arrays,
constants) and whose result is small (``config.eager_max_elements``) is
computed when it is recorded, with its Op's ``perform`` (the reference every
backend is checked against), and the Array holds the value instead of a graph.
An element loop (``out[i] = out[i - 1] + x[i] * dt``, ``if x[i] * x[i - 1] < 0``)
then costs a few numpy calls per iteration, instead of a graph that grows by
one node per iteration or a compiled function per ``bool()``.

Elementwise functions take a shorter lane still (:func:`elementwise`): no node
is built at all. What a call of one namespace function records depends only
on its operands' types, so the first call of each signature records once on
stand-in inputs, and when that is one elementwise node over the operands, the
later calls ask that Op for its value on the operands' values
(``Elemwise.perform_values``: the same ``perform``, typing and Python-scalar
conversion as the node's).

Only nodes that no rewrite would change the value of run at once:
elementwise functions, indexing, reductions, shape and creation ops, matrix
products and single-output linear algebra, sorting, cumulative and structural
ops (an iterative solver's ``float(np.linalg.norm(b - A @ x))``). The inner
nodes of the stabilising rewrites
(:func:`lazygraph.tensor.rewriting.stabilize.may_be_stabilised`: ``exp``,
``sigmoid``, ``1 + x``) run at once too, and their values keep the node as
their *expression* (:func:`expression_of`), as do values computed from them a
few nodes further. A reader that a rule changing values would rewrite
(``log(1 + x)`` is ``log1p(x)``, ``log(sum(exp(x)))`` a ``logsumexp``; the
default pipeline's own rules are asked: ``stabilize.rewrites_value``) stays
in the graph, which reads the expressions instead of the values where such a
rule applies (``_compute``; values a graph computed keep expressions the same
way: :func:`pin_expression`). Large arrays stay lazy: their graphs fuse into
compiled loops.

>>> import numpy
>>> import lazygraph.numpy as lnp
>>> x = lnp.asarray(numpy.array([1.0, 2.0]))
>>> (x * 2)._var.owner is None  # computed at once: a known value, no graph
True
>>> lnp.log(1 + x)._var.owner is not None  # log1p's pattern stays a graph
True
"""

from __future__ import annotations

import functools
import math
import weakref
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from lazygraph.compile.devices import devices as _devices
from lazygraph.configuration import config
from lazygraph.graph.basic import Apply, Constant, Variable
from lazygraph.numpy import _fastlane, _views
from lazygraph.numpy._expressions import (
    EXPRESSION_DEPTH,
    _depth,
    _Derived,
    _handle,
    _inner_of_a_rule,
    _merged,
    _over_expressions,
    has_expression,
    keep_expression,
)
from lazygraph.numpy._fpstate import defer_report
from lazygraph.tensor.advanced_subtensor import (
    AdvancedIncSubtensor,
    AdvancedSubtensor,
    Take,
    TakeAlongAxis,
)
from lazygraph.tensor.blas import AllocDiag, Einsum, ExtractDiag, MatMul
from lazygraph.tensor.broadcast import Alloc
from lazygraph.tensor.creation import ARange, Eye, Linspace, Tri
from lazygraph.tensor.cumulative import CumOp
from lazygraph.tensor.dimshuffle import DimShuffle
from lazygraph.tensor.elemwise import Elemwise
from lazygraph.tensor.fft import FFT
from lazygraph.tensor.fperrors import collect, op_name, quiet, report, reporting
from lazygraph.tensor.join import Join
from lazygraph.tensor.linalg.decomp import Cholesky
from lazygraph.tensor.linalg.solve import Det, Inv, Pinv, Solve
from lazygraph.tensor.reduction import Reduce
from lazygraph.tensor.rewriting.canonicalize import is_constant_all
from lazygraph.tensor.rewriting.stabilize import (
    inner_of_a_rule,
    rewrites_value,
    tracked_by_a_value_rule,
)
from lazygraph.tensor.scalar import ScalarOp
from lazygraph.tensor.search import SearchSorted
from lazygraph.tensor.shape import Reshape
from lazygraph.tensor.sort import ArgSort, Sort
from lazygraph.tensor.structure import Flip, Pad, Repeat, Roll
from lazygraph.tensor.subtensor import IncSubtensor, Subtensor
from lazygraph.tensor.variable import TensorVariable

__all__: list[str] = []

#: How many nodes below the result :func:`known` looks for ones to run at once
#: (a namespace function records a few nodes; deeper ones were looked at when
#: they were recorded).
DEPTH = 6

_OPS = (
    Elemwise,
    DimShuffle,
    Subtensor,
    IncSubtensor,
    Reduce,
    Reshape,
    Join,
    ARange,
    Linspace,
    Eye,
    Tri,
    Alloc,
    # no rewrite looks through these as its inner node (linalg has no rewrites
    # yet; MatMul's only rule, matmul of two transposes, is exact either way)
    MatMul,
    Einsum,
    ExtractDiag,
    AllocDiag,
    Inv,
    Solve,
    Det,
    Pinv,
    Cholesky,
    Flip,
    Roll,
    Repeat,
    Pad,
    Sort,
    ArgSort,
    CumOp,
    SearchSorted,
    AdvancedSubtensor,
    AdvancedIncSubtensor,
    Take,
    TakeAlongAxis,
    FFT,  # no rewrite reads through a transform
)


def known(var: TensorVariable) -> TensorVariable:
    """``var``, or a new graph input bound to its value when ``var`` (with the
    nodes below it that qualify) can run at once (see the module docstring).
    A value computed from a node a stabilising rule looks through keeps that
    node as its expression (see :func:`expression_of`)."""
    if var.owner is None or config.eager_max_elements <= 0:
        return var
    if _ARRAY is None:
        _import_late()
    memo = _written_ones(var)
    if memo:
        values_changed()  # (what was left lazy for the ones may run now)
    got = _value(var, memo, DEPTH)
    if got is None:
        _LAZY[var] = _EPOCH[0]
        return var
    value, expression = got
    if value.flags.writeable:
        value.setflags(write=False)
    out = _BIND_RESULT(value, var.type)
    if expression is not None:
        keep_expression(out, expression)
    return out  # type: ignore[no-any-return]


def _written_ones(var: TensorVariable) -> dict[Variable, Any]:
    """The memo :func:`known` starts from: when ``var`` writes into an array,
    the values of the small float arrays of ones below it (the array written
    into, ``a = ones(n); a[i] = v``, or read by the value written, ``a[i:] +=
    v``). Such an array is otherwise left to the graph (see :func:`_qualifies`:
    its ones may feed ``log(1 + x)``), but no rule reads ones through a write,
    and leaving them lazy would grow one graph per written element in a loop."""
    if not isinstance(var.owner.op, (IncSubtensor, AdvancedIncSubtensor)):
        return {}
    memo: dict[Variable, Any] = {}
    todo, seen = [(var, DEPTH)], set()
    while todo:
        v, depth = todo.pop()
        node = v.owner
        if node is None or depth == 0 or v in seen:
            continue
        seen.add(v)
        if isinstance(node.op, Alloc) and all(isinstance(i, Constant) for i in node.inputs):
            shape = v.type.shape  # type: ignore[attr-defined]
            small = None not in shape and math.prod(shape) <= config.eager_max_elements
            if small and not _qualifies(node):  # (the ones: others run at once anyway)
                memo[v] = (run_node(node, [i.data for i in node.inputs]), None)
            continue
        todo.extend((i, depth - 1) for i in node.inputs)
    return memo


#: Variables :func:`known` left to the graph since the last computation: a node
#: recorded over one of them is left to the graph too, without looking below
#: it again (a loop whose updates stay lazy, ``W -= lr * dW`` after a softmax
#: the graph stabilises, would otherwise walk :data:`DEPTH` nodes down at
#: every op). A computation can give the nodes below one values (its readers
#: read the pinned values, see ``_compute``), so it starts a new epoch
#: (:func:`values_changed`) and the marks of earlier ones no longer count.
_LAZY: weakref.WeakKeyDictionary[Variable, int] = weakref.WeakKeyDictionary()
_EPOCH = [0]


def values_changed() -> None:
    """Forget which variables :func:`known` left to the graph (see ``_LAZY``)."""
    _EPOCH[0] += 1


class _Pending:
    """The expression of a value computed by the elementwise lanes, recorded when
    :func:`expression_of` first asks for it: most such values (``x + 1`` in an
    element loop) are never read by a rule, and their node costs more than the
    value."""

    __slots__ = ("op", "operands")

    depth = 0

    def __init__(self, op: Any, operands: list[Any]) -> None:
        self.op = op
        self.operands = operands  # variables and Python scalars

    def make(self) -> tuple[Variable, int]:
        node = self.op.make_node(*self.operands)
        return _merged(node.outputs[0]), 0


def keep_node(var: Variable, op: Any, args: Sequence[Any]) -> None:
    """Give the value ``var`` (computed at once by the Elemwise ``op`` on the
    known Arrays and Python scalars ``args``) the node as its expression."""
    operands = [a._var if type(a) is _ARRAY else a for a in args]
    var.tag.lazygraph_expression = _Pending(op, operands)


def known_value(var: Variable) -> np.ndarray | None:
    """The value bound to the graph input ``var`` when lazygraph.numpy may read
    it now: None for a caller's buffer bound with ``copy=False`` (read when
    computed, after the caller's later writes) or a value moved to a jax device
    (computed there)."""
    if _BOUND_DATA is None:
        _import_late()
    value = _BOUND_DATA.get(var)
    if value is None or value.flags.writeable or _on_a_device(value):
        return None
    return value  # type: ignore[no-any-return]


def _value(var: Variable, memo: dict[Variable, Any], depth: int) -> Any:
    """``(value, expression)`` of ``var`` if it is known or can be computed at
    once (the expression as kept: see :func:`_handle`), else None."""
    if isinstance(var, Constant):
        return var.data, None
    node = var.owner
    if node is None:
        value = known_value(var)
        return None if value is None else (value, _handle(var))
    if var in memo:
        return memo[var]
    memo[var] = None
    if depth == 0 or _LAZY.get(var) == _EPOCH[0] or not _qualifies(node):
        return None
    values = []
    handles = []
    for v in node.inputs:
        got = _value(v, memo, depth - 1)
        if got is None:
            return None
        values.append(got[0])
        handles.append(got[1])
    expression: Any = None
    if any(h is not None for h in handles):
        level = 1 + min(_depth(h) for h in handles if h is not None)
        # (further above every rule's inner node than a pattern spans, no rule
        # reads through it, and the value is all that is kept)
        if level <= EXPRESSION_DEPTH and not tracked_by_a_value_rule(node.op):
            # no rule that changes values has this node as its outer node:
            # computed now, its expression made if a reader asks for it
            expression = _Derived(node, handles, level)
        elif level <= EXPRESSION_DEPTH:
            # read the inputs' expressions: left to the graph where a rule that
            # changes the value applies here, else computed, and this node (its
            # canonical form over the expressions) is the value's expression
            over = _over_expressions(node, handles)
            if over is None:
                return None
            if over.owner is not None and rewrites_value(over.owner):
                return None
            expression = (_merged(over), level)
    elif _inner_of_a_rule(node):
        expression = (_merged(var), 0)
    out = memo[var] = (run_node(node, values), expression)
    return out


def run_node(node: Apply, values: list[Any]) -> np.ndarray:
    """The value of a one-output ``node`` (one that :func:`_qualifies`) on its
    inputs' ``values``: its Op's ``perform``, floating-point errors reported
    as numpy reports them (naming the Op), as a new array of the output's exact dtype."""
    storage: list[list[Any]] = [[None]]
    if reporting():
        _, status = collect(node.op.perform, node, values, storage)
        if status:
            report(status, op_name(node.op))
    else:
        with quiet():
            node.op.perform(node, values, storage)
    out = storage[0][0]
    target = node.outputs[0].type.numpy_dtype  # type: ignore[attr-defined]
    if type(out) is not np.ndarray or out.dtype != target:
        out = np.asarray(out, dtype=target)
    if out.base is not None or any(out is v for v in values):
        out = out.copy()  # a view of an input (or the input): the result owns its value
    return out


def _on_a_device(value: Any) -> bool:
    if not _devices.placed:  # nothing was ever moved
        return False
    return _devices.placement(value) is not None


def _qualifies(node: Apply) -> bool:
    op = node.op
    if not isinstance(op, _OPS) or len(node.outputs) != 1:
        return False
    if getattr(op, "destroy_map", None):
        return False
    shape = node.outputs[0].type.shape  # type: ignore[attr-defined]
    if None in shape or math.prod(shape) > config.eager_max_elements:
        return False
    if isinstance(op, Elemwise):
        return isinstance(op.scalar_op, ScalarOp)
    if isinstance(op, Alloc):
        # np.ones(n) of floats stays a graph: folded to a constant, its ones feed
        # the stabilising rules' patterns (log(ones + x) is log1p(x)); no rule
        # that changes values reads integer or boolean ones
        kind = node.outputs[0].type.dtype[0]  # type: ignore[attr-defined]
        return kind not in "fc" or not is_constant_all(node.inputs[0], 1)
    return True


# -- the elementwise lane ---------------------------------------------------------

_WEAK = (bool, int, float, complex)
_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1

#: (namespace function's tensor function, operand signature) -> (Elemwise, inner check, size)
#: where its calls record one Elemwise node over the operands, else False
_LANES: dict[tuple[Any, ...], Any] = {}
_LANES_MAX = 4096


def elementwise(fn: Callable[..., Any], args: Sequence[Any]) -> Any:
    """``fn(*args)`` as a known Array when every operand is a known value (or a
    Python scalar) and the result qualifies (see the module docstring), computed
    without recording a node; None otherwise (the caller records the graph).
    When every operand is a Python or numpy scalar, the result is numpy's
    scalar, as numpy's own functions return (``np.cos(np.pi * k / n)`` in an
    element loop stays a number)."""
    limit = config.eager_max_elements
    if limit <= 0:
        return None
    if _ARRAY is None:
        _import_late()
    direct = _fastlane.call(fn, args)  # numpy's ufunc itself, where that is the lane
    undecided = direct is _fastlane.UNDECIDED
    if direct is not None and not undecided:
        return direct
    signature: list[Any] = []
    raw: list[Any] = []
    bound = _BOUND_DATA
    scalars = True
    data = False  # an operand is numpy data (not bound to a graph input)
    for a in args:
        t = type(a)
        if t is _ARRAY:
            scalars = False
            var = a._var
            if var.owner is not None:
                return None
            value = bound.get(var)  # known_value, inline: this runs on every call
            if value is None or value.flags.writeable or _on_a_device(value):
                return None
            if has_expression(var):
                return None  # a rule may read its expression (the graph's path)
            signature.append(var.type)
            raw.append(value)
        elif t in _WEAK:
            if t is int and not _INT64_MIN <= a <= _INT64_MAX:
                return None
            signature.append(t)
            raw.append(a)
        elif t is np.ndarray or isinstance(a, np.generic):
            # numpy data (a scalar from iterating or indexing a numpy array):
            # read now, so no snapshot is needed
            name = _DTYPE_NAMES.get(a.dtype)
            if name is None or a.size > limit:
                return None
            if t is np.ndarray:
                scalars = False
            data = True
            signature.append(_TYPE_OF(name, a.shape))
            raw.append(a if t is np.ndarray else np.asarray(a))
        else:
            return None
    sig = tuple(signature)
    lane = _LANES.get((fn, *sig))
    if lane is None:
        lane = _lane(fn, sig, args)
        if lane is None:
            return None
        if len(_LANES) >= _LANES_MAX:
            _LANES.clear()
        _LANES[(fn, *sig)] = lane
    if lane is False:
        return None
    op, inner, size = lane
    if size > limit:  # (a broadcast larger than its operands: fused later)
        return None
    status = 0
    try:
        if reporting():  # floating-point errors: numpy's report for this call
            got, status = collect(op.perform_values, sig, raw, inner)
        else:
            got = op.perform_values(sig, raw, inner)
    except OverflowError:
        # a Python int out of the range of the lane's dtype (``int8_x == 200``):
        # the recording path compares it exactly, or raises numpy's error
        return None
    if got is None:
        return None  # (the recording path computes, and reports, it)
    value, out_type, kept = got
    if undecided:  # (once per kind: decided kinds are not looked at again)
        _fastlane.learn(fn, args, op, inner, value)
    if kept:
        # exp(x), 1 + x: a rule may read through it, so the value keeps the
        # node as its expression (the node the recording path makes)
        if data:
            return None
        value.setflags(write=False)
        var = _BIND_VALUE(value, out_type)
        keep_node(var, op, args)
        if status:  # reported if the value itself is read, not a rule's form
            defer_report(var, status, op_name(op))
        return _ARRAY(var)
    if status:
        report(status, op_name(op))
    if scalars:
        return value[()]
    value.flags.writeable = False
    return _ARRAY(_BIND_VALUE(value, out_type))


# -- item assignment -------------------------------------------------------------

#: the Python scalars numpy's item assignment converts exactly as the graph's
#: constants do, per the array's dtype (others take the recorded path)
_ASSIGNABLE: dict[str, tuple[type, ...]] = {
    "float64": (float, int, bool),
    "complex128": (complex, float, int, bool),
    "int64": (int, bool),
    "bool": (bool,),
}


def set_item(arr: Any, key: Any, value: Any) -> bool:
    """Assign ``arr[key] = value`` at once and return True, when ``arr`` is a
    known array (not a view), ``key`` basic (integers and slices, in range) and
    ``value`` a known value or numpy scalar of ``arr``'s dtype, or a Python
    scalar that converts to it exactly; False otherwise (the caller records an
    ``IncSubtensor``, whose ``perform`` is the same numpy assignment).

    Copy on write: the first assignment copies the value (others may share
    it), later ones write into that copy while the array alone can see it
    (``Array._own``: reading the array's variable for anything but an element
    gives the copy away). A loop assigning elements then costs numpy's
    assignment, not a copy of the array per element.
    """
    own = arr._own
    if own is not None:  # arr._cur is bound to a read-only view of ``own``
        if type(value) is _ARRAY and _is_written_view(arr, key, value):
            return True
        if not _basic_in_range(key, own.shape):
            return False
        y = _assignable(value, own.dtype)
        if y is _NO:
            return False
        try:
            own[key] = y  # numpy checks before it writes: a failure changes nothing
        except (ValueError, IndexError, TypeError):
            return False  # the recorded path raises its own error, naming the call
        arr._version += 1  # views of ``arr`` read it again
        return True
    if config.eager_max_elements <= 0 or arr._base is not None:
        return False
    if _ARRAY is None:
        _import_late()
    var = arr._cur
    if var.owner is not None:
        return False
    x = _BOUND_DATA.get(var)
    if x is None or x.flags.writeable or _on_a_device(x):
        return False
    if not _basic_in_range(key, x.shape):
        return False
    y = _assignable(value, x.dtype)
    if y is _NO:
        return False
    # ``own``: a writeable copy only this array reaches; the variable is bound
    # to a read-only view of it, so every reader sees a read-only value
    own = x.copy()
    try:
        own[key] = y
    except (ValueError, IndexError, TypeError):
        return False
    bound = own.view()
    bound.flags.writeable = False
    arr._assign(_BIND_VALUE(bound, var.type))
    arr._own = own
    return True


# -- writes through views of an array that owns its buffer ------------------------


def view_of_owned(arr: Any, key: Any) -> Any:
    """``arr[key]`` (a basic key in range) as a view Array bound to a read-only
    numpy view into the buffer ``arr`` owns (``Array._own``), without ending
    that ownership: ``y[k:] += v`` can then write into ``y``'s buffer
    (:func:`inplace_owned`) as numpy does, instead of copying all of ``y``.
    The view is marked ``_in_own``; reading its variable (anything but
    :func:`inplace_owned`) reads its base's, which ends the ownership, so no
    value anyone keeps is written afterwards. None when not applicable."""
    own = arr._own
    if not _basic_in_range(key, own.shape):
        return None
    part = own[key]
    if type(part) is not np.ndarray:
        return None
    part = part.view()
    part.flags.writeable = False
    var = _BIND_VALUE(part, _TYPE_OF(_DTYPE_NAMES.get(part.dtype) or str(part.dtype), part.shape))
    view = _ARRAY._view_of(arr, _views.BasicIndex(key), var)
    view._in_own = True
    return view


def inplace_owned(view: Any, name: str, ufunc_name: str, other: Any) -> bool:
    """``view <op>= other`` for a view made by :func:`view_of_owned` and still up
    to date: the result (computed as ``<op>`` computes it on known values)
    written into the base's buffer, where it is a known value of the view's
    dtype and shape with no expression a rule reads; True when done. Otherwise
    the base's ownership ends (the operand may be kept by a graph) and False is
    returned: the caller takes the ordinary path."""
    base = view._base
    own = base._own
    if own is None or view._base_version != base._version:
        return False
    part = view._cur
    operand = _ARRAY(part)  # a plain known array over the same read-only view
    operand._known = _BOUND_DATA.get(part)
    key = view._view.key
    direct = _ELEMENTWISE.OPERATOR_UFUNCS.get(name)
    if (
        direct is not None
        and (type(other) is not _ARRAY or other._base is not base)
        and _fastlane.call_into(direct, (operand, other), own[key])
    ):
        # numpy's ufunc wrote the result into the buffer: no temporary, no copy
        done = own[key].view()
        done.flags.writeable = False
        view._rebind(_BIND_VALUE(done, part.type))
        base._version += 1
        view._base_version = base._version
        view._version += 1
        return True
    try:
        result = getattr(_ELEMENTWISE, name)(operand, other)
        new = _views.inplace_result(view, result, ufunc_name)
    except Exception:
        base._own = None  # the ordinary path raises numpy's error, naming the call
        return False
    value = _BOUND_DATA.get(new) if new.owner is None else None
    if (
        base._own is not own  # the operation read the base (``y[1:] += y[:-1]``)
        or value is None
        or has_expression(new)
        or value.dtype != own.dtype
        or np.may_share_memory(value, own)
    ):
        base._own = None  # ``operand`` may be in a graph or an expression now
        return False
    own[key] = value
    base._version += 1
    view._rebind(new)
    view._base_version = base._version
    view._version += 1
    return True


def _is_written_view(arr: Any, key: Any, value: Any) -> bool:
    """Whether ``value`` is ``arr[key]``, a view up to date with ``arr``: the
    assignment ``y[k:] = y[k:]`` (the second half of ``y[k:] += v``) changes
    nothing, as numpy's copy of a view onto itself."""
    if value._base is not arr or value._base_version != arr._version:
        return False
    view = value._view
    if type(view) is not _views.BasicIndex or not _views.is_basic_key(key):
        return False
    vkey = view.key
    return type(vkey) is type(key) and bool(vkey == key)


_NO = object()


def _assignable(value: Any, dtype: np.dtype[Any]) -> Any:
    """What numpy assigns for ``value`` into an array of ``dtype``, when the
    graph's assignment would give the same: a known value or numpy scalar of
    that dtype, or a Python scalar that converts exactly; ``_NO`` otherwise."""
    t = type(value)
    if t is _ARRAY:
        var = value._var
        y = _BOUND_DATA.get(var) if var.owner is None else None
        if y is None or y.flags.writeable or y.dtype != dtype or _on_a_device(y):
            return _NO
        return y
    if isinstance(value, np.generic):
        return value if value.dtype == dtype else _NO
    if t in _ASSIGNABLE.get(dtype.name, ()):
        if t is int and not _INT64_MIN <= value <= _INT64_MAX:
            return _NO
        return value
    return _NO


def _basic_in_range(key: Any, shape: tuple[int, ...]) -> bool:
    """Whether ``key`` is integers (within their axes) and slices (of integers, a
    nonzero step), at most one per axis."""
    if type(key) is int:  # the common case: one element of a vector
        return bool(shape) and -shape[0] <= key < shape[0]
    if type(key) is not tuple:
        key = (key,)
    if len(key) > len(shape):
        return False
    for k, n in zip(key, shape, strict=False):
        if type(k) is int:
            if not -n <= k < n:
                return False
        elif type(k) is slice:
            if k.step == 0:
                return False
            for f in (k.start, k.stop, k.step):
                if f is not None and type(f) is not int:
                    return False
        else:
            return False
    return True


_ARRAY: Any = None
_BOUND_DATA: Any = None
_BIND_VALUE: Any = None
_DTYPE_NAMES: Any = None
_TYPE_OF: Any = None
_BIND_RESULT: Any = None
_ELEMENTWISE: Any = None  # the module of the elementwise namespace functions


def _import_late() -> None:
    """The Array class and the bound-value registry (their modules import this one)."""
    global _ARRAY, _BOUND_DATA, _BIND_VALUE, _BIND_RESULT, _DTYPE_NAMES, _TYPE_OF
    global _ELEMENTWISE
    from lazygraph.numpy import _convert, _elementwise
    from lazygraph.numpy._array import Array

    _ARRAY, _BOUND_DATA, _BIND_VALUE = Array, _convert._BOUND, _convert.bind_value
    _BIND_RESULT = _convert.bind_result
    _DTYPE_NAMES, _TYPE_OF = _convert._DTYPE_NAMES, _convert.type_of
    _ELEMENTWISE = _elementwise
    _fastlane.import_late()


def _lane(fn: Callable[..., Any], sig: tuple[Any, ...], args: Sequence[Any]) -> Any:
    """What a call of ``fn`` with operands of signature ``sig`` records, recorded
    once on stand-ins: ``(op, inner check, result size)`` when it is one ``Elemwise`` node of a
    scalar op over exactly the operands (the Python scalars as the constants
    the op's own conversion makes), False otherwise; None when the call raised
    (the caller's recording raises it again, with its message)."""
    stand_ins = [
        t.make_variable() if not isinstance(t, type) else a for t, a in zip(sig, args, strict=True)
    ]
    try:
        out = fn(*stand_ins)
        node = out.owner if isinstance(out, Variable) else None  # (divmod: a tuple)
        if node is None or type(node.op) is not Elemwise or len(node.outputs) != 1:
            return False
        op = node.op
        if not isinstance(op.scalar_op, ScalarOp) or len(node.inputs) != len(stand_ins):
            return False
        direct = op.make_node(*stand_ins)  # what perform_values types the operands as
    except Exception:  # reported by the caller's own recording
        return None
    if direct.outputs[0].type != out.type:
        return False
    if not all(map(_same_input, direct.inputs, node.inputs)):
        return False
    # exp, sigmoid, 1 + x: the inner node of a rule (see elementwise); asked
    # per call only of the ops that can be one (with a constant 1 operand)
    name = op.scalar_op.name
    inner = functools.partial(inner_of_a_rule, name) if inner_of_a_rule(name, [_ONE]) else None
    return op, inner, math.prod(out.type.shape)


_ONE = np.ones(())


def _same_input(a: Variable, b: Variable) -> bool:
    if a is b:
        return True
    if not (isinstance(a, Constant) and isinstance(b, Constant)) or a.type != b.type:
        return False
    return bool(a.data.tobytes() == b.data.tobytes())  # signed zeros told apart
