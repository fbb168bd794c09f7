"""Rewrites of the ``canonicalize`` stage: algebraic identities that make a
graph smaller and put equal computations in one form, so merge finds them.

Each rule is one identity, registered in ``optdb["canonicalize"]`` under its
name with the tags ``fast_run`` and ``fast_compile``. A rule never changes an
output's dtype or static shape: where the simplified expression has another
dtype (``int8_x * 1.0`` is float64) it is cast, and where that cast would lose
information the rule does not fire.

Identities that can change where NaN or inf appear carry the tag
``unsafe_nan`` instead of ``fast_run``: they run only when asked for
(``Mode().including("unsafe_nan")``). ``x + 0.0 -> x`` for floats keeps
``-0.0`` where numpy gives ``+0.0``: it is tagged ``signed_zero`` only, and
runs only when that tag is asked for. ``changes_overflow`` marks rules that run
by default and give a finite result where the unrewritten graph overflowed to
inf or underflowed to 0 (switch them off by that tag).
``docs/rewrites.md`` lists every rule.

The shape, indexing and reduction rules are in
:mod:`lazygraph.tensor.rewriting.canonicalize_shape`.

>>> import lazygraph.tensor as lt
>>> from lazygraph.graph.fg import FunctionGraph
>>> from lazygraph.compile.function import rewrite_graph
>>> from lazygraph.compile.mode import Mode
>>> x = lt.dvector("x")
>>> fg = FunctionGraph([x], [-(-(x * 1.0))], clone=False)
>>> rewrite_graph(fg, Mode()).outputs[0] is x
True
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Sequence
from typing import Any

import numpy as np

from lazygraph.gradient.types import DisconnectedGrad, UndefinedGrad, ZeroGrad
from lazygraph.graph.basic import Apply, Constant, Variable
from lazygraph.graph.fg import FunctionGraph
from lazygraph.rewriting.basic import NodeRewriter, node_rewriter
from lazygraph.rewriting.db import optdb
from lazygraph.tensor.dimshuffle import DimShuffle
from lazygraph.tensor.elemwise import Elemwise
from lazygraph.tensor.scalar import ScalarOp, scalar_op
from lazygraph.tensor.type import TensorType

__all__ = [
    "add_chain_float",
    "add_chain_int",
    "add_order",
    "as_type_of",
    "constant_data",
    "elemwise",
    "elemwise_lift_dimshuffle",
    "exp_log",
    "log_exp",
    "mul_chain_float",
    "mul_chain_int",
    "mul_order",
    "neg_neg",
    "register_canonicalize",
    "scalar_name",
    "x_div_1",
    "x_minus_0",
    "x_mul_y_div_y",
    "x_plus_0",
    "x_plus_0_signed_zero",
    "x_times_1",
]


# -- helpers shared by the stage modules -----------------------------------------


@functools.lru_cache(maxsize=256)
def elemwise(name: str, *params: Any) -> Elemwise:
    """The (cached) ``Elemwise`` op of scalar row ``name``: what rules track.

    >>> elemwise("exp")
    Elemwise{exp}
    """
    return Elemwise(scalar_op(name, *params))


def scalar_name(node: Apply | None) -> str | None:
    """The scalar row name of an ``Elemwise`` node (not in-place), else ``None``.

    >>> import lazygraph.tensor as lt
    >>> scalar_name(lt.exp(lt.dvector()).owner)
    'exp'
    """
    if node is None or not isinstance(node.op, Elemwise) or node.op.inplace_pattern:
        return None
    sop = node.op.scalar_op
    return sop.name if isinstance(sop, ScalarOp) else None


def owner_named(var: Variable, name: str) -> Apply | None:
    """``var.owner`` when it is an ``Elemwise`` of scalar row ``name``."""
    node = var.owner
    return node if scalar_name(node) == name else None


def constant_data(var: Variable) -> np.ndarray | None:
    """The data of a tensor constant, else ``None``."""
    if isinstance(var, Constant) and isinstance(var.type, TensorType):
        return np.asarray(var.data)
    return None


def is_constant_all(var: Variable, value: float) -> bool:
    """Whether ``var`` is a non-empty constant whose every element equals ``value``.

    >>> import lazygraph.tensor as lt
    >>> is_constant_all(lt.constant([1.0, 1.0]), 1), is_constant_all(lt.constant(2), 1)
    (True, False)
    """
    if not isinstance(var, Constant) or not isinstance(var.type, TensorType):
        return False
    data = var.data
    if data.ndim == 0:
        return bool(data.item() == value)  # the common case: a Python comparison
    return data.size > 0 and bool(np.all(data == value))


def as_type_of(new: Variable, like: Variable) -> Variable | None:
    """``new`` with exactly ``like``'s type, or ``None`` when that is not
    possible without changing values: a dtype is changed only by a cast numpy
    calls safe (which is exactly what the replaced node did to that operand),
    sizes ``like`` knows and ``new`` does not are asserted with
    ``specify_shape`` (sizes only ``new`` knows are kept: the graph accepts a
    more specific type); another number of dimensions, or a different known
    size, gives ``None``.

    >>> import lazygraph.tensor as lt
    >>> as_type_of(lt.tensor("int8", (3,)), lt.tensor("float64", (3,))).type
    TensorType(float64, shape=(3,))
    >>> as_type_of(lt.dvector(), lt.dmatrix()) is None
    True
    """
    import lazygraph.tensor as lt

    nt, lt_type = new.type, like.type
    if nt == lt_type:
        return new
    if not isinstance(nt, TensorType) or not isinstance(lt_type, TensorType):
        return None
    if nt.ndim != lt_type.ndim:
        return None
    for s, t in zip(nt.shape, lt_type.shape, strict=True):
        if s is not None and t is not None and s != t:
            return None
    if nt.dtype != lt_type.dtype:
        if not np.can_cast(nt.numpy_dtype, lt_type.numpy_dtype, "safe"):
            return None
        new = lt.cast(new, lt_type.dtype)
    if lt_type.convert_variable(new) is not None:
        return new  # the same type, or one that knows more sizes
    new = lt.specify_shape(new, lt_type.shape)
    return new if lt_type.convert_variable(new) is not None else None


def other_operand(node: Apply, value: float, positions: Sequence[int] = (0, 1)) -> Variable | None:
    """For a binary node with a constant operand all equal to ``value`` (at one of
    ``positions``), the other operand; else ``None``."""
    a, b = node.inputs
    if 1 in positions and is_constant_all(b, value):
        return a
    if 0 in positions and is_constant_all(a, value):
        return b
    return None


def is_float(var: Variable) -> bool:
    return var.type.numpy_dtype.kind in "fc"  # type: ignore[attr-defined]


def register_canonicalize(rewriter: NodeRewriter, *tags: str, safe: bool = True) -> NodeRewriter:
    """Register ``rewriter`` in ``optdb["canonicalize"]`` under its name:
    with ``fast_run`` and ``fast_compile`` when ``safe``, else only under
    ``unsafe_nan`` (plus ``tags``)."""
    default = ("fast_run", "fast_compile") if safe else ("unsafe_nan",)
    optdb["canonicalize"].register(rewriter.name, rewriter, *default, *tags)  # type: ignore[call-arg]
    return rewriter


# -- add / mul chains ------------------------------------------------------------

# fgraph -> (number of inputs, {input: position}), for a deterministic term order.
_input_positions: weakref.WeakKeyDictionary[FunctionGraph, tuple[int, dict[Variable, int]]] = (
    weakref.WeakKeyDictionary()
)


def _positions(fgraph: FunctionGraph) -> dict[Variable, int]:
    cached = _input_positions.get(fgraph)
    if cached is None or cached[0] != len(fgraph.inputs):
        cached = (len(fgraph.inputs), {v: i for i, v in enumerate(fgraph.inputs)})
        _input_positions[fgraph] = cached
    return cached[1]


def _term_key(fgraph: FunctionGraph, var: Variable) -> tuple[int, Any]:
    """Graph inputs first (in input order), then node outputs by op name; the
    sort is stable, so equal keys keep their order."""
    if var.owner is None:
        return (0, _positions(fgraph).get(var, -1))
    return (1, str(var.owner.op))


def _chain_rule(name: str, kinds: str) -> NodeRewriter:
    """Flatten a chain of binary ``name`` nodes (``add`` or ``mul``) whose inner
    nodes are read only by the chain, fold its constants into one, and rebuild
    it left-leaning with the terms in a canonical order and the constant last.

    Only chains whose every node and term has the root's dtype and whose dtype
    kind is in ``kinds`` are touched. Integer (wrapping) and bool arithmetic is
    associative, so for those kinds the rewrite is exact; float reassociation
    rounds differently and can overflow where the original did not.
    """
    op = elemwise(name)
    identity = 0 if name == "add" else 1

    def absorbed(fgraph: FunctionGraph, var: Variable, dtype: str) -> bool:
        clients = fgraph.clients.get(var, ())
        if len(clients) != 1:
            return False
        reader = clients[0][0]
        return (
            reader != "output"
            and scalar_name(reader) == name  # type: ignore[arg-type]
            and reader.outputs[0].type.dtype == dtype  # type: ignore[union-attr]
        )

    def in_chain(fgraph: FunctionGraph, var: Variable, dtype: str) -> bool:
        return (
            scalar_name(var.owner) == name
            and var.type.dtype == dtype  # type: ignore[attr-defined]
            and absorbed(fgraph, var, dtype)
        )

    def transform(fgraph: FunctionGraph, node: Apply) -> list[Variable] | None:
        out = node.outputs[0]
        dtype = out.type.dtype  # type: ignore[attr-defined]
        if out.type.numpy_dtype.kind not in kinds:  # type: ignore[attr-defined]
            return None
        if absorbed(fgraph, out, dtype):
            return None  # rewritten from the chain's root only: linear, not quadratic
        # the terms, left to right; left-leaning: no chain node's second input is in the chain
        terms: list[Variable] = []
        left_leaning = not in_chain(fgraph, node.inputs[1], dtype)
        stack = [node.inputs[1], node.inputs[0]]
        while stack:
            var = stack.pop()
            if in_chain(fgraph, var, dtype):
                a, b = var.owner.inputs  # type: ignore[union-attr]
                left_leaning = left_leaning and not in_chain(fgraph, b, dtype)
                stack.append(b)
                stack.append(a)
            else:
                terms.append(var)
        if any(t.type.dtype != dtype for t in terms):  # type: ignore[attr-defined]
            return None
        constants = [t for t in terms if constant_data(t) is not None]
        others = sorted(
            (t for t in terms if constant_data(t) is None), key=lambda v: _term_key(fgraph, v)
        )
        folded: Variable | None = None
        if len(constants) == 1:
            folded = constants[0]
        elif constants:
            data = constant_data(constants[0])
            for c in constants[1:]:
                data = op.scalar_op.impl([data, constant_data(c)], [dtype])[0]
            folded = _constant(data, dtype)
        candidates = [[*others, folded]] if folded is not None else [others]
        if folded is not None and others and is_constant_all(folded, identity):
            candidates.insert(0, others)  # drop the neutral constant if the type allows
        for new_terms in candidates:
            if (
                left_leaning
                and len(new_terms) == len(terms)
                and all(a is b for a, b in zip(new_terms, terms, strict=True))
            ):
                return None  # already canonical
            result = new_terms[0]
            for term in new_terms[1:]:
                result = op(result, term)
            replacement = as_type_of(result, out)
            if replacement is not None:
                return [replacement]
        return None

    kind_word = "int" if kinds == "biu" else "float"
    rewriter = node_rewriter([op])(transform)
    rewriter.name = f"{name.replace('multiply', 'mul')}_chain_{kind_word}"
    rewriter.__doc__ = (
        f"(a {name} b) {name} c ... -> a {name} b {name} c {name} (folded constants), "
        f"ordered ({kind_word} dtypes)"
    )
    return rewriter


def _constant(data: np.ndarray, dtype: str) -> Variable:
    import lazygraph.tensor as lt

    return lt.constant(np.asarray(data, dtype=dtype))


add_chain_int = register_canonicalize(_chain_rule("add", "biu"))
mul_chain_int = register_canonicalize(_chain_rule("multiply", "biu"))
add_chain_float = register_canonicalize(_chain_rule("add", "fc"), safe=False)
mul_chain_float = register_canonicalize(_chain_rule("multiply", "fc"), safe=False)


def _order_rule(name: str) -> NodeRewriter:
    """For float and complex ``name`` nodes (IEEE ``+`` and ``*`` commute
    exactly, reassociation is the unsafe part): a constant operand goes last,
    and two graph inputs go in input order, so that merge finds ``a + b`` and
    ``b + a`` equal. Consistent with the chain rules' order, so they cannot undo
    each other."""
    op = elemwise(name)

    def transform(fgraph: FunctionGraph, node: Apply) -> list[Variable] | None:
        a, b = node.inputs
        if node.outputs[0].type.numpy_dtype.kind not in "fc":  # type: ignore[attr-defined]
            return None
        swap = isinstance(a, Constant) and not isinstance(b, Constant)
        inputs = a.owner is None and b.owner is None and not isinstance(a, Constant)
        if not swap and inputs and not isinstance(b, Constant):
            positions = _positions(fgraph)
            swap = positions.get(b, -1) < positions.get(a, -1)
        if not swap:
            return None
        return [r] if (r := as_type_of(op(b, a), node.outputs[0])) is not None else None

    rewriter = node_rewriter([op])(transform)
    rewriter.name = f"{name.replace('multiply', 'mul')}_order"
    rewriter.__doc__ = f"c {name} x -> x {name} c; b {name} a -> a {name} b (graph inputs a, b)"
    return rewriter


add_order = register_canonicalize(_order_rule("add"))
mul_order = register_canonicalize(_order_rule("multiply"))


# -- neutral elements --------------------------------------------------------------


@node_rewriter([elemwise("multiply")])
def x_times_1(fgraph: FunctionGraph, node: Apply) -> list[Variable] | None:
    """x * 1 -> x, 1 * x -> x (exact: ``nan * 1`` is nan, ``-0.0 * 1`` is -0.0),
    for real results only: a complex product with ``1+0j`` mixes the parts
    (``(nan+0j) * 1`` is ``nan+nanj``, ``(inf+0j) * 1`` is ``inf+nanj`` in numpy)."""
    x = other_operand(node, 1)
    if x is None or _complex_result(node):
        return None
    new = as_type_of(x, node.outputs[0])
    return None if new is None else [new]


@node_rewriter([elemwise("divide")])
def x_div_1(fgraph: FunctionGraph, node: Apply) -> list[Variable] | None:
    """x / 1 -> x (exact; integer x is cast to the float result dtype), for real
    results only (as :func:`x_times_1`: ``(inf+0j) / 1`` is ``inf+nanj``)."""
    x = other_operand(node, 1, positions=(1,))
    if x is None or _complex_result(node):
        return None
    new = as_type_of(x, node.outputs[0])
    return None if new is None else [new]


def _complex_result(node: Apply) -> bool:
    return node.outputs[0].type.numpy_dtype.kind == "c"  # type: ignore[attr-defined,no-any-return]


def _zero_is_exact(x: Variable, zero: Variable, negative_zero: bool) -> bool:
    """``x + zero`` (``x - zero``) is ``x`` bit for bit: always for integer and bool
    ``x`` (they have no -0.0); for real floats only when every zero has the sign
    bit ``negative_zero`` (``-0.0 + +0.0`` is ``+0.0``, ``-0.0 - -0.0`` too)."""
    if not is_float(x):
        return True
    data = constant_data(zero)
    if data is None or x.type.numpy_dtype.kind == "c" or data.dtype.kind == "c":  # type: ignore[attr-defined]
        return False
    return bool(np.all(np.signbit(data) == negative_zero))


@node_rewriter([elemwise("add")])
def x_plus_0(fgraph: FunctionGraph, node: Apply) -> list[Variable] | None:
    """x + 0 -> x, 0 + x -> x, where exact (integer and bool x, or a ``-0.0`` constant)."""
    x = other_operand(node, 0)
    if x is None:
        return None
    zero = node.inputs[1] if x is node.inputs[0] else node.inputs[0]
    if not _zero_is_exact(x, zero, negative_zero=True):
        return None
    new = as_type_of(x, node.outputs[0])
    return None if new is None else [new]


@node_rewriter([elemwise("add")])
def x_plus_0_signed_zero(fgraph: FunctionGraph, node: Apply) -> list[Variable] | None:
    """x + 0.0 -> x for float x: exact except that ``-0.0 + 0.0`` is ``+0.0``
    and the rewritten graph gives ``-0.0`` (opt-in: tag ``signed_zero``)."""
    x = other_operand(node, 0)
    if x is None:
        return None
    new = as_type_of(x, node.outputs[0])
    return None if new is None else [new]


@node_rewriter([elemwise("subtract")])
def x_minus_0(fgraph: FunctionGraph, node: Apply) -> list[Variable] | None:
    """x - 0 -> x (exact for ``+0.0``: ``-0.0 - 0.0`` is ``-0.0``)."""
    x = other_operand(node, 0, positions=(1,))
    if x is None or not _zero_is_exact(x, node.inputs[1], negative_zero=False):
        return None
    new = as_type_of(x, node.outputs[0])
    return None if new is None else [new]


register_canonicalize(x_times_1)
register_canonicalize(x_div_1)
register_canonicalize(x_plus_0)
# opt-in (``Mode().including("signed_zero")``): numpy's x + 0.0 turns -0.0 into +0.0,
# an idiom code relies on
optdb["canonicalize"].register(  # type: ignore[call-arg]
    x_plus_0_signed_zero.name, x_plus_0_signed_zero, "signed_zero"
)
register_canonicalize(x_minus_0)


# -- inverse pairs -----------------------------------------------------------------


@node_rewriter([elemwise("negative")])
def neg_neg(fgraph: FunctionGraph, node: Apply) -> list[Variable] | None:
    """-(-x) -> x (exact, also for wrapping integers)."""
    inner = owner_named(node.inputs[0], "negative")
    if inner is None:
        return None
    new = as_type_of(inner.inputs[0], node.outputs[0])
    return None if new is None else [new]


@node_rewriter([elemwise("divide")])
def x_mul_y_div_y(fgraph: FunctionGraph, node: Apply) -> list[Variable] | None:
    """(x * y) / y -> x, (y * x) / y -> x for float x (``unsafe_nan``: the original
    is nan where y is 0 or inf, or where x * y overflows)."""
    num, y = node.inputs
    inner = owner_named(num, "multiply")
    if inner is None or not is_float(node.outputs[0]):
        return None
    a, b = inner.inputs
    x = a if b is y else (b if a is y else None)
    if x is None or x.type.dtype != node.outputs[0].type.dtype:  # type: ignore[attr-defined]
        return None
    new = as_type_of(x, node.outputs[0])
    return None if new is None else [new]


@node_rewriter([elemwise("exp")])
def exp_log(fgraph: FunctionGraph, node: Apply) -> list[Variable] | None:
    """exp(log(x)) -> x (``unsafe_nan``: for x < 0 the original is nan)."""
    inner = owner_named(node.inputs[0], "log")
    if inner is None:
        return None
    new = as_type_of(inner.inputs[0], node.outputs[0])
    return None if new is None else [new]


@node_rewriter([elemwise("log")])
def log_exp(fgraph: FunctionGraph, node: Apply) -> list[Variable] | None:
    """log(exp(x)) -> x for float x (``changes_overflow``: where exp overflows to
    inf or underflows to 0 the original gives ±inf, the rewrite the exact x;
    NaN stays NaN and ±inf stay ±inf)."""
    inner = owner_named(node.inputs[0], "exp")
    if (
        inner is None
        or not is_float(inner.inputs[0])
        or inner.inputs[0].type.numpy_dtype.kind == "c"
    ):  # type: ignore[attr-defined]
        return None
    new = as_type_of(inner.inputs[0], node.outputs[0])
    return None if new is None else [new]


register_canonicalize(neg_neg)
register_canonicalize(x_mul_y_div_y, safe=False)
register_canonicalize(exp_log, safe=False)
register_canonicalize(log_exp, "changes_overflow")


# -- elementwise through dimshuffles ----------------------------------------------


@node_rewriter([Elemwise])
def elemwise_lift_dimshuffle(fgraph: FunctionGraph, node: Apply) -> list[Variable] | None:
    """f(ds(x), ds(y), c) -> ds(f(x, y, c)) when every operand is the same
    DimShuffle ``ds`` of something, or a 0-d constant: the elementwise work runs
    in the operands' own memory order, and transposes can cancel (exact)."""
    if node.op.inplace_pattern or len(node.outputs) != 1:
        return None
    shuffle: DimShuffle | None = None
    inner_inputs: list[Variable] = []
    for inp in node.inputs:
        owner = inp.owner
        if owner is not None and isinstance(owner.op, DimShuffle):
            if shuffle is None:
                shuffle = owner.op
            elif owner.op != shuffle:
                return None
            inner_inputs.append(owner.inputs[0])
        elif isinstance(inp, Constant) and inp.type.ndim == 0:  # type: ignore[attr-defined]
            inner_inputs.append(inp)
        else:
            return None
    if shuffle is None:
        return None
    inner = node.op.make_node(*inner_inputs).outputs[0]
    new = as_type_of(shuffle(inner), node.outputs[0])
    return None if new is None else [new]


register_canonicalize(elemwise_lift_dimshuffle)


# -- gradient markers ----------------------------------------------------------------


@node_rewriter([ZeroGrad, DisconnectedGrad, UndefinedGrad])
def remove_gradient_marker(fgraph: FunctionGraph, node: Apply) -> list[Variable] | None:
    """zero_grad(x) -> x, and so for disconnected_grad and undefined_grad: the
    markers only steer ``grad``, which has run before a graph is compiled; in
    the compiled graph each is an identity that no backend needs to lower."""
    return [node.inputs[0]]


register_canonicalize(remove_gradient_marker)
