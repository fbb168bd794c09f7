"""Array creation: ``zeros``/``ones``/``full``/``empty`` (and ``_like``) as
``Alloc`` of a constant, ``ARange``, ``Linspace``, ``Eye`` and ``Tri`` ops,
``tril``/``triu`` (a ``where`` on a ``tri`` mask) and ``meshgrid``.

Sizes may be ints or 0-d integer variables; constant sizes become static shape.
Creation ops with constant inputs fold into constants only when the result is
small (see ``lazygraph.tensor.shape.CONSTANT_FOLD_MAX_SIZE``).

>>> import lazygraph.tensor as lt
>>> n = lt.lscalar("n")
>>> z = lt.zeros((n, 3), dtype="int32")
>>> z.type
TensorType(int32, shape=(?, 3))
>>> z.eval({n: 2})
array([[0, 0, 0],
       [0, 0, 0]], dtype=int32)
"""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from lazygraph.graph.basic import Apply, Constant, Op, Variable
from lazygraph.tensor.broadcast import alloc, broadcast_arrays, broadcast_shape
from lazygraph.tensor.dtypes import is_weak_scalar, result_type
from lazygraph.tensor.shape import (
    _lt,
    as_shape_scalar,
    constant_int,
    disconnected_grad,
    fold_if_small,
    is_disconnected,
    is_discrete,
    normalize_axis,
    reshape,
    shape_entries,
    shape_tuple,
    static_sizes,
    sum_to_shape,
)
from lazygraph.tensor.type import TensorType, normalize_dtype
from lazygraph.tensor.variable import TensorVariable, as_tensor_variable, constant

if TYPE_CHECKING:
    from lazygraph.graph.basic import OutputStorage
    from lazygraph.graph.fg import FunctionGraph

__all__ = [
    "ARange",
    "ARangeLength",
    "Eye",
    "Linspace",
    "Tri",
    "arange",
    "empty",
    "empty_like",
    "eye",
    "full",
    "full_like",
    "identity",
    "linspace",
    "meshgrid",
    "ones",
    "ones_like",
    "tri",
    "tril",
    "triu",
    "zeros",
    "zeros_like",
]


# -- zeros, ones, full, empty ------------------------------------------------------


def _sizes(shape: Any, what: str) -> list[Variable]:
    entries = shape_entries(shape, what)
    if any(s is not None and s < 0 for s in static_sizes(entries)):
        raise ValueError(f"{what}: negative dimensions are not allowed")
    return entries


def _fill(value: Any, dtype: Any, what: str) -> Variable:
    """``value`` as a fill for an array of ``dtype`` (``None``: the value's own
    dtype, numpy's ``array(value).dtype``), cast unsafely as numpy's ``copyto``."""
    if isinstance(value, Variable):
        v = as_tensor_variable(value)
        if dtype is not None and v.dtype != normalize_dtype(dtype):
            v = _lt().cast(v, normalize_dtype(dtype))
        return v
    data = np.asarray(value)
    if data.dtype == object:
        raise TypeError(f"{what}: cannot make an array of {type(value).__name__}")
    if dtype is not None:
        dtype = normalize_dtype(dtype)
        if isinstance(value, int) and not isinstance(value, bool):
            # NEP 50: a Python int that does not fit is an OverflowError, as in numpy.
            data = np.array(value, dtype=dtype)
        else:
            with np.errstate(invalid="ignore"), warnings.catch_warnings():
                warnings.simplefilter("ignore", np.exceptions.ComplexWarning)
                data = data.astype(dtype)
    return constant(data)


def _drop_leading_ones(fill: Variable, ndim: int) -> Variable:
    """numpy assigns an array with extra leading size-1 axes (``full((), [7])``)."""
    extra = fill.type.ndim - ndim  # type: ignore[attr-defined]
    if extra <= 0:
        return fill
    lead = fill.type.shape[:extra]  # type: ignore[attr-defined]
    if any(s is not None and s != 1 for s in lead):
        raise ValueError(
            f"could not broadcast input array from shape {fill.type.shape} into an array "  # type: ignore[attr-defined]
            f"with {ndim} dimensions"
        )
    rest = shape_tuple(fill)[extra:]
    if isinstance(fill, Constant):
        return constant(fill.data.reshape(rest))
    return reshape(fill, rest)


def full(shape: Any, fill_value: Any, dtype: Any = None) -> TensorVariable:
    """``numpy.full``: an array of ``shape`` filled with ``fill_value`` (broadcast);
    the dtype is ``fill_value``'s unless given.

    >>> import lazygraph.tensor as lt
    >>> lt.full((2,), 7).eval()
    array([7, 7])
    >>> lt.full((2,), 1.5, dtype="int8").eval()
    array([1, 1], dtype=int8)
    """
    sizes = _sizes(shape, "full")
    fill = _drop_leading_ones(_fill(fill_value, dtype, "full"), len(sizes))
    return alloc(fill, *sizes)


def zeros(shape: Any, dtype: Any = "float64") -> TensorVariable:
    """``numpy.zeros``: an array of ``shape`` (ints or 0-d integer variables) of zeros.

    >>> import lazygraph.tensor as lt
    >>> lt.zeros(3).eval()
    array([0., 0., 0.])
    """
    return full(shape, 0, dtype="float64" if dtype is None else dtype)


def ones(shape: Any, dtype: Any = "float64") -> TensorVariable:
    """``numpy.ones``: an array of ``shape`` of ones.

    >>> import lazygraph.tensor as lt
    >>> lt.ones((2, 1), dtype=bool).eval()
    array([[ True],
           [ True]])
    """
    return full(shape, 1, dtype="float64" if dtype is None else dtype)


def empty(shape: Any, dtype: Any = "float64") -> TensorVariable:
    """``numpy.empty``: an array of ``shape`` whose values are unspecified
    (lazygraph fills it with zeros).

    >>> import lazygraph.tensor as lt
    >>> lt.empty((2, 3)).type
    TensorType(float64, shape=(2, 3))
    """
    return zeros(shape, dtype)


def full_like(x: Any, fill_value: Any, dtype: Any = None, shape: Any = None) -> TensorVariable:
    """``numpy.full_like``: like ``x`` (its dtype and shape unless given), filled.

    >>> import lazygraph.tensor as lt
    >>> lt.full_like(lt.tensor("int32", (2,)), 2.7).eval()
    array([2, 2], dtype=int32)
    """
    x = as_tensor_variable(x)
    sizes = shape_tuple(x) if shape is None else shape
    return full(sizes, fill_value, dtype=x.dtype if dtype is None else dtype)


def zeros_like(x: Any, dtype: Any = None, shape: Any = None) -> TensorVariable:
    """``numpy.zeros_like``.

    >>> import lazygraph.tensor as lt
    >>> lt.zeros_like(lt.tensor("float32", (None, 2))).type
    TensorType(float32, shape=(?, 2))
    """
    return full_like(x, 0, dtype=dtype, shape=shape)


def ones_like(x: Any, dtype: Any = None, shape: Any = None) -> TensorVariable:
    """``numpy.ones_like``.

    >>> import lazygraph.tensor as lt
    >>> lt.ones_like(lt.tensor("int8", (2,))).eval()
    array([1, 1], dtype=int8)
    """
    return full_like(x, 1, dtype=dtype, shape=shape)


def empty_like(x: Any, dtype: Any = None, shape: Any = None) -> TensorVariable:
    """``numpy.empty_like`` (filled with zeros).

    >>> import lazygraph.tensor as lt
    >>> lt.empty_like(lt.dmatrix()).type
    TensorType(float64, shape=(?, ?))
    """
    return full_like(x, 0, dtype=dtype, shape=shape)


# -- arange ----------------------------------------------------------------------


def _float_grad(g: Variable, x: Variable) -> Variable:
    lt = _lt()
    if g.type.numpy_dtype.kind == "c" and x.type.numpy_dtype.kind != "c":  # type: ignore[attr-defined]
        g = lt.real(g)
    return g if g.type.dtype == x.type.dtype else lt.cast(g, x.type.dtype)  # type: ignore[attr-defined]


def arange_length(start: Any, stop: Any, step: Any) -> int:
    """numpy's length rule: ``ceil((stop - start) / step)`` in the arguments'
    own arithmetic, at least 0, with numpy's errors."""
    try:
        with np.errstate(all="ignore"):
            delta = stop - start
            q = delta / step  # numpy scalars: a zero step gives inf or nan, not an exception
    except OverflowError:
        # A Python int that does not fit the other operand's dtype (NEP 50): numpy
        # reports it as a size problem.
        raise ValueError("Maximum allowed size exceeded") from None
    parts = [q.real, q.imag] if isinstance(q, (complex, np.complexfloating)) else [q]
    lengths = []
    for part in parts:
        value = float(part)
        if np.isnan(value):
            raise ValueError("arange: cannot compute length")
        if value == 0.0 and delta != 0:
            # An underflowing quotient still has a first element when its sign allows.
            lengths.append(0 if np.signbit(value) else 1)
            continue
        value = np.ceil(value)
        if not np.isfinite(value) or value > np.iinfo(np.intp).max:
            raise ValueError("Maximum allowed size exceeded")
        lengths.append(int(value))
    return max(0, min(lengths))


def arange_args(inputs: Sequence[Any], weak: Sequence[bool]) -> list[Any]:
    """``arange``'s arguments as numpy sees them: Python numbers where the user
    gave Python numbers (NEP 50 weak), numpy scalars of their dtype elsewhere."""
    return [a.item() if w else a[()] for a, w in zip(inputs, weak, strict=True)]


class ARange(Op):
    """``(start, stop, step)`` (0-d) -> ``numpy.arange(start, stop, step, dtype)``.

    ``weak[i]`` marks a constant argument the user gave as a Python number:
    numpy computes the length in the arguments' own arithmetic, where Python
    numbers are weak, so they are handed to numpy as Python numbers again.
    """

    __props__ = ("dtype", "weak")

    def __init__(self, dtype: Any, weak: Sequence[bool] = (False, False, False)) -> None:
        self.dtype = normalize_dtype(dtype)
        self.weak = tuple(bool(w) for w in weak)

    def make_node(self, start: Any, stop: Any, step: Any) -> Apply:
        args = [as_tensor_variable(a) for a in (start, stop, step)]
        for a, w in zip(args, self.weak, strict=True):
            if a.ndim != 0:
                raise ValueError(f"arange: start, stop and step must be 0-d, got {a.type}")
            if w and not isinstance(a, Constant):
                raise TypeError(f"ARange: only constants can be weak (Python numbers), not {a}")
        length = None
        if all(isinstance(a, Constant) for a in args):
            length = arange_length(*arange_args([a.data for a in args], self.weak))  # type: ignore[attr-defined]
        return Apply(self, args, [TensorType(self.dtype, (length,))()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: OutputStorage) -> None:
        start, stop, step = arange_args(inputs, self.weak)
        output_storage[0][0] = np.arange(start, stop, step, dtype=self.dtype)

    def infer_shape(
        self, fgraph: FunctionGraph | None, node: Apply, input_shapes: Sequence[Any]
    ) -> list[Any]:
        static = node.outputs[0].type.shape[0]  # type: ignore[attr-defined]
        if static is not None:
            return [(static,)]
        return [(ARangeLength(self.weak)(*node.inputs),)]

    def connection_pattern(self, node: Apply) -> list[list[bool]]:
        # stop only decides the length; the values are start + i * step.
        return [[True], [False], [True]]

    def do_constant_folding(self, fgraph: FunctionGraph | None, node: Apply) -> bool:
        return fold_if_small(node)

    def L_op(
        self, inputs: Sequence[Variable], outputs: Sequence[Variable], output_grads: Sequence[Any]
    ) -> list[Variable]:
        (g,) = output_grads
        start, _, step = inputs
        (out,) = outputs
        if is_disconnected(g) or is_discrete(out):
            return [disconnected_grad()] * 3
        lt = _lt()
        index = arange(shape_tuple(out)[0], dtype=out.type.dtype)  # type: ignore[attr-defined]
        return [
            disconnected_grad() if is_discrete(start) else _float_grad(lt.sum(g), start),
            disconnected_grad(),
            disconnected_grad()
            if is_discrete(step)
            else _float_grad(lt.sum(lt.multiply(g, index)), step),
        ]

    def R_op(self, inputs: Sequence[Variable], eval_points: Sequence[Any]) -> list[Any]:
        if np.dtype(self.dtype).kind not in "fc":
            return [None]
        lt = _lt()
        d_start, _, d_step = eval_points
        n = self.infer_shape(None, self.make_node(*inputs), [(), (), ()])[0][0]
        index = arange(n, dtype=self.dtype)
        return [lt.add(d_start, lt.multiply(index, d_step))]


class ARangeLength(Op):
    """``(start, stop, step)`` -> ``len(numpy.arange(start, stop, step))`` as a
    0-d int64, by numpy's own rule (``ARange``'s ``infer_shape``)."""

    __props__ = ("weak",)

    def __init__(self, weak: Sequence[bool] = (False, False, False)) -> None:
        self.weak = tuple(bool(w) for w in weak)

    def make_node(self, start: Any, stop: Any, step: Any) -> Apply:
        args = [as_tensor_variable(a) for a in (start, stop, step)]
        return Apply(self, args, [TensorType("int64", ())()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: OutputStorage) -> None:
        output_storage[0][0] = np.asarray(
            arange_length(*arange_args(inputs, self.weak)), dtype=np.int64
        )

    def infer_shape(
        self, fgraph: FunctionGraph | None, node: Apply, input_shapes: Sequence[Any]
    ) -> list[Any]:
        return [()]

    def connection_pattern(self, node: Apply) -> list[list[bool]]:
        return [[False], [False], [False]]

    def L_op(
        self, inputs: Sequence[Variable], outputs: Sequence[Variable], output_grads: Sequence[Any]
    ) -> list[Variable]:
        return [disconnected_grad()] * 3


def arange(start: Any, stop: Any = None, step: Any = 1, dtype: Any = None) -> TensorVariable:
    """``numpy.arange``: evenly spaced values in ``[start, stop)``; the length is
    static when the arguments are constants.

    The dtype follows numpy: the promotion of the arguments with int64 (so
    int8 arguments give int64, float32 ones float64), unless ``dtype`` is given.

    >>> import lazygraph.tensor as lt
    >>> lt.arange(5).type
    TensorType(int64, shape=(5,))
    >>> lt.arange(0.0, 1.0, 0.25).eval()
    array([0.  , 0.25, 0.5 , 0.75])
    """
    if stop is None:
        start, stop = 0, start
    args = [start, stop, step]
    for a in args:
        if isinstance(a, Variable) and a.type.ndim != 0:  # type: ignore[attr-defined]
            raise ValueError(f"arange: arguments must be 0-d, got {a}")
    out_dtype = result_type("int64", *args) if dtype is None else normalize_dtype(dtype)
    return ARange(out_dtype, [is_weak_scalar(a) for a in args])(*args)


# -- linspace --------------------------------------------------------------------


class Linspace(Op):
    """``(start, stop)`` -> ``numpy.linspace(start, stop, num, endpoint, dtype=dtype,
    axis=axis)``; ``start`` and ``stop`` broadcast against each other."""

    __props__ = ("num", "endpoint", "axis", "dtype")

    def __init__(self, num: int, endpoint: bool, axis: int, dtype: Any) -> None:
        self.num = int(num)
        self.endpoint = bool(endpoint)
        self.axis = int(axis)
        self.dtype = normalize_dtype(dtype)

    def make_node(self, start: Any, stop: Any) -> Apply:
        start, stop = as_tensor_variable(start), as_tensor_variable(stop)
        base = [s if isinstance(s, int) else None for s in broadcast_shape(start, stop)]
        axis = normalize_axis(self.axis, len(base) + 1, "linspace")
        out_shape = [*base[:axis], self.num, *base[axis:]]
        return Apply(self, [start, stop], [TensorType(self.dtype, out_shape)()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: OutputStorage) -> None:
        start, stop = inputs
        output_storage[0][0] = np.asarray(
            np.linspace(start, stop, self.num, self.endpoint, dtype=self.dtype, axis=self.axis)
        )

    def infer_shape(
        self, fgraph: FunctionGraph | None, node: Apply, input_shapes: Sequence[Any]
    ) -> list[Any]:
        start, stop = node.inputs
        base = list(broadcast_shape(start, stop))  # type: ignore[arg-type]
        axis = normalize_axis(self.axis, len(base) + 1, "linspace")
        return [(*base[:axis], self.num, *base[axis:])]

    def do_constant_folding(self, fgraph: FunctionGraph | None, node: Apply) -> bool:
        return fold_if_small(node)

    def L_op(
        self, inputs: Sequence[Variable], outputs: Sequence[Variable], output_grads: Sequence[Any]
    ) -> list[Variable]:
        (g,) = output_grads
        (out,) = outputs
        if is_disconnected(g) or is_discrete(out):
            return [disconnected_grad(), disconnected_grad()]
        lt = _lt()
        # out = start * (1 - t) + stop * t along the new axis.
        t = np.linspace(0.0, 1.0, self.num, self.endpoint)
        axis = normalize_axis(self.axis, out.type.ndim, "linspace")  # type: ignore[attr-defined]
        t_shape = [1] * out.type.ndim  # type: ignore[attr-defined]
        t_shape[axis] = self.num
        weight_stop = constant(t.reshape(t_shape).astype(out.type.dtype))  # type: ignore[attr-defined]
        weight_start = constant((1.0 - t).reshape(t_shape).astype(out.type.dtype))  # type: ignore[attr-defined]
        grads = []
        for x, w in zip(inputs, (weight_start, weight_stop), strict=True):
            if is_discrete(x):
                grads.append(disconnected_grad())
                continue
            gx = lt.sum(lt.multiply(g, w), axis=axis)
            grads.append(sum_to_shape(gx, x))
        return grads

    def R_op(self, inputs: Sequence[Variable], eval_points: Sequence[Any]) -> list[Any]:
        if np.dtype(self.dtype).kind not in "fc":
            return [None]  # integer samples are floored: piecewise constant
        # linspace is linear in (start, stop).
        return [self(*eval_points)]


def linspace(
    start: Any,
    stop: Any,
    num: int = 50,
    endpoint: bool = True,
    dtype: Any = None,
    axis: int = 0,
) -> TensorVariable:
    """``numpy.linspace``: ``num`` evenly spaced samples from ``start`` to ``stop``
    (arrays broadcast, the samples along ``axis``).

    >>> import lazygraph.tensor as lt
    >>> lt.linspace(0, 1, 5).eval()
    array([0.  , 0.25, 0.5 , 0.75, 1.  ])
    """
    count = constant_int(num) if not isinstance(num, (float, np.floating)) else None
    if count is None:
        raise TypeError("linspace: 'num' must be an integer known when building the graph")
    num = count
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    dt = result_type(start, stop)
    if np.dtype(dt).kind not in "fc":
        dt = "float64"
    start, stop = (
        constant(np.asarray(a, dtype=dt)) if is_weak_scalar(a) else a for a in (start, stop)
    )
    out_dtype = dt if dtype is None else normalize_dtype(dtype)
    return Linspace(num, endpoint, axis, out_dtype)(start, stop)


# -- eye, tri, tril, triu ----------------------------------------------------------


class _MatrixMask(Op):
    """``(n, m, k)`` (0-d ints) -> an ``n x m`` array of ``dtype`` from a numpy
    function of ``(n, m, k)``."""

    __props__ = ("dtype",)
    numpy_name = ""
    #: numpy's ``tri`` treats a negative size as 0; ``eye`` rejects it.
    negative_is_empty = False

    def __init__(self, dtype: Any) -> None:
        self.dtype = normalize_dtype(dtype)

    def make_node(self, n: Any, m: Any, k: Any) -> Apply:
        what = self.numpy_name
        n, m, k = (as_shape_scalar(a, what) for a in (n, m, k))
        sizes = list(static_sizes([n, m]))
        for i, s in enumerate(sizes):
            if s is not None and s < 0:
                if not self.negative_is_empty:
                    raise ValueError(f"{what}: negative dimensions are not allowed")
                sizes[i] = 0
        return Apply(self, [n, m, k], [TensorType(self.dtype, sizes)()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: OutputStorage) -> None:
        n, m, k = (int(a) for a in inputs)
        fn = getattr(np, self.numpy_name)
        output_storage[0][0] = fn(n, m, k, dtype=self.dtype)

    def infer_shape(
        self, fgraph: FunctionGraph | None, node: Apply, input_shapes: Sequence[Any]
    ) -> list[Any]:
        static = node.outputs[0].type.shape  # type: ignore[attr-defined]
        n, m, _ = node.inputs
        sizes = [
            st if st is not None else (_lt().maximum(s, 0) if self.negative_is_empty else s)
            for st, s in zip(static, (n, m), strict=True)
        ]
        return [tuple(sizes)]

    def connection_pattern(self, node: Apply) -> list[list[bool]]:
        return [[False], [False], [False]]

    def do_constant_folding(self, fgraph: FunctionGraph | None, node: Apply) -> bool:
        return fold_if_small(node)

    def L_op(
        self, inputs: Sequence[Variable], outputs: Sequence[Variable], output_grads: Sequence[Any]
    ) -> list[Variable]:
        return [disconnected_grad()] * 3


class Eye(_MatrixMask):
    """``numpy.eye(n, m, k, dtype)``: ones on the ``k``-th diagonal."""

    numpy_name = "eye"


class Tri(_MatrixMask):
    """``numpy.tri(n, m, k, dtype)``: ones at and below the ``k``-th diagonal."""

    numpy_name = "tri"
    negative_is_empty = True


def eye(N: Any, M: Any = None, k: Any = 0, dtype: Any = "float64") -> TensorVariable:
    """``numpy.eye``: an ``N x M`` array with ones on the ``k``-th diagonal.

    >>> import lazygraph.tensor as lt
    >>> lt.eye(2, 3, k=1, dtype="int8").eval()
    array([[0, 1, 0],
           [0, 0, 1]], dtype=int8)
    """
    return Eye("float64" if dtype is None else dtype)(N, N if M is None else M, k)


def identity(n: Any, dtype: Any = "float64") -> TensorVariable:
    """``numpy.identity``: the ``n x n`` identity matrix.

    >>> import lazygraph.tensor as lt
    >>> lt.identity(2).type
    TensorType(float64, shape=(2, 2))
    """
    return eye(n, dtype=dtype)


def tri(N: Any, M: Any = None, k: Any = 0, dtype: Any = "float64") -> TensorVariable:
    """``numpy.tri``: ones at and below the ``k``-th diagonal of an ``N x M`` array
    (a negative size counts as 0, as in numpy).

    >>> import lazygraph.tensor as lt
    >>> lt.tri(2, 3).eval()
    array([[1., 0., 0.],
           [1., 1., 0.]])
    """
    return Tri("float64" if dtype is None else dtype)(N, N if M is None else M, k)


def _triangle(x: Any, k: Any, lower: bool) -> TensorVariable:
    x = as_tensor_variable(x)
    what = "tril" if lower else "triu"
    if x.ndim == 0:
        raise TypeError(f"{what}: tri() missing 1 required positional argument: 'N' (x is 0-d)")
    lt = _lt()
    # numpy's tri(*x.shape[-2:]): a 1-d x gives a square mask.
    dims = shape_tuple(x)[-2:]
    n, m = dims if len(dims) == 2 else (dims[0], dims[0])
    zero = constant(np.zeros((), dtype=x.dtype))
    if lower:
        return lt.where(tri(n, m, k=k, dtype="bool"), x, zero)  # type: ignore[no-any-return]
    k_below = k - 1 if isinstance(k, (int, np.integer)) else lt.subtract(k, 1)
    return lt.where(tri(n, m, k=k_below, dtype="bool"), zero, x)  # type: ignore[no-any-return]


def tril(x: Any, k: Any = 0) -> TensorVariable:
    """``numpy.tril``: ``x`` with the elements above the ``k``-th diagonal of
    its last two axes zeroed (a 1-d ``x`` gives a square matrix, as in numpy).

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> x = lt.dmatrix("x")
    >>> lt.tril(x).eval({x: np.ones((2, 2))})
    array([[1., 0.],
           [1., 1.]])
    """
    return _triangle(x, k, lower=True)


def triu(x: Any, k: Any = 0) -> TensorVariable:
    """``numpy.triu``: ``x`` with the elements below the ``k``-th diagonal zeroed.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> x = lt.dmatrix("x")
    >>> lt.triu(x).eval({x: np.ones((2, 2))})
    array([[1., 1.],
           [0., 1.]])
    """
    return _triangle(x, k, lower=False)


# -- meshgrid ----------------------------------------------------------------------


def meshgrid(
    *xi: Any, indexing: str = "xy", sparse: bool = False, copy: bool = True
) -> tuple[TensorVariable, ...]:
    """``numpy.meshgrid``: coordinate arrays from coordinate vectors (inputs of
    any shape are flattened); ``indexing="xy"`` swaps the first two axes.

    >>> import lazygraph.tensor as lt
    >>> xs, ys = lt.meshgrid(lt.tensor("float64", (3,)), lt.tensor("float64", (2,)))
    >>> xs.type.shape, ys.type.shape
    ((2, 3), (2, 3))
    """
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    xs = [as_tensor_variable(x) for x in xi]
    ndim = len(xs)
    ones = [1] * ndim
    output = []
    for i, x in enumerate(xs):
        shp: list[Any] = list(ones)
        shp[i] = -1
        if indexing == "xy" and ndim > 1 and i < 2:
            shp[0], shp[1] = (1, -1) if i == 0 else (-1, 1)
        output.append(reshape(x, shp))
    if sparse:
        return tuple(output)
    return broadcast_arrays(*output)
