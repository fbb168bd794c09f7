"""Advanced indexing (AdvancedSubtensor, AdvancedIncSubtensor), ``take`` and
``take_along_axis`` against numpy.

The table rows draw arrays and random advanced indices for their shapes:
integer arrays (lists or arrays, negative entries, any integer dtype) that
broadcast together, boolean masks over one or more axes, 0-d booleans, mixed
with ints, slices, ``None`` and ``...`` (so separated advanced indices move to
the front), and compare with numpy's ``x[idx]``, ``x[idx] = y``,
``x[idx] += y`` and ``np.add.at``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import lazygraph
import lazygraph.tensor as lt
from lazygraph.tensor.advanced_subtensor import (
    AdvancedIncSubtensor,
    AdvancedSubtensor,
    IncAlongAxis,
)
from tests.tensor.harness import ALL, INTS, OpCase, arrays, check_case, run, shapes
from tests.tensor.test_subtensor import (
    any_array,
    bind_case,
    lg_add_at,
    lg_getitem,
    lg_inc,
    lg_set,
    np_add_at,
    np_getitem,
    np_inc,
    np_set,
    python_scalars,
    slices,
    target_shape,
    update_values,
)

FLOATS = ("float32", "float64")

# -- strategies ---------------------------------------------------------------------


@st.composite
def int_arrays(draw: Any, n: int, shape: tuple[int, ...], oob: bool = False) -> Any:
    """An integer index array for an axis of size ``n``, as an array or a list."""
    lo, hi = (-n - 2, n + 1) if oob else (-n, n - 1)
    size = int(np.prod(shape))
    if n == 0 and not oob:
        lo, hi = 0, 0
        if size:
            shape, size = (0,), 0  # nothing indexes an empty axis
    dtype = draw(st.sampled_from(INTS))
    info = np.iinfo(dtype)
    lo, hi = max(lo, int(info.min)), min(hi, int(info.max))
    values = draw(st.lists(st.integers(lo, hi), min_size=size, max_size=size))
    arr = np.array(values, dtype=dtype).reshape(shape)
    return arr.tolist() if draw(st.booleans()) and arr.ndim else arr


@st.composite
def advanced_indices(draw: Any, shape: tuple[int, ...], oob: bool = False) -> Any:
    """A random index with at least one integer array or boolean mask (at most one
    mask; index arrays then broadcast with its count)."""
    ndim = len(shape)
    slots: list[tuple[str, int, int]] = []  # (kind, first axis, width)
    d = 0
    while d < ndim:
        kind = draw(st.sampled_from(["array", "array", "int", "slice", "full", "mask"]))
        if (kind == "int" and shape[d] == 0) or (
            kind == "mask" and any(k == "mask" for k, _, _ in slots)
        ):
            kind = "full"
        width = draw(st.integers(1, ndim - d)) if kind == "mask" else 1
        slots.append((kind, d, width))
        d += width
    items: list[Any] = [None] * len(slots)
    for pos, (kind, axis, width) in enumerate(slots):
        n = shape[axis]
        if kind == "full":
            items[pos] = slice(None)
        elif kind == "slice":
            items[pos] = draw(slices(n))
        elif kind == "int":
            items[pos] = draw(st.integers(-n, n - 1))
        elif kind == "mask":
            items[pos] = draw(arrays("bool", shape[axis : axis + width]))
    masks = [i for i in items if _is_mask(i)]
    if masks:
        count = int(np.count_nonzero(masks[0]))
        bshapes = st.sampled_from([(), (1,), (count,)])
    else:
        bshape = draw(shapes(min_dims=0, max_dims=2, max_side=3))
        bshapes = _broadcasting_to(bshape)
    for pos, (kind, axis, _) in enumerate(slots):
        if kind == "array":
            items[pos] = draw(int_arrays(shape[axis], draw(bshapes), oob))
    # An Ellipsis replaces a run (possibly empty) of full slices.
    if draw(st.booleans()):
        at = draw(st.integers(0, len(items)))
        end = at
        while end < len(items) and _is_full(items[end]) and draw(st.booleans()):
            end += 1
        items[at:end] = [Ellipsis]
    for _ in range(draw(st.integers(0, 2))):
        items.insert(draw(st.integers(0, len(items))), draw(st.sampled_from([None, True, False])))
    if not any(_is_advanced(i) for i in items):
        items.insert(draw(st.integers(0, len(items))), draw(st.booleans()))
    if len(items) == 1 and draw(st.booleans()):
        return items[0]
    return tuple(items)


@st.composite
def _broadcasting_to(draw: Any, shape: tuple[int, ...]) -> tuple[int, ...]:
    """A shape that broadcasts to ``shape`` (a suffix, with some sizes 1)."""
    k = draw(st.integers(0, len(shape)))
    return tuple(draw(st.sampled_from([1, s])) for s in shape[len(shape) - k :])


def _is_mask(item: Any) -> bool:
    return isinstance(item, np.ndarray) and item.dtype == bool


def _is_full(item: Any) -> bool:
    return isinstance(item, slice) and item == slice(None)


def _is_advanced(item: Any) -> bool:
    return isinstance(item, (list, np.ndarray, bool))


@st.composite
def take_case(draw: Any, dtypes: tuple[str, ...] = ALL) -> tuple[Any, Any]:
    (x,) = draw(any_array(dtypes))
    axis = draw(st.none() | st.integers(-x.ndim - 1, x.ndim))
    n = x.size if axis is None else (x.shape[axis] if -x.ndim <= axis < x.ndim else 1)
    if x.ndim == 0 and axis in (0, -1):
        n = 1  # numpy reads a 0-d array as 1-d here
    ishape = draw(shapes(min_dims=0, max_dims=2, max_side=3))
    oob = draw(st.integers(0, 9)) == 0
    lo, hi = (-n - 1, n) if oob else (-n, n - 1)
    if hi < lo:
        lo, hi = 0, 0
    idx = np.array(
        draw(
            st.lists(
                st.integers(lo, hi), min_size=int(np.prod(ishape)), max_size=int(np.prod(ishape))
            )
        )
    ).reshape(ishape)
    kind = draw(st.sampled_from(["array", "list", "bool", "int32"]))
    if kind == "list":
        idx = idx.tolist()
    elif kind == "bool":
        idx = (idx != 0) if n > 1 else idx.astype(bool)
    elif kind == "int32":
        idx = idx.astype("int32")
    return x, (idx, axis)


@st.composite
def take_along_axis_case(draw: Any, dtypes: tuple[str, ...] = ALL, **kw: Any) -> tuple[Any, Any]:
    (x,) = draw(any_array(dtypes, min_dims=1, **kw))
    axis = draw(st.none() | st.integers(-x.ndim, x.ndim - 1))
    if axis is None:
        n, ishape = x.size, (draw(st.integers(0, 4)),)
    else:
        n = x.shape[axis]
        # The other axes: the same size, or 1 to broadcast.
        ishape = tuple(
            draw(st.integers(0, 3)) if d == axis % x.ndim else draw(st.sampled_from([s, 1]))
            for d, s in enumerate(x.shape)
        )
    size = int(np.prod(ishape))
    if n == 0:
        at = 0 if axis is None else axis % x.ndim
        ishape, size = tuple(0 if d == at else s for d, s in enumerate(ishape)), 0
    values = draw(st.lists(st.integers(-n, max(n - 1, 0)), min_size=size, max_size=size))
    idx = np.array(values, dtype=np.int64)
    dtype = np.dtype(draw(st.sampled_from(["int64", "int32", "uint8", "int8"])))
    if dtype.kind == "u":
        idx %= max(n, 1)
    if n <= np.iinfo(dtype).max:
        idx = idx.astype(dtype)
    return x, (idx.reshape(ishape), axis)


# -- the table -------------------------------------------------------------------------
#
# As in test_subtensor: ``extra["index"](values)`` draws the index, ``extra["more"]``
# an update value, ``extra["scalar"]`` a Python scalar update.


def _with_index_input(form: str) -> tuple[Any, Any]:
    """A build / reference pair where the index array is a graph input."""
    forms = {
        "first": lambda x, i: x[i],
        "last": lambda x, i: x[..., i],
        "front": lambda x, i: x[i, :, i],
        "mask": lambda x, m: x[m],
        "mask_tail": lambda x, m: x[..., m, None],
    }
    return forms[form], forms[form]


@st.composite
def index_input_values(draw: Any, form: str) -> tuple[np.ndarray, np.ndarray]:
    min_dims = 2 if form == "front" else 1
    (x,) = draw(any_array(FLOATS, min_dims=min_dims))
    if form in ("mask", "mask_tail"):
        axis = 0 if form == "mask" else x.ndim - 1
        return x, draw(arrays("bool", (x.shape[axis],) if form == "mask_tail" else x.shape[:1]))
    axis = x.ndim - 1 if form == "last" else 0
    n = min(x.shape[axis], x.shape[-1] if form == "front" else x.shape[axis])
    ishape = draw(shapes(min_dims=0, max_dims=2, max_side=3))
    idx = draw(int_arrays(n, ishape, oob=draw(st.integers(0, 5)) == 0))
    return x, np.asarray(idx, dtype=np.int64)


TABLE = [
    OpCase(
        "getitem",
        lg_getitem,
        np_getitem,
        any_array(),
        extra={"index": lambda v: advanced_indices(v[0].shape)},
    ),
    OpCase(
        "getitem_unknown_shape",
        lg_getitem,
        np_getitem,
        any_array(FLOATS),
        static_shape=False,
        extra={"index": lambda v: advanced_indices(v[0].shape)},
    ),
    OpCase(
        "getitem_out_of_bounds",
        lg_getitem,
        np_getitem,
        any_array(FLOATS),
        extra={"index": lambda v: advanced_indices(v[0].shape, oob=True)},
    ),
    OpCase(
        "getitem_out_of_bounds_unknown_shape",
        lg_getitem,
        np_getitem,
        any_array(FLOATS),
        static_shape=False,
        extra={"index": lambda v: advanced_indices(v[0].shape, oob=True)},
    ),
    *(
        OpCase(
            f"getitem_index_input_{form}",
            *_with_index_input(form),
            index_input_values(form),
            static_shape=form != "first",
        )
        for form in ("first", "last", "front", "mask", "mask_tail")
    ),
    OpCase(
        "set_subtensor",
        lg_set,
        np_set,
        any_array(),
        signed_zeros=True,
        extra={
            "index": lambda v: advanced_indices(v[0].shape),
            "more": lambda v, i: update_values(v[0], i, None),
        },
    ),
    OpCase(
        "set_subtensor_cast",
        lg_set,
        np_set,
        any_array(),
        extra={
            "index": lambda v: advanced_indices(v[0].shape),
            "more": lambda v, i: update_values(v[0], i, ALL),
        },
    ),
    OpCase(
        "set_subtensor_python_scalar",
        lg_set,
        np_set,
        any_array(),
        extra={"index": lambda v: advanced_indices(v[0].shape), "scalar": python_scalars()},
    ),
    OpCase(
        "inc_subtensor_ignore_duplicates",
        lg_inc,
        np_inc,
        any_array(),
        extra={
            "index": lambda v: advanced_indices(v[0].shape),
            "more": lambda v, i: update_values(v[0], i, None),
        },
    ),
    OpCase(
        "inc_subtensor_ignore_duplicates_cast",
        lg_inc,
        np_inc,
        any_array(),
        extra={
            "index": lambda v: advanced_indices(v[0].shape),
            "more": lambda v, i: update_values(v[0], i, ALL),
        },
    ),
    OpCase(
        "inc_subtensor_add_at",
        lg_add_at,
        np_add_at,
        any_array(),
        extra={
            "index": lambda v: advanced_indices(v[0].shape),
            "more": lambda v, i: update_values(v[0], i, None, lead=False),
        },
    ),
    OpCase(
        "inc_subtensor_add_at_cast",
        lg_add_at,
        np_add_at,
        any_array(),
        extra={
            "index": lambda v: advanced_indices(v[0].shape),
            "more": lambda v, i: update_values(v[0], i, ALL, lead=False),
        },
    ),
    OpCase(
        "inc_subtensor_add_at_python_scalar",
        lg_add_at,
        np_add_at,
        any_array(),
        extra={"index": lambda v: advanced_indices(v[0].shape), "scalar": python_scalars()},
    ),
]


@pytest.mark.parametrize("case", TABLE, ids=[c.name for c in TABLE])
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_numpy_equivalence(case: OpCase, data: st.DataObject) -> None:
    if "index" in case.extra:
        bound, values = bind_case(case, data)
    else:
        bound, values = case, data.draw(case.inputs)
    check_case(bound, values)


def _take_row(name: str, strategy: Any, lg: Any, ref: Any, static: bool = True) -> OpCase:
    def build(x: Any, *, args: Any) -> Any:
        return lg(x, *args)

    def reference(x: np.ndarray, *, args: Any) -> Any:
        return ref(x, *args)

    return OpCase(name, build, reference, strategy, static_shape=static)


TAKE_TABLE = [
    _take_row("take", take_case(), lt.take, np.take),
    _take_row("take_unknown_shape", take_case(FLOATS), lt.take, np.take, static=False),
    _take_row("take_along_axis", take_along_axis_case(), lt.take_along_axis, np.take_along_axis),
    _take_row(
        "take_along_axis_unknown_shape",
        take_along_axis_case(FLOATS),
        lt.take_along_axis,
        np.take_along_axis,
        static=False,
    ),
]


@pytest.mark.parametrize("case", TAKE_TABLE, ids=[c.name for c in TAKE_TABLE])
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_take_numpy_equivalence(case: OpCase, data: st.DataObject) -> None:
    x, args = data.draw(case.inputs)
    bound = OpCase(
        case.name,
        lambda v: case.build(v, args=args),
        lambda v: case.reference(v, args=args),
        case.inputs,
        static_shape=case.static_shape,
    )
    check_case(bound, (x,))


def test_take_with_index_input() -> None:
    x = lt.dmatrix("x")
    i = lt.lvector("i")
    xv = np.arange(12.0).reshape(3, 4)
    out = lt.take(x, i, axis=1)
    np.testing.assert_array_equal(run([x, i], out, [xv, np.array([-1, 0])]), xv[:, [-1, 0]])
    with pytest.raises(IndexError, match="out of bounds"):
        run([x, i], out, [xv, np.array([4])])
    flat = lt.take(x, i)
    np.testing.assert_array_equal(run([x, i], flat, [xv, np.array([11, -12])]), [11.0, 0.0])
    b = lt.bvector("b")
    np.testing.assert_array_equal(
        run([x, b], lt.take(x, b > 0, axis=0), [xv, np.array([1, 0], "int8")]),
        np.take(xv, np.array([True, False]), axis=0),
    )
    with pytest.raises(TypeError, match="Cannot cast"):
        lt.take(x, lt.dvector("f"))


def test_take_along_axis_errors() -> None:
    x = lt.tensor("float64", (3, 4), "x")
    with pytest.raises(np.exceptions.AxisError):
        lt.take_along_axis(x, np.zeros((3, 2), int), 2)
    with pytest.raises(IndexError, match="integer array"):
        lt.take_along_axis(x, np.zeros((3, 2)), 1)
    with pytest.raises(ValueError, match="same number of dimensions"):
        lt.take_along_axis(x, np.zeros((2,), int), 1)
    with pytest.raises(ValueError, match="single dimension"):
        lt.take_along_axis(x, np.zeros((3, 2), int), None)
    with pytest.raises(IndexError, match="shape mismatch"):
        lt.take_along_axis(x, np.zeros((2, 2), int), 1)
    i = lt.lmatrix("i")
    out = lt.take_along_axis(lt.dmatrix("y"), i, 1)
    with pytest.raises(IndexError, match="out of bounds"):
        run([out.owner.inputs[0], i], out, [np.zeros((3, 4)), np.full((3, 1), 7)])


# -- build-time errors ------------------------------------------------------------------


def test_eager_errors() -> None:
    x = lt.tensor("float64", (3, 4), "x")
    with pytest.raises(IndexError, match="arrays used as indices must be of integer"):
        x[np.array([1.0])]
    with pytest.raises(IndexError, match="arrays used as indices must be of integer"):
        x[lt.dvector("f")]
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 0 with size 3"):
        x[[0, 3]]
    with pytest.raises(IndexError, match="index -5 is out of bounds for axis 1 with size 4"):
        x[:, np.array([[-5]])]
    with pytest.raises(IndexError, match="boolean index did not match indexed array along axis 0"):
        x[np.array([True, False])]
    with pytest.raises(IndexError, match="along axis 1; size of axis is 4"):
        x[:, lt.tensor("bool", (5,))]
    with pytest.raises(IndexError, match="shape mismatch: indexing arrays could not be broadcast"):
        x[[0, 1], [0, 1, 2]]
    with pytest.raises(IndexError, match="too many indices"):
        x[np.ones((3, 4, 1), bool)]
    with pytest.raises(IndexError, match="too many indices"):
        x[[0], [0], [0]]
    with pytest.raises(ValueError, match="could not broadcast input array"):
        lt.set_subtensor(x[[0, 1]], np.ones((3, 4)))
    with pytest.raises(ValueError, match="not broadcastable"):
        lt.inc_subtensor(x[[0, 1]], np.ones((1, 2, 4)))
    with pytest.raises(TypeError, match="same_kind"):
        lt.inc_subtensor(lt.lmatrix("m")[[0]], 1.5, ignore_duplicates=True)
    with pytest.raises(IndexError, match="list of symbolic scalars"):
        x[[lt.lscalar("i")]]


def test_static_shapes() -> None:
    x = lt.tensor("float64", (5, None, 7), "x")
    assert x[[0, 1]].type.shape == (2, None, 7)
    assert x[:, [0, 1], [[0], [1], [2]]].type.shape == (5, 3, 2)
    assert x[[0, 1], :, [[0], [1], [2]]].type.shape == (3, 2, None)  # separated: front
    assert x[0, :, [1, 2]].type.shape == (2, None)  # the int is advanced here
    assert x[:, 0, ..., [1, 2]].type.shape == (2, 5)  # "..." separates, even if empty
    assert x[np.ones((5,), bool)].type.shape == (5, None, 7)
    assert x[lt.tensor("bool", (5, None))].type.shape == (None, 7)
    assert x[True].type.shape == (1, 5, None, 7)
    assert x[..., False].type.shape == (5, None, 7, 0)
    assert x[lt.lvector("i")].type.shape == (None, None, 7)


def test_equal_indices_give_equal_ops() -> None:
    x = lt.dmatrix("x")
    i = lt.lvector("i")
    assert x[i].owner.op == x[i, :].owner.op == AdvancedSubtensor(x[i].owner.op.idx_list)
    assert x[:, i].owner.op != x[i].owner.op
    assert x[[0, 1]].owner.op == x[[2, 2]].owner.op  # the index values are (constant) inputs
    op = AdvancedIncSubtensor(x[i].owner.op.idx_list, accumulate=True, inplace=True)
    assert op.destroy_map == {0: [0]}
    assert AdvancedIncSubtensor((), set_instead_of_inc=True, accumulate=True).accumulate is False


# -- gradients -----------------------------------------------------------------------------


@st.composite
def float_advanced(draw: Any, unique: bool = False) -> tuple[np.ndarray, Any]:
    shape = draw(shapes(min_dims=1, max_dims=3, min_side=1, max_side=4))
    x = draw(arrays("float64", shape, min_value=-10, max_value=10))
    if unique:
        # Distinct positions: a permutation subset on one axis, or a mask.
        axis = draw(st.integers(0, len(shape) - 1))
        if draw(st.booleans()):
            idx: Any = draw(arrays("bool", (shape[axis],)))
        else:
            perm = draw(st.permutations(range(shape[axis])))
            idx = np.array(perm[: draw(st.integers(0, shape[axis]))], dtype=np.int64)
        return x, (slice(None),) * axis + (idx,)
    index = draw(advanced_indices(shape))
    try:
        x[index]
    except IndexError:
        assume(False)  # an index numpy rejects has no gradient to check
    return x, index


@settings(max_examples=15, deadline=None)
@given(case=float_advanced())
def test_advanced_subtensor_grad(case: tuple[np.ndarray, Any]) -> None:
    from lazygraph.gradient import verify_grad, verify_rop

    x, index = case
    verify_grad(lambda v: v[index], [x])
    verify_rop(lambda v: v[index], [x])


@settings(max_examples=15, deadline=None)
@given(data=st.data(), kind=st.sampled_from(["set", "add_at"]))
def test_advanced_update_grads(data: st.DataObject, kind: str) -> None:
    from lazygraph.gradient import verify_grad, verify_rop

    # Set's gradient assumes distinct positions (a repeated one keeps one value).
    x, index = data.draw(float_advanced(unique=kind == "set"))
    target = target_shape(x, index)
    yshape = data.draw(st.sampled_from([target, target[1:], tuple(1 for _ in target)]))
    y = data.draw(arrays("float64", yshape, min_value=-10, max_value=10))
    update = lt.set_subtensor if kind == "set" else lt.inc_subtensor

    def fn(a: Any, b: Any) -> Any:
        return update(a[index], b)

    verify_grad(fn, [x, y])
    verify_rop(fn, [x, y])


@st.composite
def take_grad_case(draw: Any) -> tuple[np.ndarray, np.ndarray, int | None]:
    shape = draw(shapes(min_dims=0, max_dims=3, min_side=1, max_side=4))
    x = draw(arrays("float64", shape, min_value=-10, max_value=10))
    axis = draw(st.none() | st.integers(-max(x.ndim, 1), max(x.ndim, 1) - 1))
    n = x.size if axis is None else (x.shape[axis] if x.ndim else 1)
    ishape = draw(shapes(min_dims=0, max_dims=2, max_side=3))
    return x, draw(arrays("int64", ishape, min_value=-n, max_value=n - 1)), axis


@settings(max_examples=15, deadline=None)
@given(case=take_grad_case())
def test_take_grad(case: tuple[np.ndarray, np.ndarray, int | None]) -> None:
    from lazygraph.gradient import verify_grad, verify_rop

    x, idx, axis = case
    verify_grad(lambda v: lt.take(v, idx, axis=axis), [x])
    verify_rop(lambda v: lt.take(v, idx, axis=axis), [x])


@settings(max_examples=15, deadline=None)
@given(case=take_along_axis_case(("float64",), min_value=-10, max_value=10))
def test_take_along_axis_grad(case: tuple[np.ndarray, Any]) -> None:
    from lazygraph.gradient import verify_grad, verify_rop

    x, (idx, axis) = case
    verify_grad(lambda v: lt.take_along_axis(v, idx, axis), [x])
    verify_rop(lambda v: lt.take_along_axis(v, idx, axis), [x])


@settings(max_examples=10, deadline=None)
@given(case=float_advanced(), data=st.data())
def test_second_order(case: tuple[np.ndarray, Any], data: st.DataObject) -> None:
    """grad of grad through AdvancedSubtensor, AdvancedIncSubtensor and take_along_axis."""
    from lazygraph.gradient import grad, verify_grad

    x, index = case
    y = data.draw(arrays("float64", target_shape(x, index), min_value=-3, max_value=3))
    order = np.argsort(x.reshape(-1))

    def first(a: Any, b: Any) -> Any:
        z = lt.inc_subtensor(a[index], b * b)
        sel = z[index]
        flat = lt.take_along_axis(z, order, None)
        return grad(lt.sum(sel * sel * b) + lt.sum(flat * flat * flat), a)

    verify_grad(first, [x, y])


# -- symbolic infer_shape -----------------------------------------------------------------


@settings(max_examples=25, deadline=None)
@given(data=st.data(), form=st.sampled_from(["i", "ij", "i_j", "mask", "mask_i", "slice_mask"]))
def test_symbolic_infer_shape(data: st.DataObject, form: str) -> None:
    """infer_shape with unknown sizes (scalar variables), index arrays and masks as
    inputs, evaluated at run time, equals numpy's shape."""
    x = data.draw(arrays("float64", data.draw(shapes(min_dims=3, max_dims=3, min_side=1))))
    n0, n1, n2 = x.shape
    bshape = data.draw(shapes(min_dims=1, max_dims=2, max_side=3))
    i = data.draw(arrays("int64", bshape, min_value=-n0, max_value=n0 - 1))
    j = data.draw(arrays("int64", bshape[-1:], min_value=0, max_value=min(n1, n2) - 1))
    m = data.draw(arrays("bool", (n0,)))
    m2 = data.draw(arrays("bool", (n1, n2)))
    xv = lt.dtensor3("x")
    iv = lt.tensor("int64", (None,) * i.ndim, "i")
    jv, mv, m2v = lt.lvector("j"), lt.tensor("bool", (None,), "m"), lt.bmatrix("m2") > 0
    forms = {
        "i": (lambda: xv[iv], lambda: x[i]),
        "ij": (lambda: xv[:, jv, jv], lambda: x[:, j, j]),
        "i_j": (lambda: xv[iv, :, jv], lambda: x[i, :, j]),
        "mask": (lambda: xv[mv], lambda: x[m]),
        "mask_i": (lambda: xv[mv, 0], lambda: x[m, 0]),
        "slice_mask": (lambda: xv[1:, m2v], lambda: x[1:, m2]),
    }
    build, expected = forms[form]
    out = build()
    node = out.owner
    sizes = {v: tuple(lt.lscalar(f"{v.name}{k}") for k in range(v.ndim)) for v in (xv, iv, jv)}
    in_shapes = [sizes.get(v, tuple(v.type.shape)) for v in node.inputs]
    if form == "slice_mask":
        in_shapes[1] = (n1, n2)  # the mask is an inner node (m2 > 0): its shape given
    shape = node.op.infer_shape(None, node, in_shapes)[0]
    shape = [lt.as_tensor_variable(s) for s in shape]
    scalars = [s for v in (xv, iv, jv) for s in sizes[v]]
    m2_in = m2v.owner.inputs[0]
    fn = lazygraph.function([*scalars, mv, m2_in], shape)
    got = fn(*x.shape, *i.shape, *j.shape, m, m2.astype("int8"))
    assert tuple(int(s) for s in got) == np.shape(expected())


@settings(max_examples=15, deadline=None)
@given(case=take_along_axis_case(("float64",), min_value=-10, max_value=10), data=st.data())
def test_inc_along_axis(case: tuple[np.ndarray, Any], data: st.DataObject) -> None:
    """IncAlongAxis (take_along_axis's gradient): np.add.at on numpy's fancy index,
    its gradient and forward derivative."""
    from lazygraph.gradient import verify_grad, verify_rop

    x, (idx, axis) = case
    taken = np.take_along_axis(x, idx, axis)
    y = data.draw(arrays("float64", taken.shape, min_value=-10, max_value=10))
    expected = x.copy()
    if axis is None:
        np.add.at(expected.reshape(-1), idx, y)
    else:
        ax = axis % x.ndim
        fancy = tuple(
            idx if d == ax else np.arange(n).reshape([-1 if k == d else 1 for k in range(x.ndim)])
            for d, n in enumerate(x.shape)
        )
        np.add.at(expected, fancy, y)
    op = IncAlongAxis(None if axis is None else axis % x.ndim)
    xv, yv = lt.tensor("float64", x.shape, "x"), lt.tensor("float64", y.shape, "y")
    np.testing.assert_allclose(run([xv, yv], op(xv, idx, yv), [x, y]), expected, rtol=1e-12)
    verify_grad(lambda a, b: op(a, idx, b), [x, y])
    verify_rop(lambda a, b: op(a, idx, b), [x, y])
