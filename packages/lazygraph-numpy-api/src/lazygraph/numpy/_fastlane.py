"""numpy's own ufunc for elementwise calls on known values.

The elementwise lane (:func:`lazygraph.numpy._eager.elementwise`) computes a
call on known small operands without recording a node, through the Op's
``perform``: a few microseconds of lookups, conversions and checks around one
numpy call. Most of those calls are a plain ufunc row (``add``, ``less``,
``exp``) on operands whose types numpy converts exactly as the graph does, so
``perform`` *is* one call of the ufunc on the operands as they are. This module
keeps, per function and operand kinds (each array's dtype, each Python
scalar's class), whether that holds, and when it does calls the ufunc itself.

What qualifies is decided by the lane on the first call of each kind
(:func:`learn`): the scalar op's ``perform`` is a plain call of its ufunc on
these dtypes (:meth:`ScalarOp.plain_ufunc`), a Python ``int`` operand
meets only float, complex or ``int64`` arrays (numpy refuses an ``int`` out
of a narrower type's range, where the graph wraps it), and the ufunc's own
result on these operands has the lane's dtype and bytes. Every later call of
that kind is then exactly the lane's: the same ufunc loop on the same values,
floating-point errors reported as the lane reports them. A value a stabilising rule
may read through (``exp(x)``; ``1 + x`` where a Python scalar operand is 1,
asked per call) keeps its node as its expression, as the lane's does.

The operands' values are read from :attr:`Array._known` (set when this lane or
an element read first looked the value up, cleared when the array is
rebound); a view its base was written through since, a pending array, a
caller's writeable buffer or a value placed on a device takes the lane's full
checks.

>>> import numpy
>>> import lazygraph.numpy as lnp
>>> x = lnp.asarray(numpy.array([1.0, 2.0]))
>>> y = x - 0.5  # the lane: decides that subtract(float64, float) is a plain ufunc call
>>> z = x - 0.25  # numpy's subtract, called directly
>>> z.compute(), z._var.owner is None
(array([0.75, 1.75]), True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from lazygraph.compile.devices import devices as _devices
from lazygraph.configuration import config
from lazygraph.numpy._fpstate import defer_report
from lazygraph.tensor.fperrors import call_quietly, call_watched, collect, report, reporting
from lazygraph.tensor.scalar import ScalarOp

__all__: list[str] = []

#: (tensor function, operand kinds...) -> (Elemwise op, its ufunc, result dtype,
#: its type name, when it is the inner node of a rule: _NEVER, _WITH_A_ONE (a
#: Python scalar operand 1) or _ALWAYS), or False where the lane computes it
_DIRECT: dict[tuple[Any, ...], Any] = {}
_DIRECT_MAX = 4096

_WEAK = (float, complex, bool)
_SCALARS = {bool, int, float, complex}
_NEVER, _WITH_A_ONE, _ALWAYS = 0, 1, 2

#: what :func:`call` returns for a kind not decided yet
UNDECIDED: Any = object()
_INT64_MIN, _INT64_MAX = -(2**63), 2**63 - 1
_INT64 = np.dtype(np.int64)


def _kinds(fn: Callable[..., Any], args: Sequence[Any]) -> tuple[tuple[Any, ...], list[Any]] | None:
    """The key of ``fn`` on ``args`` and the values the ufunc takes, when every
    operand is a known array (not a view), a numpy scalar or a Python scalar;
    None otherwise (a value placed on a device is computed there)."""
    placed = _devices.placed  # (one read: empty unless something was ever placed)
    key: list[Any] = [fn]
    values: list[Any] = []
    for a in args:
        t = type(a)
        if t is _ARRAY:
            if a._base is not None and not _up_to_date(a):
                return None  # (a view its base has been written through since)
            v = a._known
            if v is None or v.flags.writeable:
                v = _learn_value(a)
                if v is None:
                    return None
            if placed and _devices.placement(v) is not None:
                return None  # computed on its device
            key.append(v.dtype)
            values.append(v)
        elif t in _WEAK:
            key.append(t)
            values.append(a)
        elif t is int:
            if not _INT64_MIN <= a <= _INT64_MAX:
                return None
            key.append(t)
            values.append(a)
        elif isinstance(a, np.generic) and t is not np.object_:
            key.append(a.dtype)  # strong, as a 0-d array (NEP 50)
            values.append(a)
        else:
            return None
    return tuple(key), values


def _up_to_date(view: Any) -> bool:
    """Whether the view ``view`` still has its base's current variable (nothing
    was written through the base, or its own base, since): its variable's value
    is then the view's value (``Array._var`` would not rebind it)."""
    while view._base is not None:
        if view._base_version != view._base._version:
            return False
        view = view._base
    return True


def call(fn: Callable[..., Any], args: Sequence[Any]) -> Any:
    """``fn(*args)`` as a known Array computed by numpy's ufunc directly, when
    :func:`learn` has found that to be the lane's computation for these kinds of
    operands (numpy's scalar when every operand is a scalar, as the lane and
    numpy return); ``UNDECIDED`` when this kind has not been decided yet (the
    caller takes the lane and then calls :func:`learn`); None otherwise (the
    caller takes the lane)."""
    got = _kinds(fn, args)
    if got is None:
        return None
    key, values = got
    entry = _DIRECT.get(key)
    if not entry:
        return UNDECIDED if entry is None else None
    op, ufunc, dtype, name, inner = entry
    kept = _kept(inner, args) if inner else False
    if kept is None:
        return None
    limit = config.eager_max_elements
    shape = None  # of the operands with an axis, while they agree
    arrays = False
    for v in values:
        if type(v) is np.ndarray:
            arrays = True
            if v.size > limit:
                return None
            if not v.ndim:
                continue
            if shape is None:
                shape = v.shape
            elif v.shape != shape:
                try:  # the result is the broadcast shape: no larger than the limit
                    shape = np.broadcast_shapes(shape, v.shape)
                except ValueError:
                    return None  # the lane's recording raises numpy's error
                if _size(shape) > limit:
                    return None
    status = 0
    try:
        if reporting():  # floating-point errors: numpy's report for this call
            out, status = collect(ufunc, *values)
        else:
            out = call_quietly(ufunc, *values)
    except Exception:  # (int ** negative int) the lane raises it, naming the call
        return None
    if type(out) is not np.ndarray:
        if not arrays:  # scalars only: numpy's scalar
            if out.dtype != dtype:
                return None
            if status:
                report(status, ufunc.__name__)
            return out
        out = np.asarray(out)
    if out.dtype != dtype:
        return None
    out.setflags(write=False)
    var = _BIND_VALUE(out, _TYPE_OF(name, out.shape))
    if kept:
        _KEEP_NODE(var, op, args)
        if status:  # reported if the value itself is read, not a rule's form
            defer_report(var, status, ufunc.__name__)
        return _ARRAY(var)  # (not _known: a lane reading it asks for its expression)
    if status:
        report(status, ufunc.__name__)
    arr = _ARRAY(var)
    arr._known = out
    return arr


def _kept(inner: int, args: Sequence[Any]) -> bool | None:
    """For a kind of call whose op may be the inner node of a rule (``exp(x)``
    always, ``1 + x`` with a Python scalar 1): whether this call's value keeps
    its node as its expression; None when an operand is numpy data (the lane
    records such a node)."""
    kept = inner == _ALWAYS
    for a in args:
        if type(a) in _SCALARS:
            if a == 1:
                kept = True
        elif type(a) is not _ARRAY:
            return None
    return kept


def call_into(fn: Callable[..., Any], args: Sequence[Any], target: np.ndarray) -> bool:
    """``fn(*args)`` written into ``target`` by numpy's ufunc (``out=target``),
    as numpy's ``y[k:] += v`` writes into ``y``: for an in-place operator on a
    view of a buffer an Array owns, whose first operand is ``target``'s
    current value. True when done: the kind of call is decided as one ufunc
    call (:func:`call`), its result has ``target``'s dtype, keeps no expression,
    and no other operand shares memory with ``target`` (``y[1:] += y[:-1]``
    takes the ordinary path); False otherwise, with nothing written."""
    got = _kinds(fn, args)
    if got is None:
        return False
    key, values = got
    entry = _DIRECT.get(key)
    if not entry:
        return False
    ufunc, dtype, inner = entry[1], entry[2], entry[4]
    if dtype != target.dtype or (inner and _kept(inner, args) is not False):
        return False  # (the inner node of a rule: its value keeps an expression)
    limit = config.eager_max_elements
    for v in values:
        if type(v) is np.ndarray:
            if v.size > limit:
                return False
            if v is not values[0] and np.may_share_memory(v, target):
                return False
    try:
        call_watched(ufunc, *values, target)  # (raises before writing: shapes, casting)
    except Exception:
        return False
    return True


def learn(
    fn: Callable[..., Any],
    args: Sequence[Any],
    op: Any,
    inner: Any,
    value: np.ndarray,
) -> None:
    """Decide, from one call the lane computed (``value``, with the lane's Elemwise
    ``op`` and its ``inner`` check), whether calls of this kind are numpy's ufunc
    called directly (see the module docstring)."""
    got = _kinds(fn, args)
    if got is None:
        return
    key, values = got
    if key in _DIRECT:
        return
    if len(_DIRECT) >= _DIRECT_MAX:
        _DIRECT.clear()
    _DIRECT[key] = _entry(op, inner, key, values, value)


def _entry(op: Any, inner: Any, key: tuple[Any, ...], values: list[Any], value: np.ndarray) -> Any:
    scalar_op = op.scalar_op
    if not isinstance(scalar_op, ScalarOp):
        return False
    kinds = key[1:]
    strong = [k for k in kinds if isinstance(k, np.dtype)]
    ufunc = scalar_op.plain_ufunc(strong)
    if ufunc is None or (scalar_op.row.cast_inputs and (int in kinds or bool in kinds)):
        return False
    if int in kinds and any(d.kind in "biu" and d != _INT64 for d in strong):
        return False  # numpy raises for an int out of a narrow type's range; the graph wraps
    try:
        direct = np.asarray(call_quietly(ufunc, *values))
    except Exception:
        return False
    same = (
        direct.dtype == value.dtype
        and direct.shape == value.shape
        and direct.tobytes() == value.tobytes()
    )
    if not same:
        return False
    name = _DTYPE_NAMES.get(value.dtype)
    if name is None:
        return False
    # exp, sigmoid: always an inner node of a rule; add, subtract, ...: where a
    # Python scalar operand is 1
    rule = _NEVER if inner is None else _ALWAYS if inner([]) else _WITH_A_ONE
    return (op, ufunc, value.dtype, name, rule)


def _size(shape: tuple[int, ...]) -> int:
    n = 1
    for s in shape:
        n *= s
    return n


def _learn_value(a: Any) -> np.ndarray | None:
    """The value of the known array ``a`` when this lane may read it (read-only,
    on the host, with no expression a rule would read), kept in ``a._known``."""
    var = a._cur
    if var.owner is not None:
        return None
    value = _KNOWN_VALUE(var)
    if value is None or _HAS_EXPRESSION(var):
        return None
    a._known = value
    return value  # type: ignore[no-any-return]


_ARRAY: Any = None
_BIND_VALUE: Any = None
_TYPE_OF: Any = None
_DTYPE_NAMES: Any = None
_KNOWN_VALUE: Any = None
_HAS_EXPRESSION: Any = None
_KEEP_NODE: Any = None


def import_late() -> None:
    """The modules this one reads (they import this one)."""
    global _ARRAY, _BIND_VALUE, _TYPE_OF, _DTYPE_NAMES, _KNOWN_VALUE, _HAS_EXPRESSION, _KEEP_NODE
    from lazygraph.numpy import _convert, _eager, _expressions
    from lazygraph.numpy._array import Array

    _ARRAY, _BIND_VALUE = Array, _convert.bind_value
    _TYPE_OF, _DTYPE_NAMES = _convert.type_of, _convert._DTYPE_NAMES
    _KNOWN_VALUE, _HAS_EXPRESSION = _eager.known_value, _expressions.has_expression
    _KEEP_NODE = _eager.keep_node
