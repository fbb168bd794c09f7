"""Explicit kinds of "no gradient", the errors that report them, and the ops that
cut or mark gradients.

A gradient is never silently ``None``. An :class:`~lazygraph.graph.basic.Op`'s
``L_op`` says what it knows about each input's gradient with a variable:

- a tensor: the gradient;
- :func:`disconnected_type` (a variable of :class:`DisconnectedType`): the input
  does not influence the outputs (a shape argument, an index);
- :func:`grad_undefined` / :func:`grad_not_implemented` (a variable of
  :class:`NullType`): the gradient exists in principle but is mathematically
  undefined or not written; it carries the reason, and :func:`~lazygraph.gradient.grad`
  raises :class:`NullTypeGradError` with it if it reaches a requested variable.

>>> from lazygraph.gradient.types import DisconnectedType, NullType, disconnected_type
>>> isinstance(disconnected_type().type, DisconnectedType)
True
>>> NullType("because").why_null
'because'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from lazygraph.graph.basic import Apply, Op, Type, Variable

__all__ = [
    "DisconnectedGrad",
    "DisconnectedInputError",
    "DisconnectedType",
    "GradientError",
    "NullType",
    "NullTypeGradError",
    "UndefinedGrad",
    "ZeroGrad",
    "disconnected_grad",
    "disconnected_type",
    "grad_not_implemented",
    "grad_undefined",
    "is_disconnected",
    "is_null",
    "undefined_grad",
    "zero_grad",
]


class DisconnectedType(Type):
    """The type of a gradient that does not exist because the variable does not
    influence the cost. Such a variable is a placeholder: it has no value."""

    __props__: ClassVar[tuple[str, ...]] = ()

    def filter(self, data: Any, strict: bool = False, allow_downcast: bool | None = None) -> Any:
        raise TypeError(
            "a DisconnectedType variable is a placeholder for a gradient that does not "
            "exist; it has no value and cannot be computed"
        )

    def __str__(self) -> str:
        return "DisconnectedType"


class NullType(Type):
    """The type of an undefined gradient; ``why_null`` says why (and which Op)."""

    __props__: ClassVar[tuple[str, ...]] = ("why_null",)

    def __init__(self, why_null: str = "(no explanation given)") -> None:
        self.why_null = why_null

    def filter(self, data: Any, strict: bool = False, allow_downcast: bool | None = None) -> Any:
        raise ValueError(f"tried to compute an undefined (NullType) gradient: {self.why_null}")

    def __str__(self) -> str:
        return "NullType"


class NullTypeGradError(TypeError):
    """An undefined gradient (:class:`NullType`) reached a variable ``grad`` was asked for."""


class DisconnectedInputError(ValueError):
    """``grad`` was asked for the gradient with respect to a variable the cost does
    not depend on (with ``disconnected_inputs="raise"``)."""


class GradientError(AssertionError):
    """A symbolic derivative disagrees with finite differences (see ``verify_grad``).

    ``arg`` is the index of the input (``verify_grad``) or ``None`` (``verify_rop``
    compares outputs), ``err_pos`` the flat position of the worst element (``None``
    for a directional check), ``val1`` the symbolic and ``val2`` the numeric value there.
    """

    def __init__(
        self,
        arg: int | None,
        err_pos: int | None,
        shape: tuple[int, ...],
        val1: float,
        val2: float,
        abs_err: float,
        rel_err: float,
        abs_tol: float,
        rel_tol: float,
        what: str = "gradient",
    ) -> None:
        self.arg = arg
        self.err_pos = err_pos
        self.shape = shape
        self.val1 = val1
        self.val2 = val2
        self.abs_err = abs_err
        self.rel_err = rel_err
        self.abs_tol = abs_tol
        self.rel_tol = rel_tol
        self.what = what
        super().__init__(str(self))

    def __str__(self) -> str:
        where = "" if self.arg is None else f" of input {self.arg}"
        if self.err_pos is None:
            at = " along a random direction"
        else:
            index = _unravel(self.err_pos, self.shape)
            at = f" at index {index} (shape {self.shape})"
        return (
            f"symbolic {self.what}{where} disagrees with finite differences{at}: "
            f"symbolic {self.val1!r}, numeric {self.val2!r}; "
            f"abs error {self.abs_err:.3g} > abs_tol {self.abs_tol:.3g} and "
            f"rel error {self.rel_err:.3g} > rel_tol {self.rel_tol:.3g}"
        )


def _unravel(pos: int, shape: tuple[int, ...]) -> tuple[int, ...]:
    import numpy as np

    if not shape:
        return ()
    return tuple(int(i) for i in np.unravel_index(pos, shape))


def disconnected_type() -> Variable:
    """A fresh placeholder meaning "this input does not influence the outputs"."""
    return DisconnectedType()()


def is_disconnected(var: Any) -> bool:
    """Whether ``var`` is a :class:`DisconnectedType` placeholder."""
    return isinstance(var, Variable) and isinstance(var.type, DisconnectedType)


def is_null(var: Any) -> bool:
    """Whether ``var`` is an undefined gradient (:class:`NullType`)."""
    return isinstance(var, Variable) and isinstance(var.type, NullType)


def grad_undefined(op: Any, x_pos: int, x: Any, comment: str = "") -> Variable:
    """The gradient of input ``x_pos`` (``x``) of ``op``, which is mathematically
    undefined; ``grad`` raises with this message if it reaches a requested variable.

    >>> grad_undefined("Floor", 0, "x", "floor is piecewise constant").type.why_null
    'the gradient of input 0 (x) of Floor is mathematically undefined. floor is piecewise constant'
    """
    why = f"the gradient of input {x_pos} ({x}) of {op} is mathematically undefined."
    return NullType(f"{why} {comment}".strip())()


def grad_not_implemented(op: Any, x_pos: int, x: Any, comment: str = "") -> Variable:
    """The gradient of input ``x_pos`` (``x``) of ``op``, which exists but is not
    implemented; ``grad`` raises with this message if it reaches a requested variable."""
    why = f"the gradient of input {x_pos} ({x}) of {op} is not implemented."
    return NullType(f"{why} {comment}".strip())()


# -- ops that cut or mark gradients ---------------------------------------------


class _GradientMarker(Op):
    """An identity in the forward computation whose only effect is on gradients.

    The python backend returns the input itself (a view). Rewrites may remove
    these nodes from compiled graphs once gradients have been built.
    """

    __props__: ClassVar[tuple[str, ...]] = ()
    view_map = {0: [0]}  # noqa: RUF012 (the Op attribute, per class)

    def make_node(self, x: Any) -> Apply:
        if not isinstance(x, Variable):
            from lazygraph.tensor.variable import as_tensor_variable

            x = as_tensor_variable(x)
        return Apply(self, [x], [x.type()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        output_storage[0][0] = inputs[0]

    def infer_shape(self, fgraph: Any, node: Apply, input_shapes: Sequence[Any]) -> list[Any]:
        return [input_shapes[0]]

    def R_op(self, inputs: Sequence[Variable], eval_points: Sequence[Any]) -> list[Any]:
        # A cut gradient is cut in forward mode too (JAX's stop_gradient has a zero JVP).
        from lazygraph.gradient._build import zeros_like

        return [zeros_like(inputs[0])]


class ZeroGrad(_GradientMarker):
    """Identity whose gradient is zero (connected: ``grad`` does not complain)."""

    def L_op(
        self, inputs: Sequence[Variable], outputs: Sequence[Variable], output_grads: Sequence[Any]
    ) -> list[Variable]:
        from lazygraph.gradient._build import float_zeros_like

        return [float_zeros_like(inputs[0])]


class DisconnectedGrad(_GradientMarker):
    """Identity whose output is treated as not depending on its input."""

    def L_op(
        self, inputs: Sequence[Variable], outputs: Sequence[Variable], output_grads: Sequence[Any]
    ) -> list[Variable]:
        return [disconnected_type()]

    def connection_pattern(self, node: Apply) -> list[list[bool]]:
        return [[False]]


class UndefinedGrad(_GradientMarker):
    """Identity whose gradient is undefined: ``grad`` through it raises."""

    def L_op(
        self, inputs: Sequence[Variable], outputs: Sequence[Variable], output_grads: Sequence[Any]
    ) -> list[Variable]:
        return [grad_undefined(self, 0, inputs[0], "(marked by undefined_grad)")]

    def R_op(self, inputs: Sequence[Variable], eval_points: Sequence[Any]) -> list[Any]:
        return [grad_undefined(self, 0, inputs[0], "(marked by undefined_grad)")]


zero_grad_ = ZeroGrad()
disconnected_grad_ = DisconnectedGrad()
undefined_grad_ = UndefinedGrad()


def zero_grad(x: Any) -> Variable:
    """``x`` with its gradient replaced by zeros (JAX's ``stop_gradient``): the
    cost still counts as depending on whatever ``x`` depends on."""
    return zero_grad_(x)  # type: ignore[no-any-return]


def disconnected_grad(x: Any) -> Variable:
    """``x`` seen by ``grad`` as a constant: paths through it are disconnected,
    so asking for a gradient that only flows through it raises (or warns)."""
    return disconnected_grad_(x)  # type: ignore[no-any-return]


def undefined_grad(x: Any) -> Variable:
    """``x`` whose gradient is undefined: ``grad`` raises if one flows through it."""
    return undefined_grad_(x)  # type: ignore[no-any-return]
