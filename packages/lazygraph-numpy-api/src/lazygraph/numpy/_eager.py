"""Small operations on known values run at once.

A node whose inputs are all known values (data from numpy, computed arrays,
constants) and whose result is small (``config.eager_max_elements``) is
computed when it is recorded, with its Op's ``perform`` (the reference every
backend is checked against), and the Array holds the value instead of a graph.
An element loop (``out[i] = out[i - 1] + x[i] * dt``, ``if x[i] * x[i - 1] < 0``)
then costs a few numpy calls per iteration, instead of a graph that grows by
one node per iteration or a compiled function per ``bool()``.

Only nodes that no rewrite would change the value of run at once: elementwise
functions, indexing, reductions, shape and creation ops, and among elementwise
functions not those a stabilising rewrite looks through
(:func:`lazygraph.tensor.rewriting.stabilize.may_be_stabilised`: ``exp``,
``sigmoid``, ``1 + x``), which stay in the graph so that ``log(1 + x)`` is still
``log1p(x)`` and ``log(sum(exp(x)))`` still a ``logsumexp``; their readers wait
with them. Large arrays stay lazy: their graphs fuse into compiled loops.

>>> import numpy
>>> import lazygraph.numpy as lnp
>>> x = lnp.asarray(numpy.array([1.0, 2.0]))
>>> (x * 2)._var.owner is None  # computed at once: a known value, no graph
True
>>> lnp.log(1 + x)._var.owner is not None  # log1p's pattern stays a graph
True
"""

from __future__ import annotations

import math
import sys
from typing import Any

import numpy as np
from lazygraph.configuration import config
from lazygraph.graph.basic import Apply, Constant, Variable
from lazygraph.tensor.creation import ARange
from lazygraph.tensor.elemwise import DimShuffle, Elemwise
from lazygraph.tensor.join import Join
from lazygraph.tensor.reduction import Reduce
from lazygraph.tensor.rewriting.canonicalize import is_constant_all
from lazygraph.tensor.rewriting.stabilize import may_be_stabilised
from lazygraph.tensor.scalar import ScalarOp
from lazygraph.tensor.shape import Alloc, Reshape
from lazygraph.tensor.subtensor import IncSubtensor, Subtensor
from lazygraph.tensor.variable import TensorVariable

__all__: list[str] = []

#: How many nodes below the result :func:`known` looks for ones to run at once
#: (a namespace function records a few nodes; deeper ones were looked at when
#: they were recorded).
DEPTH = 6

_OPS = (Elemwise, DimShuffle, Subtensor, IncSubtensor, Reduce, Reshape, Join, ARange, Alloc)


def known(var: TensorVariable) -> TensorVariable:
    """``var``, or a new graph input bound to its value when ``var`` (with the
    nodes below it that qualify) can run at once (see the module docstring)."""
    if var.owner is None or config.eager_max_elements <= 0:
        return var
    from lazygraph.numpy._convert import _BOUND, bind

    value = _value(var, _BOUND, {}, DEPTH)
    if value is None:
        return var
    if value.flags.writeable:
        value.setflags(write=False)
    return bind(value, copy=False)  # type: ignore[no-any-return]


def _value(var: Variable, bound: Any, memo: dict[Variable, Any], depth: int) -> Any:
    """``var``'s value if it is known or can be computed at once, else None."""
    if isinstance(var, Constant):
        return var.data
    node = var.owner
    if node is None:
        value = bound.get(var)
        if value is None or value.flags.writeable or _on_a_device(value):
            # a caller's buffer bound with copy=False (read when computed, after
            # the caller's later writes), or moved to a jax device (computed there)
            return None
        return value
    if var in memo:
        return memo[var]
    memo[var] = None
    if depth == 0 or not _qualifies(node):
        return None
    values = []
    for v in node.inputs:
        value = _value(v, bound, memo, depth - 1)
        if value is None:
            return None
        values.append(value)
    storage: list[list[Any]] = [[None]]
    op = node.op
    if type(op) is Elemwise:
        op.perform(node, values, storage)  # ignores floating-point errors itself
    else:
        with np.errstate(all="ignore"):
            op.perform(node, values, storage)
    out = storage[0][0]
    target = var.type.numpy_dtype  # type: ignore[attr-defined]
    if type(out) is not np.ndarray or out.dtype != target:
        out = np.asarray(out, dtype=target)
    if out.base is not None or any(out is v for v in values):
        out = out.copy()  # a view of an input (or the input): the result owns its value
    memo[var] = out
    return out


def _on_a_device(value: Any) -> bool:
    device_mod = sys.modules.get("lazygraph.backends.jax.device")
    if device_mod is None or not device_mod._placed:  # nothing was ever moved
        return False
    return device_mod.placement(value) is not None


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
        return isinstance(op.scalar_op, ScalarOp) and not may_be_stabilised(node)
    if isinstance(op, Alloc):
        # np.ones(n) stays a graph: folded to a constant, its ones feed the
        # stabilising rules' patterns (log(ones + x) is log1p(x))
        return not is_constant_all(node.inputs[0], 1)
    return True
