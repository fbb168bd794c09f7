"""Concrete sizes for numpy code: the shape of an :class:`~lazygraph.numpy.Array`
whose sizes depend on the data (after a boolean mask, ``nonzero``, ``unique``),
computed when numpy code asks for it, and only the sizes where the ops'
``infer_shape`` can give them.

>>> import numpy as np
>>> import lazygraph.numpy as lnp
>>> x = lnp.asarray(np.array([3.0, -1.0, 4.0]))
>>> concrete_shape(x[x > 0])
(2,)
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

import lazygraph.tensor as lt
import numpy as np
from lazygraph.graph.basic import Constant, Variable

if TYPE_CHECKING:
    from lazygraph.numpy._array import Array

__all__: list[str] = []


def _bound() -> Any:
    """The registry of bound values (``_convert._BOUND``; _convert imports
    _array, which imports this module: read at the first call)."""
    global _BOUND
    if _BOUND is None:
        from lazygraph.numpy import _convert

        _BOUND = _convert._BOUND
    return _BOUND


_BOUND: Any = None


# -- concrete sizes ------------------------------------------------------------

#: how many nodes deep :func:`_shape_of` follows the ops' ``infer_shape`` before
#: it reads a variable's own sizes (which computes that variable)
_SHAPE_DEPTH = 64


def computable(var: Variable) -> bool:
    """Whether ``var``'s value can be computed now: every graph input it depends on
    holds a value. Inside a function being traced (``lazygraph.jit``, ``grad``)
    the arguments are placeholders without one.

    >>> import lazygraph.tensor as lt
    >>> computable(lt.constant(2.0) * 3), computable(lt.dscalar("x") * 3)
    (True, False)
    """
    from lazygraph.graph.traversal import graph_inputs

    bound = _bound()
    return all(isinstance(v, Constant) or v in bound for v in graph_inputs([var]))


def concrete_shape(arr: Array) -> tuple[int | None, ...]:
    """``arr``'s shape with an int for every size, as numpy code expects one.

    A size that depends on the data (after a boolean mask, ``nonzero``,
    ``unique``) is computed now, and only it: the ops' ``infer_shape`` give
    each size as a small graph of the inputs (the count of ``True`` of a mask,
    not the masked elements). Where an op gives none, or where ``arr`` is one
    node of known inputs (its value costs what its count would), ``arr`` itself
    is computed (and keeps its value). ``None`` remains only for an array that
    cannot be computed (a placeholder of a function being traced).

    >>> import numpy as np
    >>> import lazygraph.numpy as lnp
    >>> x = lnp.asarray(np.array([3.0, -1.0, 4.0]))
    >>> x[x > 0]._static_shape, concrete_shape(x[x > 0])
    ((None,), (2,))
    """
    static = arr._cur.type.shape
    if None not in static:
        return static  # type: ignore[no-any-return]
    cur = arr._cur
    if cur.owner is None:
        value = _bound().get(cur)
        if value is None and isinstance(cur, Constant):
            value = cur.data
        return static if value is None else tuple(np.shape(value))  # type: ignore[no-any-return]
    known = arr._sizes
    if known is not None and known[0] is cur:
        return known[1]
    var = arr._var  # (a view: brought up to date with its base)
    if not computable(var):
        return static  # type: ignore[no-any-return]
    bound = _bound()
    if all(isinstance(v, Constant) or v in bound for v in var.owner.inputs):  # type: ignore[union-attr]
        # one node of known inputs (``z[z > 0.5]`` of data): its value costs
        # what its count would, and it is what the program reads next
        return tuple(arr._value().shape)
    entries = _inferred_shape(var, {}, 0)
    if entries is None:
        return tuple(arr._value().shape)  # only the value tells: computed and kept
    lazy = [e for e in entries if not isinstance(e, int)]
    values: Iterator[Any] = iter(())
    if lazy:
        from lazygraph.numpy._array import Array
        from lazygraph.numpy._compute import _evaluate

        values = iter(_evaluate([Array(lt.as_tensor_variable(e)) for e in lazy], hand_out=False))
    shape = tuple(e if isinstance(e, int) else int(next(values)) for e in entries)
    if arr._cur is var:
        arr._sizes = (var, shape)
    return shape


def _as_size(entry: Any) -> Any:
    """A size from an op's ``infer_shape``: a Python int when it is known, else
    the scalar variable that computes it."""
    if isinstance(entry, Constant):
        entry = np.asarray(entry.data)[()]
    if isinstance(entry, (int, np.integer)) and not isinstance(entry, (bool, np.bool_)):
        return int(entry)
    if not isinstance(entry, Variable):
        raise TypeError(f"not a size: {entry!r}")
    return entry


def _inferred_shape(var: Variable, memo: dict[Variable, Any], depth: int) -> tuple[Any, ...] | None:
    """``var``'s shape from its op's ``infer_shape`` over its inputs' shapes (see
    :func:`_shape_of`), static sizes as ints; None where the op gives none."""
    node = var.owner
    try:
        shapes = [_shape_of(v, memo, depth + 1) for v in node.inputs]  # type: ignore[union-attr]
        got = tuple(node.op.infer_shape(None, node, shapes)[var.index])  # type: ignore[union-attr]
        entries = tuple(_as_size(e) for e in got)
    except Exception:  # no infer_shape, or none for sizes like these: read the value
        return None
    static = var.type.shape  # type: ignore[attr-defined]
    if len(entries) != len(static):
        return None
    return tuple(e if s is None else int(s) for s, e in zip(static, entries, strict=True))


def _shape_of(var: Variable, memo: dict[Variable, Any], depth: int) -> tuple[Any, ...] | None:
    """``var``'s shape for an op's ``infer_shape``: ints where known when the
    graph was built or from a bound value, else sizes computed from the inputs
    (:func:`_inferred_shape`, up to :data:`_SHAPE_DEPTH` nodes down), else the
    variable's own sizes. None for an input that is not an array."""
    static = getattr(var.type, "shape", None)
    if static is None:
        return None
    if None not in static:
        return tuple(static)
    got = memo.get(var)
    if got is not None:
        return got  # type: ignore[no-any-return]
    shape: tuple[Any, ...] | None = None
    if var.owner is None:
        value = _bound().get(var)
        if value is not None:
            shape = tuple(value.shape)
    elif depth < _SHAPE_DEPTH:
        shape = _inferred_shape(var, memo, depth)
    if shape is None:
        shape = tuple(lt.shape_i(var, k) if s is None else s for k, s in enumerate(static))
    memo[var] = shape
    return shape
