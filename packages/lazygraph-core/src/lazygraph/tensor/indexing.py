"""Index parsing shared by basic and advanced indexing: a Python index read with
numpy's rules into hashable entries (ints, ``None``, :class:`Slice`, ``...`` and
the :data:`INPUT` placeholder), the layout of ``x[idx]``'s output dimensions, its
static shape (with numpy's build-time errors) and its symbolic shape for
``infer_shape``; and :class:`SliceLength`, the length of a symbolic slice.

>>> import lazygraph.tensor as lt
>>> x = lt.tensor("float64", (3, 4, 5), "x")
>>> parse_index(x, (0, ..., slice(None, None, -1))).entries
(0, :, ::-1)
>>> parse_index(x, ([0, 2], slice(1, None), [1, 1])).entries
($, 1:, $)
"""

from __future__ import annotations

import math
import operator
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import numpy as np

from lazygraph.graph.basic import Apply, Constant, Op, Variable
from lazygraph.tensor.type import TensorType
from lazygraph.tensor.variable import TensorVariable, as_tensor_variable

if TYPE_CHECKING:
    from lazygraph.graph.fg import FunctionGraph

__all__ = [
    "INPUT",
    "IndexEntry",
    "Layout",
    "ParsedIndex",
    "Slice",
    "SliceLength",
    "broadcast_dim",
    "broadcast_index_shapes",
    "consumed_dims",
    "count_inputs",
    "entry_vars",
    "fmt_shape",
    "index_layout",
    "numpy_index",
    "parse_index",
    "slice_length",
    "static_shape",
    "symbolic_shape",
]

#: numpy's messages, so that users (and tests) see the same text.
ONLY_VALID_MSG = (
    "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or "
    "boolean arrays are valid indices"
)
ARRAY_DTYPE_MSG = "arrays used as indices must be of integer (or boolean) type"
SLICE_BOUND_MSG = "slice indices must be integers or None or have an __index__ method"


class _Input:
    """The placeholder for an index value that is a graph input (printed ``$``)."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "$"

    def __reduce__(self) -> str:
        return "INPUT"


#: Placeholder in an index description: "the next index input of the node".
INPUT = _Input()

Bound = int | None | _Input


@dataclass(frozen=True)
class Slice:
    """A hashable slice: each part is an int, ``None`` or :data:`INPUT`."""

    start: Bound = None
    stop: Bound = None
    step: Bound = None

    def parts(self) -> tuple[Bound, Bound, Bound]:
        return (self.start, self.stop, self.step)

    def is_full(self) -> bool:
        """``:`` (a slice that selects the whole axis in order)."""
        return self.start is None and self.stop is None and self.step in (None, 1)

    def __repr__(self) -> str:
        text = ":".join("" if p is None else repr(p) for p in self.parts())
        return text[:-1] if text.endswith(":") else text


IndexEntry = Any  # int | Slice | None | _Input | EllipsisType


# -- parsing a Python index ----------------------------------------------------


def _as_variable(item: Any) -> TensorVariable | None:
    if isinstance(item, Variable):
        return as_tensor_variable(item)
    if hasattr(item, "__lazygraph_variable__"):
        return as_tensor_variable(item.__lazygraph_variable__())
    return None


def _slice_bound(b: Any, inputs: list[TensorVariable]) -> Bound:
    if b is None:
        return None
    var = _as_variable(b)
    if var is not None:
        if var.ndim != 0 or var.type.numpy_dtype.kind not in "iu":
            raise TypeError(f"{SLICE_BOUND_MSG} (got {var} of type {var.type})")
        if isinstance(var, Constant):
            return int(var.data)
        inputs.append(var)
        return INPUT
    try:
        return int(operator.index(b))
    except TypeError:
        raise TypeError(SLICE_BOUND_MSG) from None


def _index_array(item: Any) -> np.ndarray:
    """A list / tuple / array index as numpy would see it."""
    if isinstance(item, np.ndarray):
        return item
    if isinstance(item, (list, tuple)) and any(_as_variable(v) is not None for v in item):
        raise IndexError(
            "a list of symbolic scalars is not a valid index; stack them first "
            "(lazygraph.tensor.stack)"
        )
    arr = np.asarray(item)
    if arr.size == 0 and arr.dtype.kind == "f":
        # numpy reads an empty list as an empty integer index, not a float one.
        arr = arr.astype(np.intp)
    return arr


def _array_entry(arr: np.ndarray, inputs: list[TensorVariable]) -> IndexEntry:
    if arr.dtype.kind in "iu" and arr.ndim == 0:
        return int(arr)
    if arr.dtype.kind not in "iub":
        raise IndexError(ARRAY_DTYPE_MSG)
    inputs.append(as_tensor_variable(arr))
    return INPUT


def _entry(item: Any, inputs: list[TensorVariable]) -> IndexEntry:
    if item is None or item is Ellipsis:
        return item
    if isinstance(item, slice):
        parts = [_slice_bound(p, inputs) for p in (item.start, item.stop, item.step)]
        if parts[2] == 0:
            raise ValueError("slice step cannot be zero")
        return Slice(*parts)
    if isinstance(item, (bool, np.bool_)):
        # A Python bool is a 0-d boolean mask (numpy: adds an axis of size 1 or 0).
        inputs.append(as_tensor_variable(np.asarray(bool(item))))
        return INPUT
    if isinstance(item, (int, np.integer)):
        return int(item)
    var = _as_variable(item)
    if var is not None:
        kind = var.type.numpy_dtype.kind
        if kind not in "iub":
            raise IndexError(ARRAY_DTYPE_MSG if var.ndim else ONLY_VALID_MSG)
        if isinstance(var, Constant) and kind in "iu" and var.ndim == 0:
            return int(var.data)
        inputs.append(var)
        return INPUT
    if isinstance(item, (np.ndarray, list, tuple)):
        return _array_entry(_index_array(item), inputs)
    if isinstance(item, range):  # numpy reads it as the array of its integers
        return _array_entry(np.arange(item.start, item.stop, item.step), inputs)
    if hasattr(item, "__array__") and not isinstance(item, np.generic):
        # numpy reads any other array-like as an array (a pandas Index...)
        return _array_entry(_index_array(np.asarray(item)), inputs)
    if isinstance(item, (float, complex, str, bytes, np.generic)):
        raise IndexError(ONLY_VALID_MSG)
    try:
        return int(operator.index(item))
    except TypeError:
        raise IndexError(ONLY_VALID_MSG) from None


@dataclass
class ParsedIndex:
    """A Python index read into ``entries`` (see the module docstring) and the
    index ``inputs`` that fill the :data:`INPUT` placeholders, in order."""

    entries: tuple[IndexEntry, ...]
    inputs: list[TensorVariable]
    advanced: bool


def consumed_dims(entry: IndexEntry, var: TensorVariable | None) -> int:
    """How many dimensions of the indexed array an entry uses."""
    if entry is None or entry is Ellipsis:
        return 0
    if entry is INPUT and var is not None and var.dtype == "bool":
        return var.ndim
    return 1


def _has_advanced(entries: Sequence[IndexEntry], evars: Sequence[Any]) -> bool:
    """Whether any entry is an index array or a boolean mask (0-d masks included)."""
    return any(
        e is INPUT and (v.ndim > 0 or v.dtype == "bool")
        for e, v in zip(entries, evars, strict=True)
    )


def entry_vars(entries: Sequence[IndexEntry], inputs: Sequence[Variable]) -> list[Any]:
    """For each entry, the input variable it stands for (``None`` if none, or a
    slice with symbolic parts)."""
    it = iter(inputs)
    out: list[Any] = []
    for e in entries:
        if e is INPUT:
            out.append(next(it))
        else:
            if isinstance(e, Slice):
                for p in e.parts():
                    if p is INPUT:
                        next(it)
            out.append(None)
    return out


def parse_index(x: TensorVariable, index: Any) -> ParsedIndex:
    """Read a Python index for ``x`` with numpy's rules (raising numpy's errors)."""
    items = index if isinstance(index, tuple) else (index,)
    inputs: list[TensorVariable] = []
    entries = tuple(_entry(item, inputs) for item in items)
    if sum(e is Ellipsis for e in entries) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    evars = entry_vars(entries, inputs)
    used = sum(consumed_dims(e, v) for e, v in zip(entries, evars, strict=True))
    if used > x.ndim:
        raise IndexError(
            f"too many indices for array: array is {x.ndim}-dimensional, but {used} were indexed"
        )
    advanced = _has_advanced(entries, evars)
    if not advanced:
        entries = _canonical_basic(entries, x.ndim)
    elif Ellipsis not in entries:
        # Trailing ``:`` cannot move the advanced block; but an Ellipsis stays (it
        # separates advanced indices like a slice), and then so do the ``:`` after it.
        entries = _drop_trailing_full(entries)
    return ParsedIndex(entries, inputs, advanced)


def _drop_trailing_full(entries: tuple[IndexEntry, ...]) -> tuple[IndexEntry, ...]:
    out = list(entries)
    while out and isinstance(out[-1], Slice) and out[-1].is_full():
        out.pop()
    return tuple(out)


def _canonical_basic(entries: tuple[IndexEntry, ...], ndim: int) -> tuple[IndexEntry, ...]:
    """Expand the Ellipsis and drop trailing ``:`` so equal indices compare equal.

    numpy treats a full integer index (``x[1, 2]``) as scalar access and
    ``x[1, 2, ...]`` as a 0-d view; they differ in assignment, so an Ellipsis that
    turns one into the other is kept.
    """
    used = sum(e is not None and e is not Ellipsis for e in entries)
    expanded: list[IndexEntry] = []
    for e in entries:
        if e is Ellipsis:
            expanded.extend([Slice()] * (ndim - used))
        else:
            expanded.append(e)
    out = _drop_trailing_full(tuple(expanded))
    had_ellipsis = any(e is Ellipsis for e in entries)
    if had_ellipsis and all(e is INPUT or isinstance(e, int) for e in out) and len(out) == ndim:
        out = (*out, Ellipsis)
    return out


def numpy_index(entries: Sequence[IndexEntry], values: Sequence[Any], basic: bool) -> tuple:
    """The numpy index tuple for ``entries`` with the index input ``values``."""
    it = iter(values)

    def part(p: Bound) -> Any:
        return int(next(it)) if p is INPUT else p

    out: list[Any] = []
    for e in entries:
        if e is INPUT:
            v = next(it)
            out.append(int(v) if basic else v)
        elif isinstance(e, Slice):
            out.append(slice(part(e.start), part(e.stop), part(e.step)))
        else:
            out.append(e)
    return tuple(out)


def count_inputs(entries: Sequence[IndexEntry]) -> int:
    """How many index inputs ``entries`` reads."""
    n = 0
    for e in entries:
        if e is INPUT:
            n += 1
        elif isinstance(e, Slice):
            n += sum(p is INPUT for p in e.parts())
    return n


# -- the output layout, shared by make_node (static) and infer_shape (symbolic) --


@dataclass
class Layout:
    """Where each output dimension of ``x[idx]`` comes from.

    ``out`` items: ``("x", axis, parts)`` (axis of x, sliced when ``parts`` is a
    ``(start, stop, step)`` of int / None / variable), ``("new",)`` (size 1) or
    ``("adv", j)`` (dimension ``j`` of the broadcast advanced-index shape).
    ``adv`` items: ``("int", axis, value)``, ``("array", axis, var)`` or
    ``("mask", first_axis, var)``. ``ints`` are the basic integer indices
    ``(axis, value or var)``, dropped from the output.
    """

    out: list[tuple[Any, ...]]
    adv: list[tuple[Any, ...]]
    ints: list[tuple[int, Any]]
    adv_ndim: int = 0


def index_layout(ndim: int, entries: Sequence[IndexEntry], inputs: Sequence[Variable]) -> Layout:
    """The :class:`Layout` of ``x[entries]`` for an ``ndim``-d ``x`` (numpy's rules,
    including: separated advanced indices put their dimensions first)."""
    it = iter(inputs)
    evars = entry_vars(entries, inputs)
    has_adv = _has_advanced(entries, evars)
    used = sum(consumed_dims(e, v) for e, v in zip(entries, evars, strict=True))
    out: list[tuple[Any, ...]] = []
    adv: list[tuple[Any, ...]] = []
    ints: list[tuple[int, Any]] = []
    adv_positions: list[int] = []
    adv_insert = None
    axis = 0
    for pos, e in enumerate(entries):
        if e is Ellipsis:
            for _ in range(ndim - used):
                out.append(("x", axis, None))
                axis += 1
        elif e is None:
            out.append(("new",))
        elif isinstance(e, Slice):
            parts = tuple(next(it) if p is INPUT else p for p in e.parts())
            out.append(("x", axis, None if e.is_full() else parts))
            axis += 1
        else:
            value: Any = next(it) if e is INPUT else e
            if not has_adv:
                ints.append((axis, value))
                axis += 1
                continue
            if adv_insert is None:
                adv_insert = len(out)
            adv_positions.append(pos)
            if isinstance(value, int):
                adv.append(("int", axis, value))
                axis += 1
            elif value.dtype == "bool":
                adv.append(("mask", axis, value))
                axis += value.ndim
            else:
                adv.append(("array", axis, value))
                axis += 1
    while axis < ndim:
        out.append(("x", axis, None))
        axis += 1
    layout = Layout(out, adv, ints)
    if adv:
        contiguous = adv_positions == list(range(adv_positions[0], adv_positions[-1] + 1))
        layout.adv_ndim = max(
            (1 if kind == "mask" else (0 if kind == "int" else v.ndim)) for kind, _, v in adv
        )
        at = adv_insert if contiguous else 0
        layout.out[at:at] = [("adv", j) for j in range(layout.adv_ndim)]
    return layout


def fmt_shape(shape: Sequence[Any]) -> str:
    inner = ",".join("?" if s is None else str(s) for s in shape)
    return f"({inner}{',' if len(shape) == 1 else ''})"


def _check_int(value: int, axis: int, size: int | None, shape: Sequence[int | None]) -> None:
    if size is not None and not -size <= value < size:
        raise IndexError(
            f"index {value} is out of bounds for axis {axis} with size {size} "
            f"(indexing an array of shape {fmt_shape(shape)})"
        )


def _static_slice_len(n: int | None, parts: tuple[Any, ...] | None) -> int | None:
    if parts is None:
        return n
    start, stop, step = parts
    if any(isinstance(p, Variable) for p in parts):
        return None
    if start is None and stop is None and step in (None, 1, -1):
        return n
    if n is None:
        return None
    return len(range(*slice(start, stop, step).indices(n)))


def broadcast_index_shapes(shapes: Sequence[tuple[int | None, ...]]) -> tuple[int | None, ...]:
    """numpy's broadcast of index array shapes (``None``: unknown), IndexError if
    two known sizes clash."""
    nd = max((len(s) for s in shapes), default=0)
    result: list[int | None] = []
    for i in range(nd):
        sizes = [s[len(s) - nd + i] for s in shapes if len(s) - nd + i >= 0]
        known = {s for s in sizes if s is not None and s != 1}
        if len(known) > 1:
            text = " ".join(fmt_shape(s).replace(" ", "") for s in shapes)
            raise IndexError(
                "shape mismatch: indexing arrays could not be broadcast together with shapes "
                + text
            )
        if known:
            result.append(known.pop())
        elif all(s == 1 for s in sizes):
            result.append(1)
        else:
            result.append(None)
    return tuple(result)


def static_shape(x_type: TensorType, layout: Layout) -> tuple[int | None, ...]:
    """The static output shape of ``x[idx]``; raises numpy's IndexError for
    statically known out-of-bounds integers and mismatched boolean masks."""
    xs = x_type.shape
    for axis, value in layout.ints:
        if isinstance(value, int):
            _check_int(value, axis, xs[axis], xs)
    adv_shapes: list[tuple[int | None, ...]] = []
    for kind, axis, v in layout.adv:
        if kind == "int":
            _check_int(v, axis, xs[axis], xs)
            adv_shapes.append(())
        elif kind == "array":
            adv_shapes.append(v.type.shape)
        else:
            for k, m in enumerate(v.type.shape):
                n = xs[axis + k]
                if n is not None and m is not None and n != m:
                    raise IndexError(
                        f"boolean index did not match indexed array along axis {axis + k}; "
                        f"size of axis is {n} but size of corresponding boolean axis is {m}"
                    )
            count = int(np.count_nonzero(v.data)) if isinstance(v, Constant) else None
            adv_shapes.append((count,))
    bshape = broadcast_index_shapes(adv_shapes) if adv_shapes else ()
    if None not in bshape and math.prod(s or 0 for s in bshape) > 0:
        # numpy checks index arrays only when they select something.
        for kind, axis, v in layout.adv:
            if kind == "array" and isinstance(v, Constant) and xs[axis] is not None:
                bad = v.data[(v.data < -xs[axis]) | (v.data >= xs[axis])]
                if bad.size:
                    _check_int(int(bad.flat[0]), axis, xs[axis], xs)
    shape: list[int | None] = []
    for item in layout.out:
        if item[0] == "x":
            shape.append(_static_slice_len(xs[item[1]], item[2]))
        elif item[0] == "new":
            shape.append(1)
        else:
            shape.append(bshape[item[1]])
    return tuple(shape)


def _lt() -> Any:
    import lazygraph.tensor as lt

    return lt


def _int64(v: Any) -> Any:
    if isinstance(v, (int, np.integer)):
        return int(v)
    v = as_tensor_variable(v)
    return v if v.dtype == "int64" else _lt().cast(v, "int64")


def broadcast_dim(sizes: Sequence[Any]) -> Any:
    """The broadcast of sizes (ints or 0-d int64 variables) known to be compatible."""
    known = [s for s in sizes if isinstance(s, int)]
    if any(s != 1 for s in known):
        return next(s for s in known if s != 1)
    symbolic = [s for s in sizes if not isinstance(s, int)]
    if not symbolic:
        return 1
    lt = _lt()
    result = symbolic[0]
    for s in symbolic[1:]:
        # max() would be wrong for (0, 1): a size-1 dim takes the other size.
        result = lt.where(lt.equal(result, 1), s, result)
    return result


def symbolic_shape(
    x_shape: Sequence[Any], layout: Layout, shape_of: dict[Variable, Sequence[Any]]
) -> tuple[Any, ...]:
    """The output shape of ``x[idx]`` from ``x_shape`` (ints or 0-d int64
    variables) and the index inputs' shapes ``shape_of``, for ``infer_shape``."""
    adv_shapes: list[tuple[Any, ...]] = []
    for kind, _axis, v in layout.adv:
        if kind == "int":
            adv_shapes.append(())
        elif kind == "array":
            adv_shapes.append(tuple(shape_of[v]))
        elif isinstance(v, Constant):
            adv_shapes.append((int(np.count_nonzero(v.data)),))
        else:
            adv_shapes.append((_lt().sum(v, dtype="int64"),))
    nd = layout.adv_ndim
    padded = [(1,) * (nd - len(s)) + tuple(s) for s in adv_shapes]
    bshape = [broadcast_dim([s[j] for s in padded]) for j in range(nd)]
    shape: list[Any] = []
    for item in layout.out:
        if item[0] == "x":
            n = x_shape[item[1]]
            static = _static_slice_len(n if isinstance(n, int) else None, item[2])
            if static is not None:
                shape.append(static)
            elif item[2] is None or (
                item[2][0] is None and item[2][1] is None and item[2][2] in (None, 1, -1)
            ):
                shape.append(n)
            else:
                shape.append(slice_length(n, *item[2]))
        elif item[0] == "new":
            shape.append(1)
        else:
            shape.append(bshape[item[1]])
    return tuple(shape)


# -- SliceLength: len(range(n)[start:stop:step]) for symbolic shapes ----------


class SliceLength(Op):
    """``len(range(n)[start:stop:step])`` as a 0-d int64: the length of a slice
    whose bounds or axis size are symbolic (used by ``infer_shape``).

    ``spec`` is a :class:`Slice`; its :data:`INPUT` parts are inputs after ``n``.
    """

    __props__ = ("spec",)

    def __init__(self, spec: Slice) -> None:
        self.spec = spec

    def make_node(self, n: Any, *parts: Any) -> Apply:
        inputs = [as_tensor_variable(_int64(n))] + [as_tensor_variable(p) for p in parts]
        if len(parts) != count_inputs([self.spec]):
            raise TypeError(f"{self} takes {count_inputs([self.spec])} slice inputs")
        for v in inputs:
            if v.ndim != 0 or v.type.numpy_dtype.kind not in "iu":
                raise TypeError(f"SliceLength needs 0-d integer inputs, got {v.type}")
        return Apply(self, inputs, [TensorType("int64", ())()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        n, *values = inputs
        (s,) = numpy_index([self.spec], values, basic=True)
        output_storage[0][0] = np.asarray(len(range(*s.indices(int(n)))), dtype="int64")

    def infer_shape(
        self, fgraph: FunctionGraph | None, node: Apply, input_shapes: Sequence[Any]
    ) -> list[Any]:
        return [()]

    def connection_pattern(self, node: Apply) -> list[list[bool]]:
        return [[False] for _ in node.inputs]

    def L_op(self, inputs: Sequence[Variable], outputs: Any, output_grads: Any) -> list[Any]:
        from lazygraph.gradient import disconnected_type

        return [disconnected_type() for _ in inputs]


def slice_length(n: Any, start: Any = None, stop: Any = None, step: Any = None) -> Any:
    """``len(range(n)[start:stop:step])`` where any argument may be a 0-d int variable.

    >>> import lazygraph.tensor as lt
    >>> slice_length(10, 2, None, 3)
    3
    >>> slice_length(lt.lscalar("n"), None, None, -2).type
    TensorType(int64, shape=())
    """
    inputs: list[TensorVariable] = []
    spec = Slice(*(_slice_bound(p, inputs) for p in (start, stop, step)))
    if spec.step == 0:
        raise ValueError("slice step cannot be zero")
    if not isinstance(n, Variable) and not inputs:
        return len(range(*slice(spec.start, spec.stop, spec.step).indices(operator.index(n))))
    return SliceLength(spec)(n, *inputs)
