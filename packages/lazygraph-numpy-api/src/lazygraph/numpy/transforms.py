"""The function transforms' public home: :func:`jit`, :func:`grad`,
:func:`value_and_grad`, :func:`jacobian` and :func:`hessian` (see
:mod:`lazygraph.numpy._transforms` for how they trace and compile), the
forward-mode and product transforms :func:`jvp`, :func:`vjp`,
:func:`linearize`, :func:`hvp`, :func:`jacfwd` and :func:`jacrev` (see
:mod:`lazygraph.numpy._transforms_forward`), and the class of what they
return. Core's ``lazygraph.jit``, ``lazygraph.grad``... are these functions,
imported from here on first use.

>>> import lazygraph
>>> from lazygraph.numpy import transforms
>>> lazygraph.jit is transforms.jit
True
"""

from lazygraph.numpy._control_flow import cond, fori_loop, scan, while_loop
from lazygraph.numpy._transforms import (
    Transformed,
    grad,
    hessian,
    jacobian,
    jit,
    value_and_grad,
)
from lazygraph.numpy._transforms_forward import hvp, jacfwd, jacrev, jvp, linearize, vjp

__all__ = [
    "Transformed",
    "grad",
    "hessian",
    "hvp",
    "jacfwd",
    "jacobian",
    "jacrev",
    "jit",
    "jvp",
    "linearize",
    "value_and_grad",
    "vjp",
]
__all__ += ["cond", "fori_loop", "scan", "while_loop"]
