"""Scans: one :class:`CumOp` computes ``cumsum`` and ``cumprod`` along an axis (or
the flattened array), plus the exclusive and reversed scans that the gradients of
``prod`` and ``cumprod`` are built from (they need no division, so zeros are
exact). ``cumulative_sum`` / ``cumulative_prod`` are the array API's spellings.

>>> import numpy as np
>>> import lazygraph.tensor as lt
>>> x = lt.tensor("int8", (3,), name="x")
>>> c = lt.cumsum(x)
>>> c.type
TensorType(int64, shape=(3,))
>>> c.eval({x: np.array([100, 100, 100], dtype="int8")})
array([100, 200, 300])
"""

from __future__ import annotations

import builtins
import functools
import operator
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from lazygraph.graph.basic import Apply, Op, Variable
from lazygraph.tensor.reduction import _as_dtype_of, _discrete, _no_grad, _reduce, normalize_axis
from lazygraph.tensor.type import TensorType, normalize_dtype
from lazygraph.tensor.variable import TensorVariable, as_tensor_variable

__all__ = ["CumOp", "cumprod", "cumsum", "cumulative_prod", "cumulative_sum"]


def _lt() -> Any:
    import lazygraph.tensor as lt

    return lt


class CumOp(Op):
    """Cumulative sum or product (``kind``) along ``axis`` in ``dtype``.

    ``axis=None`` scans the flattened array, as does any axis of a 0-d array (numpy
    treats it as 1-d). ``exclusive`` shifts the scan by one (element ``i`` combines
    the elements before ``i``) and ``reverse`` scans from the end; the gradients use
    both, and their adjoints are each other.

    The cumprod gradient is exact everywhere, zeros included, but it is built
    piecewise around the first zero, so its own derivative (a second derivative
    of cumprod) is wrong at inputs that are exactly zero. ``prod``'s gradient uses
    exclusive scans instead and is exact to second order at zeros.
    """

    __props__: ClassVar[tuple[str, ...]] = ("kind", "axis", "dtype", "exclusive", "reverse")

    def __init__(
        self,
        kind: str,
        axis: int | None,
        dtype: str,
        exclusive: bool = False,
        reverse: bool = False,
    ) -> None:
        if kind not in ("sum", "prod"):
            raise ValueError(f"CumOp kind must be 'sum' or 'prod', got {kind!r}")
        self.kind = kind
        self.axis = axis
        self.dtype = normalize_dtype(dtype)
        self.exclusive = bool(exclusive)
        self.reverse = bool(reverse)

    def make_node(self, x: Any) -> Apply:
        x = as_tensor_variable(x)
        if self.axis is None or x.ndim == 0:
            if self.axis not in (None, 0):
                raise np.exceptions.AxisError(self.axis, 1, f"cum{self.kind}")
            sizes = x.type.shape
            n = None if None in sizes else functools.reduce(operator.mul, sizes, 1)
            shape: tuple[int | None, ...] = (n,)
        else:
            if not 0 <= self.axis < x.ndim:
                raise np.exceptions.AxisError(self.axis, x.ndim, f"cum{self.kind}")
            shape = x.type.shape
        return Apply(self, [x], [TensorType(self.dtype, shape)()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        (x,) = inputs
        axis = self.axis
        if axis is None or x.ndim == 0:
            x, axis = x.reshape(-1), 0
        scan = np.cumsum if self.kind == "sum" else np.cumprod
        if self.reverse:
            x = np.flip(x, axis)
        out = scan(x, axis=axis, dtype=self.dtype)
        if self.exclusive and out.shape[axis]:
            head = [slice(None)] * out.ndim
            head[axis] = slice(0, 1)
            shifted = np.empty_like(out)
            shifted[tuple(head)] = 0 if self.kind == "sum" else 1
            body, prev = list(head), list(head)
            body[axis], prev[axis] = slice(1, None), slice(0, -1)
            shifted[tuple(body)] = out[tuple(prev)]
            out = shifted
        if self.reverse:
            out = np.ascontiguousarray(np.flip(out, axis))
        output_storage[0][0] = out

    def infer_shape(self, fgraph: Any, node: Apply, input_shapes: Sequence[Any]) -> list[Any]:
        (shape,) = input_shapes
        static = node.outputs[0].type.shape  # type: ignore[attr-defined]
        if self.axis is not None and len(shape) > 0:
            return [tuple(d if s is None else s for d, s in zip(shape, static, strict=True))]
        if static[0] is not None:
            return [static]
        return [(functools.reduce(operator.mul, shape, 1),)]

    def _scan(self, x: Any, axis: int, kind: str, dtype: str, reverse: bool) -> Any:
        return CumOp(kind, axis, dtype, self.exclusive, reverse)(x)

    def L_op(
        self, inputs: Sequence[Variable], outputs: Sequence[Variable], output_grads: Sequence[Any]
    ) -> list[Variable]:
        (x,), (out,), (g,) = inputs, outputs, output_grads
        if _discrete(x):
            return [_no_grad()]
        lt = _lt()
        flat = self.axis is None or x.type.ndim == 0  # type: ignore[attr-defined]
        xs = lt.reshape(x, (-1,)) if flat else x
        axis = 0 if flat else self.axis
        assert axis is not None
        # The adjoint of a scan is the same scan run the other way.
        back = functools.partial(self._scan, axis=axis, kind="sum", reverse=not self.reverse)
        if self.kind == "sum":
            grad = back(g, dtype=g.dtype)
        else:
            # d out_j / d x_i is the product of the scanned elements other than x_i.
            # Up to the first zero (in scan order) that is out_j / x_i; at the first
            # zero it is the scan with that zero replaced by one; after it, zero.
            is_zero = lt.equal(xs, 0)
            zeros_seen = CumOp("sum", axis, "int64", reverse=self.reverse)(is_zero)
            before = lt.equal(zeros_seen, 0)
            first = lt.logical_and(is_zero, lt.equal(zeros_seen, 1))
            gp = g * out
            at_first = g * self._scan(
                lt.where(first, 1, xs), axis, "prod", self.dtype, self.reverse
            )
            grad = lt.where(
                before,
                back(gp, dtype=gp.dtype) / lt.where(before, xs, 1),
                lt.where(first, back(at_first, dtype=at_first.dtype), 0),
            )
        if flat:
            shape = x.type.shape  # type: ignore[attr-defined]
            grad = lt.reshape(grad, shape if None not in shape else lt.shape(x))
        return [_as_dtype_of(grad, x)]

    def R_op(self, inputs: Sequence[Variable], eval_points: Sequence[Any]) -> list[Any]:
        (ev,) = eval_points
        if ev is None:
            return [None]
        if self.kind != "sum":
            raise NotImplementedError(f"{self} has no forward derivative (R_op)")
        return [self(ev)]


def _cum(kind: str, x: Any, axis: int | None, dtype: Any) -> TensorVariable:
    x = as_tensor_variable(x)
    name = f"cum{kind}"
    if axis is not None:
        if isinstance(axis, (bool, np.bool_)) or not hasattr(axis, "__index__"):
            # numpy scans along one axis: a tuple is a TypeError, not a reduction.
            raise TypeError(f"{name}: axis must be an integer, not {type(axis).__name__}")
        (axis,) = normalize_axis(axis, builtins.max(x.ndim, 1), name)
    probe = np.ones((1,), dtype=x.dtype)
    scan = np.cumsum if kind == "sum" else np.cumprod
    acc = normalize_dtype(
        scan(probe, dtype=None if dtype is None else normalize_dtype(dtype)).dtype
    )
    return CumOp(kind, axis, acc)(x)  # type: ignore[no-any-return]


def cumsum(x: Any, axis: int | None = None, dtype: Any = None) -> TensorVariable:
    """Cumulative sum along ``axis`` (flattened when ``None``); numpy's dtypes
    (int8 accumulates in int64).

    >>> import numpy as np, lazygraph.tensor as lt
    >>> x = lt.dmatrix("x")
    >>> lt.cumsum(x, axis=1).eval({x: np.array([[1.0, 2.0], [3.0, 4.0]])})
    array([[1., 3.],
           [3., 7.]])
    """
    return _cum("sum", x, axis, dtype)


def cumprod(x: Any, axis: int | None = None, dtype: Any = None) -> TensorVariable:
    """Cumulative product along ``axis`` (flattened when ``None``); its gradient
    is exact where inputs are zero.

    >>> import numpy as np, lazygraph.tensor as lt
    >>> x = lt.dvector("x")
    >>> lt.cumprod(x).eval({x: np.array([1.0, 2.0, 3.0])})
    array([1., 2., 6.])
    """
    return _cum("prod", x, axis, dtype)


def _cumulative(
    kind: str, x: Any, axis: int | None, dtype: Any, include_initial: bool
) -> TensorVariable:
    x = as_tensor_variable(x)
    name = f"cumulative_{kind}"
    if axis is None:
        if x.ndim > 1:
            raise ValueError(
                f"{name}: for arrays which have more than one dimension ``axis`` argument "
                f"is required (got shape {x.type.shape})"
            )
        axis = 0
    out = _cum(kind, x, axis, dtype)
    if not include_initial:
        return out
    # [identity, scan...]: the exclusive scan, then the total at the end.
    lt = _lt()
    (ax,) = normalize_axis(axis, builtins.max(x.ndim, 1), name)
    op = CumOp(kind, ax, out.dtype, exclusive=True)
    total = _reduce(kind, x, ax if x.ndim else None, True, out.dtype)
    if x.ndim == 0:
        total = lt.reshape(total, (1,))
    return lt.concatenate([op(x), total], axis=ax)  # type: ignore[no-any-return]


def cumulative_sum(
    x: Any, axis: int | None = None, dtype: Any = None, include_initial: bool = False
) -> TensorVariable:
    """The array API's cumulative sum: like :func:`cumsum`, but ``axis`` is required
    for arrays of more than one dimension, and ``include_initial`` prepends a 0.

    >>> import numpy as np, lazygraph.tensor as lt
    >>> x = lt.dvector("x")
    >>> lt.cumulative_sum(x).eval({x: np.array([1.0, 2.0, 3.0])})
    array([1., 3., 6.])
    """
    return _cumulative("sum", x, axis, dtype, include_initial)


def cumulative_prod(
    x: Any, axis: int | None = None, dtype: Any = None, include_initial: bool = False
) -> TensorVariable:
    """The array API's cumulative product (see :func:`cumulative_sum`); ``include_initial``
    prepends a 1.

    >>> import numpy as np, lazygraph.tensor as lt
    >>> x = lt.dvector("x")
    >>> lt.cumulative_prod(x).eval({x: np.array([1.0, 2.0, 3.0])})
    array([1., 2., 6.])
    """
    return _cumulative("prod", x, axis, dtype, include_initial)
