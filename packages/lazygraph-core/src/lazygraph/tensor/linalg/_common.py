"""Shared pieces of the linalg ops: numpy.linalg's dtype rule, its eager shape
errors, and small graph helpers the gradients are written with."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from lazygraph.graph.basic import Variable
from lazygraph.tensor.variable import TensorVariable, as_tensor_variable

LinAlgError = np.linalg.LinAlgError


def lt() -> Any:
    import lazygraph.tensor as tensor

    return tensor


def linalg_dtype(*xs: Any) -> str:
    """numpy.linalg's result dtype (its ``_commonType``): single precision only
    when every input is float32/complex64 (an integer or bool input counts as
    double), complex when any input is."""
    kinds = [np.dtype(x.type.dtype) for x in xs]
    double = any(
        k.kind not in "fc" or k.itemsize * (2 if k.kind == "f" else 1) == 16 for k in kinds
    )
    cplx = any(k.kind == "c" for k in kinds)
    return (
        ("complex128" if double else "complex64") if cplx else ("float64" if double else "float32")
    )


def real_dtype(dtype: str) -> str:
    """The real dtype of the same precision (complex64 -> float32)."""
    return {"complex64": "float32", "complex128": "float64"}.get(dtype, dtype)


def as_matrix_stack(x: Any, name: str, square: bool = True) -> TensorVariable:
    """``x`` as a tensor with at least 2 dims (square in the last two when asked),
    or numpy's ``LinAlgError``."""
    x = as_tensor_variable(x)
    if x.ndim < 2:
        raise LinAlgError(
            f"{x.ndim}-dimensional array given. Array must be at least two-dimensional ({name})"
        )
    if square:
        m, n = x.type.shape[-2:]
        if m is not None and n is not None and m != n:
            raise LinAlgError(
                f"Last 2 dimensions of the array must be square ({name} of shape "
                f"{tuple(x.type.shape)})"
            )
    return x


def square_size(x: Variable) -> int | None:
    """The static size of a square matrix stack's last two axes, if either is known."""
    m, n = x.type.shape[-2:]  # type: ignore[attr-defined]
    return m if m is not None else n


def mT(x: Any) -> Any:
    return lt().matrix_transpose(x)


def is_complex(x: Any) -> bool:
    return x.type.numpy_dtype.kind == "c"  # type: ignore[no-any-return]


def conj(x: Any) -> Any:
    """``conj(x)``, and ``x`` itself when it is real (no op in the graph)."""
    return lt().conj(x) if is_complex(x) else x


def mH(x: Any) -> Any:
    """The conjugate transpose of the last two axes (the transpose when real)."""
    return conj(mT(x))


def known_zero(g: Any) -> bool:
    """Whether the gradient ``g`` is the zeros the gradient machinery hands an
    ``L_op`` for an output nothing reads (a zero constant, or zeros allocated)."""
    from lazygraph.graph.basic import Constant
    from lazygraph.tensor.broadcast import Alloc

    if g.owner is not None and isinstance(g.owner.op, Alloc):
        g = g.owner.inputs[0]
    return isinstance(g, Constant) and not np.any(g.data)


def col(v: Any) -> Any:
    """``v[..., :, None]``."""
    return lt().expand_dims(v, -1)


def row(v: Any) -> Any:
    """``v[..., None, :]``."""
    return lt().expand_dims(v, -2)


def eye_like(x: Any) -> Any:
    """The identity matrix of the size of ``x``'s last axis, in ``x``'s dtype."""
    t = lt()
    n = t.shape_i(x, x.ndim - 1)
    return t.eye(n, n, 0, dtype=x.type.dtype)


def diag_part(x: Any) -> Any:
    """``x`` with everything off the diagonal of its last two axes zeroed."""
    from lazygraph.tensor.blas import AllocDiag, ExtractDiag

    nd = x.ndim
    return AllocDiag(0, nd - 2, nd - 1)(ExtractDiag(0, nd - 2, nd - 1)(x), x)


def triangle_read_grad(g: Any, lower: bool = True) -> Any:
    """The gradient with respect to a matrix of which only one triangle is read
    (and mirrored), from the gradient ``g`` with respect to the symmetric
    (Hermitian) matrix it stands for: an off-diagonal entry collects ``g[i, j]``
    and ``conj(g[j, i])``; a diagonal entry is ``Re(g[i, i])``, as LAPACK reads
    only the real part of a Hermitian matrix's diagonal."""
    t = lt()
    s = t.add(g, mH(g))
    tri = t.tril(s) if lower else t.triu(s)
    return t.subtract(tri, t.multiply(0.5, diag_part(s)))


def grad_for(g: Any, x: Variable) -> Any:
    """``g`` summed over broadcast batch dims to ``x``'s shape, in ``x``'s dtype."""
    from lazygraph.tensor.shape import sum_to_shape

    return sum_to_shape(g, x)


def no_grad() -> Variable:
    from lazygraph.gradient import disconnected_type

    return disconnected_type()  # type: ignore[no-any-return]


def not_implemented(op: Any, i: int, x: Variable, why: str) -> Variable:
    from lazygraph.gradient import grad_not_implemented

    return grad_not_implemented(op, i, x, why)  # type: ignore[no-any-return]


def is_discrete(x: Variable) -> bool:
    return x.type.numpy_dtype.kind in "biu"  # type: ignore[attr-defined]


def batch_of(shapes: Sequence[Sequence[Any]], static: Sequence[int | None]) -> list[Any]:
    from lazygraph.tensor.blas import broadcast_batch_symbolic

    return broadcast_batch_symbolic(static, shapes)
