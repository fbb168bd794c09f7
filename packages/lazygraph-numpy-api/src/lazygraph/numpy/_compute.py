"""Computing lazy arrays: ``Array.compute()`` and :func:`compute` (several
outputs of one graph in one compiled call).

A computation collects the graph inputs the outputs depend on, looks up their
bound values (see :mod:`lazygraph.numpy._convert`), and calls the function that
``lazygraph.compile.cache.cached_function`` compiles for the graph with the
backend ``lazygraph.config.backend``.

The computed arrays, and every *live* :class:`~lazygraph.numpy.Array` that the
computation passes through (an intermediate some Python name still holds,
computed in the same call), are then *pinned*: rebound to a graph input holding
their (read-only) value. A loop that materializes each iteration
(``while err > tol: x = step(x)``) therefore builds graphs of one iteration, not
of all iterations so far, and the same compiled function serves every iteration.
Values handed to the caller are copies the caller owns.

>>> import numpy as np
>>> import lazygraph.numpy as lnp
>>> x = lnp.asarray(np.array([1.0, 2.0, 3.0]))
>>> y = x * 2
>>> float(y[-1])
6.0
>>> y.compute()
array([2., 4., 6.])
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any

import numpy as np
from lazygraph.graph.basic import Apply, Constant, Variable, gc_paused
from lazygraph.numpy._array import _LIVE, Array
from lazygraph.numpy._convert import _BOUND, BoundVariable, bind_result, bind_value
from lazygraph.numpy._distributed import arguments, gathered, reads_dask
from lazygraph.numpy._eager import values_changed
from lazygraph.numpy._expressions import (
    EXPRESSION_DEPTH,
    expression_of,
    has_expression,
    keep_expression,
    pin_expression,
    rule_reads_expressions,
)
from lazygraph.numpy._fpstate import nonfinite, read, replay
from lazygraph.tensor.elemwise import Elemwise
from lazygraph.tensor.fperrors import kept_state, reporting, watching

__all__ = ["compute"]


def compute(*arrays: Any) -> tuple[Any, ...]:
    """The values of several lazy arrays, computed together in one compiled call.

    Returns a tuple with one ``numpy.ndarray`` per argument (other arguments are
    returned unchanged), like ``dask.compute``.

    >>> import numpy as np
    >>> import lazygraph.numpy as lnp
    >>> x = lnp.asarray(np.arange(4.0))
    >>> lo, hi = lnp.compute(x - 1, x + 1)
    >>> lo, hi
    (array([-1.,  0.,  1.,  2.]), array([1., 2., 3., 4.]))
    """
    positions = [i for i, a in enumerate(arrays) if isinstance(a, Array)]
    values = _evaluate([arrays[i] for i in positions], hand_out=True)
    out = list(arrays)
    for i, v in zip(positions, values, strict=True):
        out[i] = v
    return tuple(out)


def compute_one(arr: Array) -> np.ndarray:
    """``arr``'s value as a new, writeable ``numpy.ndarray``."""
    return _evaluate([arr], hand_out=True)[0]


def compute_pending(arrays: Sequence[Array]) -> None:
    """Compute ``arrays`` together, pinning them to their values (no copies)."""
    _evaluate(arrays, hand_out=False)


def compute_private(arr: Array) -> np.ndarray:
    """``arr``'s value for reading only (``arr`` is pinned to it)."""
    return _evaluate([arr], hand_out=False)[0]


def _collect(
    outputs: Sequence[Variable], expressions_read: bool = False
) -> tuple[list[Variable], list[Variable], set[Variable]]:
    """The bound inputs ``outputs`` depend on, the live intermediates on the way,
    and every variable the computation passes through. Where the graph reads
    values that keep an expression, it reads the expressions a rule needs
    first (:func:`_read_expressions`)."""
    inputs: list[Variable] = []
    live: list[Variable] = []
    seen: set[Variable] = set()
    stack = list(outputs)
    out_set = set(outputs)
    while stack:
        var = stack.pop()
        if var in seen:
            continue
        seen.add(var)
        owner = var.owner
        if owner is None:
            if isinstance(var, Constant):
                continue
            if var not in _BOUND:
                raise ValueError(
                    f"cannot compute: the result depends on {var}, a graph input with no "
                    "value (a placeholder of a traced function?)"
                )
            if not expressions_read and var._tag is not None and has_expression(var):
                _read_expressions(outputs)
                return _collect(outputs, expressions_read=True)
            read(var)  # (its errors, if reporting them waited for this)
            inputs.append(var)
            continue
        if var not in out_set:
            arr = _LIVE.get(var)
            if arr is not None and arr._cur is var:
                live.append(var)
        if isinstance(owner.op, Elemwise):
            _lift_literals(owner.inputs)
        stack.extend(owner.inputs)
    return inputs, live, seen


def _lift_literals(operands: list[Variable]) -> None:
    """Replace, in an elementwise node's ``operands``, each float literal that no
    rewrite looks for by a bound input holding it.

    ``x * dt`` or ``u < p`` with a Python number that changes from step to step
    of a loop would otherwise be a new graph, compiled again, at every step.
    The literals rewrites read (:data:`REWRITTEN_LITERALS`), infinities and
    NaN stay constants; a traced function (``jit``) keeps all of its
    constants. The value and type are the constant's, so results do not change.
    """
    for k, v in enumerate(operands):
        if isinstance(v, Constant) and _liftable(v.data):
            operands[k] = bind_value(v.data, v.type)  # type: ignore[arg-type]


#: the float literals a rewrite looks for: ``x + 0``, ``x * 1``, ``log(1 + x)``,
#: ``exp(x) - 1``, ``x ** 2``, ``x ** 0.5``, ``x ** -1`` (see the canonicalize,
#: stabilize and specialize stages); they stay constants
REWRITTEN_LITERALS = frozenset({0.0, 1.0, -1.0, 2.0, 0.5})


def _liftable(data: Any) -> bool:
    if not isinstance(data, np.ndarray) or data.ndim != 0 or data.dtype.kind != "f":
        return False
    value = float(data)
    return math.isfinite(value) and value not in REWRITTEN_LITERALS


def _read_expressions(outputs: Sequence[Variable]) -> None:
    """Make the graph of ``outputs`` read the expressions of the values it
    reads that keep one (see :func:`lazygraph.numpy._expressions.expression_of`)
    where a rule that changes values applies once it does (``log(e)`` of a
    computed ``e = exp(x)``): up to :data:`~lazygraph.numpy._expressions.EXPRESSION_DEPTH`
    nodes below such a node. Elsewhere the graph reads the values, which are
    not computed again."""
    reach: dict[Variable, int] = {}  # var -> how many levels below it read expressions
    stack = [(var, 0) for var in outputs]
    while stack:
        var, levels = stack.pop()
        known = reach.get(var)
        if known is not None and known >= levels:
            continue
        reach[var] = levels
        owner = var.owner
        if owner is None:
            continue
        if rule_reads_expressions(owner):
            levels = EXPRESSION_DEPTH
        ins = owner.inputs
        for k, inp in enumerate(ins):
            if levels > 0 and inp._tag is not None:
                expression = expression_of(inp)
                if expression is not None:
                    # the rewritten value the graph would have had all along
                    inp = ins[k] = expression[0]
            stack.append((inp, max(levels - 1, 0)))


def _readers(seen: set[Variable]) -> dict[Variable, list[tuple[Apply, int]]]:
    """The values this computation passes through (``seen``) that the graph of
    another array still to be computed reads: each with the (node, input
    position) pairs that read it.

    Such a value is computed once here and handed to its readers, so their
    graphs start from it. Without this, a loop that updates ``w`` after
    computing what it reads (``g = grad(w); w = w - lr * g; if norm(g) < tol``)
    grows ``w``'s graph by one step per iteration, never pinned, and compiles a
    longer graph every time.
    """
    readers: dict[Variable, list[tuple[Apply, int]]] = {}
    visited: set[Variable] = set()
    for arr in _recent_pending():
        stack = [(arr._cur, 0)]
        while stack:
            var, depth = stack.pop()
            if var in visited or var in seen:
                continue
            visited.add(var)
            node = var.owner
            if node is None or depth == READERS_DEPTH:
                continue
            for k, inp in enumerate(node.inputs):
                if inp in seen:
                    if inp.owner is not None:
                        readers.setdefault(inp, []).append((node, k))
                else:
                    stack.append((inp, depth + 1))
    return readers


#: :func:`_readers` looks at the most recently made arrays still to be computed,
#: this many, and this many nodes deep into each: a loop's next update is among
#: the newest arrays and a few nodes from its head. The bound keeps the look
#: cheap when a program holds many pending arrays; one it misses is only
#: recomputed from its inputs, as before.
READERS_ARRAYS = 64
READERS_DEPTH = 8


def _recent_pending() -> list[Array]:
    """The newest :data:`READERS_ARRAYS` arrays still to be computed."""
    refs = _LIVE.data  # the registry's own dict: insertion order, newest last
    # no collection during the walk: one would drop dead arrays from the dict
    # under it, and skipping the look then would make which values a later
    # graph starts from (so its structure, and whether it compiles) depend on
    # when the collector ran
    with gc_paused():
        newest = list(itertools.islice(reversed(refs.values()), READERS_ARRAYS))
    arrays = []
    for ref in newest:
        arr = ref()
        if arr is not None:
            arrays.append(arr)
    return arrays


def _run(inputs: list[Variable], outputs: list[Variable], dask: bool = False) -> list[np.ndarray]:
    # a Ctrl-C anywhere in the compile or the run leaves numpy's error state as
    # the user had it (see kept_state)
    with kept_state():
        return _run_kept(inputs, outputs, dask)


def _run_kept(inputs: list[Variable], outputs: list[Variable], dask: bool) -> list[np.ndarray]:
    from lazygraph.compile.cache import cached_function

    fn = cached_function(inputs, outputs)
    # Bound values are ndarrays of exactly their input's type: skip the checks.
    args = [_BOUND[v] for v in inputs]
    bound: Any = _BOUND
    if dask:
        # dask arrays (see _distributed): as they are on the dask backend, else gathered
        args, bound = arguments(inputs, args)
    reported = reporting()  # the kinds of floating-point error the user's state reports
    if not reported:
        return [np.asarray(v) for v in fn.call_trusted(*args)]
    with watching() as errors:
        values = [np.asarray(v) for v in fn.call_trusted(*args)]
    if errors.status & reported or (errors.unseen and nonfinite(values)):
        # something went wrong somewhere: numpy's warnings, for the nodes the
        # program recorded (see lazygraph.numpy._fpstate)
        replay(inputs, outputs, bound)
    return values


def _evaluate(arrays: Sequence[Array], hand_out: bool) -> list[np.ndarray]:
    """The values of ``arrays``: new writeable arrays (``hand_out``) or the
    read-only values they are pinned to."""
    outputs = [a._var for a in arrays]
    results: dict[Variable, np.ndarray] = {}
    todo: list[Variable] = []
    for var in outputs:
        if isinstance(var, Constant):
            results[var] = np.asarray(var.data)
        elif var.owner is None and var in _BOUND:
            read(var)
            results[var] = _BOUND[var]
            if type(var) is not BoundVariable:  # a dask array (see _distributed)
                results[var] = gathered(results[var], var.type.numpy_dtype)  # type: ignore[attr-defined]
        elif var not in todo:
            todo.append(var)
    if todo:
        inputs, live, seen = _collect(todo)
        readers = _readers(seen)
        done = set(todo) | set(live)
        wanted = todo + live + [v for v in readers if v not in done]
        dask = reads_dask(inputs)
        if dask:
            # over dask arrays only the arrays asked for are computed: the values on
            # the way would be brought to the client (see _distributed)
            wanted = todo
        # Buffers the caller may still write (inputs bound with copy=False).
        # (a dask array, bound by _distributed, is no caller's buffer)
        foreign = [
            a for a in (v.bound for v in inputs if type(v) is BoundVariable) if a.flags.writeable
        ]
        computed = _run(inputs, wanted, dask)
        # Pin what was computed: every output, and the live arrays on the way, so
        # that later graphs start from these values instead of recomputing them;
        # graphs still to be computed that read one of these values read it from
        # now on (the same value: nothing observable changes).
        for var, value in zip(wanted, computed, strict=True):
            if value.dtype != var.type.numpy_dtype:  # type: ignore[attr-defined]
                # A backend's scalar result can come back in a wider type.
                value = value.astype(var.type.numpy_dtype)  # type: ignore[attr-defined]
            pinned = _freeze(value, foreign, var.type)
            expression = pin_expression(var)
            if expression is not None:
                keep_expression(pinned, expression)
            arr = _LIVE.get(var)
            if arr is not None:
                arr._pin(pinned, var)
            for a, out in zip(arrays, outputs, strict=True):
                if out is var:
                    a._pin(pinned, var)
            for node, k in readers.get(var, ()):
                node.inputs[k] = pinned
            results[var] = _BOUND[pinned]
        values_changed()  # nodes left to the graph may now have known inputs
    if hand_out:
        return [results[var].copy() for var in outputs]
    return [results[var] for var in outputs]


def _freeze(value: np.ndarray, foreign: list[np.ndarray], vtype: Any) -> Variable:
    """A bound input holding ``value`` (of ``vtype``'s dtype), made read-only;
    copied first where it may share memory with a buffer the caller can still
    write (``foreign``: inputs bound without a copy). A result the backend made
    is frozen in place: a copy of it would cost a pass over memory per pinned
    value (Numba's arrays never say they own their data, so a test of
    ``owndata`` copied every one of them)."""
    if value.flags.writeable:
        if any(np.may_share_memory(value, buffer) for buffer in foreign):
            value = value.copy()
        value.setflags(write=False)
    return bind_result(value, vtype)
