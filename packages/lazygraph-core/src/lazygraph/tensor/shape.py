"""Shape ops: reading a shape (``Shape``, ``Shape_i``), building shape vectors
(``MakeVector``) and changing it (``Reshape``, ``SpecifyShape``); broadcasting
(``Alloc``) is in :mod:`lazygraph.tensor.broadcast`.

Shapes are passed around as tuples whose entries are Python ints where the size
is known when the graph is built and 0-d int64 variables where it is not
(:func:`shape_tuple`); ops turn constant entries into static sizes of their
output types.

>>> import numpy as np
>>> import lazygraph.tensor as lt
>>> x = lt.dmatrix("x")
>>> y = lt.reshape(x, (-1,))
>>> y.type
TensorType(float64, shape=(?,))
>>> lt.reshape(lt.tensor("float64", (2, 3)), (3, -1)).type
TensorType(float64, shape=(3, 2))
>>> y.eval({x: np.arange(6.0).reshape(2, 3)})
array([0., 1., 2., 3., 4., 5.])
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np
from numpy.exceptions import AxisError
from numpy.lib.array_utils import normalize_axis_index

from lazygraph.graph.basic import Apply, Constant, Op, Variable
from lazygraph.tensor.type import TensorType
from lazygraph.tensor.variable import TensorVariable, as_tensor_variable, constant

if TYPE_CHECKING:
    from lazygraph.graph.basic import OutputStorage
    from lazygraph.graph.fg import FunctionGraph

__all__ = [
    "MakeVector",
    "Reshape",
    "Shape",
    "Shape_i",
    "SpecifyShape",
    "flatten",
    "make_vector",
    "ravel",
    "reshape",
    "shape",
    "shape_i",
    "shape_tuple",
    "specify_shape",
]

#: A size in a shape tuple: known (int) or computed at run time (0-d int variable).
ShapeEntry = int | Variable

#: Creation ops (``Alloc``, ``eye``, ``arange``...) with constant inputs fold at
#: compile time only up to this many output elements. A folded alloc becomes a
#: constant the graph stores, hashes (merge keys constants by their bytes) and
#: copies into every compiled function, and it hides the "this is just a
#: broadcast scalar" structure that later rewrites exploit; PyTensor refuses to
#: fold ``Alloc`` for the same reasons.
CONSTANT_FOLD_MAX_SIZE = 64


# -- helpers shared by the shape, join, structure and creation families ---------


def _lt() -> Any:
    # Other op families (elemwise, reductions, indexing) import this module
    # indirectly; reach them at call time.
    import lazygraph.tensor as lt

    return lt


def _gradient() -> Any:
    import lazygraph.gradient as gradient

    return gradient


def disconnected_grad() -> Variable:
    """The gradient of an input the outputs do not depend on differentiably
    (shape arguments, integer data)."""
    return _gradient().disconnected_type()


def is_disconnected(g: Any) -> bool:
    """Whether an output gradient handed to ``L_op`` is the "no gradient" marker."""
    return g is None or bool(_gradient().is_disconnected(g))


def is_discrete(x: Variable) -> bool:
    """Integer and bool variables carry no gradient."""
    return x.type.numpy_dtype.kind in "biu"  # type: ignore[attr-defined]


def constant_int(x: Any) -> int | None:
    """``x`` as a Python int when it is one at build time (an int, a numpy
    integer, or a 0-d integer constant), else ``None``."""
    if isinstance(x, (int, np.integer)):
        return int(x)
    if (
        isinstance(x, Constant)
        and getattr(x.type, "ndim", None) == 0
        and x.type.numpy_dtype.kind in "biu"  # type: ignore[attr-defined]
    ):
        return int(x.data)
    return None


def as_shape_scalar(x: Any, what: str) -> Variable:
    """A shape entry as a 0-d int64 variable: ints become constants, integer
    variables are cast; anything else is numpy's ``TypeError``."""
    if isinstance(x, (int, np.integer)):
        return constant(int(x), dtype="int64")
    if isinstance(x, (float, np.floating, complex)):
        raise TypeError(f"{what}: '{type(x).__name__}' object cannot be interpreted as an integer")
    v = as_tensor_variable(x)
    if v.ndim != 0:
        raise TypeError(f"{what}: expected a 0-d integer for a size, got {v} with {v.ndim} dims")
    if v.type.numpy_dtype.kind not in "biu":
        raise TypeError(f"{what}: sizes must be integers, got {v} of dtype {v.dtype}")
    if isinstance(v, Constant):
        return constant(int(v.data), dtype="int64")
    if v.dtype != "int64":
        v = _lt().cast(v, "int64")
    return v


def vector_entries(v: Variable) -> list[ShapeEntry | None]:
    """The entries of a 1-d integer variable of static length as far as they are
    known at build time: ints for constant entries, the 0-d variables of a
    ``MakeVector`` or a ``Shape``, ``None`` for the rest."""
    (n,) = v.type.shape  # type: ignore[attr-defined]
    if n is None:
        raise ValueError(f"{v} has no static length")
    if isinstance(v, Constant):
        return [int(e) for e in v.data]
    owner = v.owner
    if owner is not None and isinstance(owner.op, MakeVector):
        return [constant_int(e) if constant_int(e) is not None else e for e in owner.inputs]
    if owner is not None and isinstance(owner.op, Shape):
        return list(shape_tuple(owner.inputs[0]))
    return [None] * n


def vector_entry_vars(v: Variable) -> list[ShapeEntry]:
    """Like :func:`vector_entries`, with the unknown entries read by indexing."""
    entries = vector_entries(v)
    return [_lt().getitem(v, i) if e is None else e for i, e in enumerate(entries)]


def shape_entries(shape_arg: Any, what: str) -> list[Variable]:
    """Normalize a numpy ``shape`` argument (an int, a sequence of ints and 0-d
    integer variables, or a 1-d integer variable) to 0-d int64 variables."""
    if isinstance(shape_arg, Variable):
        if shape_arg.type.ndim == 0:  # type: ignore[attr-defined]
            return [as_shape_scalar(shape_arg, what)]
        if shape_arg.type.ndim != 1 or shape_arg.type.numpy_dtype.kind not in "iu":  # type: ignore[attr-defined]
            raise TypeError(f"{what}: a shape must be a 1-d integer vector, got {shape_arg.type}")
        if shape_arg.type.shape[0] is None:  # type: ignore[attr-defined]
            raise ValueError(
                f"{what}: the length of the shape vector {shape_arg} must be known when the "
                "graph is built (it is the number of dimensions)"
            )
        return [as_shape_scalar(e, what) for e in vector_entry_vars(shape_arg)]
    if isinstance(shape_arg, np.ndarray):
        shape_arg = shape_arg.tolist()
    if isinstance(shape_arg, (int, np.integer)) or not isinstance(shape_arg, (tuple, list)):
        return [as_shape_scalar(shape_arg, what)]
    return [as_shape_scalar(s, what) for s in shape_arg]


def static_sizes(entries: Sequence[Variable]) -> tuple[int | None, ...]:
    return tuple(constant_int(e) for e in entries)


def product(entries: Sequence[ShapeEntry]) -> ShapeEntry:
    """The product of ints and 0-d variables, folding the ints at build time."""
    known = math.prod(e for e in entries if isinstance(e, int))
    symbolic = [e for e in entries if not isinstance(e, int)]
    if known == 0 or not symbolic:
        return known
    out: Variable = symbolic[0]
    for e in symbolic[1:]:
        out = _lt().multiply(out, e)
    return out if known == 1 else _lt().multiply(out, known)


def fold_if_small(node: Apply) -> bool:
    """``do_constant_folding`` for creation ops: only small static outputs."""
    for out in node.outputs:
        shp = out.type.shape  # type: ignore[attr-defined]
        if any(s is None for s in shp) or math.prod(shp) > CONSTANT_FOLD_MAX_SIZE:
            return False
    return True


def normalize_axis(axis: Any, ndim: int, what: str) -> int:
    """``axis`` in ``range(ndim)``, or numpy's ``AxisError``."""
    try:
        return normalize_axis_index(operator.index(axis), ndim)
    except AxisError as exc:
        raise AxisError(f"{what}: {exc}") from None


def normalize_axes(axis: Any, ndim: int, what: str) -> tuple[int, ...]:
    """A tuple of distinct axes (``None`` is every axis); ``ValueError`` on repeats."""
    if axis is None:
        return tuple(range(ndim))
    axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    out = tuple(normalize_axis(a, ndim, what) for a in axes)
    if len(set(out)) != len(out):
        raise ValueError(f"{what}: repeated axis in {tuple(axes)}")
    return out


def shape_str(shape: Sequence[int | None]) -> str:
    inner = ", ".join("?" if s is None else str(s) for s in shape)
    return f"({inner}{',' if len(shape) == 1 else ''})"


def sum_to_shape(g: Variable, x: Variable) -> Variable:
    """Sum the gradient ``g`` of a broadcast of ``x`` back to ``x``'s shape.

    Leading dimensions and dimensions of static size 1 in ``x`` are summed with
    ``sum``. When a size of ``x`` is unknown (it may be 1 at run time while
    ``g``'s is not), the elemwise family's ``SumToShape`` decides at run time.
    """
    lt = _lt()
    if g.type.numpy_dtype.kind == "c" and x.type.numpy_dtype.kind != "c":  # type: ignore[attr-defined]
        g = lt.real(g)
    if g.type.dtype != x.type.dtype:  # type: ignore[attr-defined]
        g = lt.cast(g, x.type.dtype)  # type: ignore[attr-defined]
    lead = g.type.ndim - x.type.ndim  # type: ignore[attr-defined]
    aligned = g.type.shape[lead:]  # type: ignore[attr-defined]
    if any(xs is None and gs != 1 for xs, gs in zip(x.type.shape, aligned, strict=True)):  # type: ignore[attr-defined]
        return lt.SumToShape()(g, x)  # type: ignore[no-any-return]
    if lead:
        g = lt.sum(g, axis=tuple(range(lead)))
    ones = tuple(
        d
        for d, (xs, gs) in enumerate(zip(x.type.shape, g.type.shape, strict=True))  # type: ignore[attr-defined]
        if xs == 1 and gs != 1
    )
    if ones:
        g = lt.sum(g, axis=ones, keepdims=True)
    return specify_shape(g, x.type.shape)  # type: ignore[attr-defined]


# -- Shape, Shape_i, MakeVector ------------------------------------------------


class Shape(Op):
    """``x`` -> its shape, a 1-d int64 vector of length ``x.ndim``."""

    __props__ = ()

    def make_node(self, x: Any) -> Apply:
        x = as_tensor_variable(x)
        return Apply(self, [x], [TensorType("int64", (x.ndim,))()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: OutputStorage) -> None:
        output_storage[0][0] = np.asarray(inputs[0].shape, dtype=np.int64)

    def infer_shape(
        self, fgraph: FunctionGraph | None, node: Apply, input_shapes: Sequence[Any]
    ) -> list[Any]:
        return [(len(input_shapes[0]),)]

    def connection_pattern(self, node: Apply) -> list[list[bool]]:
        return [[False]]

    def L_op(
        self, inputs: Sequence[Variable], outputs: Sequence[Variable], output_grads: Sequence[Any]
    ) -> list[Variable]:
        return [disconnected_grad()]

    def R_op(self, inputs: Sequence[Variable], eval_points: Sequence[Any]) -> list[Any]:
        return [None]


_shape = Shape()


def shape(x: Any) -> TensorVariable:
    """The shape of ``x`` as a 1-d int64 variable (``numpy.shape``, symbolic).

    The node is built even when the static shape is fully known; constant
    folding turns it into a constant later. For a tuple of ints and 0-d
    variables use :func:`shape_tuple`.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> x = lt.dmatrix("x")
    >>> lt.shape(x).eval({x: np.zeros((2, 5))})
    array([2, 5])
    """
    return _shape(x)


class Shape_i(Op):  # noqa: N801 (Theano's name)
    """``x`` -> ``x.shape[i]`` as a 0-d int64."""

    __props__ = ("i",)

    def __init__(self, i: int) -> None:
        self.i = int(i)

    def make_node(self, x: Any) -> Apply:
        x = as_tensor_variable(x)
        if not 0 <= self.i < x.ndim:
            raise AxisError(f"Shape_i: axis {self.i} is out of bounds for {x} of type {x.type}")
        return Apply(self, [x], [TensorType("int64", ())()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: OutputStorage) -> None:
        output_storage[0][0] = np.asarray(inputs[0].shape[self.i], dtype=np.int64)

    def infer_shape(
        self, fgraph: FunctionGraph | None, node: Apply, input_shapes: Sequence[Any]
    ) -> list[Any]:
        return [()]

    def connection_pattern(self, node: Apply) -> list[list[bool]]:
        return [[False]]

    def L_op(
        self, inputs: Sequence[Variable], outputs: Sequence[Variable], output_grads: Sequence[Any]
    ) -> list[Variable]:
        return [disconnected_grad()]

    def R_op(self, inputs: Sequence[Variable], eval_points: Sequence[Any]) -> list[Any]:
        return [None]


def shape_i(x: Any, i: int) -> Variable:
    """``x.shape[i]`` as a 0-d int64: a constant when the size is static.

    >>> import lazygraph.tensor as lt
    >>> x = lt.tensor("float64", (3, None))
    >>> lt.shape_i(x, 0)
    3
    >>> lt.shape_i(x, -1).owner.op
    Shape_i{i=1}
    """
    x = as_tensor_variable(x)
    i = normalize_axis(i, x.ndim, "shape_i")
    s = x.type.shape[i]
    if s is not None:
        return constant(s, dtype="int64")
    return Shape_i(i)(x)


def shape_tuple(x: Any) -> tuple[ShapeEntry, ...]:
    """``x``'s shape as a tuple: ints where static, 0-d int64 variables elsewhere.

    >>> import lazygraph.tensor as lt
    >>> lt.shape_tuple(lt.tensor("float64", (3, None)))
    (3, Shape_i{i=1}.out)
    """
    x = as_tensor_variable(x)
    return tuple(s if s is not None else Shape_i(i)(x) for i, s in enumerate(x.type.shape))


class MakeVector(Op):
    """0-d inputs -> the 1-d vector of them, of ``dtype`` (shape vectors, mostly)."""

    __props__ = ("dtype",)

    def __init__(self, dtype: str = "int64") -> None:
        self.dtype = np.dtype(dtype).name

    def make_node(self, *inputs: Any) -> Apply:
        ins = [as_tensor_variable(x) for x in inputs]
        for x in ins:
            if x.ndim != 0:
                raise ValueError(f"MakeVector: inputs must be 0-d, got {x} of type {x.type}")
            if not np.can_cast(x.type.numpy_dtype, self.dtype, "same_kind"):
                raise TypeError(
                    f"MakeVector: cannot put {x} of dtype {x.dtype} in a {self.dtype} vector"
                )
        return Apply(self, ins, [TensorType(self.dtype, (len(ins),))()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: OutputStorage) -> None:
        output_storage[0][0] = np.array(inputs, dtype=self.dtype).reshape(len(inputs))

    def infer_shape(
        self, fgraph: FunctionGraph | None, node: Apply, input_shapes: Sequence[Any]
    ) -> list[Any]:
        return [(len(input_shapes),)]

    def L_op(
        self, inputs: Sequence[Variable], outputs: Sequence[Variable], output_grads: Sequence[Any]
    ) -> list[Variable]:
        (g,) = output_grads
        lt = _lt()
        grads = []
        for i, x in enumerate(inputs):
            if is_discrete(x) or is_disconnected(g):
                grads.append(disconnected_grad())
                continue
            gi = lt.getitem(g, i)
            if gi.dtype != x.dtype:  # type: ignore[attr-defined]
                gi = lt.cast(gi, x.dtype)  # type: ignore[attr-defined]
            grads.append(gi)
        return grads

    def R_op(self, inputs: Sequence[Variable], eval_points: Sequence[Any]) -> list[Any]:
        if all(e is None for e in eval_points):
            return [None]
        from lazygraph.tensor.creation import zeros_like

        points = [
            zeros_like(x) if e is None else e for x, e in zip(inputs, eval_points, strict=True)
        ]
        return [MakeVector(self.dtype)(*points)]


def make_vector(*entries: Any, dtype: Any = None) -> TensorVariable:
    """A 1-d vector of 0-d values (``dtype`` defaults to the one ``numpy.array``
    gives them: :func:`lazygraph.tensor.dtypes.array_dtype`).

    >>> import lazygraph.tensor as lt
    >>> n = lt.lscalar("n")
    >>> lt.make_vector(n, 3).eval({n: 2})
    array([2, 3])
    """
    from lazygraph.tensor.dtypes import array_dtype

    if dtype is None:
        dtype = array_dtype(*entries) if entries else "float64"
    return MakeVector(np.dtype(dtype).name)(*entries)


# -- Reshape -------------------------------------------------------------------


def _reshape_static(
    in_shape: Sequence[int | None], target: Sequence[int | None], what: str
) -> tuple[int | None, ...]:
    """Reshape's output static shape (``None`` target entries are run-time
    values); numpy's ``ValueError`` when no run-time values could make it work."""
    unknown = [i for i, s in enumerate(target) if s is not None and s < 0]
    if len(unknown) > 1:
        raise ValueError(f"{what}: can only specify one unknown dimension")
    out = [None if s is not None and s < 0 else s for s in target]
    free = [i for i, s in enumerate(out) if s is None]
    known = math.prod(s for s in out if s is not None)
    size = None if any(s is None for s in in_shape) else math.prod(in_shape)  # type: ignore[arg-type]

    def mismatch() -> ValueError:
        return ValueError(
            f"{what}: cannot reshape array of size {'?' if size is None else size} into "
            f"shape {shape_str(target)}"
        )

    # numpy's rule: a -1 next to a zero size is always an error (0 * ? is ambiguous).
    if unknown and known == 0:
        raise mismatch()
    if size is None:
        return tuple(out)
    if not free:
        if known != size:
            raise mismatch()
    elif known == 0:
        if size != 0:
            raise mismatch()
    elif size % known:
        raise mismatch()
    elif len(free) == 1:
        # The one size not given (-1, or a variable) can only be this.
        out[free[0]] = size // known
    return tuple(out)


class Reshape(Op):
    """``(x, shape)`` -> ``numpy.reshape(x, shape)``; ``shape`` is a 1-d int64
    vector of length ``ndim`` where one entry may be -1 (any negative, as in numpy).

    The output may be a view of ``x`` (``view_map``).
    """

    __props__ = ("ndim",)
    view_map = {0: [0]}  # noqa: RUF012

    def __init__(self, ndim: int) -> None:
        self.ndim = int(ndim)

    def make_node(self, x: Any, shp: Any) -> Apply:
        x = as_tensor_variable(x)
        shp = as_tensor_variable(shp)
        if shp.type.ndim != 1 or shp.type.numpy_dtype.kind not in "iu":
            raise TypeError(f"Reshape: the shape must be a 1-d integer vector, got {shp.type}")
        if shp.type.shape[0] != self.ndim:
            raise ValueError(f"Reshape: a shape vector of length {self.ndim} is needed, got {shp}")
        target = [e if isinstance(e, int) else None for e in vector_entries(shp)]
        out_shape = _reshape_static(x.type.shape, target, "Reshape")
        return Apply(self, [x, shp], [TensorType(x.dtype, out_shape)()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: OutputStorage) -> None:
        x, shp = inputs
        # (tolist: Python ints at once, where int() of each element costs a call)
        output_storage[0][0] = np.reshape(x, np.asarray(shp).tolist())

    def infer_shape(
        self, fgraph: FunctionGraph | None, node: Apply, input_shapes: Sequence[Any]
    ) -> list[Any]:
        static = node.outputs[0].type.shape  # type: ignore[attr-defined]
        if all(s is not None for s in static):
            return [static]
        lt = _lt()
        entries = vector_entry_vars(node.inputs[1])
        # An entry is -1 at run time or the size itself; replacing -1 by 1 in the
        # product of the others gives the -1 entry as size // product.
        safe = [
            e if isinstance(e, int) and e >= 0 else (1 if isinstance(e, int) else None)
            for e in entries
        ]
        safe_vars = [
            s if s is not None else lt.where(lt.less(e, 0), 1, e)
            for s, e in zip(safe, entries, strict=True)
        ]
        size = product(list(input_shapes[0]))
        out: list[Any] = []
        for i, (s, e) in enumerate(zip(static, entries, strict=True)):
            if s is not None:
                out.append(s)
                continue
            others = product([v for j, v in enumerate(safe_vars) if j != i])
            inferred = lt.floor_divide(size, lt.maximum(others, 1))
            if isinstance(e, int):  # a literal -1
                out.append(inferred)
            else:
                out.append(lt.where(lt.less(e, 0), inferred, e))
        return [tuple(out)]

    def connection_pattern(self, node: Apply) -> list[list[bool]]:
        return [[True], [False]]

    def L_op(
        self, inputs: Sequence[Variable], outputs: Sequence[Variable], output_grads: Sequence[Any]
    ) -> list[Variable]:
        x, _ = inputs
        (g,) = output_grads
        if is_discrete(x) or is_disconnected(g):
            return [disconnected_grad(), disconnected_grad()]
        return [reshape(g, shape_tuple(x)), disconnected_grad()]

    def R_op(self, inputs: Sequence[Variable], eval_points: Sequence[Any]) -> list[Any]:
        if eval_points[0] is None:
            return [None]
        return [Reshape(self.ndim)(eval_points[0], inputs[1])]


def reshape(x: Any, shape: Any, order: str = "C") -> TensorVariable:
    """``numpy.reshape``: ``shape`` is an int, a tuple of ints and 0-d integer
    variables, or a 1-d integer vector of static length; one entry may be -1.

    A size mismatch known at build time raises numpy's ``ValueError``.

    >>> import lazygraph.tensor as lt
    >>> x = lt.tensor("float64", (2, 3))
    >>> lt.reshape(x, (3, -1)).type.shape
    (3, 2)
    >>> lt.reshape(x, 4)
    Traceback (most recent call last):
    ...
    ValueError: Reshape: cannot reshape array of size 6 into shape (4,)
    """
    x = as_tensor_variable(x)
    if order not in ("C", "F", "A"):
        raise ValueError("order must be one of 'C', 'F', 'A'")
    entries = shape_entries(shape, "reshape")
    if order == "F":
        # Fortran order: reverse the axes on the way in and on the way out.
        lt = _lt()
        flipped = reshape(lt.transpose(x), entries[::-1])
        return lt.transpose(flipped)
    if all(isinstance(e, Constant) for e in entries):
        shp: Variable = constant(
            np.array([int(e.data) for e in entries], dtype=np.int64)  # type: ignore[attr-defined]
        )
    else:
        shp = MakeVector("int64")(*entries)
    if isinstance(shp, Constant) and tuple(int(s) for s in shp.data) == x.type.shape:
        return x  # already that shape
    return Reshape(len(entries))(x, shp)


def ravel(x: Any) -> TensorVariable:
    """``numpy.ravel``: ``x`` as a 1-d vector (C order).

    >>> import lazygraph.tensor as lt
    >>> lt.ravel(lt.tensor("float64", (2, 3))).type.shape
    (6,)
    """
    return reshape(x, (-1,))


def flatten(x: Any, ndim: int = 1) -> TensorVariable:
    """Theano's ``flatten``: keep the first ``ndim - 1`` axes, merge the rest.

    >>> import lazygraph.tensor as lt
    >>> lt.flatten(lt.tensor("float64", (2, 3, 4)), ndim=2).type.shape
    (2, 12)
    """
    x = as_tensor_variable(x)
    if not 1 <= ndim <= max(x.ndim, 1):
        raise ValueError(f"flatten: ndim must be in [1, {max(x.ndim, 1)}], got {ndim}")
    return reshape(x, (*shape_tuple(x)[: ndim - 1], -1))


# -- SpecifyShape --------------------------------------------------------------


class SpecifyShape(Op):
    """``(x, *sizes)`` -> ``x``, checking at run time that ``x.shape[d]`` equals
    the size given for each dimension ``d`` with ``given[d]`` (others unchecked).
    The output type carries the constant sizes as static shape.
    """

    __props__ = ("given",)
    view_map = {0: [0]}  # noqa: RUF012

    def __init__(self, given: Sequence[bool]) -> None:
        self.given = tuple(bool(g) for g in given)

    def make_node(self, x: Any, *sizes: Any) -> Apply:
        x = as_tensor_variable(x)
        if len(self.given) != x.ndim:
            raise ValueError(
                f"SpecifyShape: {len(self.given)} sizes given for {x} with {x.ndim} dimensions"
            )
        if len(sizes) != sum(self.given):
            raise ValueError(f"SpecifyShape: expected {sum(self.given)} sizes, got {len(sizes)}")
        size_vars = [as_shape_scalar(s, "specify_shape") for s in sizes]
        it = iter(size_vars)
        out_shape = []
        for d, (g, s) in enumerate(zip(self.given, x.type.shape, strict=True)):
            want = constant_int(next(it)) if g else None
            if want is not None and s is not None and want != s:
                raise ValueError(
                    f"SpecifyShape: {x} has static shape {shape_str(x.type.shape)}, "
                    f"not {want} in dimension {d}"
                )
            out_shape.append(s if want is None else want)
        return Apply(self, [x, *size_vars], [x.type.clone(shape=out_shape)()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: OutputStorage) -> None:
        x, *sizes = inputs
        it = iter(sizes)
        for d, g in enumerate(self.given):
            if g:
                want = int(next(it))
                if x.shape[d] != want:
                    raise ValueError(
                        f"SpecifyShape: expected size {want} in dimension {d}, got an array "
                        f"of shape {x.shape}"
                    )
        output_storage[0][0] = x

    def infer_shape(
        self, fgraph: FunctionGraph | None, node: Apply, input_shapes: Sequence[Any]
    ) -> list[Any]:
        static = node.outputs[0].type.shape  # type: ignore[attr-defined]
        sizes = iter(node.inputs[1:])
        out = []
        for s, g, inferred in zip(static, self.given, input_shapes[0], strict=True):
            size = next(sizes) if g else None
            out.append(s if s is not None else (size if size is not None else inferred))
        return [tuple(out)]

    def connection_pattern(self, node: Apply) -> list[list[bool]]:
        return [[True]] + [[False]] * (len(node.inputs) - 1)

    def L_op(
        self, inputs: Sequence[Variable], outputs: Sequence[Variable], output_grads: Sequence[Any]
    ) -> list[Variable]:
        x, *sizes = inputs
        (g,) = output_grads
        no_grad = [disconnected_grad() for _ in sizes]
        if is_discrete(x) or is_disconnected(g):
            return [disconnected_grad(), *no_grad]
        return [SpecifyShape(self.given)(g, *sizes), *no_grad]

    def R_op(self, inputs: Sequence[Variable], eval_points: Sequence[Any]) -> list[Any]:
        if eval_points[0] is None:
            return [None]
        return [SpecifyShape(self.given)(eval_points[0], *inputs[1:])]


def specify_shape(x: Any, shape: Sequence[Any]) -> TensorVariable:
    """``x``, asserted at run time to have ``shape`` (``None`` entries unchecked);
    the result's static shape holds the constant entries.

    >>> import lazygraph.tensor as lt
    >>> lt.specify_shape(lt.dmatrix("x"), (None, 3)).type
    TensorType(float64, shape=(?, 3))
    """
    x = as_tensor_variable(x)
    shape = tuple(shape)
    if len(shape) != x.ndim:
        raise ValueError(f"specify_shape: {len(shape)} sizes given for {x} with {x.ndim} dims")
    given = [s is not None for s in shape]
    sizes = [s for s in shape if s is not None]
    # Nothing to check or learn: the sizes are already static and equal.
    if all(
        s is None or (constant_int(s) is not None and constant_int(s) == t)
        for s, t in zip(shape, x.type.shape, strict=True)
    ):
        return x
    return SpecifyShape(given)(x, *sizes)
