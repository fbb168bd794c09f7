"""Forward mode: :func:`Rop`, the Jacobian-vector product, from each op's
``R_op(inputs, eval_points)``, falling back to differentiating the op's ``L_op``
(the double-``Lop`` identity ``J v = ∂(v · Jᵀu)/∂u``, linear in ``u``) where an
op has no ``R_op``. Then :func:`jacobian` and :func:`hessian`, built from
reverse mode.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any, Literal

from lazygraph.gradient._build import (
    add_terms,
    as_grad_dtype,
    cast,
    float_dtype,
    float_zeros_like,
    is_discrete,
    zeros_like,
)
from lazygraph.gradient.core import (
    DisconnectedPolicy,
    _as_list,
    _check_policy,
    _handle_disconnected,
    _pattern,
    grad,
)
from lazygraph.gradient.types import NullTypeGradError, is_disconnected, is_null
from lazygraph.graph.basic import Apply, Variable
from lazygraph.graph.traversal import ancestors, io_toposort
from lazygraph.tensor.type import TensorType

__all__ = ["Rop", "hessian", "jacobian"]


def _node_jvp_by_lop(node: Apply, tangents: list[Variable | None]) -> list[Any]:
    """A node's JVP without ``R_op``, by differentiating its VJP (linear in the
    output gradients ``u``) with respect to ``u``: ``J v = ∂(v · Jᵀu)/∂u``."""
    us = [out.type() if not is_discrete(out) else None for out in node.outputs]
    filled = [
        u if u is not None else float_zeros_like(o) for u, o in zip(us, node.outputs, strict=True)
    ]
    vjp = node.op.L_op(node.inputs, node.outputs, filled)
    known: dict[Variable, list[Any]] = {}
    for g, v, inp in zip(vjp, tangents, node.inputs, strict=True):
        if v is None or is_discrete(inp) or is_disconnected(g):
            continue
        if is_null(g):
            return [g if u is not None else None for u in us]
        known.setdefault(g, []).append(v)
    live = [u for u in us if u is not None]
    if not known or not live:
        return [None] * len(node.outputs)
    jvps = grad(
        None,
        live,
        known_grads={g: add_terms(vs) for g, vs in known.items()},
        disconnected_inputs="ignore",
        return_disconnected="none",
    )
    # The VJP is linear in u, so its derivative does not depend on u; whatever
    # still mentions u (a shape, say) may read the outputs' zeros instead.
    zeros = {u: zeros_like(o) for u, o in zip(us, node.outputs, strict=True) if u is not None}
    present = [j for j in jvps if j is not None]
    if present and any(a in zeros for a in ancestors(present)):
        from lazygraph.graph.clone import clone_replace

        replaced = iter(clone_replace(present, zeros))
        jvps = [next(replaced) if j is not None else None for j in jvps]
    it = iter(jvps)
    return [next(it) if u is not None else None for u in us]


def Rop(
    f: Variable | Sequence[Variable],
    wrt: Variable | Sequence[Variable],
    eval_points: Variable | Sequence[Any],
    disconnected_outputs: DisconnectedPolicy = "raise",
    return_disconnected: Literal["zero", "none"] = "zero",
    method: Literal["auto", "r_op", "lop"] = "auto",
) -> Any:
    """The Jacobian-vector product ``∂f/∂wrt · eval_points`` (forward mode);
    ``wrt`` and ``eval_points`` are matched one to one; the result has ``f``'s
    structure.

    ``method``: ``"r_op"`` uses each op's ``R_op`` (and fails where one is
    missing); ``"auto"`` (default) falls back, node by node, to differentiating
    the op's ``L_op``; ``"lop"`` uses the double-``Lop`` identity for the whole
    graph. An output that does not depend on ``wrt`` is handled per
    ``disconnected_outputs`` / ``return_disconnected`` as in :func:`grad`.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> from lazygraph.gradient import Rop
    >>> x, v = lt.dvector("x"), lt.dvector("v")
    >>> Rop(x * x, x, v).eval({x: np.array([1.0, 2.0]), v: np.array([1.0, 10.0])})
    array([ 2., 40.])
    """
    _check_policy("disconnected_outputs", disconnected_outputs, ("raise", "warn", "ignore"))
    _check_policy("return_disconnected", return_disconnected, ("zero", "none"))
    _check_policy("method", method, ("auto", "r_op", "lop"))
    fs, f_seq = _as_list(f, "f")
    ws, _ = _as_list(wrt, "wrt")
    evs, _ = _as_list(eval_points, "eval_points")
    if len(ws) != len(evs):
        raise ValueError(f"Rop: {len(ws)} wrt variables but {len(evs)} eval_points")
    from lazygraph.tensor.variable import as_tensor_variable

    tangent: dict[Variable, Any] = {}
    for w, ev in zip(ws, evs, strict=True):
        ev = as_tensor_variable(ev)
        if not isinstance(w.type, TensorType) or ev.ndim != w.type.ndim:
            raise ValueError(f"Rop: eval point {ev} does not match {w} of type {w.type}")
        if not is_discrete(w):
            tangent[w] = cast(ev, w.type.dtype) if ev.dtype != w.type.dtype else ev

    if method == "lop":
        results = _rop_by_double_lop(fs, ws, tangent)
    else:
        for node in io_toposort(ws, fs):
            ins = [tangent.get(v) for v in node.inputs]
            if all(t is None for t in ins):
                continue
            pattern = _pattern(node)
            live_out = [
                any(pattern[i][j] and t is not None for i, t in enumerate(ins))
                for j in range(len(node.outputs))
            ]
            null = next((t for t in ins if is_null(t)), None)
            if null is not None:
                # Undefined upstream: undefined downstream, without asking the op.
                outs: list[Any] = [null] * len(node.outputs)
            else:
                outs = _node_jvp(node, ins, method)
            for j, (out, t) in enumerate(zip(node.outputs, outs, strict=True)):
                if t is None or not live_out[j] or is_discrete(out) or is_disconnected(t):
                    continue
                tangent[out] = t if is_null(t) else _check_tangent(node, j, t)
        results = [tangent.get(fi) for fi in fs]

    final: list[Any] = []
    for fi, t in zip(fs, results, strict=True):
        if is_null(t):
            raise NullTypeGradError(f"Rop: the derivative of {fi} is undefined: {t.type.why_null}")
        if t is None:
            _handle_disconnected(fi, disconnected_outputs, what="f")
            t = float_zeros_like(fi) if return_disconnected == "zero" else None
        final.append(t)
    return final if f_seq else final[0]


def _node_jvp(node: Apply, ins: list[Any], method: str) -> list[Any]:
    # R_op gets a tensor for every input (zeros where nothing varies), so ops need
    # no None handling; Elemwise takes None and leaves that input's term out (a
    # symbolic zero: 0 * d/dy x**y is NaN where log(x) is, as in x**(3 - 1), x < 0).
    from lazygraph.tensor.elemwise import Elemwise

    if isinstance(node.op, Elemwise):
        filled = list(ins)
    else:
        filled = [
            t if t is not None else zeros_like(v) for t, v in zip(ins, node.inputs, strict=True)
        ]
    try:
        outs = node.op.R_op(node.inputs, filled)
    except NotImplementedError:
        if method == "r_op":
            raise
        return _node_jvp_by_lop(node, ins)
    if outs is None or len(outs) != len(node.outputs):
        raise TypeError(
            f"{node.op}.R_op must return a list of {len(node.outputs)} derivatives "
            f"(one per output), got {outs!r}"
        )
    return list(outs)


def _check_tangent(node: Apply, j: int, t: Any) -> Variable:
    out = node.outputs[j]
    if not isinstance(t, Variable) or not isinstance(t.type, TensorType):
        raise TypeError(f"{node.op}.R_op returned {t!r} for output {j}; expected a tensor")
    if t.type.ndim != out.type.ndim:  # type: ignore[attr-defined]
        raise ValueError(
            f"{node.op}.R_op returned a derivative with {t.type.ndim} dimensions for output {j}, "
            f"which has {out.type.ndim}"  # type: ignore[attr-defined]
        )
    dtype = out.type.dtype  # type: ignore[attr-defined]
    kind = t.type.numpy_dtype.kind
    if kind in "fc" and t.type.dtype != dtype and out.type.numpy_dtype.kind in "fc":  # type: ignore[attr-defined]
        # a real output's tangent is real: the real part of a complex one
        t = as_grad_dtype(t, dtype)
    return t


def _rop_by_double_lop(
    fs: list[Variable], ws: list[Variable], tangent: dict[Variable, Any]
) -> list[Any]:
    """``J v`` as ``∂(v · Jᵀu)/∂u``: two reverse passes, no ``R_op`` needed."""
    live_f = [fi for fi in fs if not is_discrete(fi)]
    live_w = [w for w in ws if w in tangent]
    if not live_f or not live_w:
        return [None] * len(fs)
    us = {fi: fi.type() for fi in live_f}
    vjps = grad(
        None,
        live_w,
        known_grads={fi: us[fi] for fi in live_f},
        disconnected_inputs="ignore",
        return_disconnected="none",
        null_gradients="return",
    )
    known: dict[Variable, list[Any]] = {}
    for g, w in zip(vjps, live_w, strict=True):
        if g is None:
            continue
        if is_null(g):
            return [g] * len(fs)
        known.setdefault(g, []).append(tangent[w])
    if not known:
        return [None] * len(fs)
    u_list = list(us.values())
    jvps = grad(
        None,
        u_list,
        known_grads={g: add_terms(vs) for g, vs in known.items()},
        disconnected_inputs="ignore",
        return_disconnected="none",
    )
    zeros = {us[fi]: zeros_like(fi) for fi in live_f}
    present = [j for j in jvps if j is not None]
    if present and any(a in zeros for a in ancestors(present)):
        from lazygraph.graph.clone import clone_replace

        replaced = iter(clone_replace(present, zeros))
        jvps = [next(replaced) if j is not None else None for j in jvps]
    by_f = dict(zip(live_f, jvps, strict=True))
    return [by_f.get(fi) for fi in fs]


def _static_size(var: Variable, what: str) -> tuple[int, ...]:
    shape = var.type.shape  # type: ignore[attr-defined]
    if any(s is None for s in shape):
        raise NotImplementedError(f"{what} needs the static shape of {var} (got {var.type})")
    return tuple(shape)


def _jacobian_by_scan(
    expression: Variable,
    ws: list[Variable],
    is_seq: bool,
    consider_constant: Sequence[Variable] | None,
    disconnected_inputs: DisconnectedPolicy,
) -> Any:
    """:func:`jacobian` of an expression whose size is known only at run time:
    a ``Scan`` over the flat expression's positions ``i``, each step the
    vector-Jacobian product of the one-hot ``e_i`` (what does not depend on
    ``i``, the expression's own graph, is computed once, outside the loop)."""
    import lazygraph.tensor as lt
    from lazygraph.tensor.control.scan import scan_apply

    flat = lt.reshape(expression, (-1,))
    i = lt.tensor("int64", (), "i")
    onehot = lt.set_subtensor(lt.zeros_like(flat)[i], 1)
    rows = grad(
        None,
        ws,
        consider_constant=consider_constant,
        disconnected_inputs=disconnected_inputs,
        known_grads={flat: onehot},
        return_disconnected="zero",
    )
    n = flat.shape[0]
    stacked = scan_apply(n, [], [lt.arange(n)], [], [i], [], rows)
    results = [
        lt.reshape(jac, (*expression.shape, *w.shape)) for jac, w in zip(stacked, ws, strict=True)
    ]
    return results if is_seq else results[0]


#: the most elements of an expression whose Jacobian :func:`jacobian` builds as
#: one vector-Jacobian product per element by default; a larger one is a Scan
JACOBIAN_UNROLL_MAX = 256


def jacobian(
    expression: Variable,
    wrt: Variable | Sequence[Variable],
    consider_constant: Sequence[Variable] | None = None,
    disconnected_inputs: DisconnectedPolicy = "raise",
    vectorize: bool | None = None,
) -> Any:
    """The Jacobian of ``expression`` with respect to ``wrt``: for each ``wrt``
    variable, an array of shape ``expression.shape + wrt.shape``.

    One vector-Jacobian product per element of ``expression`` (a one-hot known
    gradient each time). ``vectorize=True``: the products are separate
    subgraphs, stacked (the graph grows with the size; every product is
    rewritten and fused with the others); ``vectorize=False``: they are the
    steps of a ``Scan`` over the positions (one copy of the product, a loop).
    By default the first where the size is static and at most
    :data:`JACOBIAN_UNROLL_MAX`, else the second (always where the size is
    known only at run time). A 0-d expression gives :func:`grad`.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> from lazygraph.gradient import jacobian
    >>> x = lt.tensor("float64", (2,), "x")
    >>> jacobian(x * x, x).eval({x: np.array([1.0, 3.0])})
    array([[2., 0.],
           [0., 6.]])
    """
    import numpy as np

    import lazygraph.tensor as lt

    ws, is_seq = _as_list(wrt, "wrt")
    if not isinstance(expression, Variable) or not isinstance(expression.type, TensorType):
        raise TypeError(f"jacobian: expression must be a tensor variable, got {expression!r}")
    if expression.type.ndim == 0:
        return grad(expression, wrt, consider_constant, disconnected_inputs)
    static = all(s is not None for s in expression.type.shape)
    if vectorize is None:
        static = static and math.prod(expression.type.shape) <= JACOBIAN_UNROLL_MAX
    if not static or vectorize is False:
        return _jacobian_by_scan(expression, ws, is_seq, consider_constant, disconnected_inputs)
    shape = _static_size(expression, "jacobian (vectorize=True)")
    size = int(np.prod(shape))
    dtype = float_dtype(expression)
    rows: list[list[Any]] = []
    for k in range(size):
        onehot = np.zeros(size, dtype=dtype)
        onehot[k] = 1
        row = grad(
            None,
            ws,
            consider_constant=consider_constant,
            disconnected_inputs=disconnected_inputs if k == 0 else "ignore",
            known_grads={expression: lt.constant(onehot.reshape(shape))},
        )
        rows.append(row)
    results: list[Any] = []
    for i, w in enumerate(ws):
        if size == 0:
            wshape = _static_size(w, "jacobian of an empty expression")
            results.append(lt.constant(np.zeros(shape + wshape, dtype=float_dtype(w))))
            continue
        stacked = lt.stack([row[i] for row in rows])
        if len(shape) > 1:
            stacked = lt.reshape(stacked, (*shape, *_static_size(w, "jacobian")))
        results.append(stacked)
    return results if is_seq else results[0]


def hessian(
    cost: Variable,
    wrt: Variable | Sequence[Variable],
    consider_constant: Sequence[Variable] | None = None,
    disconnected_inputs: DisconnectedPolicy = "raise",
    vectorize: bool | None = None,
) -> Any:
    """The Hessian of the 0-d ``cost``: for each ``wrt`` variable ``w``, the
    Jacobian of ``grad(cost, w)`` with respect to ``w`` (shape ``w.shape * 2``;
    ``vectorize`` as in :func:`jacobian`). Cross terms between different
    ``wrt`` variables are not computed.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> from lazygraph.gradient import hessian
    >>> x = lt.tensor("float64", (2,), "x")
    >>> hessian(lt.sum(x * x * x), x).eval({x: np.array([1.0, 2.0])})
    array([[ 6.,  0.],
           [ 0., 12.]])
    """
    ws, is_seq = _as_list(wrt, "wrt")
    results = []
    for w in ws:
        g = grad(
            cost,
            w,
            consider_constant=consider_constant,
            disconnected_inputs=disconnected_inputs,
        )
        results.append(
            jacobian(
                g,
                w,
                consider_constant=consider_constant,
                disconnected_inputs="ignore",
                vectorize=vectorize,
            )
        )
    return results if is_seq else results[0]
