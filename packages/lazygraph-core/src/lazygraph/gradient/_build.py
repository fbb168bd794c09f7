"""The few tensor operations the gradient machinery itself builds: zeros and ones
shaped like a variable, sums of gradient terms, dtype casts.

They call :mod:`lazygraph.tensor` at call time (the op families import nothing
from here), and fall back to constants where the static shape is known, so the
machinery works on graphs of any ops whose shapes are static.
"""

from __future__ import annotations

import math
from functools import reduce
from typing import Any

import numpy as np

from lazygraph.graph.basic import Variable
from lazygraph.tensor.type import TensorType

__all__ = [
    "add_terms",
    "as_grad_dtype",
    "cast",
    "float_dtype",
    "float_zeros_like",
    "is_discrete",
    "zeros_like",
]

#: The dtype of gradients of integer and boolean variables (PyTensor's floatX).
DEFAULT_GRAD_DTYPE = "float64"


def _lt() -> Any:
    import lazygraph.tensor as lt

    return lt


def is_discrete(var: Variable) -> bool:
    """Whether ``var`` cannot carry a gradient: bool/integer tensors, and non-tensors."""
    t = var.type
    return not isinstance(t, TensorType) or t.numpy_dtype.kind in "biu"


def float_dtype(var: Variable) -> str:
    """The dtype of ``var``'s gradient: its own if inexact, else float64."""
    dtype = var.type.dtype  # type: ignore[attr-defined]
    return dtype if np.dtype(dtype).kind in "fc" else DEFAULT_GRAD_DTYPE


def _filled_like(var: Variable, value: float, dtype: str) -> Variable:
    if not isinstance(var.type, TensorType):
        raise TypeError(f"cannot build a gradient for {var} of non-tensor type {var.type}")
    shape: tuple[int | None, ...] = var.type.shape
    lt = _lt()
    name = "zeros_like" if value == 0 else "ones_like"
    static = tuple(s for s in shape if s is not None)
    if len(static) == len(shape) and (math.prod(static) <= 1 or not hasattr(lt, name)):
        # A constant: small ones simplify well (x + 0, x * 1) and need no op.
        data = np.broadcast_to(np.asarray(value, dtype=dtype), static)
        return lt.constant(data, dtype=dtype)  # type: ignore[no-any-return]
    if not hasattr(lt, name):
        raise NotImplementedError(
            f"lazygraph.tensor.{name} is needed for a gradient of unknown shape {var.type}"
        )
    return getattr(lt, name)(var, dtype=dtype)  # type: ignore[no-any-return]


def zeros_like(var: Variable, dtype: str | None = None) -> Variable:
    """Zeros of ``var``'s shape and dtype (or ``dtype``)."""
    return _filled_like(var, 0, dtype or var.type.dtype)  # type: ignore[attr-defined]


def ones_like(var: Variable, dtype: str | None = None) -> Variable:
    """Ones of ``var``'s shape and dtype (or ``dtype``)."""
    return _filled_like(var, 1, dtype or var.type.dtype)  # type: ignore[attr-defined]


def float_zeros_like(var: Variable) -> Variable:
    """A zero gradient for ``var``: its shape, and its dtype if inexact, else float64."""
    return _filled_like(var, 0, float_dtype(var))


def cast(var: Variable, dtype: str) -> Variable:
    """``var`` converted to ``dtype`` (itself if it already has it)."""
    if var.type.dtype == dtype:  # type: ignore[attr-defined]
        return var
    return _lt().cast(var, dtype)  # type: ignore[no-any-return]


def as_grad_dtype(g: Variable, dtype: str) -> Variable:
    """The gradient ``g`` as the gradient of a variable of ``dtype``, by the
    complex convention (see ``docs/transforms.md``): a complex cotangent ``w``
    stands for ``dx -> Re(w * dx)``, so for a real variable only its real part
    counts; a real gradient of a complex variable is that complex value (zero
    imaginary part); otherwise only the precision changes.

    >>> import lazygraph.tensor as lt
    >>> z = lt.zscalar("z")
    >>> as_grad_dtype(z, "float64").owner.op.scalar_op.name
    'real'
    """
    from_kind = g.type.numpy_dtype.kind  # type: ignore[attr-defined]
    if from_kind == "c" and np.dtype(dtype).kind != "c":
        g = _lt().real(g)
    return cast(g, dtype)


def add_terms(terms: list[Variable]) -> Variable:
    """The sum of gradient terms, without an extra zero."""
    if len(terms) == 1:
        return terms[0]
    add = _lt().add
    return reduce(add, terms)
