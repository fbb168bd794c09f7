"""Control flow in the graph, in the JAX style: :func:`scan`, :func:`while_loop`,
:func:`fori_loop` and :func:`cond`, exported from ``lazygraph``.

Each traces the user's function once, on placeholders of the carries' (and
rows') dtypes and shapes, and records one node (``Scan``, ``While`` or
``IfElse`` of :mod:`lazygraph.tensor.control`) however many steps run: a
Python loop instead would record its body once per iteration. What the
function reads from outside (closures, globals) becomes an input of the node,
computed once. Carries and sequences are pytrees (nested tuples, lists and
dicts) of arrays.

They take numpy data, :mod:`lazygraph.numpy` arrays (the function then gets
and returns lazy arrays) or :mod:`lazygraph.tensor` variables (the function
gets variables), and work inside :func:`lazygraph.jit` and
:func:`lazygraph.grad`.

>>> import numpy as np
>>> import lazygraph
>>> import lazygraph.numpy as lnp
>>> def step(total, x):
...     total = total + x
...     return total, total * 2
>>> total, doubled = lazygraph.scan(step, 0.0, np.arange(1.0, 5.0))
>>> float(total), doubled.compute()
(10.0, array([ 2.,  6., 12., 20.]))
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

import lazygraph.tensor as lt
import numpy as np
from lazygraph.graph.basic import Variable
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import as_variable, wrap
from lazygraph.numpy._pytree import flatten, unflatten
from lazygraph.numpy._views import tracing
from lazygraph.tensor.control import cond_apply, scan_apply, while_apply
from lazygraph.tensor.type import TensorType

__all__: list[str] = []


def _is_lazy(x: Any) -> bool:
    return isinstance(x, Array | Variable) or hasattr(x, "__lazygraph_variable__")


class _Kind:
    """How values cross the user's function: as lazy Arrays (numpy data or
    Arrays given) or as tensor variables (only ``lazygraph.tensor`` variables
    given)."""

    def __init__(self, leaves: list[Any]) -> None:
        self.tensor = bool(leaves) and all(isinstance(v, Variable) for v in leaves)

    def give(self, var: Variable) -> Any:
        return var if self.tensor else wrap(var)  # type: ignore[arg-type]


def _variable(x: Any, like: Variable | None = None) -> Variable:
    """A leaf as a tensor variable; a Python scalar takes ``like``'s dtype (it
    is weak, as in JAX), else numpy's default one."""
    if isinstance(x, bool | int | float | complex) and not isinstance(x, np.generic):
        if like is not None and like.type.numpy_dtype.kind in "biufc":  # type: ignore[attr-defined]
            try:
                return lt.constant(np.asarray(x, dtype=like.type.dtype))  # type: ignore[attr-defined]
            except (OverflowError, ValueError):
                pass
        return lt.constant(np.asarray(x))
    if x is None or isinstance(x, str):
        raise TypeError(f"expected an array or a scalar, got {type(x).__name__}")
    return lt.as_tensor_variable(as_variable(x))


def _paths(tree: Any, prefix: str) -> list[str]:
    """``prefix[0]['key']...``: the path of each leaf of ``tree``, in flatten order."""
    if _is_lazy(tree) or not isinstance(tree, tuple | list | dict) or tree is None:
        return [] if tree is None else [prefix]
    if isinstance(tree, dict):
        try:
            keys = sorted(tree)
        except TypeError:
            keys = list(tree)
        return [p for k in keys for p in _paths(tree[k], f"{prefix}[{k!r}]")]
    return [p for i, c in enumerate(tree) for p in _paths(c, f"{prefix}[{i}]")]


def _type_text(t: Any) -> str:
    return f"{t.dtype}[{', '.join('?' if s is None else str(s) for s in t.shape)}]"


def _flat_outputs(
    out: Any, tree: Any, likes: list[Variable], who: str, what: str
) -> list[Variable]:
    """The leaves of ``out`` as variables, checked to have ``tree``'s structure
    and each ``likes`` leaf's dtype and shape (``TypeError`` naming the leaf)."""
    leaves, got = flatten(out, is_leaf=_is_lazy)
    if got != tree:
        raise TypeError(
            f"{who}: {what} must have the same pytree structure as its input, "
            f"got {unflatten(got, ['*'] * len(leaves))!r} for "
            f"{unflatten(tree, ['*'] * len(likes))!r}"
        )
    paths = _paths(unflatten(tree, likes), "carry")
    result = []
    for path, leaf, like in zip(paths, leaves, likes, strict=True):
        var = _variable(leaf, like)
        lt_, vt = like.type, var.type
        same = lt_.dtype == vt.dtype and lt_.ndim == vt.ndim  # type: ignore[attr-defined]
        same = same and all(
            a is None or b is None or a == b
            for a, b in zip(lt_.shape, vt.shape, strict=True)  # type: ignore[attr-defined]
        )
        if not same:
            raise TypeError(
                f"{who}: {what} must have the same types (dtypes and shapes) as its input, "
                f"but the input component {path} has type {_type_text(lt_)} and the output "
                f"component has type {_type_text(vt)}"
            )
        result.append(var)
    return result


def _placeholders(vars_: list[Variable], drop_leading: bool = False) -> list[Variable]:
    out = []
    for v in vars_:
        t: TensorType = v.type  # type: ignore[assignment]
        out.append(TensorType(t.dtype, t.shape[1:] if drop_leading else t.shape)())
    return out


def scan(
    f: Callable[[Any, Any], tuple[Any, Any]],
    init: Any,
    xs: Any = None,
    length: int | None = None,
    reverse: bool = False,
    unroll: int | bool = 1,
) -> tuple[Any, Any]:
    """``jax.lax.scan``: loop ``f(carry, x) -> (carry, y)`` over the leading
    axis of ``xs``; returns ``(final_carry, ys)``, ``ys`` the ``y`` of every
    step stacked along a new leading axis.

    ``init`` and the carry ``f`` returns are pytrees of the same structure,
    dtypes and shapes (``TypeError`` otherwise); ``xs`` is a pytree of arrays
    with the same number of rows, or None with ``length=`` (``f`` then gets
    ``x=None``). ``reverse=True`` runs from the last row to the first
    (``ys[t]`` still belongs to row ``t``). ``unroll`` is accepted for
    compatibility and has no effect: the loop is one node, never unrolled.

    Differentiable in both modes: reverse mode runs a second scan backwards
    over the carries the forward scan saves.

    >>> import numpy as np
    >>> import lazygraph
    >>> def cumprod(c, x):
    ...     return c * x, c * x
    >>> final, ys = lazygraph.scan(cumprod, 1.0, np.array([1.0, 2.0, 3.0]))
    >>> ys.compute()
    array([1., 2., 6.])
    >>> _, ys = lazygraph.scan(lambda c, _: (c + 1, c), 0, None, length=3)
    >>> ys.compute()
    array([0, 1, 2])
    """
    if not isinstance(unroll, bool) and not (isinstance(unroll, int) and unroll >= 1):
        raise ValueError(f"scan: unroll must be a positive int or a bool, got {unroll!r}")
    init_leaves, init_tree = flatten(init, is_leaf=_is_lazy)
    x_leaves, x_tree = flatten(xs, is_leaf=_is_lazy)
    kind = _Kind(init_leaves + x_leaves)
    init_vars = [_variable(v) for v in init_leaves]
    x_vars = [_variable(v) for v in x_leaves]
    for path, x in zip(_paths(xs, "xs"), x_vars, strict=True):
        if x.type.ndim == 0:  # type: ignore[attr-defined]
            raise ValueError(f"scan: {path} is 0-d: sequences need a leading axis to scan over")
    steps = _length(x_vars, xs, length)
    carry_in = _placeholders(init_vars)
    x_in = _placeholders(x_vars, drop_leading=True)
    carry = unflatten(init_tree, [kind.give(v) for v in carry_in])
    x = unflatten(x_tree, [kind.give(v) for v in x_in]) if x_leaves or xs is not None else None
    with tracing():
        out = f(carry, x)
    if not isinstance(out, tuple | list) or len(out) != 2:
        raise TypeError(f"scan: f must return a pair (carry, y), got {type(out).__name__}")
    carry_out = _flat_outputs(
        out[0], init_tree, carry_in, "scan", "the body function's carry output"
    )
    y_leaves, y_tree = flatten(out[1], is_leaf=_is_lazy)
    ys_out = [_variable(v) for v in y_leaves]
    results = scan_apply(steps, init_vars, x_vars, carry_in, x_in, carry_out, ys_out, reverse)
    given = [kind.give(v) for v in results]
    nc = len(carry_in)
    return unflatten(init_tree, given[:nc]), unflatten(y_tree, given[nc:])


def _length(x_vars: list[Variable], xs: Any, length: Any) -> Any:
    """The number of steps: ``length``, checked against the rows of ``xs``."""
    if length is not None:
        length = operator.index(length) if not _is_lazy(length) else _variable(length)
        if isinstance(length, int) and length < 0:
            raise ValueError(f"scan: length must be non-negative, got {length}")
    rows = [v.type.shape[0] for v in x_vars]  # type: ignore[attr-defined]
    known = {r for r in rows if r is not None}
    if len(known) > 1 or (isinstance(length, int) and known and known != {length}):
        sizes = ", ".join(
            f"{p} has {r if r is not None else '?'} rows"
            for p, r in zip(_paths(xs, "xs"), rows, strict=True)
        )
        given = f"length={length}; " if length is not None else ""
        raise ValueError(f"scan: every sequence needs the same number of rows: {given}{sizes}")
    if length is not None:
        return length
    if not x_vars:
        raise ValueError("scan: xs is None (or empty), so length= must say how many steps")
    if known:
        return known.pop()
    return lt.shape_i(x_vars[0], 0)


def while_loop(
    cond_fun: Callable[[Any], Any],
    body_fun: Callable[[Any], Any],
    init_val: Any,
    *,
    max_steps: int | None = None,
) -> Any:
    """``jax.lax.while_loop``: ``val = init_val; while cond_fun(val): val =
    body_fun(val)``; returns the final ``val``.

    ``cond_fun`` returns a boolean scalar; ``body_fun`` returns a pytree of the
    structure, dtypes and shapes of ``init_val`` (``TypeError`` otherwise).
    ``max_steps`` (not in JAX) also stops the loop after that many steps, and
    makes it differentiable in reverse mode, as a scan of ``max_steps`` steps;
    without it reverse mode raises ``ValueError`` (the number of steps, hence
    what to keep, is unknown).

    >>> import lazygraph
    >>> int(lazygraph.while_loop(lambda v: v < 100, lambda v: v * 3, 1))
    243
    """
    leaves, tree = flatten(init_val, is_leaf=_is_lazy)
    kind = _Kind(leaves)
    init_vars = [_variable(v) for v in leaves]
    holders = _placeholders(init_vars)
    val = unflatten(tree, [kind.give(v) for v in holders])
    with tracing():
        pred = _variable(cond_fun(val))
    if pred.type.ndim != 0 or pred.type.dtype != "bool":  # type: ignore[attr-defined]
        raise TypeError(
            f"while_loop: cond_fun must return a boolean scalar, but got output type "
            f"{_type_text(pred.type)}"
        )
    val = unflatten(tree, [kind.give(v) for v in holders])
    with tracing():
        stepped = body_fun(val)
    new = _flat_outputs(stepped, tree, holders, "while_loop", "body_fun output")
    results = while_apply(init_vars, holders, pred, new, max_steps)
    return unflatten(tree, [kind.give(v) for v in results])


def fori_loop(
    lower: Any,
    upper: Any,
    body_fun: Callable[[Any, Any], Any],
    init_val: Any,
) -> Any:
    """``jax.lax.fori_loop``: ``val = init_val; for i in range(lower, upper):
    val = body_fun(i, val)``; returns the final ``val`` (``i`` is a 0-d int64).

    With Python int bounds it is a :func:`scan` of ``upper - lower`` steps, so
    it is differentiable in reverse mode; with array bounds it is a
    :func:`while_loop` (forward mode only).

    >>> import lazygraph
    >>> int(lazygraph.fori_loop(0, 5, lambda i, total: total + i * i, 0))
    30
    """
    static = all(
        isinstance(b, int | np.integer) and not isinstance(b, bool | np.bool_)
        for b in (lower, upper)
    )
    if static:
        lo, hi = int(lower), int(upper)

        def step(carry: Any, _: Any) -> tuple[Any, None]:
            i, val = carry
            return (i + 1, body_fun(i, val)), None

        (_, val), _ = scan(step, (np.int64(lo), init_val), None, length=max(hi - lo, 0))
        return val

    def body(carry: Any) -> Any:
        i, hi, val = carry
        return i + 1, hi, body_fun(i, val)

    start = _variable(lower)
    stop = _variable(upper)
    if start.type.ndim != 0 or start.type.numpy_dtype.kind not in "iu":  # type: ignore[attr-defined]
        raise TypeError(f"fori_loop: lower must be an integer scalar, got {start.type}")
    if stop.type.ndim != 0 or stop.type.numpy_dtype.kind not in "iu":  # type: ignore[attr-defined]
        raise TypeError(f"fori_loop: upper must be an integer scalar, got {stop.type}")
    start, stop = lt.cast(start, "int64"), lt.cast(stop, "int64")
    _, _, val = while_loop(lambda c: c[0] < c[1], body, (start, stop, init_val))
    return val


def cond(
    pred: Any, true_fun: Callable[..., Any], false_fun: Callable[..., Any], *operands: Any
) -> Any:
    """``jax.lax.cond``: ``true_fun(*operands)`` if ``pred`` else
    ``false_fun(*operands)``, and only the chosen function's graph runs.

    ``pred`` is a boolean (or number) scalar; both functions return pytrees of
    the same structure and dtypes (``TypeError`` otherwise). Differentiable:
    the gradient is a ``cond`` of the two branches' gradients.

    >>> import numpy as np
    >>> import lazygraph
    >>> float(lazygraph.cond(np.float64(2.0) > 1, lambda x: x * 10, lambda x: -x, 3.0))
    30.0
    """
    pred_var = _variable(pred)
    if pred_var.type.ndim != 0:  # type: ignore[attr-defined]
        raise TypeError(f"cond: pred must be a scalar, got {_type_text(pred_var.type)}")
    leaves, tree = flatten(tuple(operands), is_leaf=_is_lazy)
    kind = _Kind(leaves + ([pred] if isinstance(pred, Variable | Array) else []))
    vars_ = [_variable(v) for v in leaves]
    holders = _placeholders(vars_)
    outs = []
    out_trees = []
    for fun in (true_fun, false_fun):
        args = unflatten(tree, [kind.give(v) for v in holders])
        with tracing():
            branch = fun(*args)
        out_leaves, out_tree = flatten(branch, is_leaf=_is_lazy)
        outs.append([_variable(v) for v in out_leaves])
        out_trees.append(out_tree)
    if out_trees[0] != out_trees[1]:
        raise TypeError(
            "cond: true_fun and false_fun output must have identical pytree structures, got "
            f"{unflatten(out_trees[0], ['*'] * len(outs[0]))!r} and "
            f"{unflatten(out_trees[1], ['*'] * len(outs[1]))!r}"
        )
    results = cond_apply(pred_var, holders, vars_, outs[0], outs[1])
    return unflatten(out_trees[0], [kind.give(v) for v in results])
