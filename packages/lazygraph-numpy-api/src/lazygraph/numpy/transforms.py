"""The function transforms' public home: :func:`jit`, :func:`grad`,
:func:`value_and_grad`, :func:`jacobian` and :func:`hessian` (see
:mod:`lazygraph.numpy._transforms` for how they trace and compile), and the
class of what they return. Core's ``lazygraph.jit``, ``lazygraph.grad``...
are these functions, imported from here on first use.

>>> import lazygraph
>>> from lazygraph.numpy import transforms
>>> lazygraph.jit is transforms.jit
True
"""

from lazygraph.numpy._transforms import (
    Transformed,
    grad,
    hessian,
    jacobian,
    jit,
    value_and_grad,
)

__all__ = ["Transformed", "grad", "hessian", "jacobian", "jit", "value_and_grad"]
