"""Matrix decompositions: ``cholesky``, ``eigh`` / ``eigvalsh``, ``svd`` /
``svdvals`` and ``qr``, batched over leading axes as in numpy.linalg.

Gradient assumptions (the usual ones; outside them the gradient is not defined):

- ``cholesky``, ``eigh``, ``eigvalsh`` read one triangle of the input (the lower
  one unless asked otherwise), as numpy does; the gradient is with respect to the
  entries actually read, so the unread triangle gets zeros.
- ``eigh``: distinct eigenvalues. ``svd``: distinct, non-zero singular values;
  with ``full_matrices=True`` on a non-square matrix only the first ``min(M, N)``
  columns of ``U`` / rows of ``Vh`` take part in the gradient (the others are
  not unique).
- ``qr``: ``mode="reduced"`` or ``"r"`` with ``M >= N`` and full rank.
- Complex inputs are computed but their gradients are not checked (real only).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from lazygraph.graph.basic import Apply, Op
from lazygraph.tensor.linalg._common import (
    as_matrix_stack,
    col,
    diag_part,
    eye_like,
    is_discrete,
    linalg_dtype,
    lt,
    mT,
    no_grad,
    not_implemented,
    real_dtype,
    row,
    square_size,
    triangle_read_grad,
)
from lazygraph.tensor.type import TensorType
from lazygraph.tensor.variable import TensorVariable

__all__ = [
    "QR",
    "SVD",
    "Cholesky",
    "Eigh",
    "cholesky",
    "eigh",
    "eigvalsh",
    "qr",
    "svd",
    "svdvals",
]


def _min(a: Any, b: Any) -> Any:
    if isinstance(a, (int, np.integer)) and isinstance(b, (int, np.integer)):
        return min(int(a), int(b))
    if a is None or b is None:
        return None
    return lt().minimum(a, b)


class Cholesky(Op):
    """``numpy.linalg.cholesky(x, upper=upper)``: reads the lower (upper) triangle."""

    __props__: ClassVar[tuple[str, ...]] = ("upper",)

    def __init__(self, upper: bool = False) -> None:
        self.upper = bool(upper)

    def make_node(self, x: Any) -> Apply:
        x = as_matrix_stack(x, "cholesky")
        n = square_size(x)
        shape = (*x.type.shape[:-2], n, n)
        return Apply(self, [x], [TensorType(linalg_dtype(x), shape)()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        out = np.linalg.cholesky(inputs[0], upper=self.upper)
        output_storage[0][0] = out.astype(node.outputs[0].type.dtype, copy=False)

    def infer_shape(self, fgraph: Any, node: Apply, input_shapes: Sequence[Any]) -> list[Any]:
        return [tuple(input_shapes[0])]

    def L_op(self, inputs: Sequence[Any], outputs: Sequence[Any], output_grads: Any) -> list[Any]:
        # A = L L^T gives dL = L Phi(L^-1 dA L^-T) (Phi: lower triangle, half
        # diagonal), so for symmetric dA the cotangent is L^-T Phi(L^T Lbar) L^-1.
        # upper=True is the transpose of the lower factor of A^T.
        t = lt()
        (x,) = inputs
        if is_discrete(x):
            return [no_grad()]
        factor, gbar = outputs[0], output_grads[0]
        if self.upper:
            factor, gbar = mT(factor), mT(gbar)
        p = t.matmul(mT(factor), gbar)
        phi = t.subtract(t.tril(p), t.multiply(0.5, diag_part(p)))
        linv = inv_(factor)
        g = t.matmul(t.matmul(mT(linv), phi), linv)
        ga = triangle_read_grad(g, lower=True)
        return [mT(ga) if self.upper else ga]


def inv_(x: Any) -> Any:
    from lazygraph.tensor.linalg.solve import inv

    return inv(x)


def cholesky(x: Any, upper: bool = False) -> TensorVariable:
    """``numpy.linalg.cholesky``: the lower factor ``L`` with ``x = L L^H`` (or the
    upper ``U`` with ``x = U^H U``). Not positive definite: ``LinAlgError`` when run.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> lt.linalg.cholesky(np.array([[4.0, 2.0], [2.0, 5.0]])).eval()
    array([[2., 0.],
           [1., 2.]])
    """
    return Cholesky(upper)(x)  # type: ignore[no-any-return]


class Eigh(Op):
    """``numpy.linalg.eigh(x, UPLO)`` (outputs eigenvalues ascending, eigenvectors)
    or, with ``compute_v=False``, ``numpy.linalg.eigvalsh`` (eigenvalues only)."""

    __props__: ClassVar[tuple[str, ...]] = ("UPLO", "compute_v")

    def __init__(self, UPLO: str = "L", compute_v: bool = True) -> None:
        if UPLO not in ("L", "U"):
            raise ValueError("UPLO argument must be 'L' or 'U'")
        self.UPLO = UPLO
        self.compute_v = bool(compute_v)

    def make_node(self, x: Any) -> Apply:
        x = as_matrix_stack(x, "eigh")
        dt = linalg_dtype(x)
        n = square_size(x)
        batch = x.type.shape[:-2]
        outs = [TensorType(real_dtype(dt), (*batch, n))()]
        if self.compute_v:
            outs.append(TensorType(dt, (*batch, n, n))())
        return Apply(self, [x], outs)

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        if self.compute_v:
            w, v = np.linalg.eigh(inputs[0], UPLO=self.UPLO)
            output_storage[1][0] = v.astype(node.outputs[1].type.dtype, copy=False)
        else:
            w = np.linalg.eigvalsh(inputs[0], UPLO=self.UPLO)
        output_storage[0][0] = w.astype(node.outputs[0].type.dtype, copy=False)

    def infer_shape(self, fgraph: Any, node: Apply, input_shapes: Sequence[Any]) -> list[Any]:
        s = tuple(input_shapes[0])
        return [s[:-1], s] if self.compute_v else [s[:-1]]

    def L_op(self, inputs: Sequence[Any], outputs: Sequence[Any], output_grads: Any) -> list[Any]:
        # A = V diag(w) V^T: A-bar = V (diag(w-bar) + F o (V^T V-bar)) V^T with
        # F[i, j] = 1 / (w[j] - w[i]) off the diagonal (distinct eigenvalues).
        t = lt()
        (x,) = inputs
        if is_discrete(x):
            return [no_grad()]
        if x.type.numpy_dtype.kind == "c":
            return [not_implemented(self, 0, x, "complex eigh")]
        if self.compute_v:
            w, v = outputs
            gw, gv = output_grads
        else:
            w, v = Eigh(self.UPLO, True)(x)
            gw, gv = output_grads[0], None
        inner = t.multiply(row(gw), eye_like(v))
        if gv is not None:
            eye = eye_like(v)
            diff = t.subtract(row(w), col(w))
            f = t.divide(t.subtract(1.0, eye), t.add(diff, eye))
            inner = t.add(inner, t.multiply(f, t.matmul(mT(v), gv)))
        g = t.matmul(t.matmul(v, inner), mT(v))
        return [triangle_read_grad(g, lower=self.UPLO == "L")]


def eigh(x: Any, UPLO: str = "L") -> tuple[TensorVariable, TensorVariable]:
    """``numpy.linalg.eigh``: ``(eigenvalues, eigenvectors)`` of symmetric (Hermitian)
    matrices, reading the ``UPLO`` triangle; eigenvalues ascending.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> w, v = lt.linalg.eigh(np.array([[2.0, 0.0], [0.0, 1.0]]))
    >>> w.eval()
    array([1., 2.])
    """
    w, v = Eigh(UPLO, True)(x)
    return w, v


def eigvalsh(x: Any, UPLO: str = "L") -> TensorVariable:
    """``numpy.linalg.eigvalsh``: the eigenvalues (ascending) of symmetric matrices.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> lt.linalg.eigvalsh(np.array([[1.0, 2.0], [2.0, 1.0]])).eval()
    array([-1.,  3.])
    """
    return Eigh(UPLO, False)(x)  # type: ignore[no-any-return]


class SVD(Op):
    """``numpy.linalg.svd(x, full_matrices, compute_uv)``: outputs ``(U, S, Vh)``,
    or ``S`` alone with ``compute_uv=False``."""

    __props__: ClassVar[tuple[str, ...]] = ("full_matrices", "compute_uv")

    def __init__(self, full_matrices: bool = True, compute_uv: bool = True) -> None:
        self.full_matrices = bool(full_matrices)
        self.compute_uv = bool(compute_uv)

    def make_node(self, x: Any) -> Apply:
        x = as_matrix_stack(x, "svd", square=False)
        dt = linalg_dtype(x)
        *batch, m, n = x.type.shape
        k = None if m is None or n is None else min(m, n)
        s = TensorType(real_dtype(dt), (*batch, k))()
        if not self.compute_uv:
            return Apply(self, [x], [s])
        cu, cv = (m, n) if self.full_matrices else (k, k)
        u = TensorType(dt, (*batch, m, cu))()
        vh = TensorType(dt, (*batch, cv, n))()
        return Apply(self, [x], [u, s, vh])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        if not self.compute_uv:
            s = np.linalg.svd(inputs[0], compute_uv=False)
            output_storage[0][0] = s.astype(node.outputs[0].type.dtype, copy=False)
            return
        results = np.linalg.svd(inputs[0], full_matrices=self.full_matrices)
        for cell, value, out in zip(output_storage, results, node.outputs, strict=True):
            cell[0] = value.astype(out.type.dtype)  # type: ignore[attr-defined]

    def infer_shape(self, fgraph: Any, node: Apply, input_shapes: Sequence[Any]) -> list[Any]:
        *batch, m, n = input_shapes[0]
        k = _min(m, n)
        s = (*batch, k)
        if not self.compute_uv:
            return [s]
        cu, cv = (m, n) if self.full_matrices else (k, k)
        return [(*batch, m, cu), s, (*batch, cv, n)]

    def L_op(self, inputs: Sequence[Any], outputs: Sequence[Any], output_grads: Any) -> list[Any]:
        (x,) = inputs
        if is_discrete(x):
            return [no_grad()]
        if x.type.numpy_dtype.kind == "c":
            return [not_implemented(self, 0, x, "complex svd")]
        if not self.compute_uv:
            u, _, vh = SVD(False, True)(x)
            return [_svd_vjp(u, outputs[0], vh, None, output_grads[0], None)]
        u, s, vh = outputs
        gu, gs, gvh = output_grads
        if self.full_matrices:
            # Keep the first k columns of U and rows of Vh: the others are not unique.
            k = s.type.shape[-1]
            if k is None:
                k = lt().shape_i(s, s.ndim - 1)
            u, gu = u[..., :, :k], gu[..., :, :k]
            vh, gvh = vh[..., :k, :], gvh[..., :k, :]
        return [_svd_vjp(u, s, vh, gu, gs, gvh)]


def _svd_vjp(u: Any, s: Any, vh: Any, gu: Any, gs: Any, gvh: Any) -> Any:
    """Townsend's reduced-SVD vector-Jacobian product (real, distinct non-zero
    singular values):
    U [diag(gs) + (F o (U^T gU - gU^T U)) S + S (F o (V^T gV - gV^T V))] V^T
    + (I - U U^T) gU S^-1 V^T + U S^-1 gV^T (I - V V^T), F[i,j] = 1/(s_j^2 - s_i^2)."""
    t = lt()
    mm = t.matmul
    v = mT(vh)
    eye = eye_like(row(s))
    inner = t.multiply(row(gs), eye)
    if gu is None:
        return mm(mm(u, inner), vh)
    gv = mT(gvh)
    s2 = t.square(s)
    f = t.divide(t.subtract(1.0, eye), t.add(t.subtract(row(s2), col(s2)), eye))
    ju = mm(mT(u), gu)
    jv = mm(mT(v), gv)
    inner = t.add(inner, t.multiply(t.multiply(f, t.subtract(ju, mT(ju))), row(s)))
    inner = t.add(inner, t.multiply(col(s), t.multiply(f, t.subtract(jv, mT(jv)))))
    core = mm(mm(u, inner), vh)
    # (I - U U^T) gU S^-1 V^T
    gu_s = t.divide(gu, row(s))
    proj_u = t.subtract(gu_s, mm(u, mm(mT(u), gu_s)))
    # U S^-1 gV^T (I - V V^T)
    gvt_s = t.divide(mT(gv), col(s))
    proj_v = t.subtract(gvt_s, mm(mm(gvt_s, v), vh))
    return t.add(t.add(core, mm(proj_u, vh)), mm(u, proj_v))


def svd(
    x: Any, full_matrices: bool = True
) -> tuple[TensorVariable, TensorVariable, TensorVariable]:
    """``numpy.linalg.svd``: ``(U, S, Vh)`` with ``x = U @ diag(S) @ Vh``,
    singular values descending.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> u, s, vh = lt.linalg.svd(np.array([[3.0, 0.0], [0.0, -2.0]]))
    >>> s.eval()
    array([3., 2.])
    """
    u, s, vh = SVD(full_matrices, True)(x)
    return u, s, vh


def svdvals(x: Any) -> TensorVariable:
    """``numpy.linalg.svdvals``: the singular values, descending.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> lt.linalg.svdvals(np.array([[0.0, 2.0], [1.0, 0.0]])).eval()
    array([2., 1.])
    """
    return SVD(False, False)(x)  # type: ignore[no-any-return]


class QR(Op):
    """``numpy.linalg.qr(x, mode)`` for ``mode`` in ``"reduced"``, ``"complete"``
    (outputs ``(Q, R)``) and ``"r"`` (``R`` alone)."""

    __props__: ClassVar[tuple[str, ...]] = ("mode",)

    def __init__(self, mode: str = "reduced") -> None:
        if mode not in ("reduced", "complete", "r"):
            raise ValueError(f"qr: unrecognized mode {mode!r} (supported: reduced, complete, r)")
        self.mode = mode

    def make_node(self, x: Any) -> Apply:
        x = as_matrix_stack(x, "qr", square=False)
        dt = linalg_dtype(x)
        *batch, m, n = x.type.shape
        k = None if m is None or n is None else min(m, n)
        kq = m if self.mode == "complete" else k
        r = TensorType(dt, (*batch, kq, n))()
        if self.mode == "r":
            return Apply(self, [x], [r])
        return Apply(self, [x], [TensorType(dt, (*batch, m, kq))(), r])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        results = np.linalg.qr(inputs[0], mode=self.mode)
        if self.mode == "r":
            results = (results,)
        for cell, value, out in zip(output_storage, results, node.outputs, strict=True):
            cell[0] = np.asarray(value).astype(out.type.dtype)  # type: ignore[attr-defined]

    def infer_shape(self, fgraph: Any, node: Apply, input_shapes: Sequence[Any]) -> list[Any]:
        *batch, m, n = input_shapes[0]
        kq = m if self.mode == "complete" else _min(m, n)
        r = (*batch, kq, n)
        return [r] if self.mode == "r" else [(*batch, m, kq), r]

    def L_op(self, inputs: Sequence[Any], outputs: Sequence[Any], output_grads: Any) -> list[Any]:
        # M >= N: A-bar = (Q-bar + Q copyltu(M)) R^-T, M = R R-bar^T - Q-bar^T Q.
        t = lt()
        (x,) = inputs
        if is_discrete(x):
            return [no_grad()]
        m, n = x.type.shape[-2:]
        if self.mode == "complete" and not (m is not None and n is not None and m == n):
            return [not_implemented(self, 0, x, "qr gradient needs mode='reduced' (or square)")]
        if m is not None and n is not None and m < n:
            return [not_implemented(self, 0, x, "qr gradient for wide matrices (M < N)")]
        if x.type.numpy_dtype.kind == "c":
            return [not_implemented(self, 0, x, "complex qr")]
        if self.mode == "r":
            q, r = QR("reduced")(x)
            gq, gr = t.zeros_like(q), output_grads[0]
        else:
            q, r = outputs
            gq, gr = output_grads
        mmat = t.subtract(t.matmul(r, mT(gr)), t.matmul(mT(gq), q))
        copyltu = t.add(t.tril(mmat), mT(t.tril(mmat, -1)))
        b = t.add(gq, t.matmul(q, copyltu))
        from lazygraph.tensor.linalg.solve import Solve

        # B R^-T = (R^-1 B^T)^T
        return [mT(Solve()(r, mT(b)))]


def qr(x: Any, mode: str = "reduced") -> Any:
    """``numpy.linalg.qr``: ``(Q, R)`` with ``x = Q @ R`` (``mode="reduced"`` or
    ``"complete"``), or ``R`` alone (``mode="r"``).

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> q, r = lt.linalg.qr(np.array([[2.0, 0.0], [0.0, 3.0]]))
    >>> np.abs(r.eval())
    array([[2., 0.],
           [0., 3.]])
    """
    out = QR(mode)(x)
    return out if mode == "r" else tuple(out)
