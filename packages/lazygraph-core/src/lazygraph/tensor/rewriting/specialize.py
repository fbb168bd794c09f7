"""Rewrites of the ``specialize`` stage: cheaper ops for the same values.

One rule per identity (tags in brackets; every rule also has its own name as a tag):

- ``pow_specialize`` [fast_run]: the cheaper ops that give numpy's own bits.
  For real floats, numpy 2.4's ``power`` loop with a scalar exponent (stride 0:
  a 0-d exponent, or one element broadcast to more) computes ``x*x``, ``1/x``
  and ``sqrt(x)`` for exponents 2, -1 and 0.5, and C's ``pow`` otherwise: so
  ``x**2 -> square(x)``, ``x**-1 -> reciprocal(x)`` and ``x**0.5 -> sqrt(x)``
  there, and no other float power is rewritten (``x*x*x`` is not ``pow(x, 3)``
  to the bit). Whether numpy's ``x**0.5`` is ``sqrt`` at ``-0.0`` and ``-inf``
  is probed once per dtype; where it follows C's ``pow`` (``0.0`` and ``inf``)
  the rewrite adds a guard. Integers: ``x**2 -> square(x)`` and ``x**n``
  (``3 <= n <= 64``) by repeated squaring: ``x**10 =
  ((x*x)*(x*x))*((x*x)*(x*x))*(x*x)`` is four multiplies, wrapping exactly as
  numpy's power does (multiplication is exact modulo ``2**bits``). Complex
  powers are never rewritten: numpy's ``power`` (``npy_cpow``) multiplies in its
  own way, not as ``square`` does (the numpy API turns ``z**2`` into ``square``
  itself, as numpy's ``**`` operator does).
- ``pow_half_to_sqrt_unguarded`` [unsafe_nan, not in fast_run]: ``x**0.5 -> sqrt(x)``
  never guarded (``-0.0 -> -0.0`` and ``-inf -> nan`` whatever numpy's ``power`` does).
- ``sum_mul_to_matmul`` [fast_run]: ``sum(a * b, axis=k)`` where the product
  is a matrix-vector or (through inserted axes) a matrix-matrix product, for
  float operands of one dtype, becomes ``matmul``.
- ``matmul_of_transposes`` [fast_run]: ``matmul(a.T, b.T) -> matmul(b, a).T``
  for matrices (one transpose instead of two).
- ``matmul_outer_product`` [outer_product, not in fast_run]: ``matmul(a, b) ->
  a * b + 0`` for an (m, 1) by (1, n) product of real or integer operands
  (``+ 0`` for floats: numpy's matmul sums from zero, so ``-0.0`` products give
  ``+0.0``), which fusion then joins to its readers. Opt-in: inside numba's
  loop kernels it measured slower than the matmul it replaces.
- ``reduce_of_alloc`` [fast_run]: ``sum(broadcast_to(x, s), axis)`` sums ``x``
  over its own axes and multiplies by the number of copies; ``max``, ``min``,
  ``all`` and ``any`` of a broadcast reduce ``x`` only (when no copy count can be
  zero).

>>> import lazygraph.tensor as lt
>>> from lazygraph.graph.fg import FunctionGraph
>>> from lazygraph.rewriting.navigators import WalkingGraphRewriter
>>> x = lt.dvector("x")
>>> fg = FunctionGraph([x], [x**2])
>>> WalkingGraphRewriter(pow_specialize).rewrite(fg)
>>> fg.outputs[0].owner.op
Elemwise{square}
"""

from __future__ import annotations

import functools
import math
from typing import Any

import numpy as np

from lazygraph.graph.basic import Apply, Constant, Variable
from lazygraph.graph.fg import FunctionGraph
from lazygraph.rewriting.basic import node_rewriter
from lazygraph.rewriting.db import optdb
from lazygraph.tensor.blas import MatMul
from lazygraph.tensor.broadcast import Alloc
from lazygraph.tensor.dimshuffle import DimShuffle
from lazygraph.tensor.elemwise import Elemwise
from lazygraph.tensor.reduction import Reduce
from lazygraph.tensor.scalar import ScalarOp

__all__ = [
    "matmul_of_transposes",
    "matmul_outer_product",
    "pow_half_to_sqrt_unguarded",
    "pow_specialize",
    "reduce_of_alloc",
    "sum_mul_to_matmul",
]

#: The largest ``n`` that an integer ``x**n`` is expanded into multiplications for.
MAX_POWER_BY_SQUARING = 64


def _lt() -> Any:
    import lazygraph.tensor as lt

    return lt


def _is_scalar_op(node: Apply, name: str) -> bool:
    op = node.op
    return (
        isinstance(op, Elemwise)
        and isinstance(op.scalar_op, ScalarOp)
        and op.scalar_op.name == name
    )


def _single_value(var: Variable) -> Any:
    """The number a one-element constant holds, else ``None``."""
    if not isinstance(var, Constant):
        return None
    data = np.asarray(var.data)
    if data.size != 1 or data.dtype.kind not in "biuf":
        return None
    return data.item()


# -- powers ---------------------------------------------------------------------------


def _pow_operands(node: Apply) -> tuple[Any, Any, str] | None:
    """``(x cast to the output dtype, exponent, output dtype)`` for ``x ** c`` with a
    one-element constant ``c`` that does not change ``x``'s shape and that numpy's
    loop reads with stride 0 (0-d, or broadcast to more than one element: ``[x] **
    [2.0]`` is C's ``pow``); else ``None``."""
    if not _is_scalar_op(node, "pow"):
        return None
    x, c = node.inputs
    out = node.outputs[0]
    e = _single_value(c)
    if e is None or isinstance(e, bool):
        return None
    if out.type.shape != x.type.shape:  # type: ignore[attr-defined]
        return None  # the constant broadcasts x to more axes
    dtype = out.type.dtype  # type: ignore[attr-defined]
    if np.dtype(dtype).kind not in "iuf":
        return None
    shape = x.type.shape  # type: ignore[attr-defined]
    many = None not in shape and math.prod(shape) > 1
    if c.type.ndim != 0 and not many and np.dtype(dtype).kind == "f":  # type: ignore[attr-defined]
        return None  # maybe one element against one: numpy's loop calls pow
    lt = _lt()
    xd = x if x.type.dtype == dtype else lt.cast(x, dtype)  # type: ignore[attr-defined]
    return xd, e, dtype


def _power_by_squaring(x: Any, n: int) -> Any:
    """``x**n`` for ``n >= 1`` with about ``2 log2(n)`` multiplies."""
    lt = _lt()
    result = None
    square = x
    while True:
        if n & 1:
            result = square if result is None else lt.multiply(result, square)
        n >>= 1
        if not n:
            return result
        square = lt.multiply(square, square)


@functools.cache
def _power_half_is_sqrt(dtype: str) -> bool:
    """Whether numpy's ``power(array, 0.5)`` (a scalar exponent, as ``pow``'s
    ``perform`` calls it) already gives ``sqrt``'s ``-0.0`` and ``nan`` at ``-0.0``
    and ``-inf``: numpy 2.4 takes a ``sqrt`` fast path there, unlike C's ``pow``."""
    edges = np.array([-0.0, -np.inf, 2.0], dtype=dtype)
    with np.errstate(all="ignore"):
        got = np.power(edges, np.array(0.5, dtype=dtype))
        want = np.sqrt(edges)
    same_nan = np.array_equal(np.isnan(got), np.isnan(want))
    same_sign = np.array_equal(np.signbit(got), np.signbit(want))
    return bool(same_nan and same_sign and np.array_equal(got, want, equal_nan=True))


@node_rewriter([Elemwise])
def pow_specialize(fgraph: FunctionGraph | None, node: Apply) -> Any:
    """x**2 -> square(x); x**-1 -> reciprocal(x) (floats); x**0.5 -> guarded sqrt(x)
    (floats); x**n -> repeated squaring (integers, 3 <= n <= 64)."""
    found = _pow_operands(node)
    if found is None:
        return None
    xd, e, dtype = found
    lt = _lt()
    is_float = np.dtype(dtype).kind == "f"
    if e == 2:
        return [lt.square(xd)]
    if e == 0.5 and is_float:
        if _power_half_is_sqrt(dtype):
            return [lt.sqrt(xd)]
        # C's pow: (-0.0)**0.5 == 0.0 and (-inf)**0.5 == inf; sqrt gives -0.0 and nan.
        # Adding +0.0 turns -0.0 into 0.0 and changes nothing else.
        root = lt.sqrt(lt.add(xd, lt.constant(0.0, dtype=dtype)))
        neg_inf = lt.constant(-np.inf, dtype=dtype)
        return [lt.where(lt.equal(xd, neg_inf), lt.constant(np.inf, dtype=dtype), root)]
    if e == -1 and is_float:
        return [lt.reciprocal(xd)]
    if is_float or not 3 <= e <= MAX_POWER_BY_SQUARING:
        # numpy's float power is C's pow for other exponents: products differ in
        # the last bits; a negative power of an integer is numpy's error
        return None
    return [_power_by_squaring(xd, int(e))]


@node_rewriter([Elemwise])
def pow_half_to_sqrt_unguarded(fgraph: FunctionGraph | None, node: Apply) -> Any:
    """x**0.5 -> sqrt(x): differs from numpy at -0.0 (gives -0.0) and -inf (gives nan)."""
    found = _pow_operands(node)
    if found is None:
        return None
    xd, e, dtype = found
    if e == 0.5 and np.dtype(dtype).kind == "f":
        return [_lt().sqrt(xd)]
    return None


# -- sum of products -> matmul ----------------------------------------------------------


def _layout(var: Variable, ndim: int) -> tuple[Variable, tuple[int, ...]] | None:
    """``(base, axes)``: ``var`` is ``base`` with size-1 axes inserted (as a DimShuffle
    or numpy's left padding to ``ndim`` axes), ``base``'s axes landing at ``axes``
    of the ``ndim``-d broadcast, in order. ``None`` for anything else."""
    owner = var.owner
    if owner is not None and isinstance(owner.op, DimShuffle):
        order = owner.op.new_order
        kept = [o for o in order if o != "x"]
        if owner.op.drop or kept != sorted(kept):
            return None
        base = owner.inputs[0]
        lead = ndim - len(order)
        return base, tuple(lead + k for k, o in enumerate(order) if o != "x")
    lead = ndim - var.type.ndim  # type: ignore[attr-defined]
    return var, tuple(range(lead, ndim))


@node_rewriter([Reduce])
def sum_mul_to_matmul(fgraph: FunctionGraph | None, node: Apply) -> Any:
    """sum(a * b, axis=k) -> matmul when the product is a matrix-vector, vector-matrix,
    vector-vector or (with inserted axes) matrix-matrix product."""
    op = node.op
    assert isinstance(op, Reduce)
    if op.kind != "sum" or op.keepdims or len(op.axis) != 1:
        return None
    (prod,) = node.inputs
    if prod.owner is None or not _is_scalar_op(prod.owner, "multiply"):
        return None
    out = node.outputs[0]
    dtype = out.type.dtype  # type: ignore[attr-defined]
    if dtype not in ("float32", "float64") or op.dtype != dtype:
        return None
    a, b = prod.owner.inputs
    if a.type.dtype != dtype or b.type.dtype != dtype:  # type: ignore[attr-defined]
        return None
    ndim = prod.type.ndim  # type: ignore[attr-defined]
    (k,) = op.axis
    la, lb = _layout(a, ndim), _layout(b, ndim)
    if la is None or lb is None:
        return None
    (base_a, axes_a), (base_b, axes_b) = la, lb
    # the summed axis must be a real axis of both, of one known size (no broadcasting)
    if k not in axes_a or k not in axes_b:
        return None
    size_a = base_a.type.shape[axes_a.index(k)]  # type: ignore[attr-defined]
    size_b = base_b.type.shape[axes_b.index(k)]  # type: ignore[attr-defined]
    if size_a is None or size_a != size_b:
        return None
    lt = _lt()
    patterns = {
        # (product ndim, k, axes of the left operand, axes of the right one)
        (1, 0, (0,), (0,)),
        (2, 1, (0, 1), (1,)),
        (2, 0, (0,), (0, 1)),
        (3, 1, (0, 1), (1, 2)),
    }
    for left, right, lax, rax in (
        (base_a, base_b, axes_a, axes_b),
        (base_b, base_a, axes_b, axes_a),
    ):
        if (ndim, k, lax, rax) in patterns:
            result = lt.matmul(left, right)
            if result.type != out.type:
                return None
            return [result]
    return None


@node_rewriter([MatMul])
def matmul_of_transposes(fgraph: FunctionGraph | None, node: Apply) -> Any:
    """matmul(a.T, b.T) -> matmul(b, a).T for matrices."""
    a, b = node.inputs
    transposes = []
    for v in (a, b):
        owner = v.owner
        if owner is None or not isinstance(owner.op, DimShuffle) or owner.op.new_order != (1, 0):
            return None
        transposes.append(owner.inputs[0])
    x, y = transposes
    lt = _lt()
    result = lt.matrix_transpose(lt.matmul(y, x))
    if result.type != node.outputs[0].type:
        return None
    return [result]


@node_rewriter([MatMul])
def matmul_outer_product(fgraph: FunctionGraph | None, node: Apply) -> Any:
    """matmul(a, b) -> a * b + 0 for an (m, 1) by (1, n) product of reals.

    An outer product has one product per element and nothing to sum: as an
    elementwise multiply, fusion joins it to its readers (a gradient's
    ``outer(g, h)`` added to an accumulator becomes one loop, not a matrix
    written and read again). ``+ 0`` is the sum numpy's matmul starts from
    (``-0.0 * 1`` gives ``+0.0`` there); integers and bools need none. Complex
    products are left to matmul (BLAS may round them with fused multiply-adds).
    """
    a, b = node.inputs
    at, bt, out = a.type, b.type, node.outputs[0].type
    if at.ndim != 2 or bt.ndim != 2 or at.shape[1] != 1 or bt.shape[0] != 1:  # type: ignore[attr-defined]
        return None
    kind = out.numpy_dtype.kind  # type: ignore[attr-defined]
    if kind not in "biuf":
        return None
    lt = _lt()
    result = lt.multiply(a, b)
    if kind == "f":
        result = lt.add(result, lt.constant(np.zeros((), out.numpy_dtype)))  # type: ignore[attr-defined]
    if result.type != out:
        return None
    return [result]


# -- reductions of broadcasts -------------------------------------------------------------


@node_rewriter([Reduce])
def reduce_of_alloc(fgraph: FunctionGraph | None, node: Apply) -> Any:
    """sum(broadcast_to(x, s), axis) -> sum(x, x's axes in axis) * copies;
    max/min/all/any(broadcast_to(x, s), axis) -> the same reduction of x."""
    op = node.op
    assert isinstance(op, Reduce)
    if op.kind not in ("sum", "max", "min", "all", "any"):
        return None
    (alloc_out,) = node.inputs
    owner = alloc_out.owner
    if owner is None or not isinstance(owner.op, Alloc):
        return None
    value, *sizes = owner.inputs
    out_shape = alloc_out.type.shape  # type: ignore[attr-defined]
    vshape = value.type.shape  # type: ignore[attr-defined]
    lead = len(out_shape) - len(vshape)
    reduced = set(op.axis)
    copies: list[Any] = []  # sizes of broadcast axes that are summed
    value_axes = []  # axes of value that are reduced
    for d in range(len(out_shape)):
        if d < lead:
            broadcast = True
        else:
            v = vshape[d - lead]
            if v is None:
                return None  # may or may not broadcast at run time
            broadcast = v == 1 and out_shape[d] != 1
        if d not in reduced:
            if broadcast or (d >= lead and out_shape[d] is None):
                return None  # the result would still need the broadcast
            continue
        if d >= lead:
            value_axes.append(d - lead)
        if broadcast:
            copies.append(sizes[d])
    if not copies:
        return None
    lt = _lt()
    known = [_single_value(s) for s in copies]
    count_known_positive = all(c is not None and c > 0 for c in known)
    result = Reduce(op.kind, tuple(value_axes), op.keepdims, op.dtype, op.correction)(value)
    if op.keepdims and lead:
        result = lt.expand_dims(result, tuple(range(lead)))
    if op.kind == "sum":
        acc = result.type.dtype
        if count_known_positive:
            count = lt.constant(math.prod(int(c) for c in known), dtype=acc)
            result = lt.multiply(result, count)
        else:
            count = copies[0]
            for s in copies[1:]:
                count = lt.multiply(count, s)
            count = lt.cast(count, acc)
            product = lt.multiply(result, count)
            if np.dtype(acc).kind in "fc":
                # x * 0 is nan for infinite x; the sum of no copies is 0
                zero = lt.constant(0, dtype=acc)
                product = lt.where(lt.equal(count, zero), zero, product)
            result = product
    elif not count_known_positive:
        return None  # an empty broadcast would make max/min raise or all/any constant
    if result.type != node.outputs[0].type:
        return None
    return [result]


_specialize = optdb["specialize"]
_specialize.register("pow_specialize", pow_specialize, "fast_run")  # type: ignore[call-arg]
_specialize.register("pow_half_to_sqrt_unguarded", pow_half_to_sqrt_unguarded, "unsafe_nan")  # type: ignore[call-arg]
_specialize.register("sum_mul_to_matmul", sum_mul_to_matmul, "fast_run")  # type: ignore[call-arg]
_specialize.register("matmul_of_transposes", matmul_of_transposes, "fast_run")  # type: ignore[call-arg]
# opt-in (``Mode().including("outer_product")``): measured slower inside numba's
# loop kernels (an RNN gradient's backward body: 14.4 ms against 12.5 ms for
# 2,000 steps), where the matmul's own loop writes the product once
_specialize.register("matmul_outer_product", matmul_outer_product, "outer_product")  # type: ignore[call-arg]
_specialize.register("reduce_of_alloc", reduce_of_alloc, "fast_run")  # type: ignore[call-arg]
