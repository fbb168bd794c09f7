"""``canonicalize`` rules on shapes, layouts, indexing and reductions: nodes
that do nothing are removed, two nodes that compose into one become one, and
shapes known when the graph is built become constants. All are exact.

>>> import lazygraph.tensor as lt
>>> from lazygraph.graph.fg import FunctionGraph
>>> from lazygraph.rewriting.navigators import EquilibriumGraphRewriter
>>> x = lt.dmatrix("x")
>>> fg = FunctionGraph([x], [lt.transpose(lt.transpose(x))], clone=False)
>>> EquilibriumGraphRewriter([dimshuffle_dimshuffle]).rewrite(fg)
>>> fg.outputs[0] is x
True
"""

from __future__ import annotations

from typing import Any

import numpy as np

from lazygraph.graph.basic import Apply, Variable
from lazygraph.graph.fg import FunctionGraph
from lazygraph.rewriting.basic import node_rewriter
from lazygraph.tensor.broadcast import Alloc
from lazygraph.tensor.dimshuffle import DimShuffle
from lazygraph.tensor.elemwise import Elemwise
from lazygraph.tensor.indexing import INPUT, Slice
from lazygraph.tensor.reduction import Reduce
from lazygraph.tensor.rewriting.canonicalize import (
    as_type_of,
    elemwise,
    register_canonicalize,
    scalar_name,
)
from lazygraph.tensor.shape import Reshape, Shape, Shape_i, vector_entries
from lazygraph.tensor.subtensor import Subtensor
from lazygraph.tensor.variable import constant

__all__ = [
    "dimshuffle_dimshuffle",
    "reshape_reshape",
    "shape_i_of_static",
    "shape_of_static",
    "shape_subtensor",
    "subtensor_newaxis",
    "subtensor_subtensor",
    "sum_sum",
    "useless_alloc",
    "useless_cast",
    "useless_dimshuffle",
    "useless_reshape",
    "useless_second",
]


def _replace(new: Variable, old: Variable) -> list[Variable] | None:
    converted = as_type_of(new, old)
    return None if converted is None else [converted]


# -- layouts -------------------------------------------------------------------


@node_rewriter([DimShuffle])
def dimshuffle_dimshuffle(fgraph: FunctionGraph, node: Apply) -> list[Variable] | None:
    """ds2(ds1(x)) -> ds(x), the composed reordering; x itself when it is the
    identity (a double transpose)."""
    inner = node.inputs[0].owner
    if inner is None or not isinstance(inner.op, DimShuffle):
        return None
    first, second = inner.op.new_order, node.op.new_order
    composed = tuple("x" if o == "x" else first[o] for o in second)
    x = inner.inputs[0]
    if composed == tuple(range(inner.op.input_ndim)):
        return _replace(x, node.outputs[0])
    return _replace(DimShuffle(inner.op.input_ndim, composed)(x), node.outputs[0])


@node_rewriter([DimShuffle])
def useless_dimshuffle(fgraph: FunctionGraph, node: Apply) -> list[Variable] | None:
    """DimShuffle{0, 1, ..., n-1}(x) -> x."""
    if node.op.new_order != tuple(range(node.op.input_ndim)):
        return None
    return _replace(node.inputs[0], node.outputs[0])


def _is_own_size(entry: Any, x: Variable, axis: int) -> bool:
    """Whether a shape entry is certainly ``x.shape[axis]``."""
    static = x.type.shape[axis]  # type: ignore[attr-defined]
    if isinstance(entry, int):
        return static is not None and entry == static
    owner = getattr(entry, "owner", None)
    return (
        owner is not None
        and isinstance(owner.op, Shape_i)
        and owner.op.i == axis
        and owner.inputs[0] is x
    )


@node_rewriter([Reshape])
def useless_reshape(fgraph: FunctionGraph, node: Apply) -> list[Variable] | None:
    """reshape(x, x.shape) -> x (each size constant and equal to x's static one, or
    read from x; one -1 may stand for the size left)."""
    x, shp = node.inputs
    if node.op.ndim != x.type.ndim:  # type: ignore[attr-defined]
        return None
    entries = vector_entries(shp)
    unmatched = [i for i, e in enumerate(entries) if not _is_own_size(e, x, i)]
    if len(unmatched) > 1:
        return None
    if unmatched:
        e = entries[unmatched[0]]
        if not (isinstance(e, int) and e < 0):
            return None
        # numpy rejects a -1 beside a zero size: only static non-zero sizes around it
        others = [x.type.shape[i] for i in range(len(entries)) if i != unmatched[0]]  # type: ignore[attr-defined]
        if any(s is None or s == 0 for s in others):
            return None
    return _replace(x, node.outputs[0])


@node_rewriter([Reshape])
def reshape_reshape(fgraph: FunctionGraph, node: Apply) -> list[Variable] | None:
    """reshape(reshape(x, s1), s2) -> reshape(x, s2) (C order throughout)."""
    inner = node.inputs[0].owner
    if inner is None or not isinstance(inner.op, Reshape):
        return None
    return _replace(node.op(inner.inputs[0], node.inputs[1]), node.outputs[0])


@node_rewriter([Elemwise])
def useless_cast(fgraph: FunctionGraph, node: Apply) -> list[Variable] | None:
    """cast(x, x.dtype) -> x."""
    if scalar_name(node) != "cast":
        return None
    (x,) = node.inputs
    if x.type.dtype != node.outputs[0].type.dtype:  # type: ignore[attr-defined]
        return None
    return _replace(x, node.outputs[0])


@node_rewriter([Alloc])
def useless_alloc(fgraph: FunctionGraph, node: Apply) -> list[Variable] | None:
    """broadcast_to(x, x.shape) -> x (each size x's static one, or read from x)."""
    x, *sizes = node.inputs
    if len(sizes) != x.type.ndim:  # type: ignore[attr-defined]
        return None
    for axis, size in enumerate(sizes):
        entry = int(size.data) if hasattr(size, "data") else size
        if not _is_own_size(entry, x, axis):
            return None
    return _replace(x, node.outputs[0])


@node_rewriter([elemwise("second")])
def useless_second(fgraph: FunctionGraph, node: Apply) -> list[Variable] | None:
    """second(a, b) -> b when ``a`` cannot enlarge ``b`` (every size of the result
    is a known size of ``b``, or ``a`` has size 1 there)."""
    a, b = node.inputs
    out = node.outputs[0]
    ndim = out.type.ndim  # type: ignore[attr-defined]
    if b.type.ndim != ndim or b.type.dtype != out.type.dtype:  # type: ignore[attr-defined]
        return None
    a_shape = (1,) * (ndim - a.type.ndim) + tuple(a.type.shape)  # type: ignore[attr-defined]
    for bs, as_ in zip(b.type.shape, a_shape, strict=True):  # type: ignore[attr-defined]
        if as_ != 1 and bs is None:
            return None
    return _replace(b, out)


register_canonicalize(dimshuffle_dimshuffle)
register_canonicalize(useless_dimshuffle)
register_canonicalize(useless_reshape)
register_canonicalize(reshape_reshape)
register_canonicalize(useless_cast)
register_canonicalize(useless_alloc)
register_canonicalize(useless_second)


# -- indexing ------------------------------------------------------------------


def _compose_axis(s1: Slice, e2: Any, length: int | None) -> Any:
    """The single index equal to ``[s1][e2]`` on an axis of ``length`` (None:
    unknown), as an int or a ``slice``; ``None`` when there is none that keeps
    the out-of-bounds errors the two indices raise."""
    if s1.is_full():
        return slice(e2.start, e2.stop, e2.step) if isinstance(e2, Slice) else e2
    if length is not None:
        r = range(length)[slice(s1.start, s1.stop, s1.step)]
        if isinstance(e2, int):
            return r[e2] if -len(r) <= e2 < len(r) else None
        r2 = r[slice(e2.start, e2.stop, e2.step)]
        if len(r2) == 0:
            return slice(0, 0, 1)
        stop = None if r2.stop < 0 else r2.stop
        return slice(r2.start, stop, r2.step)
    # Unknown length: only an offset-and-stride slice composes without knowing it.
    start, step = s1.start or 0, s1.step or 1
    if s1.stop is not None or start < 0 or step < 1:
        return None
    if isinstance(e2, int):
        # x[a::s][i] is in bounds exactly when x[a + i*s] is (for i >= 0)
        return start + e2 * step if e2 >= 0 else None
    b, c, t = e2.start or 0, e2.stop, e2.step or 1
    if b < 0 or t < 1 or (c is not None and c < 0):
        return None
    return slice(start + b * step, None if c is None else start + c * step, step * t)


def _plain_entries(op: Subtensor, ndim: int) -> list[Any] | None:
    """The op's index padded to ``ndim`` entries of ints and Slices, or ``None``
    when it has symbolic parts, new axes or an Ellipsis."""
    entries = list(op.idx_list)
    for e in entries:
        if e is INPUT or e is None or e is Ellipsis:
            return None
        if isinstance(e, Slice) and any(p is INPUT for p in e.parts()):
            return None
    return entries + [Slice()] * (ndim - len(entries))


@node_rewriter([Subtensor])
def subtensor_subtensor(fgraph: FunctionGraph, node: Apply) -> list[Variable] | None:
    """x[i1][i2] -> x[i] with one composed index (constant ints and slices)."""
    import lazygraph.tensor as lt

    inner = node.inputs[0].owner
    if inner is None or not isinstance(inner.op, Subtensor):
        return None
    x = inner.inputs[0]
    first = _plain_entries(inner.op, x.type.ndim)  # type: ignore[attr-defined]
    second = _plain_entries(node.op, node.inputs[0].type.ndim)  # type: ignore[attr-defined]
    if first is None or second is None:
        return None
    composed: list[Any] = []
    outer = iter(second)
    for axis, e1 in enumerate(first):
        if isinstance(e1, int):
            composed.append(e1)
            continue
        e = _compose_axis(e1, next(outer), x.type.shape[axis])  # type: ignore[attr-defined]
        if e is None:
            return None
        composed.append(e)
    try:
        new = lt.getitem(x, tuple(composed))
    except (IndexError, ValueError):
        return None
    return _replace(new, node.outputs[0])


@node_rewriter([Subtensor])
def subtensor_newaxis(fgraph: FunctionGraph, node: Apply) -> list[Variable] | None:
    """x[:, None] -> DimShuffle{0, x}(x): an index of only ``:`` and ``None`` adds
    axes, which is what DimShuffle does (and the other rules understand)."""
    entries = node.op.idx_list
    if not entries or any(
        not (e is None or (isinstance(e, Slice) and e.is_full())) for e in entries
    ):
        return None
    x = node.inputs[0]
    ndim = x.type.ndim  # type: ignore[attr-defined]
    axes = iter(range(ndim))
    order: list[Any] = ["x" if e is None else next(axes) for e in entries]
    order.extend(axes)
    return _replace(DimShuffle(ndim, order)(x), node.outputs[0])


register_canonicalize(subtensor_subtensor)
register_canonicalize(subtensor_newaxis)


# -- shapes --------------------------------------------------------------------


@node_rewriter([Shape])
def shape_of_static(fgraph: FunctionGraph, node: Apply) -> list[Variable] | None:
    """shape(x) -> a constant, when x's static shape is fully known."""
    static = node.inputs[0].type.shape  # type: ignore[attr-defined]
    if any(s is None for s in static):
        return None
    return _replace(constant(np.array(static, dtype="int64")), node.outputs[0])


@node_rewriter([Shape_i])
def shape_i_of_static(fgraph: FunctionGraph, node: Apply) -> list[Variable] | None:
    """x.shape[i] -> a constant, when that size is static."""
    size = node.inputs[0].type.shape[node.op.i]  # type: ignore[attr-defined]
    if size is None:
        return None
    return _replace(constant(size, dtype="int64"), node.outputs[0])


@node_rewriter([Subtensor])
def shape_subtensor(fgraph: FunctionGraph, node: Apply) -> list[Variable] | None:
    """shape(x)[i] -> Shape_i(x) (so ``x.shape[0]`` is recognised as x's own size)."""
    owner = node.inputs[0].owner
    if owner is None or not isinstance(owner.op, Shape) or len(node.op.idx_list) != 1:
        return None
    (i,) = node.op.idx_list
    ndim = owner.inputs[0].type.ndim  # type: ignore[attr-defined]
    if not isinstance(i, int) or not -ndim <= i < ndim:
        return None
    return _replace(Shape_i(i % ndim)(owner.inputs[0]), node.outputs[0])


register_canonicalize(shape_of_static)
register_canonicalize(shape_i_of_static)
register_canonicalize(shape_subtensor)


# -- reductions ----------------------------------------------------------------


@node_rewriter([Reduce])
def sum_sum(fgraph: FunctionGraph, node: Apply) -> list[Variable] | None:
    """sum(sum(x, a1), a2) -> sum(x, a1 ∪ a2), with the accumulation dtype unchanged
    (numpy fixes no summation order, so this is within its own freedom)."""
    outer = node.op
    inner_node = node.inputs[0].owner
    if outer.kind != "sum" or inner_node is None or not isinstance(inner_node.op, Reduce):
        return None
    inner = inner_node.op
    if inner.kind != "sum" or inner.dtype != outer.dtype:
        return None
    if node.inputs[0].type.dtype != node.outputs[0].type.dtype:  # type: ignore[attr-defined]
        return None
    x = inner_node.inputs[0]
    ndim = x.type.ndim  # type: ignore[attr-defined]
    # where each axis of x is in the inner result (None: reduced away)
    position: list[int | None] = []
    for a in range(ndim):
        if a in inner.axis and not inner.keepdims:
            position.append(None)
        else:
            position.append(a if inner.keepdims else a - sum(i < a for i in inner.axis))
    union = set(inner.axis) | {a for a in range(ndim) if position[a] in outer.axis}
    present = [
        position[a] is not None and (position[a] not in outer.axis or outer.keepdims)
        for a in range(ndim)
    ]
    axes = tuple(sorted(union))
    if all(present[a] for a in axes):
        new = Reduce("sum", axes, True, outer.dtype)(x)
    elif not any(present[a] for a in axes):
        new = Reduce("sum", axes, False, outer.dtype)(x)
    else:
        kept = Reduce("sum", axes, True, outer.dtype)(x)
        new = DimShuffle(ndim, tuple(a for a in range(ndim) if present[a]))(kept)
    return _replace(new, node.outputs[0])


register_canonicalize(sum_sum)
