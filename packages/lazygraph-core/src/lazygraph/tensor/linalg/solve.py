"""Inverses and linear systems: ``inv``, ``solve``, ``det``, ``slogdet``, ``pinv``
and ``lstsq``, batched over leading axes as in numpy.linalg.

A singular matrix raises numpy's ``LinAlgError`` when computed; a non-square or
1-d input raises it when the graph is built, if the static shape shows it.
Gradients, for real and complex inputs with JAX's convention, assume an
invertible (for ``pinv`` and ``lstsq``: full-rank) matrix, except ``det``'s,
which is the cofactor matrix (:class:`Adjugate`) for singular matrices too, and
that of a real matrix's ``slogdet`` sign, which is 0.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from lazygraph.graph.basic import Apply, Op
from lazygraph.tensor.blas import broadcast_batch
from lazygraph.tensor.linalg._common import (
    as_matrix_stack,
    batch_of,
    col,
    conj,
    eye_like,
    grad_for,
    is_complex,
    is_discrete,
    known_zero,
    linalg_dtype,
    lt,
    mH,
    mT,
    no_grad,
    real_dtype,
    row,
)
from lazygraph.tensor.type import TensorType
from lazygraph.tensor.variable import TensorVariable, as_tensor_variable

__all__ = [
    "Adjugate",
    "Det",
    "Inv",
    "Lstsq",
    "Pinv",
    "SlogDet",
    "Solve",
    "det",
    "inv",
    "lstsq",
    "pinv",
    "slogdet",
    "solve",
]


class Inv(Op):
    """``numpy.linalg.inv`` of a stack of square matrices."""

    __props__: ClassVar[tuple[str, ...]] = ()

    def make_node(self, x: Any) -> Apply:
        x = as_matrix_stack(x, "inv")
        return Apply(self, [x], [TensorType(linalg_dtype(x), x.type.shape)()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        out = np.linalg.inv(inputs[0])
        output_storage[0][0] = out.astype(node.outputs[0].type.dtype, copy=False)

    def infer_shape(self, fgraph: Any, node: Apply, input_shapes: Sequence[Any]) -> list[Any]:
        return [tuple(input_shapes[0])]

    def L_op(self, inputs: Sequence[Any], outputs: Sequence[Any], output_grads: Any) -> list[Any]:
        # d(A^-1) = -A^-1 dA A^-1, so dA-bar = -X^T g X^T.
        t = lt()
        if is_discrete(inputs[0]):
            return [no_grad()]
        xt = mT(outputs[0])
        return [t.negative(t.matmul(t.matmul(xt, output_grads[0]), xt))]

    def R_op(self, inputs: Sequence[Any], eval_points: Sequence[Any]) -> list[Any]:
        t = lt()
        if eval_points[0] is None:
            return [None]
        x = self(inputs[0])
        return [t.negative(t.matmul(t.matmul(x, eval_points[0]), x))]


def inv(x: Any) -> TensorVariable:
    """``numpy.linalg.inv``: the inverse of each square matrix in the last two axes.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> lt.linalg.inv(np.array([[2.0, 0.0], [0.0, 4.0]])).eval()
    array([[0.5 , 0.  ],
           [0.  , 0.25]])
    """
    return Inv()(x)  # type: ignore[no-any-return]


class Solve(Op):
    """``numpy.linalg.solve`` with ``b`` a stack of matrices ``(..., M, K)``; batch
    axes broadcast. (:func:`solve` handles a 1-d ``b``.)"""

    __props__: ClassVar[tuple[str, ...]] = ()

    def make_node(self, a: Any, b: Any) -> Apply:
        a = as_matrix_stack(a, "solve")
        b = as_tensor_variable(b)
        if b.ndim < 2:
            raise ValueError(f"Solve: b must have at least 2 dimensions, got {b.type}")
        m, mb = a.type.shape[-1], b.type.shape[-2]
        if m is not None and mb is not None and m != mb:
            raise ValueError(
                "solve: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
                f"signature (m,m),(m,n)->(m,n) (size {mb} is different from {m})"
            )
        batch = broadcast_batch("solve", [a.type.shape[:-2], b.type.shape[:-2]])
        shape = (*batch, a.type.shape[-2] if m is None else m, b.type.shape[-1])
        return Apply(self, [a, b], [TensorType(linalg_dtype(a, b), shape)()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        a, b = inputs
        output_storage[0][0] = np.linalg.solve(a, b).astype(node.outputs[0].type.dtype, copy=False)

    def infer_shape(self, fgraph: Any, node: Apply, input_shapes: Sequence[Any]) -> list[Any]:
        sa, sb = input_shapes
        static = node.outputs[0].type.shape  # type: ignore[attr-defined]
        batch = batch_of([sa[:-2], sb[:-2]], static[:-2])
        return [(*batch, sa[-1], sb[-1])]

    def L_op(self, inputs: Sequence[Any], outputs: Sequence[Any], output_grads: Any) -> list[Any]:
        # x = A^-1 b: b-bar = A^-T g, A-bar = -b-bar x^T.
        t = lt()
        a, b = inputs
        gb = self(mT(a), output_grads[0])
        ga = t.negative(t.matmul(gb, mT(outputs[0])))
        return [
            no_grad() if is_discrete(a) else grad_for(ga, a),
            no_grad() if is_discrete(b) else grad_for(gb, b),
        ]

    def R_op(self, inputs: Sequence[Any], eval_points: Sequence[Any]) -> list[Any]:
        t = lt()
        a, b = inputs
        ea, eb = eval_points
        if ea is None and eb is None:
            return [None]
        x = self(a, b)
        rhs = eb if eb is not None else None
        if ea is not None:
            ax = t.negative(t.matmul(ea, x))
            rhs = ax if rhs is None else t.add(rhs, ax)
        return [self(a, rhs)]


def solve(x1: Any, x2: Any) -> TensorVariable:
    """``numpy.linalg.solve`` (numpy 2 rules): ``x2`` is a vector only when it is
    1-d; otherwise a stack of ``(M, K)`` matrices whose batch axes broadcast
    with ``x1``'s.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> lt.linalg.solve(np.array([[2.0, 0.0], [0.0, 4.0]]), np.array([1.0, 1.0])).eval()
    array([0.5 , 0.25])
    """
    t = lt()
    a = as_matrix_stack(x1, "solve")
    b = as_tensor_variable(x2)
    if b.ndim == 0:
        raise ValueError("solve: b must have at least one dimension")
    if b.ndim == 1:
        m, mb = a.type.shape[-1], b.type.shape[0]
        if m is not None and mb is not None and m != mb:
            raise ValueError(
                "solve1: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
                f"signature (m,m),(m)->(m) (size {mb} is different from {m})"
            )
        return t.squeeze(Solve()(a, col(b)), -1)  # type: ignore[no-any-return]
    return Solve()(a, b)  # type: ignore[no-any-return]


class Det(Op):
    """``numpy.linalg.det`` of a stack of square matrices."""

    __props__: ClassVar[tuple[str, ...]] = ()

    def make_node(self, x: Any) -> Apply:
        x = as_matrix_stack(x, "det")
        return Apply(self, [x], [TensorType(linalg_dtype(x), x.type.shape[:-2])()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        out = np.linalg.det(inputs[0])
        output_storage[0][0] = np.asarray(out, dtype=node.outputs[0].type.dtype)

    def infer_shape(self, fgraph: Any, node: Apply, input_shapes: Sequence[Any]) -> list[Any]:
        return [tuple(input_shapes[0][:-2])]

    def L_op(self, inputs: Sequence[Any], outputs: Sequence[Any], output_grads: Any) -> list[Any]:
        # d det(A) = tr(adj(A) dA) (det(A) A^-1 when invertible): A-bar = g adj(A)^T,
        # the cofactor matrix, also for singular A.
        t = lt()
        (x,) = inputs
        if is_discrete(x):
            return [no_grad()]
        return [t.multiply(col(col(output_grads[0])), mT(Adjugate()(x)))]


def _adjugate(a: np.ndarray) -> np.ndarray:
    """The adjugate of each matrix of a finite stack, from its SVD ``a = U S Vh``:
    ``adj(a) = det(U) det(Vh) V diag(p) U^H`` with ``p_i`` the product of the
    singular values other than ``s_i`` (no division: exact for singular ``a``)."""
    if a.shape[-1] == 0:
        return a.copy()
    u, s, vh = np.linalg.svd(a)
    ones = np.ones((*s.shape[:-1], 1), dtype=s.dtype)
    before = np.cumprod(np.concatenate([ones, s[..., :-1]], axis=-1), axis=-1)
    after = np.cumprod(np.concatenate([ones, s[..., :0:-1]], axis=-1), axis=-1)[..., ::-1]
    phase = np.linalg.det(u) * np.linalg.det(vh)
    v = np.conj(np.swapaxes(vh, -1, -2))
    uh = np.conj(np.swapaxes(u, -1, -2))
    return phase[..., None, None] * ((v * (before * after)[..., None, :]) @ uh)  # type: ignore[no-any-return]


class Adjugate(Op):
    """The adjugate ``adj(x)`` (the transposed cofactor matrix) of a stack of square
    matrices: ``x @ adj(x) = det(x) I``, defined (and computed through the SVD)
    for singular ``x`` too. :class:`Det`'s gradient is ``adj(x)^T``; this op's own
    gradient assumes ``x`` invertible.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> np.round(lt.linalg.Adjugate()(np.array([[1.0, 2.0], [2.0, 4.0]])).eval(), 12)
    array([[ 4., -2.],
           [-2.,  1.]])
    """

    __props__: ClassVar[tuple[str, ...]] = ()

    def make_node(self, x: Any) -> Apply:
        x = as_matrix_stack(x, "adjugate")
        return Apply(self, [x], [TensorType(linalg_dtype(x), x.type.shape)()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        a = np.asarray(inputs[0], dtype=node.outputs[0].type.dtype)
        if np.isfinite(a).all():
            out = _adjugate(a)
        else:  # NaN or inf propagate, as through det and inv
            with np.errstate(all="ignore"):
                out = np.linalg.det(a)[..., None, None] * np.linalg.inv(a)
        output_storage[0][0] = out.astype(node.outputs[0].type.dtype, copy=False)

    def infer_shape(self, fgraph: Any, node: Apply, input_shapes: Sequence[Any]) -> list[Any]:
        return [tuple(input_shapes[0])]

    def L_op(self, inputs: Sequence[Any], outputs: Sequence[Any], output_grads: Any) -> list[Any]:
        # adj = det(A) X with X = A^-1: A-bar = (sum(G * X) I - X^T G) adj^T.
        t = lt()
        (x,) = inputs
        if is_discrete(x):
            return [no_grad()]
        g, xinv = output_grads[0], inv(x)
        scale = col(col(t.sum(t.multiply(g, xinv), axis=(-2, -1))))
        left = t.subtract(t.multiply(scale, eye_like(x)), t.matmul(mT(xinv), g))
        return [t.matmul(left, mT(outputs[0]))]


def det(x: Any) -> TensorVariable:
    """``numpy.linalg.det``: the determinant of each matrix in the last two axes.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> float(lt.linalg.det(np.array([[2.0, 1.0], [1.0, 3.0]])).eval())
    5.000000000000001
    """
    return Det()(x)  # type: ignore[no-any-return]


class SlogDet(Op):
    """``numpy.linalg.slogdet``: outputs ``(sign, logabsdet)``."""

    __props__: ClassVar[tuple[str, ...]] = ()

    def make_node(self, x: Any) -> Apply:
        x = as_matrix_stack(x, "slogdet")
        dt = linalg_dtype(x)
        batch = x.type.shape[:-2]
        return Apply(self, [x], [TensorType(dt, batch)(), TensorType(real_dtype(dt), batch)()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        sign, logdet = np.linalg.slogdet(inputs[0])
        output_storage[0][0] = np.asarray(sign, dtype=node.outputs[0].type.dtype)
        output_storage[1][0] = np.asarray(logdet, dtype=node.outputs[1].type.dtype)

    def infer_shape(self, fgraph: Any, node: Apply, input_shapes: Sequence[Any]) -> list[Any]:
        batch = tuple(input_shapes[0][:-2])
        return [batch, batch]

    def L_op(self, inputs: Sequence[Any], outputs: Sequence[Any], output_grads: Any) -> list[Any]:
        # d log det A = tr(A^-1 dA) =: t: log|det A| moves by Re(t), the sign
        # (det / |det|) by i sign Im(t), so A-bar = (l-bar + i Im(s-bar sign)) A^-T.
        # A real sign is piecewise constant: its gradient is 0, singular A included.
        t = lt()
        (x,) = inputs
        if is_discrete(x):
            return [no_grad()]
        gsign, glog = output_grads
        coef = glog
        if is_complex(x):
            turn = t.imag(t.multiply(gsign, outputs[0]))
            coef = t.add(glog, t.multiply(1j, turn))
        elif known_zero(glog):
            return [t.zeros_like(x)]
        return [t.multiply(col(col(coef)), mT(inv(x)))]


def slogdet(x: Any) -> tuple[TensorVariable, TensorVariable]:
    """``numpy.linalg.slogdet``: ``(sign, logabsdet)`` of each matrix, so that
    ``det = sign * exp(logabsdet)`` without overflow.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> sign, logabsdet = lt.linalg.slogdet(np.array([[-2.0, 0.0], [0.0, 1.0]]))
    >>> float(sign.eval()), float(logabsdet.eval())
    (-1.0, 0.6931471805599453)
    """
    sign, logabsdet = SlogDet()(x)
    return sign, logabsdet


def _pinv_vjp(a: Any, x: Any, g: Any) -> Any:
    """The pseudo-inverse's vector-Jacobian product for full-rank ``a`` (``x = a^+``),
    from ``dX = -X dA X + X X^H dA^H (I - A X) + (I - X A) dA^H X^H X``; with
    cotangents transposed, not conjugated: -X^T G X^T
    + conj((I - A X) G^T X X^H + X^H X G^T (I - X A)), without forming I."""
    t = lt()
    mm = t.matmul
    xt, gt = mT(x), mT(g)
    term1 = t.negative(mm(mm(xt, g), xt))
    u = mm(gt, mm(x, mH(x)))
    v = mm(mm(mH(x), x), gt)
    rest = t.add(t.subtract(u, mm(a, mm(x, u))), t.subtract(v, mm(mm(v, x), a)))
    return t.add(term1, conj(rest))


class Pinv(Op):
    """``numpy.linalg.pinv``: singular values below ``rtol`` times the largest
    are dropped; ``rtol=None`` is the array API's ``max(M, N) * eps``.
    ``rtol="input"``: the cutoff is a second input, an array broadcasting against
    the batch shape ``x.shape[:-2]`` (one cutoff per matrix)."""

    __props__: ClassVar[tuple[str, ...]] = ("rtol",)

    def __init__(self, rtol: float | str | None = 1e-15) -> None:
        self.rtol = rtol if rtol is None or rtol == "input" else float(rtol)

    def make_node(self, x: Any, rtol: Any = None) -> Apply:
        x = as_matrix_stack(x, "pinv", square=False)
        s = x.type.shape
        # numpy returns an empty array of the input's dtype for an empty matrix.
        dt = x.type.dtype if 0 in s[-2:] else linalg_dtype(x)
        out = TensorType(dt, (*s[:-2], s[-1], s[-2]))()
        if self.rtol != "input":
            return Apply(self, [x], [out])
        r = as_tensor_variable(rtol)
        if r.type.dtype[0] == "c":  # type: ignore[attr-defined]
            raise TypeError(f"pinv: rtol must be real, got {r.type.dtype}")  # type: ignore[attr-defined]
        batch = s[:-2]
        rs = r.type.shape  # type: ignore[attr-defined]
        fits = len(rs) <= len(batch) and all(
            a in (1, None) or b is None or a == b
            for a, b in zip(reversed(rs), reversed(batch), strict=False)
        )
        if not fits:
            # numpy: the cutoffs broadcast into the singular values' own array
            raise ValueError(
                f"pinv: rtol of shape {rs} does not broadcast to the batch shape "
                f"{batch} of the input of shape {s}"
            )
        return Apply(self, [x, r], [out])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        if self.rtol == "input":
            out = np.linalg.pinv(inputs[0], rtol=inputs[1])
        elif self.rtol is None:
            out = np.linalg.pinv(inputs[0], rtol=None)
        else:
            out = np.linalg.pinv(inputs[0], rcond=self.rtol)
        output_storage[0][0] = out.astype(node.outputs[0].type.dtype, copy=False)

    def infer_shape(self, fgraph: Any, node: Apply, input_shapes: Sequence[Any]) -> list[Any]:
        s = input_shapes[0]
        return [(*s[:-2], s[-1], s[-2])]

    def L_op(self, inputs: Sequence[Any], outputs: Sequence[Any], output_grads: Any) -> list[Any]:
        a = inputs[0]
        cutoff = [no_grad()] * (len(inputs) - 1)  # the rank changes in steps
        if is_discrete(a):
            return [no_grad(), *cutoff]
        return [_pinv_vjp(a, outputs[0], output_grads[0]), *cutoff]


_UNSET: Any = object()


def pinv(x: Any, rcond: Any = None, *, rtol: Any = _UNSET) -> TensorVariable:
    """``numpy.linalg.pinv``: the Moore-Penrose pseudo-inverse. Singular values
    below ``rcond`` (default 1e-15) or ``rtol`` times the largest are dropped;
    ``rtol=None`` means ``max(M, N) * eps`` (array API). An array cutoff gives
    one per matrix (it broadcasts against ``x.shape[:-2]``). The gradient assumes
    full rank.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> lt.linalg.pinv(np.array([[2.0, 0.0]])).eval()
    array([[0.5],
           [0. ]])
    """
    if rcond is not None and rtol is not _UNSET:
        raise ValueError("pinv: `rtol` and `rcond` can't be both set.")
    cutoff = rcond if rcond is not None else (1e-15 if rtol is _UNSET else rtol)
    if cutoff is None or (not isinstance(cutoff, TensorVariable) and np.ndim(cutoff) == 0):
        return Pinv(None if cutoff is None else float(cutoff))(x)  # type: ignore[no-any-return]
    return Pinv("input")(x, cutoff)  # type: ignore[no-any-return]


class Lstsq(Op):
    """``numpy.linalg.lstsq(a, b, rcond)`` for a 2-d ``a``: outputs the solution,
    the residuals (size data-dependent: empty unless ``a`` has full column rank
    and more rows than columns), the rank (int32) and the singular values."""

    __props__: ClassVar[tuple[str, ...]] = ("rcond",)

    def __init__(self, rcond: float | None = None) -> None:
        self.rcond = None if rcond is None else float(rcond)

    def make_node(self, a: Any, b: Any) -> Apply:
        a, b = as_tensor_variable(a), as_tensor_variable(b)
        if a.ndim != 2:
            raise np.linalg.LinAlgError(
                f"{a.ndim}-dimensional array given. Array must be two-dimensional (lstsq)"
            )
        if b.ndim not in (1, 2):
            raise np.linalg.LinAlgError(
                f"{b.ndim}-dimensional array given. Array must be one or two-dimensional"
            )
        m, n = a.type.shape
        mb = b.type.shape[0]
        if m is not None and mb is not None and m != mb:
            raise np.linalg.LinAlgError("Incompatible dimensions")
        dt = linalg_dtype(a, b)
        k = None if m is None or n is None else min(m, n)
        x_shape = (n,) if b.ndim == 1 else (n, b.type.shape[1])
        res = 0 if (m is not None and n is not None and m <= n) else None
        outs = [
            TensorType(dt, x_shape)(),
            TensorType(real_dtype(dt), (res,))(),
            TensorType("int32", ())(),
            TensorType(real_dtype(dt), (k,))(),
        ]
        return Apply(self, [a, b], outs)

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        results = np.linalg.lstsq(inputs[0], inputs[1], rcond=self.rcond)
        for cell, value, out in zip(output_storage, results, node.outputs, strict=True):
            cell[0] = np.asarray(value, dtype=out.type.dtype)  # type: ignore[attr-defined]

    def infer_shape(self, fgraph: Any, node: Apply, input_shapes: Sequence[Any]) -> list[Any]:
        t = lt()
        (m, n), sb = input_shapes
        x_shape = (n,) if len(sb) == 1 else (n, sb[1])
        res = node.outputs[1].type.shape[0]  # type: ignore[attr-defined]
        if res is None:
            # Data-dependent (the rank): read it from the computed output.
            res = t.shape_i(node.outputs[1], 0)
        k = min(int(m), int(n)) if _int(m) and _int(n) else t.minimum(m, n)
        return [x_shape, (res,), (), (k,)]

    def L_op(self, inputs: Sequence[Any], outputs: Sequence[Any], output_grads: Any) -> list[Any]:
        # x = pinv(a) @ b (full column rank assumed); the residuals
        # r_k = |b_k - a x_k|^2 (M > N) move by 2 Re(res_k^H (db_k - da x_k)), the
        # a dx term being 0 at the optimum (a^H res = 0); the singular values by
        # svdvals' rule. The rank is an integer: no gradient.
        t = lt()
        a, b = inputs
        gx, gres, _, gs = output_grads
        x_pinv = Pinv(None)(a)
        b2 = col(b) if b.ndim == 1 else b
        g2 = col(gx) if b.ndim == 1 else gx
        gb = t.matmul(mT(x_pinv), g2)
        ga = _pinv_vjp(a, x_pinv, t.matmul(g2, mT(b2)))
        if not known_zero(gres):
            x2 = col(outputs[0]) if b.ndim == 1 else outputs[0]
            w = t.multiply(2.0, t.multiply(conj(t.subtract(b2, t.matmul(a, x2))), row(gres)))
            gb = t.add(gb, w)
            ga = t.subtract(ga, t.matmul(w, mT(x2)))
        if not known_zero(gs):
            from lazygraph.tensor.linalg.decomp import SVD, _svd_vjp

            u, _, vh = SVD(False, True)(a)
            ga = t.add(ga, _svd_vjp(u, outputs[3], vh, None, gs, None))
        if b.ndim == 1:
            gb = t.squeeze(gb, -1)
        return [
            no_grad() if is_discrete(a) else ga,
            no_grad() if is_discrete(b) else gb,
        ]


def _int(s: Any) -> bool:
    return isinstance(s, (int, np.integer))


def lstsq(
    a: Any, b: Any, rcond: float | None = None
) -> tuple[TensorVariable, TensorVariable, TensorVariable, TensorVariable]:
    """``numpy.linalg.lstsq``: ``(x, residuals, rank, s)`` minimising ``|b - a x|``.
    ``x``, the residuals and the singular values ``s`` have gradients (full
    column rank assumed; the residuals, which numpy returns only then and for
    ``M > N``, also need ``x`` exact: ``a^H (b - a x) = 0``).

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> x, residuals, rank, s = lt.linalg.lstsq(np.eye(3, 2), np.array([1.0, 2.0, 3.0]))
    >>> x.eval(), residuals.eval(), int(rank.eval())
    (array([1., 2.]), array([9.]), 2)
    """
    x, res, rank, s = Lstsq(rcond)(a, b)
    return x, res, rank, s
