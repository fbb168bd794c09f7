"""Computing lazy arrays: ``Array.compute()`` and :func:`compute` (several
outputs of one graph in one compiled call).

A computation collects the graph inputs the outputs depend on, looks up their
bound values (see :mod:`lazygraph.numpy._convert`), and calls the function that
``lazygraph.compile.cache.cached_function`` compiles for the graph with the
backend ``lazygraph.config.backend``.

Every *live* :class:`~lazygraph.numpy.Array` that the computation passes
through (an intermediate some Python name still holds) is computed in the same
call and then *pinned*: rebound to a graph input holding its value. A loop that
materializes each iteration (``while err > tol: x = step(x)``) therefore builds
graphs of one iteration, not of all iterations so far, and the same compiled
function serves every iteration.

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

from collections.abc import Sequence
from typing import Any

import numpy as np
from lazygraph.graph.basic import Constant, Variable
from lazygraph.numpy._array import _LIVE, Array
from lazygraph.numpy._convert import _BOUND, bind

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


def compute_private(arr: Array) -> np.ndarray:
    """``arr``'s value for reading only (``arr`` is pinned to it)."""
    return _evaluate([arr], hand_out=False)[0]


def _collect(outputs: Sequence[Variable]) -> tuple[list[Variable], list[Variable]]:
    """The bound inputs ``outputs`` depend on, and the live intermediates on the way."""
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
            inputs.append(var)
            continue
        if var not in out_set:
            arr = _LIVE.get(var)
            if arr is not None and arr._cur is var:
                live.append(var)
        stack.extend(owner.inputs)
    return inputs, live


def _run(inputs: list[Variable], outputs: list[Variable]) -> list[np.ndarray]:
    from lazygraph.compile.cache import cached_function

    fn = cached_function(inputs, outputs)
    return [np.asarray(v) for v in fn(*(_BOUND[v] for v in inputs))]


def _evaluate(arrays: Sequence[Array], hand_out: bool) -> list[np.ndarray]:
    outputs = [a._var for a in arrays]
    results: dict[Variable, np.ndarray] = {}
    todo: list[Variable] = []
    for var in outputs:
        if isinstance(var, Constant):
            results[var] = np.asarray(var.data)
        elif var.owner is None and var in _BOUND:
            results[var] = _BOUND[var]
        elif var not in todo:
            todo.append(var)
    live: list[Variable] = []
    computed: list[np.ndarray] = []
    # Buffers someone else may write: the callers' (copy=False inputs) and ours handed out.
    foreign: set[int] = set()
    if todo:
        inputs, live = _collect(todo)
        foreign.update(id(_BOUND[v]) for v in inputs)
        computed = _run(inputs, todo + live)
        results.update(zip(todo, computed[: len(todo)], strict=True))

    values: list[np.ndarray] = []
    for var in outputs:
        value = results[var]
        if hand_out and (
            not value.flags.writeable or not value.flags.owndata or id(value) in foreign
        ):
            value = value.copy()
        if hand_out:
            foreign.add(id(value))
        values.append(value)

    for var, value in zip(live, computed[len(todo) :], strict=True):
        arr = _LIVE.get(var)
        if arr is not None:
            arr._pin(_freeze(value, foreign), var)
    if not hand_out:
        for i, (arr, var) in enumerate(zip(arrays, outputs, strict=True)):
            if var.owner is not None:
                pinned = _freeze(values[i], foreign)
                arr._pin(pinned, var)
                values[i] = _BOUND[pinned]
    return values


def _freeze(value: np.ndarray, foreign: set[int]) -> Variable:
    """A bound input holding ``value``, made read-only (copied first if another
    owner may write to it)."""
    if value.flags.writeable:
        if not value.flags.owndata or id(value) in foreign:
            value = value.copy()
        value.setflags(write=False)
    return bind(value, copy=False)
