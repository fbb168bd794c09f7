"""Namespace calls on known values, replayed without recording.

A call of a lazygraph.numpy function on small known arrays runs at once
(:mod:`lazygraph.numpy._eager`), but it still records its nodes first, and
recording costs far more than numpy's own call: ``np.linalg.norm(b - A @ x)``
in an iterative solver's loop condition records six nodes each iteration.

What a call records depends only on its operands' types and its other
arguments (axis, ord, keepdims, Python scalars), never on the arrays' values.
So the first call of each such signature records once, on stand-in inputs of
the operands' types; when every node it recorded is one that runs at once
(``_eager._qualifies``: no rewrite would change its value, its result is small)
and reads only the operands and constants, the plan is kept, and later calls
with that signature run the nodes' ``perform`` on the operands' values
directly, in the recorded order (``_eager.run_node``, the same code the
recording path runs). Anything else (a pending operand, a view, a mutation, a
value read while recording, random draws) takes the ordinary path.

>>> import numpy
>>> import lazygraph.numpy as lnp
>>> A = lnp.asarray(numpy.eye(3) * 2)
>>> b = lnp.asarray(numpy.ones(3))
>>> [float(lnp.linalg.norm(b - A @ (0.5 * b))) for _ in range(2)]
[0.0, 0.0]
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import numpy as np
from lazygraph.compile.devices import devices as _devices
from lazygraph.configuration import config
from lazygraph.graph.basic import Apply, Constant, Variable
from lazygraph.tensor.fperrors import call_watched

__all__: list[str] = []


#: returned when a call is not replayed (the caller runs the function)
MISS: Any = object()

#: (function, eager limit, signature) -> a plan, or False when its calls record
#: something a plan cannot replay
_PLANS: dict[tuple[Any, ...], Any] = {}
_PLANS_MAX = 4096

#: functions not replayed: those whose calls record one elementwise node (the
#: first such recording decides; a function recording more for other operand
#: types, ``fabs`` of integers, then records and computes those calls at once),
#: and those that return no array (``compute``, ``tolist``)
_NOT_REPLAYED: set[Any] = set()

#: the arguments a signature holds by value (hashable, fixed by the call site)
_STATIC = (bool, int, float, complex, str, type(None), slice, np.dtype, type)


class _Miss(Exception):
    """An argument the signature cannot describe."""


class _Plan:
    """The nodes a signature records, in order, with where each input comes from:
    an operand (its position), an earlier node's output, or a constant."""

    __slots__ = ("constant", "out_type", "runs", "steps")

    def __init__(
        self,
        steps: list[tuple[Apply, tuple[Any, ...]]],
        out_type: Any,
        constant: np.ndarray | None = None,
    ) -> None:
        self.steps = steps
        self.out_type = out_type
        self.constant = constant  # a read-only result that reads no operand value
        # what runs each node: its ufunc where perform is a plain ufunc call
        self.runs = [_step(node) for node, _ in steps]

    def run(self, raw: list[np.ndarray]) -> np.ndarray:
        if self.constant is not None:
            return self.constant  # (zeros_like: shared, read-only like every value)
        values = list(raw)
        for (node, sources), step in zip(self.steps, self.runs, strict=True):
            ins = [values[s] if type(s) is int else s.data for s in sources]
            values.append(_RUN_NODE(node, ins) if step is None else step(ins))
        return values[-1]


def _step(node: Apply) -> Callable[[list[Any]], np.ndarray] | None:
    """A function computing ``node``'s value from its inputs' values as its
    ``perform`` does, when that is a plain ufunc call (an Elemwise node of a
    scalar op whose :meth:`~lazygraph.tensor.scalar.ScalarOp.plain_ufunc` these
    input dtypes have), or numpy's matmul (a MatMul node): without perform's
    storage, checks and copies, which a new result needs none of; None for
    every other node (run_node)."""
    op = node.op
    if type(op) is _MATMUL:
        return _matmul_step(node.outputs[0].type.numpy_dtype)
    if type(op) is not _ELEMWISE or op.nout != 1 or op.inplace_pattern:
        return None
    scalar_op = op.scalar_op
    plain = getattr(scalar_op, "plain_ufunc", None)
    ufunc = None if plain is None else plain([v.type.numpy_dtype for v in node.inputs])
    if ufunc is None:
        return None
    target = node.outputs[0].type.numpy_dtype

    def step(ins: list[Any]) -> np.ndarray:
        out = call_watched(ufunc, *ins)
        if type(out) is not np.ndarray:
            out = np.asarray(out)
        return out if out.dtype == target else out.astype(target)

    return step


def _matmul_step(target: np.dtype[Any]) -> Callable[[list[Any]], np.ndarray]:
    """``MatMul.perform`` as a step: numpy's matmul, as a new array of the
    output's dtype (a 0-d array for two vectors), floating-point errors
    reported as numpy reports them."""

    def step(ins: list[Any]) -> np.ndarray:
        return np.asarray(call_watched(np.matmul, ins[0], ins[1]), dtype=target)

    return step


def call(func: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """``func(*args, **kwargs)`` replayed from its signature's plan, or ``MISS``."""
    if func in _NOT_REPLAYED:
        return MISS
    if _ARRAY is None:
        _import_late()
    for a in args:  # (no array operand: nothing known to replay from)
        t = type(a)
        if t is _ARRAY or t is list or t is tuple:
            break
    else:
        if not kwargs:
            return MISS  # np.cos(pi * k / n) in an element loop
    limit = config.eager_max_elements
    if limit <= 0:
        return MISS
    out_at = _OUT_AT.get(func)
    if out_at is None:
        out_at = _OUT_AT[func] = _out_position(func)
    if kwargs.get("out") is not None or (0 <= out_at < len(args) and args[out_at] is not None):
        return MISS  # a call that writes into out= is run, not replayed
    raw: list[np.ndarray] = []
    views = _VIEWS_OK.get(func)
    if views is None:
        views = _VIEWS_OK[func] = _reads_no_layout(func)
    placed = _devices.placed  # (one read: empty unless something was ever placed)
    try:
        entries = []
        for a in args:  # (inline for the common case: a known array, not a view)
            if type(a) is _ARRAY and a._base is None:
                v = a._known
                if v is not None and not v.flags.writeable:
                    if placed and _devices.placement(v) is not None:
                        return MISS  # computed on its device
                    raw.append(v)
                    entries.append(a._cur.type)
                    continue
            entries.append(_describe(a, raw, views))
        sig = (tuple, tuple(entries))
        ksig = _describe(tuple(sorted(kwargs.items())), raw, views) if kwargs else ()
    except _Miss:
        return MISS
    if not raw:
        return MISS  # no array operand: nothing known to replay from
    key = (func, limit, sig, ksig)
    plan = _PLANS.get(key)
    if plan is None:
        plan = _record(func, args, kwargs, len(raw))
        if len(_PLANS) >= _PLANS_MAX:
            _PLANS.clear()
        _PLANS[key] = plan
    if plan is False:
        return MISS
    value = plan.run(raw)
    value.setflags(write=False)
    out = _ARRAY(_BIND_VALUE(value, plan.out_type))
    out._known = value
    return out


#: function -> the position of its ``out`` parameter (-1: none, or keyword-only)
_OUT_AT: dict[Any, int] = {}
#: _ufunc.out_position (read by _import_late)
_out_position: Any = None


#: function -> whether its result never depends on an operand's memory layout
_VIEWS_OK: dict[Any, bool] = {}


def _reads_no_layout(func: Callable[..., Any]) -> bool:
    """Whether ``func`` has no ``order`` parameter: its results do not depend on
    whether an operand is a view (``ravel(a, "K")`` does: a view's layout is not
    in its type, so a plan recorded on a stand-in would not be its plan)."""
    try:
        return "order" not in inspect.signature(func).parameters
    except (TypeError, ValueError):
        return False


def _describe(obj: Any, raw: list[np.ndarray], views: bool) -> Any:
    """The signature entry of an argument: a known array's type (its value goes
    to ``raw``), a static value with its class, or a tuple/list of entries."""
    t = type(obj)
    if t is _ARRAY:
        if obj._base is not None and not views:
            raise _Miss
        var = obj._var
        if var.owner is not None:
            raise _Miss
        value = _KNOWN_VALUE(var)
        if value is None:
            raise _Miss
        if _HAS_EXPRESSION(var):
            raise _Miss  # a rule may read its expression (the graph's path)
        raw.append(value)
        if obj._base is None:
            obj._known = value  # (the next call reads it from the array)
        return var.type
    if t is slice:  # (a slice is hashable from Python 3.12 only: its parts are)
        return (t, tuple(_describe(p, raw, views) for p in (obj.start, obj.stop, obj.step)))
    if t in _STATIC:
        return (t, obj)
    if t is tuple or t is list:
        return (t, tuple(_describe(o, raw, views) for o in obj))
    raise _Miss


def _stand_in(obj: Any, made: list[Variable]) -> Any:
    """``obj`` with every known array replaced by a new array over a stand-in
    input of the same type (collected in ``made``)."""
    t = type(obj)
    if t is _ARRAY:
        var = obj._var.type.make_variable()
        made.append(var)
        return _ARRAY(var)
    if t is tuple or t is list:
        return t(_stand_in(o, made) for o in obj)
    return obj


def _record(
    func: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any], n_operands: int
) -> _Plan | bool:
    """Record ``func`` once on stand-ins and make its plan; False when the
    recording is not one a plan replays."""
    if getattr(func, "__module__", "").startswith("lazygraph.numpy.random"):
        return False
    made: list[Variable] = []
    stand_args = _stand_in(args, made)
    stand_kwargs = {k: _stand_in(v, made) for k, v in kwargs.items()}
    arrays = _arrays((stand_args, stand_kwargs))
    try:
        out = func(*stand_args, **stand_kwargs)
    except Exception:  # the ordinary call raises it again, with its message
        return False
    if type(out) is not _ARRAY or out._base is not None or any(out is a for a in arrays):
        if type(out) not in (_ARRAY, tuple, list) or (
            type(out) is _ARRAY and out._base is not None
        ):
            # (a view, ``a.T``: computed at once from the base's value, and a
            # view must keep its base, which a plan's new array would not)
            # numpy data or a Python value (compute, tolist, item): no signature
            # of this function gives an array to replay
            _NOT_REPLAYED.add(func)
        return False  # not one new array (a view, a tuple, a Python value, an operand)
    if any(a._cur is not v or a._version for a, v in zip(arrays, made, strict=True)):
        return False  # it wrote to an operand
    var = out._cur
    if var.owner is None:  # computed while recording: it reads no operand's value
        value = _BOUND_DATA.get(var)
        if value is None or value.flags.writeable or var in made:
            return False
        return _Plan([], var.type, value)
    steps = _steps(var, made)
    if steps is None or len(made) != n_operands:
        return False
    if len(steps) == 1 and type(steps[0][0].op) is _ELEMWISE:
        # one elementwise node: the elementwise lane's (Python scalars by class),
        # which computes it in less time than a signature takes to describe
        _NOT_REPLAYED.add(func)
        return False
    return _Plan(steps, var.type)


def _arrays(obj: Any) -> list[Any]:
    if type(obj) is _ARRAY:
        return [obj]
    if type(obj) in (tuple, list):
        return [a for o in obj for a in _arrays(o)]
    if type(obj) is dict:
        return [a for o in obj.values() for a in _arrays(o)]
    return []


def _steps(out: Variable, inputs: list[Variable]) -> list[tuple[Apply, tuple[Any, ...]]] | None:
    """The nodes from ``inputs`` to ``out`` in an order that runs them, each with
    its input sources; None unless every node qualifies and every leaf is an
    input or a constant."""
    slot = {v: i for i, v in enumerate(inputs)}
    order: list[Apply] = []
    seen: set[Variable] = set()
    stack: list[tuple[Variable, bool]] = [(out, False)]
    while stack:
        var, expanded = stack.pop()
        node = var.owner
        if expanded:
            order.append(node)  # type: ignore[arg-type]
            continue
        if var in seen:
            continue
        seen.add(var)
        if node is None:
            if var not in slot and not isinstance(var, Constant):
                return None  # a value captured while recording
            continue
        if not _QUALIFIES(node) or len(order) > 64:
            return None
        stack.append((var, True))
        stack.extend((v, False) for v in node.inputs)
    if not order:
        return None
    steps = []
    for n, node in enumerate(order):  # node n's output is value len(inputs) + n
        sources = tuple(v if isinstance(v, Constant) else slot[v] for v in node.inputs)
        slot[node.outputs[0]] = len(inputs) + n
        steps.append((node, sources))
    return steps


_ARRAY: Any = None
_BOUND_DATA: Any = None
_BIND_VALUE: Any = None
_KNOWN_VALUE: Any = None
_QUALIFIES: Any = None
_RUN_NODE: Any = None
_ELEMWISE: Any = None
_MATMUL: Any = None
_HAS_EXPRESSION: Any = None


def _import_late() -> None:
    """The modules this one reads (they import the namespace, which imports this)."""
    global _ARRAY, _BOUND_DATA, _BIND_VALUE, _KNOWN_VALUE, _QUALIFIES, _RUN_NODE, _ELEMWISE
    global _HAS_EXPRESSION, _MATMUL, _out_position
    from lazygraph.numpy import _convert, _eager, _expressions, _ufunc
    from lazygraph.numpy._array import Array
    from lazygraph.tensor.blas import MatMul
    from lazygraph.tensor.elemwise import Elemwise

    _BOUND_DATA, _BIND_VALUE = _convert._BOUND, _convert.bind_value
    _KNOWN_VALUE, _QUALIFIES, _RUN_NODE = _eager.known_value, _eager._qualifies, _eager.run_node
    _ELEMWISE, _MATMUL = Elemwise, MatMul
    _HAS_EXPRESSION = _expressions.has_expression
    _ARRAY = Array
    _out_position = _ufunc.out_position
