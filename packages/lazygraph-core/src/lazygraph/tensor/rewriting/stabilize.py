"""Rewrites of the ``stabilize`` stage: expressions that overflow, underflow or
cancel in floating point are replaced by forms that do not.

Each rule is one identity, registered in ``optdb["stabilize"]`` under its name
with the tags ``fast_run`` and ``stability``. A rule keeps the output's dtype
and static shape, and the result's NaN and inf pattern is that of the
unrewritten graph except where the unrewritten graph overflowed or lost all
precision: there the rewritten one gives the finite, accurate value
(``log(sum(exp([1000., 1000.])))`` is ``1000.693...``, not ``inf``).

Softmax and log-softmax written by hand (``exp(x) / sum(exp(x), axis,
keepdims=True)``) get the max subtraction; a user form that already subtracts
the max (``exp(x - max(x, axis, keepdims=True))``) is recognised and left
alone, so there is never a second max pass.

>>> import numpy as np
>>> import lazygraph
>>> import lazygraph.tensor as lt
>>> x = lt.dvector("x")
>>> f = lazygraph.function([x], lt.log(lt.sum(lt.exp(x))))
>>> f(np.array([1000.0, 1000.0]))
array(1000.69314718)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from lazygraph.graph.basic import Apply, Constant, Variable
from lazygraph.graph.fg import FunctionGraph
from lazygraph.rewriting.basic import NodeRewriter, TrackMatcher, node_rewriter
from lazygraph.rewriting.db import optdb
from lazygraph.tensor.dimshuffle import DimShuffle
from lazygraph.tensor.reduction import Reduce
from lazygraph.tensor.rewriting.canonicalize import (
    as_type_of,
    elemwise,
    is_constant_all,
    is_float,
    other_operand,
    owner_named,
    scalar_name,
)

__all__ = [
    "canonical",
    "exp_minus_1",
    "log_1_minus_exp",
    "log_1_plus_x",
    "log_sigmoid",
    "log_softmax",
    "log_sum_exp",
    "may_be_stabilised",
    "one_minus_sigmoid",
    "register_stabilize",
    "rewrites_value",
    "softmax",
    "tracked_by_a_value_rule",
]


def register_stabilize(rewriter: NodeRewriter, *tags: str) -> NodeRewriter:
    """Register ``rewriter`` in ``optdb["stabilize"]`` under its name."""
    optdb["stabilize"].register(rewriter.name, rewriter, "fast_run", "stability", *tags)  # type: ignore[call-arg]
    return rewriter


def may_be_stabilised(node: Apply) -> bool:
    """Whether a rule of this stage (or ``log_exp``, which changes overflow)
    could look through ``node``'s output as its inner node, when ``node``'s own
    inputs are known values rather than nodes: ``exp`` (``exp(x) - 1``,
    ``log(exp(x))``, sums and softmaxes of exponentials), ``sigmoid``
    (``log(sigmoid(x))``, ``1 - sigmoid(x)``) and an ``add`` with a constant 1
    (``log(1 + x)``). Computing such a node at once (lazygraph.numpy's small
    known values) would take the rewrite's more accurate value away from the
    graph; every other node may run at once, before its readers exist, with
    the values the rewritten graph gives. A new rule adds its inner nodes here."""
    constants = [v.data for v in node.inputs if isinstance(v, Constant)]
    return inner_of_a_rule(scalar_name(node), constants)


#: the scalar ops a rule of this stage looks through whatever their operands
_INNER_ALWAYS = frozenset({"exp", "sigmoid"})
#: ... and those it looks through when an operand is the constant 1
_INNER_WITH_A_ONE = frozenset({"add"})


class _NoClients:
    """The stand-in graph :func:`rewrites_value` and :func:`canonical` give a rule:
    a node checked on its own has no known readers."""

    clients: ClassVar[dict[Variable, list[Any]]] = {}


_LOCAL: dict[str, TrackMatcher] = {}


def _local_rules(kind: str) -> TrackMatcher:
    """The default pipeline's node rewriters of ``kind``: ``"changes_value"`` (this
    stage's rules and canonicalize's ``changes_overflow`` ones) or ``"exact"``
    (canonicalize's other rules), matched by the op they track."""
    matcher = _LOCAL.get(kind)
    if matcher is None:
        from lazygraph.compile.mode import Mode

        query = Mode().query
        canon = optdb["canonicalize"]
        overflow = {n for n in canon if "changes_overflow" in canon.tags_of(n)}
        # (constant folding is left out: no node checked here has only constant inputs)
        chosen = [
            r
            for r in canon.query(query).node_rewriters  # type: ignore[attr-defined]
            if (r.name in overflow) == (kind == "changes_value") and r.name != "constant_folding"
        ]
        if kind == "changes_value":
            stage = optdb["stabilize"]
            stable = {
                stage[n]
                for n in stage
                if "stability" in stage.tags_of(n) and n != "constant_folding"
            }
            chosen += [r for r in stage.query(query).node_rewriters if r in stable]  # type: ignore[attr-defined]
        matcher = _LOCAL[kind] = TrackMatcher(chosen)
    return matcher


def rewrites_value(node: Apply) -> bool:
    """Whether a rule that changes values (one of this stage, or ``log_exp``)
    rewrites ``node`` as the outer node of its pattern: lazygraph.numpy then
    leaves ``node`` to the graph rather than computing it at once from its
    inputs' values (a rule that fails on a node out of its graph counts as one
    that applies).

    >>> import lazygraph.tensor as lt
    >>> x = lt.dvector("x")
    >>> rewrites_value(lt.log(1 + x).owner), rewrites_value(lt.log(2 + x).owner)
    (True, False)
    """
    for rule in _local_rules("changes_value").for_op(node.op):
        try:
            if rule.transform(_NoClients, node):  # type: ignore[arg-type]
                return True
        except Exception:
            return True
    return False


def tracked_by_a_value_rule(op: Any) -> bool:
    """Whether some rule that changes values (see :func:`rewrites_value`) has
    nodes of ``op`` as its outer node; for every other op, ``rewrites_value`` of
    a node is False, before and after :func:`canonical` (whose rules keep an
    op, lift it through DimShuffles or remove the node).

    >>> import lazygraph.tensor as lt
    >>> x = lt.dvector("x")
    >>> tracked_by_a_value_rule(lt.log(x).owner.op), tracked_by_a_value_rule(lt.sin(x).owner.op)
    (True, False)
    """
    return bool(_local_rules("changes_value").for_op(op))


def canonical(var: Variable, rounds: int = 4) -> Variable:
    """``var`` after canonicalize's value-keeping rules (``x * 1 -> x``, lifts
    of elementwise ops through DimShuffles), applied to its node until none
    applies: the form the pipeline gives the stabilising rules to match.

    >>> import lazygraph.tensor as lt
    >>> x = lt.dvector("x")
    >>> canonical(lt.exp(x) * 1).owner.op
    Elemwise{exp}
    """
    for _ in range(rounds):
        node = var.owner
        if node is None:
            return var
        for rule in _local_rules("exact").for_op(node.op):
            try:
                new = rule.transform(_NoClients, node)  # type: ignore[arg-type]
            except Exception:
                new = None
            if new:
                replacement = new[0] if isinstance(new, list) else new.get(var)
                if replacement is not None and replacement is not var:
                    var = replacement
                    break
        else:
            return var
    return var


def inner_of_a_rule(name: str | None, constants: Sequence[Any]) -> bool:
    """:func:`may_be_stabilised` for an elementwise ``name`` (a scalar row name)
    whose constant operands hold ``constants`` (arrays).

    >>> import numpy as np
    >>> inner_of_a_rule("exp", []), inner_of_a_rule("add", [np.ones(2)])
    (True, True)
    """
    if name in _INNER_ALWAYS:
        return True
    if name not in _INNER_WITH_A_ONE:
        return False
    for d in constants:
        if d.size == 1:
            if d.item() == 1:  # (the common case: a scalar, without a reduction)
                return True
        elif d.size and bool((d == 1).all()):
            return True
    return False


def _replace(new: Variable, old: Variable) -> list[Variable] | None:
    converted = as_type_of(new, old)
    return None if converted is None else [converted]


def _lt() -> Any:
    import lazygraph.tensor as lt

    return lt


def _same_dtype(a: Variable, b: Variable) -> bool:
    return a.type.dtype == b.type.dtype  # type: ignore[attr-defined,no-any-return]


# -- one-argument identities ---------------------------------------------------


@node_rewriter([elemwise("log")])
def log_1_plus_x(fgraph: FunctionGraph, node: Apply) -> list[Variable] | None:
    """log(1 + x) -> log1p(x) for float x (no cancellation for small x)."""
    inner = owner_named(node.inputs[0], "add")
    if inner is None:
        return None
    x = other_operand(inner, 1)
    if x is None or not is_float(x) or not _same_dtype(x, inner.outputs[0]):
        return None
    return _replace(_lt().log1p(x), node.outputs[0])


@node_rewriter([elemwise("subtract")])
def exp_minus_1(fgraph: FunctionGraph, node: Apply) -> list[Variable] | None:
    """exp(x) - 1 -> expm1(x) (no cancellation for small x)."""
    if not is_constant_all(node.inputs[1], 1):
        return None
    inner = owner_named(node.inputs[0], "exp")
    if inner is None or not _same_dtype(inner.outputs[0], node.outputs[0]):
        return None
    return _replace(_lt().expm1(inner.inputs[0]), node.outputs[0])


@node_rewriter([elemwise("log")])
def log_sigmoid(fgraph: FunctionGraph, node: Apply) -> list[Variable] | None:
    """log(sigmoid(x)) -> log_sigmoid(x), i.e. -softplus(-x) (no log(0) for x << 0)."""
    inner = owner_named(node.inputs[0], "sigmoid")
    if inner is None:
        return None
    return _replace(_lt().log_sigmoid(inner.inputs[0]), node.outputs[0])


@node_rewriter([elemwise("subtract")])
def one_minus_sigmoid(fgraph: FunctionGraph, node: Apply) -> list[Variable] | None:
    """1 - sigmoid(x) -> sigmoid(-x) (no cancellation for x >> 0)."""
    if not is_constant_all(node.inputs[0], 1):
        return None
    inner = owner_named(node.inputs[1], "sigmoid")
    if inner is None or not _same_dtype(inner.outputs[0], node.outputs[0]):
        return None
    x = inner.inputs[0]
    if not is_float(x):  # -x would wrap (int8 -128) or not exist (bool)
        x = _lt().cast(x, inner.outputs[0].type.dtype)  # type: ignore[attr-defined]
    return _replace(_lt().sigmoid(-x), node.outputs[0])


@node_rewriter([elemwise("log")])
def log_1_minus_exp(fgraph: FunctionGraph, node: Apply) -> list[Variable] | None:
    """log(1 - exp(x)) -> log1mexp(x) (accurate near 0 and for x << 0). For
    0 < x < eps the naive form rounds to log(0) = -inf; log1mexp gives the true
    value, NaN, as the naive form does for every larger x."""
    inner = owner_named(node.inputs[0], "subtract")
    if inner is None or not is_constant_all(inner.inputs[0], 1):
        return None
    exp_node = owner_named(inner.inputs[1], "exp")
    if exp_node is None or not _same_dtype(exp_node.outputs[0], inner.outputs[0]):
        return None
    return _replace(_lt().log1mexp(exp_node.inputs[0]), node.outputs[0])


register_stabilize(log_1_plus_x)
register_stabilize(exp_minus_1)
register_stabilize(log_sigmoid)
register_stabilize(one_minus_sigmoid)
register_stabilize(log_1_minus_exp)


# -- reductions of exponentials --------------------------------------------------


def _strip_dimshuffle(var: Variable) -> Variable:
    """``var`` without DimShuffles that only add size-1 axes (a keepdims by hand)."""
    owner = var.owner
    while owner is not None and isinstance(owner.op, DimShuffle):
        kept = [o for o in owner.op.new_order if o != "x"]
        if kept != sorted(kept) or owner.op.drop:
            break
        var = owner.inputs[0]
        owner = var.owner
    return var


def exp_argument(e: Variable) -> Variable | None:
    """``z`` when ``e`` is ``exp(z)``; ``ds(z)`` when it is ``ds(exp(z))`` for a
    DimShuffle ``ds`` (canonicalize lifts elementwise ops through transposes)."""
    node = e.owner
    if node is not None and isinstance(node.op, DimShuffle):
        inner = owner_named(node.inputs[0], "exp")
        return None if inner is None else node.op(inner.inputs[0])
    inner = owner_named(e, "exp")
    return None if inner is None else inner.inputs[0]


def is_max_shifted(z: Variable, axes: Sequence[int]) -> bool:
    """Whether ``z`` is ``y - max(y, axes)`` (a keepdims max, or one whose axes are
    put back by a DimShuffle; also this module's own guarded shift): an
    argument ``exp`` cannot overflow on, so there is nothing to stabilise.

    >>> import lazygraph.tensor as lt
    >>> y = lt.dmatrix("y")
    >>> is_max_shifted(y - lt.max(y, axis=1, keepdims=True), (1,))
    True
    >>> is_max_shifted(y - lt.max(y, axis=0, keepdims=True), (1,))
    False
    """
    node = z.owner
    if scalar_name(node) != "subtract":
        return False
    y, shift = node.inputs  # type: ignore[union-attr]
    shift = _strip_dimshuffle(shift)
    guard = shift.owner
    if scalar_name(guard) == "where":  # where(isfinite(m), m, 0): the guarded shift
        cond, m, zero = guard.inputs  # type: ignore[union-attr]
        check = owner_named(cond, "isfinite")
        if check is None or check.inputs[0] is not m or not is_constant_all(zero, 0):
            return False
        shift = _strip_dimshuffle(m)
    owner = shift.owner
    return (
        owner is not None
        and isinstance(owner.op, Reduce)
        and owner.op.kind in ("max", "logsumexp")
        and owner.inputs[0] is y
        and owner.op.axis == tuple(sorted(axes))
    )


@node_rewriter([elemwise("log")])
def log_sum_exp(fgraph: FunctionGraph, node: Apply) -> list[Variable] | None:
    """log(sum(exp(x), axis)) -> logsumexp(x, axis), which shifts by the max
    (skipped when x is already max-shifted)."""
    s = node.inputs[0]
    sum_node = s.owner
    if sum_node is None or not isinstance(sum_node.op, Reduce) or sum_node.op.kind != "sum":
        return None
    e = sum_node.inputs[0]
    x = exp_argument(e)
    if x is None or sum_node.op.dtype != e.type.dtype:  # type: ignore[attr-defined]
        return None
    if is_max_shifted(x, sum_node.op.axis):
        return None
    if not _same_dtype(x, e):
        x = _lt().cast(x, e.type.dtype)  # type: ignore[attr-defined]
    lse = Reduce("logsumexp", sum_node.op.axis, sum_node.op.keepdims)(x)
    return _replace(lse, node.outputs[0])


def _match_softmax(fgraph: FunctionGraph, node: Apply) -> tuple[Variable, tuple[int, ...]] | None:
    """For ``exp(z) / sum(exp(z), axes)`` (keepdims, or axes put back by a
    DimShuffle, or leading axes that broadcast back), ``(z, axes)``."""
    if scalar_name(node) != "divide":
        return None
    e, s = node.inputs
    z = exp_argument(e)
    if z is None or not _same_dtype(e, node.outputs[0]):
        return None
    sum_var = _strip_dimshuffle(s)
    sum_node = sum_var.owner
    if (
        sum_node is None
        or not isinstance(sum_node.op, Reduce)
        or sum_node.op.kind != "sum"
        or sum_node.inputs[0] is not e
        or sum_node.op.dtype != e.type.dtype  # type: ignore[attr-defined]
    ):
        return None
    axes = sum_node.op.axis
    ndim = e.type.ndim  # type: ignore[attr-defined]
    if sum_var is not s:
        # the DimShuffle must put size-1 axes back exactly where they were summed
        order = s.owner.op.new_order  # type: ignore[union-attr]
        kept = iter(range(ndim - len(axes)))
        expected = tuple("x" if a in axes else next(kept) for a in range(ndim))
        if sum_node.op.keepdims or order != expected:
            return None
    elif not sum_node.op.keepdims and axes != tuple(range(len(axes))):
        return None  # a reduction of trailing axes would broadcast against the wrong axes
    return z, axes


def _shifted_softmax(z: Variable, dtype: str, axes: tuple[int, ...]) -> Variable:
    """softmax(z) over ``axes`` without overflow: ``e = exp(z - shift)``,
    ``e / sum(e)``, where the shift is the max (one pass) when the reduced sizes
    are known and non-zero, else the logsumexp (a max of an empty axis raises;
    dividing by ``sum(e)`` cancels logsumexp's rounding). A non-finite shift is
    replaced by 0, so rows with +inf or only -inf give the naive form's NaN
    pattern instead of NaN everywhere."""
    lt = _lt()
    if not _same_dtype(z, lt.exp(z)):
        z = lt.cast(z, dtype)
    sizes = [z.type.shape[a] for a in axes]  # type: ignore[attr-defined]
    if all(s is not None and s > 0 for s in sizes):
        m = lt.max(z, axis=axes, keepdims=True)
    else:
        m = lt.logsumexp(z, axis=axes, keepdims=True)
    e = lt.exp(z - lt.where(lt.isfinite(m), m, 0))
    return e / lt.sum(e, axis=axes, keepdims=True)  # type: ignore[no-any-return]


@node_rewriter([elemwise("divide")])
def softmax(fgraph: FunctionGraph, node: Apply) -> list[Variable] | None:
    """exp(x) / sum(exp(x), axis, keepdims=True) -> the same with x - max(x) in
    both places (skipped when x is already max-shifted, and left to
    :data:`log_softmax` when every reader takes its log)."""
    match = _match_softmax(fgraph, node)
    if match is None:
        return None
    z, axes = match
    if is_max_shifted(z, axes):
        return None
    readers = fgraph.clients.get(node.outputs[0], ())
    if readers and all(r != "output" and scalar_name(r) == "log" for r, _ in readers):  # type: ignore[arg-type]
        return None
    dtype = node.outputs[0].type.dtype  # type: ignore[attr-defined]
    return _replace(_shifted_softmax(z, dtype, axes), node.outputs[0])


@node_rewriter([elemwise("log")])
def log_softmax(fgraph: FunctionGraph, node: Apply) -> list[Variable] | None:
    """log(exp(x) / sum(exp(x), axis, keepdims=True)) -> x - logsumexp(x, axis,
    keepdims=True); for an already max-shifted x, x - log(sum(exp(x))) (the sum
    is at least 1: no second max pass is needed)."""
    inner = node.inputs[0].owner
    if inner is None:
        return None
    match = _match_softmax(fgraph, inner)
    if match is None:
        return None
    z, axes = match
    lt = _lt()
    dtype = node.outputs[0].type.dtype  # type: ignore[attr-defined]
    if not _same_dtype(z, node.outputs[0]):
        z = lt.cast(z, dtype)
    if is_max_shifted(z, axes):
        new = z - lt.log(lt.sum(lt.exp(z), axis=axes, keepdims=True))
    else:
        new = z - lt.logsumexp(z, axis=axes, keepdims=True)
    return _replace(new, node.outputs[0])


register_stabilize(log_sum_exp)
register_stabilize(softmax)
register_stabilize(log_softmax)
