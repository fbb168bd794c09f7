"""Matrix decompositions: ``cholesky``, ``eigh`` / ``eigvalsh``, ``eig`` /
``eigvals``, ``svd`` / ``svdvals`` and ``qr``, batched over leading axes as in
numpy.linalg.

Gradients, for real and complex inputs, follow JAX's convention (cotangents
are transposed, never conjugated; docs/transforms.md, "Complex numbers"): each
rule is JAX's JVP rule (``cholesky_jvp_rule``, ``eigh_jvp_rule``,
``svd_jvp_rule``, ``qr_jvp_rule``) transposed. Their assumptions, the usual
ones (outside them the gradient is not defined):

- ``cholesky``, ``eigh``, ``eigvalsh`` read one triangle of the input (the lower
  one unless asked otherwise) and, for a complex input, the real part of its
  diagonal, as numpy (LAPACK) does; the gradient is with respect to the entries
  actually read, so the unread triangle and the imaginary part of the diagonal
  get zeros.
- ``eigh``: distinct eigenvalues for the eigenvectors' gradient; the
  eigenvalues' own rule needs none, so a symmetric function of repeated ones
  (``sum(w**2)``) has its gradient there. ``eig``: distinct eigenvalues (see
  :class:`Eig`). ``svd``: distinct, non-zero singular values for the vectors'
  gradient (the singular values' own rule needs neither: ``sum(s**2)`` has its
  gradient at repeated and zero values); with ``full_matrices=True``
  on a non-square matrix only the first ``min(M, N)`` columns of ``U`` / rows
  of ``Vh`` take part in the gradient (the others are not unique).
- Eigen- and singular vectors are defined up to a phase each (a sign when
  real), LAPACK's choice, which the rules do not follow: only functions that
  do not depend on it (``abs(v)``, ``v v^H``, ``U diag(s) Vh``, ``u_k vh_k``)
  have the gradient they give. Near-degenerate values make the individual
  vectors' gradients large (terms in ``1 / (w_j - w_i)``); functions of the
  whole degenerate subspace (its projector) stay accurate.
- ``qr``: full rank (of the first ``min(M, N)`` columns), and ``mode="complete"``
  only with ``M <= N`` (where it is ``"reduced"``); ``R``'s diagonal is real
  (LAPACK), and ``Q``, ``R`` are differentiable as they are.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from lazygraph.graph.basic import Apply, Op
from lazygraph.tensor.linalg._common import (
    as_matrix_stack,
    col,
    conj,
    diag_part,
    eye_like,
    is_complex,
    is_discrete,
    linalg_dtype,
    lt,
    mH,
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
    "Eig",
    "Eigh",
    "cholesky",
    "eig",
    "eigh",
    "eigvals",
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
        # A = L L^H gives dL = L Phi(L^-1 dA L^-H) (Phi: lower triangle, half
        # diagonal; JAX's cholesky_jvp_rule), so for Hermitian dA the cotangent
        # (JAX's convention) is L^-T Phi(L^T L-bar) conj(L^-1). upper=True is
        # the conjugate transpose of the lower factor of A^H.
        t = lt()
        (x,) = inputs
        if is_discrete(x):
            return [no_grad()]
        factor, gbar = outputs[0], output_grads[0]
        if self.upper:
            factor, gbar = mH(factor), mH(gbar)
        p = t.matmul(mT(factor), gbar)
        phi = t.subtract(t.tril(p), t.multiply(0.5, diag_part(p)))
        linv = inv_(factor)
        g = t.matmul(t.matmul(mT(linv), phi), conj(linv))
        ga = triangle_read_grad(g, lower=True)
        return [mH(ga) if self.upper else ga]


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
        # A = V diag(w) V^H, dw = Re diag(V^H dA V), dV = V (F o V^H dA V) with
        # F[i, j] = 1 / (w[j] - w[i]) off the diagonal (JAX's eigh_jvp_rule;
        # distinct eigenvalues), transposed: A-bar = conj(V) (diag(w-bar) +
        # F o (V^T V-bar)) V^T, then read through the UPLO triangle.
        t = lt()
        (x,) = inputs
        if is_discrete(x):
            return [no_grad()]
        if self.compute_v:
            w, v = outputs
            gw, gv = output_grads
        else:
            w, v = Eigh(self.UPLO, True)(x)
            gw, gv = output_grads[0], None
        inner = t.multiply(row(gw), eye_like(w))
        if gv is not None:
            eye = eye_like(w)
            diff = t.subtract(row(w), col(w))
            f = t.divide(t.subtract(1.0, eye), t.add(diff, eye))
            inner = t.add(inner, t.multiply(f, t.matmul(mT(v), gv)))
        g = t.matmul(t.matmul(conj(v), inner), mT(v))
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


def complex_dtype(dtype: str) -> str:
    """The complex dtype of the same precision (float32 -> complex64)."""
    return {"float32": "complex64", "float64": "complex128"}.get(dtype, dtype)


class Eig(Op):
    """``numpy.linalg.eig(x)`` (outputs eigenvalues, right eigenvectors of unit
    norm) or, with ``compute_v=False``, ``numpy.linalg.eigvals``; in numpy's
    (LAPACK's) order.

    The outputs are always complex (complex64 for float32 inputs, complex128
    otherwise), as in JAX: numpy returns real arrays when every eigenvalue
    happens to be real, a dtype that depends on the values, which a graph
    cannot have (``lazygraph.numpy.linalg.eig`` keeps numpy's dtype when the
    input's value is known).

    Gradients follow JAX's complex convention (cotangents are transposed
    without conjugation; a real input gets the real part): with ``A = V diag(w)
    V^-1``, ``A-bar = V^-T (diag(w-bar) + F o (V^T U-bar)) V^T``,
    ``F[i, j] = 1 / (w[j] - w[i])`` off the diagonal, and ``U-bar = V-bar - conj(V)
    Re(sum(V-bar * V, axis=-2))``, which keeps each eigenvector's norm at 1. The
    eigenvectors' phase is LAPACK's choice (largest component real), which this
    rule does not follow: only functions of the eigenvectors that do not depend
    on their phase (``abs(v)``, ``v v^H``) have the gradient it gives.
    Eigenvalues must be distinct.
    """

    __props__: ClassVar[tuple[str, ...]] = ("compute_v",)

    def __init__(self, compute_v: bool = True) -> None:
        self.compute_v = bool(compute_v)

    def make_node(self, x: Any) -> Apply:
        x = as_matrix_stack(x, "eig")
        dt = complex_dtype(linalg_dtype(x))
        n = square_size(x)
        batch = x.type.shape[:-2]
        outs = [TensorType(dt, (*batch, n))()]
        if self.compute_v:
            outs.append(TensorType(dt, (*batch, n, n))())
        return Apply(self, [x], outs)

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        x = inputs[0]
        if self.compute_v:
            w, v = np.linalg.eig(x)
            output_storage[1][0] = v.astype(node.outputs[1].type.dtype, copy=False)
        else:
            w = np.linalg.eigvals(x)
        output_storage[0][0] = w.astype(node.outputs[0].type.dtype, copy=False)

    def infer_shape(self, fgraph: Any, node: Apply, input_shapes: Sequence[Any]) -> list[Any]:
        s = tuple(input_shapes[0])
        return [s[:-1], s] if self.compute_v else [s[:-1]]

    def L_op(self, inputs: Sequence[Any], outputs: Sequence[Any], output_grads: Any) -> list[Any]:
        t = lt()
        (x,) = inputs
        if is_discrete(x):
            return [no_grad()]
        if self.compute_v:
            w, v = outputs
            gw, gv = output_grads
        else:
            w, v = Eig(True)(x)
            gw, gv = output_grads[0], None
        eye = eye_like(v)
        inner = t.multiply(row(gw), eye)
        if gv is not None:
            # the rule of unit-norm eigenvectors, then F o (V^T U-bar)
            scale = t.real(t.sum(t.multiply(gv, v), axis=-2))
            ubar = t.subtract(gv, t.multiply(t.conj(v), row(scale)))
            diff = t.subtract(row(w), col(w))
            f = t.divide(t.subtract(1.0, eye), t.add(diff, eye))
            inner = t.add(inner, t.multiply(f, t.matmul(mT(v), ubar)))
        from lazygraph.tensor.linalg.solve import Solve

        # V^-T inner V^T = solve(V^T, inner) V^T
        g = t.matmul(Solve()(mT(v), inner), mT(v))
        if x.type.numpy_dtype.kind != "c":
            g = t.real(g)
        return [g]


def eig(x: Any) -> tuple[TensorVariable, TensorVariable]:
    """``numpy.linalg.eig``: ``(eigenvalues, eigenvectors)`` of general square
    matrices, complex (see :class:`Eig`), ``x @ v[:, k] = w[k] * v[:, k]``.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> w, v = lt.linalg.eig(np.array([[0.0, -1.0], [1.0, 0.0]]))
    >>> w.eval()
    array([0.+1.j, 0.-1.j])
    """
    w, v = Eig(True)(x)
    return w, v


def eigvals(x: Any) -> TensorVariable:
    """``numpy.linalg.eigvals``: the eigenvalues of general square matrices,
    complex (see :class:`Eig`).

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> lt.linalg.eigvals(np.array([[2.0, 1.0], [0.0, 3.0]])).eval()
    array([2.+0.j, 3.+0.j])
    """
    return Eig(False)(x)  # type: ignore[no-any-return]


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
    """The reduced SVD's vector-Jacobian product (distinct non-zero singular
    values), JAX's svd_jvp_rule transposed without conjugating the cotangents.
    With ``V = Vh^H``, ``V-bar = Vh-bar^H``, ``Ju = U^T U-bar``, ``Jv = V^T V-bar``,
    ``K = J - J^H`` and ``F[i, j] = 1 / (s_j^2 - s_i^2)`` off the diagonal:
    conj(U) [diag(gs) + (F o Ku) S + S (F o Kv) + I o Ku S^-1 / 2] V^T
    + (I - conj(U) U^T) U-bar S^-1 V^T + conj(U) S^-1 V-bar^H (I - conj(V) V^T).
    (For real inputs the ``I o Ku`` term, which fixes the phases, is 0: Townsend's
    formula.)"""
    t = lt()
    mm = t.matmul
    cu, vt = conj(u), conj(vh)  # conj(U), V^T
    eye = eye_like(s)
    inner = t.multiply(row(gs), eye)
    if gu is None:
        return mm(mm(cu, inner), vt)
    s2 = t.square(s)
    f = t.divide(t.subtract(1.0, eye), t.add(t.subtract(row(s2), col(s2)), eye))
    ju = mm(mT(u), gu)
    jv = mm(vt, mH(gvh))
    ku, kv = t.subtract(ju, mH(ju)), t.subtract(jv, mH(jv))
    inner = t.add(inner, t.multiply(t.multiply(f, ku), row(s)))
    inner = t.add(inner, t.multiply(col(s), t.multiply(f, kv)))
    if is_complex(u):
        inner = t.add(inner, t.divide(t.multiply(0.5, diag_part(ku)), row(s)))
    core = mm(mm(cu, inner), vt)
    # (I - conj(U) U^T) U-bar S^-1 V^T
    gu_s = t.divide(gu, row(s))
    proj_u = t.subtract(gu_s, mm(cu, mm(mT(u), gu_s)))
    # conj(U) S^-1 V-bar^H (I - conj(V) V^T), with V-bar^H = Vh-bar, conj(V) = Vh^T
    gvt_s = t.divide(gvh, col(s))
    proj_v = t.subtract(gvt_s, mm(mm(gvt_s, mT(vh)), vt))
    return t.add(t.add(core, mm(proj_u, vt)), mm(cu, proj_v))


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
        # JAX's qr_jvp_rule, transposed. A wide x = [X1 X2] (k = M < N columns in
        # X1) is Q R1 = X1 and R2 = Q^H X2: X2-bar = conj(Q) R2-bar, and Q-bar
        # gains conj(X2) R2-bar^H before the square rule (see _thin_qr_vjp) on X1.
        t = lt()
        (x,) = inputs
        if is_discrete(x):
            return [no_grad()]
        m, n = x.type.shape[-2:]
        if self.mode == "complete" and not (m is not None and n is not None and m <= n):
            return [not_implemented(self, 0, x, "qr gradient with mode='complete' and M > N")]
        if self.mode == "r":
            q, r = QR("reduced")(x)
            gq, gr = None, output_grads[0]
        else:
            q, r = outputs
            gq, gr = output_grads
        if m is not None and n is not None and m >= n:
            return [_thin_qr_vjp(q, r, gq, gr)]
        # wide, or sizes unknown (then X2 may have no columns: the tall case)
        k = r.type.shape[-2]
        if k is None:
            k = t.shape_i(r, r.ndim - 2)
        x2, gr2 = x[..., :, k:], gr[..., :, k:]
        extra = t.matmul(conj(x2), mH(gr2))
        gq = extra if gq is None else t.add(gq, extra)
        g1 = _thin_qr_vjp(q, r[..., :, :k], gq, gr[..., :, :k])
        return [t.concatenate([g1, t.matmul(conj(q), gr2)], axis=-1)]


def _thin_qr_vjp(q: Any, r: Any, gq: Any, gr: Any) -> Any:
    """The reduced QR's vector-Jacobian product for ``M >= N`` and full rank,
    ``R`` square (``gq`` None: no gradient through ``Q``). With ``N = R-bar R^T -
    Q^T Q-bar`` and ``E`` the Hermitian matrix with ``N``'s strict upper triangle,
    its conjugate transpose below and ``Re(diag(N))`` on the diagonal,
    ``A-bar = (Q-bar + conj(Q) E) R^-T``."""
    t = lt()
    nmat = t.matmul(gr, mT(r))
    if gq is not None:
        nmat = t.subtract(nmat, t.matmul(mT(q), gq))
    upper = t.triu(nmat, 1)
    diag = diag_part(t.real(nmat) if is_complex(nmat) else nmat)
    e = t.add(t.add(upper, mH(upper)), diag)
    b = t.matmul(conj(q), e)
    if gq is not None:
        b = t.add(gq, b)
    from lazygraph.tensor.linalg.solve import Solve

    # B R^-T = (R^-1 B^T)^T
    return mT(Solve()(r, mT(b)))


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
