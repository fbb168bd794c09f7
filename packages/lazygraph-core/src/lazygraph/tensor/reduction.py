"""Reductions: one op, one table of kinds.

One :class:`Reduce` op computes every reduction that maps an array to an array
with some axes removed (or kept as size 1): ``sum``, ``prod``, ``max``, ``min``,
``all``, ``any``, ``mean``, ``var``, ``std``, ``logsumexp``, ``count_nonzero``,
``argmax`` and ``argmin``. What differs between them (numpy function, output
dtype, whether a zero-size reduction raises, gradient) is a row of ``KINDS``.
The scans (``cumsum``, ``cumprod``) are in :mod:`lazygraph.tensor.cumulative`.

Output dtypes are numpy's, found by asking numpy about a one-element array of
the input dtype, so ``sum`` of int8 is int64, of uint8 uint64, and ``mean`` of
ints float64.

>>> import numpy as np
>>> import lazygraph.tensor as lt
>>> x = lt.tensor("int8", (2, 3), name="x")
>>> s = lt.sum(x, axis=-1)
>>> s.type
TensorType(int64, shape=(2,))
>>> s.eval({x: np.array([[100, 100, 100], [1, 2, 3]], dtype="int8")})
array([300,   6])
"""

from __future__ import annotations

import builtins
import functools
import operator
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np

from lazygraph.graph.basic import Apply, Op, Variable
from lazygraph.tensor.type import TensorType, normalize_dtype
from lazygraph.tensor.variable import TensorVariable, as_tensor_variable

__all__ = [
    "Reduce",
    "all",
    "any",
    "argmax",
    "argmin",
    "count_nonzero",
    "logsumexp",
    "max",
    "mean",
    "min",
    "prod",
    "std",
    "sum",
    "var",
]

AxisLike = int | tuple[int, ...] | None


def _lt() -> Any:
    # The op families import each other's functions at call time (no import cycles).
    import lazygraph.tensor as lt

    return lt


def normalize_axis(axis: Any, ndim: int, op_name: str) -> tuple[int, ...]:
    """``axis`` (``None``, an int or a tuple of ints) as sorted non-negative ints.

    Raises numpy's errors: ``AxisError`` out of range, ``ValueError`` for a repeated
    axis, ``TypeError`` for anything but ints (numpy rejects lists and bools too).

    >>> normalize_axis((-1, 0), 3, "sum")
    (0, 2)
    >>> normalize_axis(None, 2, "sum")
    (0, 1)
    """
    if axis is None:
        return tuple(range(ndim))
    items = axis if isinstance(axis, tuple) else (axis,)
    out = []
    for a in items:
        if isinstance(a, bool | np.bool_) or not isinstance(a, int | np.integer):
            raise TypeError(
                f"{op_name}: axis must be None, an int or a tuple of ints, got {axis!r}"
            )
        if not -ndim <= a < ndim:
            raise np.exceptions.AxisError(int(a), ndim, op_name)
        out.append(int(a) % ndim)
    if len(set(out)) != len(out):
        raise ValueError(f"{op_name}: duplicate value in 'axis' ({axis!r})")
    return tuple(sorted(out))


def _discrete(x: Variable) -> bool:
    return x.type.numpy_dtype.kind in "biu"  # type: ignore[attr-defined]


def _no_grad() -> Variable:
    from lazygraph.gradient import disconnected_type

    return disconnected_type()


def _as_dtype_of(g: Variable, x: Variable) -> Variable:
    from lazygraph.gradient._build import as_grad_dtype

    return as_grad_dtype(g, x.type.dtype)  # type: ignore[attr-defined]


# -- the reduction table --------------------------------------------------------


def np_logsumexp(x: np.ndarray, axis: tuple[int, ...], keepdims: bool) -> np.ndarray:
    """``log(sum(exp(x)))`` over ``axis`` in numpy, as the ``logsumexp``
    reduction computes it (backends reuse it for their host paths).

    >>> float(np_logsumexp(np.array([0.0, 0.0]), (0,), False)) == float(np.log(2.0))
    True
    """
    # scipy.special.logsumexp's recipe: shift by the max so exp cannot overflow;
    # a non-finite max shifts by 0 so all -inf gives -inf, any +inf gives +inf and
    # NaN stays NaN. ``initial`` makes empty reductions give log(0) = -inf.
    if x.dtype.kind in "biu":
        x = x.astype("float64")
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        shift = np.max(x, axis=axis, keepdims=True, initial=-np.inf)
        shift = np.where(np.isfinite(shift), shift, 0).astype(x.dtype)
        total = np.sum(np.exp(x - shift), axis=axis, keepdims=True)
        out = np.log(total) + shift
    return out if keepdims else np.squeeze(out, axis=axis)


def _np_arg(fn: Callable[..., Any]) -> Callable[[np.ndarray, Reduce], Any]:
    # argmax/argmin take one axis or None (flatten); the op stores None as all axes.
    def compute(x: np.ndarray, op: Reduce) -> Any:
        axis = op.axis[0] if len(op.axis) == 1 else None
        return fn(x, axis=axis, keepdims=op.keepdims)

    return compute


@dataclass(frozen=True)
class ReduceKind:
    """One row of the reduction table.

    ``compute(x, op)`` is the numpy reference; ``identity=False`` means reducing a
    zero-size axis raises ``ValueError`` (numpy's max/min/argmax/argmin), which is
    raised at build time when the size is known then. ``grad(op, x, out, g)``
    returns the gradient for a float ``x``; ``None`` means the output does not
    depend differentiably on ``x`` (a disconnected gradient). ``r_op(op, x, out, ev)``
    is the forward derivative, where written.
    """

    name: str
    compute: Callable[[np.ndarray, Reduce], Any]
    identity: bool = True
    #: the numpy name used in numpy's zero-size error message
    numpy_name: str = ""
    #: whether ``dtype=`` is accepted and resolved to numpy's accumulation dtype
    accumulates: bool = False
    takes_dtype: bool = False
    real_only: bool = False
    #: numpy's ufunc reductions accept a plain int axis 0 or -1 on a 0-d array
    #: (reducing nothing); mean/var/std raise AxisError
    ufunc_like: bool = True
    grad: Callable[[Reduce, Any, Any, Any], Any] | None = None
    r_op: Callable[[Reduce, Any, Any, Any], Any] | None = None


def _expand(v: Variable, op: Reduce, ndim: int) -> Variable:
    """A reduced value with the reduced axes put back as size 1 (it then broadcasts
    against the input)."""
    if op.keepdims or not op.axis or v.type.ndim == ndim:  # type: ignore[attr-defined]
        return v
    return _lt().expand_dims(v, op.axis)  # type: ignore[no-any-return]


def _broadcast_like(v: Variable, x: Variable) -> Variable:
    if v.type.shape == x.type.shape and None not in x.type.shape:  # type: ignore[attr-defined]
        return v
    lt = _lt()
    shape = x.type.shape  # type: ignore[attr-defined]
    return lt.broadcast_to(v, shape if None not in shape else lt.shape(x))  # type: ignore[no-any-return]


def _reduced_size(x: Variable, axis: tuple[int, ...], dtype: str) -> Any:
    """The number of elements each output element reduces: a Python int when the
    sizes are static, else a 0-d variable of ``dtype``."""
    sizes = [x.type.shape[a] for a in axis]  # type: ignore[attr-defined]
    if None not in sizes:
        return functools.reduce(operator.mul, sizes, 1)
    lt = _lt()
    shape = lt.shape(x)
    terms = [s if s is not None else shape[a] for a, s in zip(axis, sizes, strict=True)]
    return lt.cast(functools.reduce(operator.mul, terms), dtype)


def _grad_sum(op: Reduce, x: Any, out: Any, g: Any) -> Any:
    return _broadcast_like(_expand(g, op, x.ndim), x)


def _grad_mean(op: Reduce, x: Any, out: Any, g: Any) -> Any:
    return _broadcast_like(_expand(g, op, x.ndim) / _reduced_size(x, op.axis, g.dtype), x)


def _exclusive_prod(x: Any, axis: tuple[int, ...]) -> Any:
    """For each element, the product of the *other* elements of its reduction block.

    Built from exclusive scans from both ends, never dividing, so zeros are exact
    (x / x would give NaN) and the result is a polynomial: its own gradient is exact
    too. Several axes: the other elements along the first axis, times the other
    blocks' products along the rest.
    """
    from lazygraph.tensor.cumulative import CumOp

    first, rest = axis[0], axis[1:]
    left = CumOp("prod", first, x.dtype, exclusive=True)(x)
    right = CumOp("prod", first, x.dtype, exclusive=True, reverse=True)(x)
    own = left * right
    if not rest:
        return own
    block = Reduce("prod", (first,), keepdims=True, dtype=x.dtype)(x)
    return own * _exclusive_prod(block, rest)


def _grad_prod(op: Reduce, x: Any, out: Any, g: Any) -> Any:
    if not op.axis:
        return _broadcast_like(g, x)
    return _expand(g, op, x.ndim) * _exclusive_prod(x, op.axis)


def _extremum_hits(op: Reduce, x: Any, out: Any) -> tuple[Any, Any]:
    """Where ``x`` equals its block's extremum, and how many elements of each
    block do (in ``x``'s dtype, reduced axes kept)."""
    hit = _lt().equal(x, _expand(out, op, x.ndim))
    return hit, sum(hit, axis=op.axis, keepdims=True, dtype=x.dtype)


def _grad_extremum(op: Reduce, x: Any, out: Any, g: Any) -> Any:
    # Tied extrema share the output gradient equally (JAX's and autograd's rule), so
    # max(stack([x, x])) has gradient 1, not 2. A NaN extremum equals no element, so
    # its block gets no gradient (JAX gives NaN there).
    hit, count = _extremum_hits(op, x, out)
    return _lt().where(hit, _expand(g, op, x.ndim) / count, 0)


def _centered(op: Reduce, x: Any) -> Any:
    return x - mean(x, axis=op.axis, keepdims=True)


def _dof(op: Reduce, x: Any) -> Any:
    return _reduced_size(x, op.axis, x.dtype) - op.correction


def _centered_conj(op: Reduce, x: Any) -> Any:
    """``x - mean(x)``, conjugated for complex ``x``: var and std sum
    ``|x - m|**2``, whose gradient (d/dre - i d/dim) is ``2 conj(x - m)``."""
    centered = _centered(op, x)
    return _lt().conj(centered) if x.type.numpy_dtype.kind == "c" else centered


def _grad_var(op: Reduce, x: Any, out: Any, g: Any) -> Any:
    # d/dx_i sum_j (x_j - m)^2 = 2 (x_i - m): the terms through m sum to zero.
    return _expand(g, op, x.ndim) * (2 * _centered_conj(op, x)) / _dof(op, x)


def _std_divisor(op: Reduce, x: Any, out: Any) -> Any:
    """``out`` (std) where each block has more than one element, else 1.

    std over one element is identically 0 (where it is finite): its derivative is
    ``centered / (dof * std)`` = 0/0, but the function is constant, so the
    gradient is 0 (autograd's convention; JAX gives NaN). Replacing that 0 by 1
    gives exactly 0 without a second branch, and keeps NaN when ``dof`` is 0
    (numpy's std is NaN then too). Zero spread over several elements is a real
    kink of a square root and stays NaN, as in JAX and autograd.
    """
    size = _reduced_size(x, op.axis, out.dtype)
    if isinstance(size, int):
        return 1 if size == 1 else out
    lt = _lt()
    return lt.where(lt.equal(size, 1), 1, out)


def _grad_std(op: Reduce, x: Any, out: Any, g: Any) -> Any:
    divisor = _std_divisor(op, x, out)
    if not isinstance(divisor, int):
        divisor = _expand(divisor, op, x.ndim)
    return _expand(g, op, x.ndim) * _centered_conj(op, x) / (_dof(op, x) * divisor)


def _softmax(op: Reduce, x: Any, out: Any) -> Any:
    return _lt().exp(x - _expand(out, op, x.ndim))


def _grad_logsumexp(op: Reduce, x: Any, out: Any, g: Any) -> Any:
    return _expand(g, op, x.ndim) * _softmax(op, x, out)


def _linear_r_op(op: Reduce, x: Any, out: Any, ev: Any) -> Any:
    return Reduce(op.kind, op.axis, op.keepdims, out.dtype, op.correction)(ev)


def _r_op_prod(op: Reduce, x: Any, out: Any, ev: Any) -> Any:
    if not op.axis:
        return _lt().cast(ev, out.dtype)
    return sum(
        _exclusive_prod(x, op.axis) * ev, axis=op.axis, keepdims=op.keepdims, dtype=out.dtype
    )


def _r_op_logsumexp(op: Reduce, x: Any, out: Any, ev: Any) -> Any:
    return sum(_softmax(op, x, out) * ev, axis=op.axis, keepdims=op.keepdims)


def _r_op_extremum(op: Reduce, x: Any, out: Any, ev: Any) -> Any:
    # The transpose of the L_op: the mean of the tied extrema's directions.
    hit, count = _extremum_hits(op, x, out)
    moved = sum(_lt().where(hit, ev, 0), axis=op.axis, keepdims=True) / count
    return moved if op.keepdims or not op.axis else _lt().squeeze(moved, op.axis)


def _r_op_var(op: Reduce, x: Any, out: Any, ev: Any) -> Any:
    moved = sum(_centered_conj(op, x) * ev, axis=op.axis, keepdims=op.keepdims)
    if x.type.numpy_dtype.kind == "c":
        moved = _lt().real(moved)  # d|w|**2 = 2 Re(conj(w) dw)
    return 2 * moved / _dof(op, x)


def _r_op_std(op: Reduce, x: Any, out: Any, ev: Any) -> Any:
    return _r_op_var(op, x, out, ev) / (2 * _std_divisor(op, x, out))


def _reduction(ufunc: np.ufunc, fn: Callable[..., Any], typed: bool) -> Callable[..., Any]:
    """``fn(x, axis=, [dtype=,] keepdims=)`` (numpy's ``sum``, ``max``, ...): for an
    ndarray the ``ufunc.reduce`` that ``fn`` calls, without its wrapper's lookups."""

    def compute(x: Any, op: Reduce) -> Any:
        dtype = op.dtype if typed else None
        if type(x) is np.ndarray:
            return ufunc.reduce(x, axis=op.axis, dtype=dtype, keepdims=op.keepdims)
        if typed:
            return fn(x, axis=op.axis, dtype=dtype, keepdims=op.keepdims)
        return fn(x, axis=op.axis, keepdims=op.keepdims)

    return compute


KINDS: dict[str, ReduceKind] = {
    kind.name: kind
    for kind in [
        ReduceKind(
            "sum",
            _reduction(np.add, np.sum, True),
            accumulates=True,
            grad=_grad_sum,
            r_op=_linear_r_op,
        ),
        ReduceKind(
            "prod",
            _reduction(np.multiply, np.prod, True),
            accumulates=True,
            grad=_grad_prod,
            r_op=_r_op_prod,
        ),
        ReduceKind(
            "max",
            _reduction(np.maximum, np.max, False),
            identity=False,
            numpy_name="maximum",
            grad=_grad_extremum,
            r_op=_r_op_extremum,
        ),
        ReduceKind(
            "min",
            _reduction(np.minimum, np.min, False),
            identity=False,
            numpy_name="minimum",
            grad=_grad_extremum,
            r_op=_r_op_extremum,
        ),
        ReduceKind("all", lambda x, op: np.all(x, axis=op.axis, keepdims=op.keepdims)),
        ReduceKind("any", lambda x, op: np.any(x, axis=op.axis, keepdims=op.keepdims)),
        ReduceKind(
            "mean",
            lambda x, op: np.mean(x, axis=op.axis, dtype=op.dtype, keepdims=op.keepdims),
            accumulates=True,
            grad=_grad_mean,
            r_op=_linear_r_op,
            ufunc_like=False,
        ),
        ReduceKind(
            "var",
            lambda x, op: np.var(
                x, axis=op.axis, dtype=op.dtype, keepdims=op.keepdims, correction=op.correction
            ),
            takes_dtype=True,
            ufunc_like=False,
            grad=_grad_var,
            r_op=_r_op_var,
        ),
        ReduceKind(
            "std",
            lambda x, op: np.std(
                x, axis=op.axis, dtype=op.dtype, keepdims=op.keepdims, correction=op.correction
            ),
            takes_dtype=True,
            ufunc_like=False,
            grad=_grad_std,
            r_op=_r_op_std,
        ),
        ReduceKind(
            "logsumexp",
            lambda x, op: np_logsumexp(x, op.axis, op.keepdims),
            real_only=True,
            grad=_grad_logsumexp,
            r_op=_r_op_logsumexp,
        ),
        ReduceKind(
            "count_nonzero",
            lambda x, op: np.count_nonzero(x, axis=op.axis, keepdims=op.keepdims),
        ),
        ReduceKind("argmax", _np_arg(np.argmax), identity=False, numpy_name="argmax"),
        ReduceKind("argmin", _np_arg(np.argmin), identity=False, numpy_name="argmin"),
    ]
}


@functools.lru_cache(maxsize=1024)
def _numpy_out_dtype(op: Reduce, in_dtype: str, ndim: int) -> str:
    """numpy's output dtype for ``op`` on ``in_dtype``, asked of numpy itself on a
    one-element array (exactly numpy's rules, with its errors), once per
    (op, dtype, rank): the probe costs ~40 µs, most of a recorded node's price."""
    key = (op, in_dtype, ndim)
    found = _OUT_DTYPES.get(key)
    if found is not None:
        return found
    probe = np.ones((1,) * ndim, dtype=in_dtype)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        result = np.asarray(KINDS[op.kind].compute(probe, op))
    if len(_OUT_DTYPES) >= 4096:
        _OUT_DTYPES.clear()
    found = _OUT_DTYPES[key] = normalize_dtype(result.dtype)
    return found


_OUT_DTYPES: dict[tuple[Any, str, int], str] = {}


class Reduce(Op):
    """Reduce ``x`` over ``axis`` (a sorted tuple of non-negative ints) with the
    table row ``kind``; ``keepdims`` keeps reduced axes as size 1. ``dtype`` is
    the accumulation dtype for sum/prod/mean (numpy's default when built by the
    public functions) and numpy's ``dtype=`` for var/std; ``correction`` is the
    var/std degrees-of-freedom correction. argmax/argmin take one axis, or all
    axes meaning numpy's ``axis=None`` (flattened index).
    """

    __props__: ClassVar[tuple[str, ...]] = ("kind", "axis", "keepdims", "dtype", "correction")
    kind: str
    axis: tuple[int, ...]
    keepdims: bool
    dtype: str | None
    correction: float

    def __init__(
        self,
        kind: str,
        axis: tuple[int, ...],
        keepdims: bool = False,
        dtype: str | None = None,
        correction: float = 0,
    ) -> None:
        if kind not in KINDS:
            raise ValueError(f"unknown reduction {kind!r}; known: {', '.join(KINDS)}")
        self.kind = kind
        self.axis = tuple(sorted(int(a) for a in axis))
        self.keepdims = bool(keepdims)
        self.dtype = None if dtype is None else normalize_dtype(dtype)
        self.correction = correction

    def __str__(self) -> str:
        extra = f", dtype={self.dtype}" if self.dtype else ""
        extra += ", keepdims" if self.keepdims else ""
        extra += f", correction={self.correction}" if self.correction else ""
        return f"Reduce{{{self.kind}, axis={self.axis}{extra}}}"

    def make_node(self, x: Any) -> Apply:
        x = as_tensor_variable(x)
        kind = KINDS[self.kind]
        shape = x.type.shape
        for a in self.axis:
            if not 0 <= a < x.ndim:
                raise np.exceptions.AxisError(a, x.ndim, self.kind)
        if kind.real_only and x.type.numpy_dtype.kind == "c":
            raise TypeError(f"{self.kind}: complex input (dtype {x.dtype}) is not supported")
        if not kind.identity and builtins.any(shape[a] == 0 for a in self.axis):
            raise ValueError(self._empty_message(shape))
        out_dtype = _numpy_out_dtype(self, x.dtype, x.ndim)
        if self.keepdims:
            out_shape = tuple(1 if i in self.axis else s for i, s in enumerate(shape))
        else:
            out_shape = tuple(s for i, s in enumerate(shape) if i not in self.axis)
        return Apply(self, [x], [TensorType(out_dtype, out_shape)()])

    def _empty_message(self, shape: Any) -> str:
        kind = KINDS[self.kind]
        if kind.name in ("argmax", "argmin"):
            what = f"attempt to get {kind.numpy_name} of an empty sequence"
        else:
            what = f"zero-size array to reduction operation {kind.numpy_name} which has no identity"
        return f"{self.kind}: {what} (input shape {shape}, axis {self.axis})"

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        (x,) = inputs
        if not KINDS[self.kind].identity and builtins.any(x.shape[a] == 0 for a in self.axis):
            raise ValueError(self._empty_message(x.shape))
        # Full reductions give numpy scalars; outputs are always arrays.
        output_storage[0][0] = np.asarray(KINDS[self.kind].compute(x, self))

    def infer_shape(self, fgraph: Any, node: Apply, input_shapes: Sequence[Any]) -> list[Any]:
        (shape,) = input_shapes
        if self.keepdims:
            dims = [1 if i in self.axis else s for i, s in enumerate(shape)]
        else:
            dims = [s for i, s in enumerate(shape) if i not in self.axis]
        static = node.outputs[0].type.shape  # type: ignore[attr-defined]
        return [tuple(d if s is None else s for d, s in zip(dims, static, strict=True))]

    def connection_pattern(self, node: Apply) -> list[list[bool]]:
        return [[KINDS[self.kind].grad is not None]]

    def L_op(
        self, inputs: Sequence[Variable], outputs: Sequence[Variable], output_grads: Sequence[Any]
    ) -> list[Variable]:
        (x,), (out,), (g,) = inputs, outputs, output_grads
        kind = KINDS[self.kind]
        if kind.grad is None or _discrete(x):
            return [_no_grad()]
        # Complex x (lazygraph.gradient.core's convention): sum, mean and prod are
        # holomorphic, their rules hold as written; var and std are real-valued.
        return [_as_dtype_of(kind.grad(self, x, out, g), x)]

    def R_op(self, inputs: Sequence[Variable], eval_points: Sequence[Any]) -> list[Any]:
        kind = KINDS[self.kind]
        (x,), (ev,) = inputs, eval_points
        if ev is None:
            return [None]
        if kind.r_op is None:
            raise NotImplementedError(f"{self} has no forward derivative (R_op)")
        out = self(x)
        return [kind.r_op(self, x, out, ev)]


def _reduce(
    kind: str,
    x: Any,
    axis: Any,
    keepdims: bool,
    dtype: Any = None,
    correction: float = 0,
) -> TensorVariable:
    x = as_tensor_variable(x)
    row = KINDS[kind]
    plain_int = isinstance(axis, int | np.integer) and not isinstance(axis, bool | np.bool_)
    if row.ufunc_like and x.ndim == 0 and plain_int and axis in (0, -1):
        axis = ()
    axes = normalize_axis(axis, x.ndim, kind)
    if dtype is not None:
        try:
            dtype = normalize_dtype(dtype)
        except TypeError as exc:
            raise TypeError(f"{kind}: {exc}") from None
    if row.accumulates:
        # Store the accumulation dtype numpy would use, so equal computations merge.
        dtype = _numpy_out_dtype(Reduce(kind, axes, keepdims, dtype), x.dtype, x.ndim)
    elif dtype is not None and not row.takes_dtype:
        raise TypeError(f"{kind}() got an unexpected keyword argument 'dtype'")
    return Reduce(kind, axes, keepdims, dtype, correction)(x)  # type: ignore[no-any-return]


# -- public reductions ----------------------------------------------------------


def sum(x: Any, axis: AxisLike = None, dtype: Any = None, keepdims: bool = False) -> TensorVariable:
    """Sum of elements over ``axis`` (numpy's ``sum``): bool and small ints
    accumulate in int64 (unsigned in uint64) unless ``dtype`` is given.

    >>> import numpy as np, lazygraph.tensor as lt
    >>> x = lt.dmatrix("x")
    >>> lt.sum(x, axis=0).eval({x: np.array([[1.0, 2.0], [3.0, 4.0]])})
    array([4., 6.])
    """
    return _reduce("sum", x, axis, keepdims, dtype)


def prod(
    x: Any, axis: AxisLike = None, dtype: Any = None, keepdims: bool = False
) -> TensorVariable:
    """Product of elements over ``axis`` (numpy's ``prod``); its gradient is exact
    where inputs are zero.

    >>> import numpy as np, lazygraph.tensor as lt
    >>> x = lt.dvector("x")
    >>> lt.prod(x).eval({x: np.array([2.0, 3.0, 4.0])})
    array(24.)
    """
    return _reduce("prod", x, axis, keepdims, dtype)


def max(x: Any, axis: AxisLike = None, keepdims: bool = False) -> TensorVariable:
    """Largest element over ``axis``; NaN if any is NaN. A zero-size reduction
    raises ``ValueError`` as in numpy.

    >>> import numpy as np, lazygraph.tensor as lt
    >>> x = lt.dmatrix("x")
    >>> lt.max(x, axis=1, keepdims=True).eval({x: np.array([[1.0, 5.0], [7.0, 2.0]])})
    array([[5.],
           [7.]])
    """
    return _reduce("max", x, axis, keepdims)


def min(x: Any, axis: AxisLike = None, keepdims: bool = False) -> TensorVariable:
    """Smallest element over ``axis``; NaN if any is NaN (numpy's ``min``).

    >>> import numpy as np, lazygraph.tensor as lt
    >>> x = lt.dvector("x")
    >>> lt.min(x).eval({x: np.array([3.0, -1.0, 2.0])})
    array(-1.)
    """
    return _reduce("min", x, axis, keepdims)


def all(x: Any, axis: AxisLike = None, keepdims: bool = False) -> TensorVariable:
    """Whether every element over ``axis`` is true (nonzero; NaN counts as true).

    >>> import numpy as np, lazygraph.tensor as lt
    >>> x = lt.dvector("x")
    >>> lt.all(x).eval({x: np.array([1.0, np.nan])})
    array(True)
    """
    return _reduce("all", x, axis, keepdims)


def any(x: Any, axis: AxisLike = None, keepdims: bool = False) -> TensorVariable:
    """Whether some element over ``axis`` is true (nonzero).

    >>> import numpy as np, lazygraph.tensor as lt
    >>> x = lt.lvector("x")
    >>> lt.any(x).eval({x: np.array([0, 0])})
    array(False)
    """
    return _reduce("any", x, axis, keepdims)


def mean(
    x: Any, axis: AxisLike = None, dtype: Any = None, keepdims: bool = False
) -> TensorVariable:
    """Arithmetic mean over ``axis``; bool and integer inputs give float64 (numpy).

    >>> import numpy as np, lazygraph.tensor as lt
    >>> x = lt.lvector("x")
    >>> m = lt.mean(x)
    >>> m.dtype, m.eval({x: np.array([1, 2])})
    ('float64', array(1.5))
    """
    return _reduce("mean", x, axis, keepdims, dtype)


def _correction(name: str, ddof: float | None, correction: float | None) -> float:
    if ddof is not None and correction is not None:
        raise ValueError(f"{name}: ddof and correction can't be provided simultaneously.")
    value = ddof if ddof is not None else correction if correction is not None else 0
    if isinstance(value, Variable):
        raise TypeError(f"{name}: the correction (ddof) must be a Python number, not a variable")
    return value


def var(
    x: Any,
    axis: AxisLike = None,
    dtype: Any = None,
    ddof: float | None = None,
    keepdims: bool = False,
    *,
    correction: float | None = None,
) -> TensorVariable:
    """Variance over ``axis``, dividing by ``N - correction`` (numpy's ``ddof``;
    the array API calls it ``correction``). Complex inputs give real results.

    >>> import numpy as np, lazygraph.tensor as lt
    >>> x = lt.dvector("x")
    >>> lt.var(x, correction=1).eval({x: np.array([1.0, 2.0, 3.0])})
    array(1.)
    """
    return _reduce("var", x, axis, keepdims, dtype, _correction("var", ddof, correction))


def std(
    x: Any,
    axis: AxisLike = None,
    dtype: Any = None,
    ddof: float | None = None,
    keepdims: bool = False,
    *,
    correction: float | None = None,
) -> TensorVariable:
    """Standard deviation over ``axis`` (the square root of :func:`var`).

    >>> import numpy as np, lazygraph.tensor as lt
    >>> x = lt.dvector("x")
    >>> lt.std(x).eval({x: np.array([1.0, 3.0])})
    array(1.)
    """
    return _reduce("std", x, axis, keepdims, dtype, _correction("std", ddof, correction))


def logsumexp(x: Any, axis: AxisLike = None, keepdims: bool = False) -> TensorVariable:
    """``log(sum(exp(x)))`` over ``axis``, computed without overflow (shifted by
    the max) and with scipy.special.logsumexp's handling of infinities: all
    ``-inf`` gives ``-inf``, any ``+inf`` gives ``+inf``, an empty reduction
    ``-inf``. Integer inputs give float64. Its gradient is the softmax.

    >>> import numpy as np, lazygraph.tensor as lt
    >>> x = lt.dvector("x")
    >>> lt.logsumexp(x).eval({x: np.array([1000.0, 1000.0])})
    array(1000.69314718)
    """
    return _reduce("logsumexp", x, axis, keepdims)


def count_nonzero(x: Any, axis: AxisLike = None, keepdims: bool = False) -> TensorVariable:
    """The number of nonzero elements over ``axis``, as int64.

    >>> import numpy as np, lazygraph.tensor as lt
    >>> x = lt.dmatrix("x")
    >>> lt.count_nonzero(x, axis=1).eval({x: np.array([[0.0, 1.0], [2.0, 3.0]])})
    array([1, 2])
    """
    return _reduce("count_nonzero", x, axis, keepdims)


def _arg_reduce(kind: str, x: Any, axis: Any, keepdims: bool) -> TensorVariable:
    x = as_tensor_variable(x)
    if axis is not None:
        try:
            axis = operator.index(axis)
        except TypeError as exc:
            raise TypeError(f"{kind}: axis must be None or an int, got {axis!r}") from exc
        if x.ndim == 0 and axis in (0, -1):
            axis = None  # numpy treats a 0-d array as 1-d here
    return _reduce(kind, x, axis, keepdims)


def argmax(x: Any, axis: int | None = None, keepdims: bool = False) -> TensorVariable:
    """Index of the largest element along ``axis`` (the first one on ties, and the
    first NaN if any); ``axis=None`` indexes the flattened array.

    >>> import numpy as np, lazygraph.tensor as lt
    >>> x = lt.dmatrix("x")
    >>> lt.argmax(x).eval({x: np.array([[1.0, 5.0], [7.0, 2.0]])})
    array(2)
    """
    return _arg_reduce("argmax", x, axis, keepdims)


def argmin(x: Any, axis: int | None = None, keepdims: bool = False) -> TensorVariable:
    """Index of the smallest element along ``axis`` (see :func:`argmax`).

    >>> import numpy as np, lazygraph.tensor as lt
    >>> x = lt.dmatrix("x")
    >>> lt.argmin(x, axis=0).eval({x: np.array([[1.0, 5.0], [7.0, 2.0]])})
    array([0, 1])
    """
    return _arg_reduce("argmin", x, axis, keepdims)
