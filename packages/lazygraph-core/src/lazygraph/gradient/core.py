"""Reverse mode: :func:`grad` and :func:`Lop` (forward mode, jacobians and
hessians are in :mod:`lazygraph.gradient.forward`).

Gradients are graphs: each node's ``op.L_op(inputs, outputs, output_grads)``
returns variables built from differentiable ops, so a gradient can itself be
differentiated. The machinery walks the graph once, iteratively (no recursion),
and calls each node's ``L_op`` once, with the sum of the gradients of its outputs.

Rules, after PyTensor's ``pytensor.gradient.grad``:

- Only nodes on a path from a ``wrt`` variable to the cost are differentiated;
  ``op.connection_pattern(node)`` says which inputs reach which outputs.
- A bool/integer variable carries no gradient: its gradient counts as zero,
  whatever its consumers' ``L_op`` return for it, and is never built. The gradient
  *with respect to* an integer variable is therefore zeros of float64 when the
  cost depends on it according to the ops' connection patterns (PyTensor's
  behaviour, where ops return float zeros for integer inputs), and disconnected
  (``disconnected_inputs`` applies) when it does not.
- An output of a multi-output node that does not reach the cost gets zeros
  (``zeros_like`` of the output, float dtype) as its output gradient, so an
  ``L_op`` always receives tensors; ops need not handle placeholders.
- ``L_op`` may return :func:`~lazygraph.gradient.types.disconnected_type` for an
  input (no contribution) or a :class:`~lazygraph.gradient.types.NullType`
  gradient (undefined); an undefined gradient that reaches a ``wrt`` raises
  :class:`~lazygraph.gradient.types.NullTypeGradError` naming the op and why.
- Gradients of float variables have the variable's dtype (a float64 gradient of
  a float32 input is cast down).

Complex numbers follow JAX's convention (``docs/transforms.md``, "Complex
numbers"): the gradient ``w`` of a complex variable ``z`` stands for the linear
functional ``dz -> Re(sum(w * dz))``, and cotangents are passed back by plain
transposition, without conjugation. So for a holomorphic ``y = f(z)``,
``z_bar = y_bar * f'(z)``; the gradient of a real cost with respect to ``z = x + iy``
is ``dcost/dx - i dcost/dy``; a complex gradient term of a real variable
contributes its real part, a real one of a complex variable its value. A complex
``cost`` is seeded with ``1``: the result is ``f'(z)`` when the cost is a
holomorphic function of ``z``, and in general the gradient of ``real(cost)``.

>>> import lazygraph.tensor as lt
>>> z = lt.zscalar("z")
>>> complex(grad(lt.abs(z) ** 2, z).eval({z: 3 + 4j}))
(6-8j)
>>> complex(grad(z**3, z).eval({z: 1 + 1j}))  # 3 z**2
6j
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from lazygraph.gradient._build import (
    add_terms,
    as_grad_dtype,
    float_zeros_like,
    is_discrete,
    ones_like,
)
from lazygraph.gradient.types import (
    DisconnectedInputError,
    NullTypeGradError,
    disconnected_type,
    is_disconnected,
    is_null,
)
from lazygraph.graph.basic import Apply, Op, Variable, gc_paused
from lazygraph.graph.traversal import io_toposort
from lazygraph.tensor.type import TensorType

__all__ = ["Lop", "grad"]

DisconnectedPolicy = Literal["raise", "warn", "ignore"]
ReturnDisconnected = Literal["zero", "none", "disconnected"]


class _Zero:
    """A symbolic zero gradient (of a discrete variable), never materialized
    unless it reaches a ``wrt``: it keeps integer paths out of the graph."""

    def __repr__(self) -> str:
        return "ZERO"


ZERO = _Zero()

# One gradient term: a tensor variable, a NullType variable, or ZERO.
_Term = Any


def _as_list(x: Any, what: str) -> tuple[list[Any], bool]:
    if isinstance(x, (list, tuple)):
        return list(x), True
    return [x], False


def _check_policy(name: str, value: str, allowed: Sequence[str]) -> None:
    if value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(map(repr, allowed))}, got {value!r}")


def _handle_disconnected(var: Variable, policy: str, what: str = "wrt") -> None:
    message = (
        f"grad was asked for the gradient with respect to {var}, which the cost does not "
        "depend on (it is not in the cost's graph, or only reaches it through "
        "non-differentiable or disconnected paths). Pass disconnected_inputs='ignore' "
        "to get zeros, or 'warn'."
    )
    if what == "f":
        message = (
            f"Rop: the output {var} does not depend on any of the wrt variables. "
            "Pass disconnected_outputs='ignore' to get zeros, or 'warn'."
        )
    if policy == "raise":
        raise DisconnectedInputError(message)
    if policy == "warn":
        warnings.warn(message, stacklevel=3)


_DEFAULT_PATTERNS: dict[tuple[int, int], list[list[bool]]] = {}


def _pattern(node: Apply) -> list[list[bool]]:
    op_type = type(node.op)
    nin, nout = len(node.inputs), len(node.outputs)
    if op_type.connection_pattern is Op.connection_pattern:
        # The default (all connected): one shared, read-only table per arity.
        pattern = _DEFAULT_PATTERNS.get((nin, nout))
        if pattern is None:
            pattern = _DEFAULT_PATTERNS[nin, nout] = [[True] * nout for _ in range(nin)]
        return pattern
    pattern = node.op.connection_pattern(node)
    if len(pattern) != nin or any(len(row) != nout for row in pattern):
        raise ValueError(
            f"{node.op}.connection_pattern returned a {len(pattern)}-row pattern; it must be "
            f"[input][output] with {nin} rows of {nout}"
        )
    return pattern


def _all_connected(pattern: list[list[bool]]) -> bool:
    return pattern is _DEFAULT_PATTERNS.get((len(pattern), len(pattern[0]) if pattern else 0))


def _sum_terms(terms: list[_Term]) -> _Term | None:
    """The total gradient from its terms: None (disconnected) when there are none,
    the first NullType if any (undefined wins), ZERO if all are zero."""
    if not terms:
        return None
    for t in terms:
        if is_null(t):
            return t
    real = [t for t in terms if t is not ZERO]
    if not real:
        return ZERO
    return add_terms(real)


def _check_term(node: Apply, i: int, term: Any) -> Variable:
    """Validate one ``L_op`` result for a continuous input; cast it to the input's dtype."""
    inp = node.inputs[i]
    if not isinstance(term, Variable):
        raise TypeError(
            f"{node.op}.L_op returned {term!r} for input {i}; return a tensor variable, "
            "disconnected_type() or grad_undefined(...) (None is not allowed: it has meant "
            "zero, disconnected and undefined in the past)"
        )
    if not isinstance(term.type, TensorType):
        raise TypeError(f"{node.op}.L_op returned {term} of type {term.type} for input {i}")
    itype: TensorType = inp.type  # type: ignore[assignment]
    if term.type.ndim != itype.ndim:
        raise ValueError(
            f"{node.op}.L_op returned a gradient with {term.type.ndim} dimensions for input {i} "
            f"({inp}), which has {itype.ndim}"
        )
    for k, (a, b) in enumerate(zip(term.type.shape, itype.shape, strict=True)):
        if a is not None and b is not None and a != b:
            raise ValueError(
                f"{node.op}.L_op returned a gradient of shape {term.type.shape} for input {i} "
                f"of shape {itype.shape} (dimension {k})"
            )
    if term.type.numpy_dtype.kind in "biu":
        raise TypeError(
            f"{node.op}.L_op returned an integer-valued gradient ({term.type.dtype}) for input "
            f"{i}; gradients are floating point"
        )
    if term.type.dtype != itype.dtype:
        # float -> complex adds a zero imaginary part, complex -> float keeps the
        # real part (the convention in the module docstring).
        term = as_grad_dtype(term, itype.dtype)
    return term


def _seed(var: Variable, value: Any) -> _Term:
    """A known gradient for ``var``, checked against its type."""
    if is_null(value) or is_disconnected(value):
        return value
    from lazygraph.tensor.variable import as_tensor_variable

    value = as_tensor_variable(value)
    if value.ndim != var.type.ndim:  # type: ignore[attr-defined]
        raise ValueError(
            f"known gradient for {var} has {value.ndim} dimensions, the variable has "
            f"{var.type.ndim}"  # type: ignore[attr-defined]
        )
    if is_discrete(var):
        return ZERO
    if value.type.numpy_dtype.kind in "fc" and value.dtype != var.type.dtype:  # type: ignore[attr-defined]
        value = as_grad_dtype(value, var.type.dtype)  # type: ignore[attr-defined]
    return value


def _depends_on(
    order: list[Apply], wrt: set[Variable], blocked: set[Variable]
) -> tuple[set[Variable], dict[Apply, list[list[bool]]]]:
    """The variables (in ``order``'s nodes) that depend on ``wrt`` through connected
    paths, not counting paths through the outputs of ``blocked`` variables' owners."""
    depends = set(wrt)
    patterns: dict[Apply, list[list[bool]]] = {}
    for node in order:
        live = [i for i, v in enumerate(node.inputs) if v in depends]
        if not live:
            continue
        pattern = patterns[node] = _pattern(node)
        for j, out in enumerate(node.outputs):
            if out not in blocked and any(pattern[i][j] for i in live):
                depends.add(out)
    return depends, patterns


def _backprop(
    seeds: Mapping[Variable, list[_Term]],
    wrt: Sequence[Variable],
    consider_constant: set[Variable],
) -> dict[Variable, list[_Term]]:
    """Every gradient term flowing into each variable between ``wrt`` and ``seeds``."""
    order = io_toposort(consider_constant, list(seeds))
    wrt_set = set(wrt)
    depends, patterns = _depends_on(order, wrt_set, consider_constant)
    terms: dict[Variable, list[_Term]] = {v: list(ts) for v, ts in seeds.items()}

    for node in reversed(order):
        pattern = patterns.get(node)
        if pattern is None:
            continue  # no input depends on wrt
        outputs = node.outputs
        if len(outputs) == 1:
            # The common case, kept lean: one output.
            out = outputs[0]
            out_terms = terms.get(out)
            if out_terms is None or out in consider_constant:
                continue
            g = out_terms[0] if len(out_terms) == 1 else _sum_terms(out_terms)
            if out in wrt_set:
                terms[out] = [g]
            else:
                del terms[out]
            if g is not ZERO and not is_null(g) and _all_connected(pattern):
                raw = _call_l_op(node, [_fit_output_grad(out, g)])
                for i, inp in enumerate(node.inputs):
                    if inp in depends:
                        term = _input_term(node, i, raw[i])
                        if term is not None:
                            terms.setdefault(inp, []).append(term)
                continue
            out_grads: list[_Term | None] = [g]
        else:
            # No gradient flows back through an output the user holds constant.
            out_grads = [
                _sum_terms(terms[o]) if o in terms and o not in consider_constant else None
                for o in outputs
            ]
            if all(g is None for g in out_grads):
                continue
            # A variable's terms are final once its owner is reached: drop them
            # (memory), except a wrt's, which the caller reads (summed once).
            for o, g in zip(outputs, out_grads, strict=True):
                if o not in wrt_set:
                    terms.pop(o, None)
                elif g is not None:
                    terms[o] = [g]
        connected = [
            inp in depends and any(pattern[i][j] and g is not None for j, g in enumerate(out_grads))
            for i, inp in enumerate(node.inputs)
        ]
        if not any(connected):
            continue
        input_grads = _node_input_grads(node, pattern, out_grads, connected)
        for i, g in enumerate(input_grads):
            if connected[i] and g is not None:
                terms.setdefault(node.inputs[i], []).append(g)
    return terms


def _fit_output_grad(out: Variable, g: _Term | None) -> Variable:
    """The output gradient handed to ``L_op``: zeros for none, the output's dtype
    for an inexact gradient of an inexact output (the real part of a complex
    gradient of a real output)."""
    if g is None or g is ZERO or is_null(g):
        return float_zeros_like(out)
    otype, gtype = out.type, g.type
    if (
        isinstance(otype, TensorType)
        and otype.numpy_dtype.kind in "fc"
        and gtype.dtype != otype.dtype
        and gtype.numpy_dtype.kind in "fc"
    ):
        return as_grad_dtype(g, otype.dtype)
    return g  # type: ignore[no-any-return]


def _call_l_op(node: Apply, output_grads: list[Variable]) -> list[Any]:
    raw = node.op.L_op(node.inputs, node.outputs, output_grads)
    if raw is None or len(raw) != len(node.inputs):
        raise TypeError(
            f"{node.op}.L_op must return a list of {len(node.inputs)} gradients "
            f"(one per input), got {raw!r}"
        )
    return raw


def _input_term(node: Apply, i: int, term: Any) -> _Term | None:
    """What ``L_op``'s result ``term`` for input ``i`` contributes (None: nothing)."""
    if is_discrete(node.inputs[i]):
        # A discrete variable carries no gradient, whatever the op returned
        # (disconnected, undefined or zeros): connectivity comes from the
        # connection pattern alone, and an index must not poison what
        # computed it with an undefined gradient.
        return ZERO
    if is_disconnected(term):
        return None
    if is_null(term):
        return term
    return _check_term(node, i, term)


def _node_input_grads(
    node: Apply,
    pattern: list[list[bool]],
    out_grads: list[_Term | None],
    connected: list[bool],
) -> list[_Term | None]:
    """One node's contribution to each input's gradient (None: disconnected)."""
    nulls = [is_null(g) for g in out_grads]
    # An input reached only through undefined or zero output gradients gets that
    # directly: no need to ask the op (and no integer paths in the graph).
    useful = [
        any(
            pattern[i][j] and g is not None and not nulls[j] and g is not ZERO
            for j, g in enumerate(out_grads)
        )
        for i in range(len(node.inputs))
    ]
    result: list[_Term | None] = [None] * len(node.inputs)
    if any(u and c for u, c in zip(useful, connected, strict=True)):
        filled = [_fit_output_grad(o, g) for o, g in zip(node.outputs, out_grads, strict=True)]
        raw = _call_l_op(node, filled)
        for i, term in enumerate(raw):
            if connected[i] and useful[i]:
                result[i] = _input_term(node, i, term)
    for i in range(len(node.inputs)):
        if not connected[i]:
            continue
        for j, g in enumerate(out_grads):
            if pattern[i][j] and nulls[j] and not is_discrete(node.inputs[i]):
                # Undefined beats everything: propagate the output's NullType.
                result[i] = g
                break
        else:
            if not useful[i]:
                # Reached only through zero gradients (discrete outputs).
                result[i] = ZERO
    return result


def grad(
    cost: Variable | None,
    wrt: Variable | Sequence[Variable],
    consider_constant: Sequence[Variable] | None = None,
    disconnected_inputs: DisconnectedPolicy = "raise",
    known_grads: Mapping[Variable, Any] | None = None,
    return_disconnected: ReturnDisconnected = "zero",
    null_gradients: Literal["raise", "return"] = "raise",
) -> Any:
    """The gradient of the 0-d ``cost`` with respect to ``wrt`` (a variable, or a
    list/tuple of them: the result has the same structure), as graph variables.

    - ``consider_constant``: variables treated as constants: no gradient flows
      through them into what they are computed from.
    - ``disconnected_inputs``: what to do when the cost does not depend on a
      ``wrt`` variable: ``"raise"`` (:class:`DisconnectedInputError`), ``"warn"``
      or ``"ignore"``; the gradient returned is then per ``return_disconnected``:
      ``"zero"`` (zeros like the variable), ``"none"`` or ``"disconnected"``
      (a :class:`DisconnectedType` placeholder).
    - ``known_grads``: ``{variable: gradient}`` injected into the graph (added to
      what flows from ``cost``); with ``cost=None`` these are the only source,
      which is how a vector-Jacobian product is written.
    - ``null_gradients``: ``"raise"`` (:class:`NullTypeGradError` naming the op
      whose gradient is undefined) or ``"return"`` the NullType variable.

    >>> import lazygraph.tensor as lt
    >>> from lazygraph.gradient import grad
    >>> x = lt.dscalar("x")
    >>> float(grad(x * x * x, x).eval({x: 2.0}))
    12.0
    """
    _check_policy("disconnected_inputs", disconnected_inputs, ("raise", "warn", "ignore"))
    _check_policy("return_disconnected", return_disconnected, ("zero", "none", "disconnected"))
    _check_policy("null_gradients", null_gradients, ("raise", "return"))
    wrt_list, is_seq = _as_list(wrt, "wrt")
    for w in wrt_list:
        if not isinstance(w, Variable):
            raise TypeError(f"grad: wrt must be variables, got {w!r}")
    known = dict(known_grads or {})
    if cost is None and not known:
        raise ValueError("grad: cost is None, so known_grads must give the gradients to start from")

    seeds: dict[Variable, list[_Term]] = {}
    if cost is not None:
        if not isinstance(cost, Variable):
            raise TypeError(f"grad: cost must be a variable, got {cost!r}")
        if not isinstance(cost.type, TensorType):
            raise TypeError(f"grad: cost must be a tensor, got {cost} of type {cost.type}")
        if cost.type.ndim != 0:
            raise TypeError(
                f"grad: cost must be a scalar (0-d), got {cost} with shape {cost.type.shape}; "
                "reduce it first (e.g. sum), or use Lop / jacobian"
            )
        if cost not in known:
            seeds[cost] = [ZERO if is_discrete(cost) else ones_like(cost)]
    for var, value in known.items():
        if not isinstance(var, Variable):
            raise TypeError(f"grad: the keys of known_grads must be variables, got {var!r}")
        seed = _seed(var, value)
        if not is_disconnected(seed):
            seeds.setdefault(var, []).append(seed)

    # Building a large gradient graph allocates what stays alive: the cyclic
    # collector would only rescan it, again and again.
    with gc_paused():
        terms = _backprop(seeds, wrt_list, set(consider_constant or ()))

    results: list[Any] = []
    for w in wrt_list:
        g = _sum_terms(terms.get(w, []))
        if is_null(g):
            if null_gradients == "raise":
                why = g.type.why_null  # type: ignore[union-attr]
                raise NullTypeGradError(
                    f"grad: the gradient with respect to {w} is undefined: {why}"
                )
            results.append(g)
        elif g is None:
            _handle_disconnected(w, disconnected_inputs)
            if return_disconnected == "zero":
                results.append(float_zeros_like(w))
            elif return_disconnected == "none":
                results.append(None)
            else:
                results.append(disconnected_type())
        elif g is ZERO:
            results.append(float_zeros_like(w))
        else:
            results.append(g)
    return results if is_seq else results[0]


def Lop(
    f: Variable | Sequence[Variable],
    wrt: Variable | Sequence[Variable],
    eval_points: Variable | Sequence[Any],
    consider_constant: Sequence[Variable] | None = None,
    disconnected_inputs: DisconnectedPolicy = "raise",
) -> Any:
    """The vector-Jacobian product ``eval_points · ∂f/∂wrt`` (reverse mode): the
    gradient of ``sum(f * eval_points)`` with respect to ``wrt``, without
    building that sum. ``f`` and ``eval_points`` are matched one to one; the result
    has ``wrt``'s structure.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> from lazygraph.gradient import Lop
    >>> x, v = lt.dvector("x"), lt.dvector("v")
    >>> Lop(x * x, x, v).eval({x: np.array([1.0, 2.0]), v: np.array([1.0, 10.0])})
    array([ 2., 40.])
    """
    fs, _ = _as_list(f, "f")
    evs, _ = _as_list(eval_points, "eval_points")
    if len(fs) != len(evs):
        raise ValueError(f"Lop: {len(fs)} outputs but {len(evs)} eval_points")
    known: dict[Variable, Any] = {}
    for fi, ev in zip(fs, evs, strict=True):
        if fi in known:
            from lazygraph.tensor.variable import as_tensor_variable

            known[fi] = add_terms([as_tensor_variable(known[fi]), as_tensor_variable(ev)])
        else:
            known[fi] = ev
    return grad(
        None,
        wrt,
        consider_constant=consider_constant,
        disconnected_inputs=disconnected_inputs,
        known_grads=known,
    )
