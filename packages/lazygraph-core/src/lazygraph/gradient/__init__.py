"""Gradients as graphs: reverse mode (:func:`grad`, :func:`Lop`), forward mode
(:func:`Rop`), :func:`jacobian` and :func:`hessian`, the explicit kinds of
"no gradient" (:class:`DisconnectedType`, :class:`NullType`), and checks against
finite differences (:func:`verify_grad`, :func:`verify_rop`).

Each Op differentiates itself with ``L_op(inputs, outputs, output_grads)``
(vector-Jacobian product) and optionally ``R_op(inputs, eval_points)``
(Jacobian-vector product); this package walks graphs and combines them.

>>> import lazygraph.tensor as lt
>>> from lazygraph.gradient import grad
>>> x, y = lt.dscalar("x"), lt.dscalar("y")
>>> gx, gy = grad(x * y + x, [x, y])
>>> float(gx.eval({y: 3.0})), float(gy.eval({x: 2.0}))
(4.0, 2.0)
"""

from lazygraph.gradient.core import Lop, grad
from lazygraph.gradient.forward import Rop, hessian, jacobian
from lazygraph.gradient.types import (
    DisconnectedGrad,
    DisconnectedInputError,
    DisconnectedType,
    GradientError,
    NullType,
    NullTypeGradError,
    UndefinedGrad,
    ZeroGrad,
    disconnected_grad,
    disconnected_type,
    grad_not_implemented,
    grad_undefined,
    is_disconnected,
    is_null,
    undefined_grad,
    zero_grad,
)
from lazygraph.gradient.verify import numeric_grad, verify_grad, verify_rop

__all__ = [
    "DisconnectedGrad",
    "DisconnectedInputError",
    "DisconnectedType",
    "GradientError",
    "Lop",
    "NullType",
    "NullTypeGradError",
    "Rop",
    "UndefinedGrad",
    "ZeroGrad",
    "disconnected_grad",
    "disconnected_type",
    "grad",
    "grad_not_implemented",
    "grad_undefined",
    "hessian",
    "is_disconnected",
    "is_null",
    "jacobian",
    "numeric_grad",
    "undefined_grad",
    "verify_grad",
    "verify_rop",
    "zero_grad",
]
