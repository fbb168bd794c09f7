"""The Numba backend against the python backend (the reference) and numpy:
random elementwise graphs, inplace outputs, integer edge cases, NaN in
reductions, the fallback warning, shape-generic kernels and the disk cache."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("numba")

from tests.tensor.harness import arrays, assert_numpy_equal

import lazygraph
import lazygraph.tensor as lt
from lazygraph.backends.numba import cache as disk
from lazygraph.backends.numba.linker import NumbaFallbackWarning
from lazygraph.compile.mode import NO_REWRITES, Mode
from lazygraph.configuration import config
from lazygraph.graph.basic import Apply, Op
from lazygraph.tensor.elemwise import Elemwise
from lazygraph.tensor.scalar.basic import scalar_op

pytestmark = pytest.mark.backend("numba")

NUMBA = Mode(backend="numba")
PYTHON = Mode(backend="python")


def both(inputs, outputs, values):
    """(numba result, python result) of the same graph."""
    got = lazygraph.function(inputs, outputs, mode=NUMBA)(*values)
    want = lazygraph.function(inputs, outputs, mode=PYTHON)(*values)
    return got, want


# -- random elementwise graphs -------------------------------------------------

UNARY = [lt.exp, lt.negative, lt.abs, lt.sqrt, lt.tanh, lt.floor, lt.sign, lt.square]
BINARY = [lt.add, lt.subtract, lt.multiply, lt.divide, lt.maximum, lt.minimum, lt.pow, lt.hypot]


@st.composite
def random_graph(draw):
    ops = draw(st.lists(st.integers(0, len(UNARY) + len(BINARY) - 1), min_size=1, max_size=6))
    return ops


@settings(max_examples=25, deadline=None)
@given(
    ops=random_graph(),
    x=arrays("float64", st.sampled_from([(), (3,), (2, 3), (0, 3)])),
    y=arrays("float64", (3,)),
)
def test_random_graphs_match_python(ops, x, y):
    xv, yv = lt.tensor("float64", (None,) * x.ndim), lt.tensor("float64", (3,))
    out = xv
    for k in ops:
        out = UNARY[k](out) if k < len(UNARY) else BINARY[k - len(UNARY)](out, yv)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        got, want = both([xv, yv], [out, lt.sum(out, axis=-1)], [x, y])
    for g, w in zip(got, want, strict=True):
        assert_numpy_equal(g, w, rtol=1e-10)


@settings(max_examples=25, deadline=None)
@given(x=arrays("int32", (4,)), y=arrays("int32", (4,)))
def test_random_int_graphs_match_python(x, y):
    xv, yv = lt.tensor("int32", (None,)), lt.tensor("int32", (None,))
    outs = [xv * yv + xv, xv // yv, xv % yv, lt.fmod(xv, yv), lt.maximum(xv, yv) - yv]
    got, want = both([xv, yv], outs, [x, y])
    for g, w in zip(got, want, strict=True):
        assert_numpy_equal(g, w)


# -- integer semantics -------------------------------------------------------------

INT_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]


@pytest.mark.parametrize("dtype", ["int8", "int64", "uint8", "uint64"])
def test_integer_division_and_overflow_as_numpy(dtype):
    info = np.iinfo(dtype)
    a = np.array([info.min, info.max, 7, 0, 1, info.max - 1], dtype=dtype)
    b = np.array([-1 if info.min < 0 else 3, 0, 0, 0, info.max, 2], dtype=dtype)
    x, y = lt.tensor(dtype, (None,)), lt.tensor(dtype, (None,))
    outs = [
        x // y,
        x % y,
        lt.fmod(x, y),
        x + y,
        x * y,
        x - y,
        -x if info.min < 0 else x,
        lt.abs(x),
        lt.square(x),
        lt.reciprocal(x),
    ]
    fn = lazygraph.function([x, y], outs, mode=NUMBA)
    got = fn(a, b)
    with np.errstate(all="ignore"):
        want = [
            a // b,
            a % b,
            np.fmod(a, b),
            a + b,
            a * b,
            a - b,
            -a if info.min < 0 else a,
            np.abs(a),
            np.square(a),
            np.reciprocal(a),
        ]
    for g, w in zip(got, want, strict=True):
        assert_numpy_equal(g, w)


@pytest.mark.parametrize("dtype", ["int8", "uint16", "int64"])
def test_shifts_and_power_as_numpy(dtype):
    bits = np.dtype(dtype).itemsize * 8
    a = np.array([1, 3, 5, 7, 2], dtype=dtype)
    s = np.array([0, 1, bits - 1, bits, bits + 3], dtype=dtype)
    x, y = lt.tensor(dtype, (None,)), lt.tensor(dtype, (None,))
    got = lazygraph.function(
        [x, y], [lt.left_shift(x, y), lt.right_shift(x, y), lt.pow(x, y)], mode=NUMBA
    )(a, s)
    want = [np.left_shift(a, s), np.right_shift(a, s), np.power(a, s)]
    for g, w in zip(got, want, strict=True):
        assert_numpy_equal(g, w)


def test_integer_negative_power_raises_value_error():
    x, y = lt.tensor("int64", (None,)), lt.tensor("int64", (None,))
    fn = lazygraph.function([x, y], x**y, mode=NUMBA)
    with pytest.raises(ValueError, match="negative integer powers"):
        fn(np.array([2, 3]), np.array([1, -1]))


@pytest.mark.parametrize("dtype", [*INT_DTYPES, "bool"])
def test_float_to_int_casts_as_numpy(dtype):
    # numpy leaves NaN, inf and values beyond int64 to the C conversion (they
    # even differ between its scalar and SIMD loops): only defined values here
    values = np.array([-1.5, 0.7, 300.0, -129.0, 70000.5, -0.0, 2.0**40 + 0.5])
    x = lt.tensor("float64", (None,))
    got = lazygraph.function([x], lt.cast(x, dtype), mode=NUMBA)(values)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        want = values.astype(dtype)
    assert_numpy_equal(got, want)


# -- floats: NaN, signed zeros ------------------------------------------------------


def test_nan_propagation_in_max_min_and_arg_reductions():
    x = lt.tensor("float64", (None, None))
    a = np.array([[1.0, np.nan, 3.0], [np.nan, -np.inf, 2.0], [0.0, -0.0, 5.0]])
    outs = [
        lt.max(x, axis=1),
        lt.min(x, axis=0),
        lt.max(x),
        lt.argmax(x, axis=1),
        lt.argmin(x, axis=0),
        lt.argmax(x),
        lt.maximum(x, 1.0),
        lt.fmin(x, 1.0),
    ]
    got = lazygraph.function([x], outs, mode=NUMBA)(a)
    want = [
        a.max(axis=1),
        a.min(axis=0),
        a.max(),
        a.argmax(axis=1),
        a.argmin(axis=0),
        a.argmax(),
        np.maximum(a, 1.0),
        np.fmin(a, 1.0),
    ]
    for g, w in zip(got, want, strict=True):
        assert_numpy_equal(g, w)


def test_float_floor_divide_and_remainder_as_numpy():
    x, y = lt.tensor("float64", (None,)), lt.tensor("float64", (None,))
    a = np.array([5.0, -5.0, 5.0, -0.0, np.inf, 1.0, 7.5, -7.5])
    b = np.array([0.0, 3.0, -3.0, 2.0, 2.0, np.inf, -2.0, 0.5])
    got = lazygraph.function([x, y], [x // y, x % y, lt.fmod(x, y)], mode=NUMBA)(a, b)
    with np.errstate(all="ignore"):
        want = [a // b, a % b, np.fmod(a, b)]
    for g, w in zip(got, want, strict=True):
        assert_numpy_equal(g, w, signed_zeros=True)


def test_empty_reduction_without_identity_raises():
    x = lt.tensor("float64", (None,))
    fn = lazygraph.function([x], lt.max(x), mode=NUMBA)
    with pytest.raises(ValueError, match="zero-size"):
        fn(np.zeros(0))


def test_broadcast_mismatch_raises_value_error():
    x, y = lt.tensor("float64", (None,)), lt.tensor("float64", (None,))
    fn = lazygraph.function([x, y], x + y, mode=NUMBA)
    with pytest.raises(ValueError, match="broadcast"):
        fn(np.zeros(3), np.zeros(4))


# -- inplace ---------------------------------------------------------------------------


def test_inplace_output_writes_into_its_input():
    x, y = lt.tensor("float64", (None,)), lt.tensor("float64", (None,))
    out = Elemwise(scalar_op("add"), {0: 0})(x, y)
    fn = lazygraph.function([x, y], out, mode=Mode(backend="numba", query=NO_REWRITES.query))
    a, b = np.arange(4.0), np.ones(4)
    result = fn.fn(a, b)[0]  # the backend callable, without input copies
    assert np.shares_memory(result, a)
    assert_numpy_equal(a, np.arange(4.0) + 1)


def test_non_contiguous_and_broadcast_inputs():
    x, y = lt.tensor("float64", (None, None)), lt.tensor("float64", (None, 1))
    a = np.arange(24.0).reshape(4, 6)[:, ::2]
    b = np.arange(4.0).reshape(4, 1)
    got, want = both([x, y], [x * y + 1, lt.transpose(x) - 2.0], [a, b])
    for g, w in zip(got, want, strict=True):
        assert_numpy_equal(g, w)


@pytest.mark.parametrize("dtype", ["int8", "float64"])
@pytest.mark.parametrize("pattern", ["same", "row", "column", "strided"])
def test_fused_loops_over_many_operands_match_python(dtype, pattern):
    """A fused elementwise node over four operands, above the flat-loop size (the
    n-d kernel): its loop is versioned at Numba's default level (plain reads when
    no operand broadcasts, the broadcasting reads otherwise); both give the
    python backend's bits, wrapping int8 included."""
    from lazygraph.backends.numba.elemwise import elemwise_source, serial_loops_versioned

    rng = np.random.default_rng(3)
    shape = (70, 90)
    vals = [(rng.random(shape) * 100 - 50).astype(dtype) for _ in range(4)]
    if pattern == "row":
        vals[2] = vals[2][:1]
    elif pattern == "column":
        vals[1] = vals[1][:, :1]
    elif pattern == "strided":
        vals[3] = np.repeat(vals[3], 2, axis=1)[:, ::2]
    xs = [lt.tensor(dtype, (None, None)) for _ in vals]
    fused = ((xs[0] + xs[1]) * xs[2] - xs[3]) * xs[0]  # one Composite once fused
    clipped = lt.clip(xs[0], xs[1], xs[2])  # one three-operand node, unfused
    got, want = both(xs, [fused, clipped], vals)
    for g, w in zip(got, want, strict=True):
        assert_numpy_equal(g, w)
    if serial_loops_versioned([2, 2, 2]):  # (not at NUMBA_OPT=0)
        assert "    plain = " in elemwise_source(clipped.owner)


@pytest.mark.parametrize("shape", [(5, 7, 3), (1, 9, 1), (4, 0, 2), (6,)])
@pytest.mark.parametrize("shift", [0, 1, -3, 20])
def test_roll_of_every_axis_matches_numpy(shape, shift):
    """The roll kernel copies two contiguous runs per outer index: every axis,
    shifts beyond the size and negative, empty axes, a 1-d array."""
    data = np.arange(int(np.prod(shape)), dtype="int16").reshape(shape)
    x = lt.tensor("int16", (None,) * len(shape))
    for axis in range(len(shape)):
        got = lazygraph.function([x], lt.roll(x, shift, axis=axis), mode=NUMBA)(data)
        np.testing.assert_array_equal(got, np.roll(data, shift, axis=axis))


# -- fallback ----------------------------------------------------------------------------


class _NoLowering(Op):
    """An Op with only a python ``perform``: no backend knows it."""

    __props__ = ()

    def make_node(self, x):
        x = lt.as_tensor_variable(x)
        return Apply(self, [x], [x.type()])

    def perform(self, node, inputs, output_storage):
        output_storage[0][0] = np.sort(inputs[0])


def test_op_without_lowering_falls_back_with_one_warning():
    from lazygraph.backends.numba import linker

    x = lt.tensor("float64", (None,))
    linker._warned.clear()
    with pytest.warns(NumbaFallbackWarning, match="_NoLowering"):
        fn = lazygraph.function([x], lt.exp(_NoLowering()(x)), mode=NUMBA)
    a = np.array([3.0, 1.0, 2.0])
    assert_numpy_equal(fn(a), np.exp(np.sort(a)))
    with warnings.catch_warnings():
        warnings.simplefilter("error", NumbaFallbackWarning)
        lazygraph.function([x], _NoLowering()(x) * 2, mode=NUMBA)


def test_on_unsupported_raise():
    x = lt.tensor("float64", (None,))
    with (
        config.change(on_unsupported="raise"),
        pytest.raises(NotImplementedError, match="_NoLowering"),
    ):
        lazygraph.function([x], _NoLowering()(x), mode=NUMBA)


# -- shape-generic kernels and caches -----------------------------------------------


@pytest.mark.parametrize("flat_below", [0, 1 << 20], ids=["exact", "flat"])
def test_new_sizes_and_static_shapes_reuse_kernels(tmp_path, flat_below):
    with config.change(cache_dir=str(tmp_path), numba_flat_max_elements=flat_below):
        disk.forget_loaded()
        x = lt.tensor("float64", (3,))
        fn = lazygraph.function([x], lt.exp(x) * 2.0 + x, mode=NUMBA)
        fn(np.zeros(3))
        modules = dict(disk._modules)
        for n in (5, 100, 0):
            x2 = lt.tensor("float64", (n,))
            f2 = lazygraph.function([x2], lt.exp(x2) * 2.0 + x2, mode=NUMBA)
            v = np.linspace(0, 1, n)
            assert_numpy_equal(f2(v), np.exp(v) * 2.0 + v)
        # no new source (same kernels, same graph function) and at most one
        # compiled signature each: sizes never reach the compiled code (with flat
        # loops, the node's exact kernel is loaded but never compiled)
        assert disk._modules == modules
        signatures = []
        for module in modules.values():
            # every cached module is a kernel or a graph function; one with
            # neither would make this check vacuous
            compiled = [getattr(module, n) for n in ("kernel", "graph") if n in vars(module)]
            assert compiled, f"module {module.__name__} has no kernel or graph function"
            signatures += [len(fn.signatures) for fn in compiled]
        assert max(signatures) == 1
    disk.forget_loaded()


def test_disk_cache_corruption_is_detected_and_recompiled(tmp_path):
    x = lt.tensor("float32", (None, None))
    expr = lambda: lt.tanh(x) * 3.0 - x  # noqa: E731
    a = np.linspace(-1, 1, 6, dtype="float32").reshape(2, 3)
    with config.change(cache_dir=str(tmp_path)):
        disk.forget_loaded()
        first = lazygraph.function([x], expr(), mode=NUMBA)(a)
        root = disk.cache_root()
        assert root is not None and root.stat().st_mode & 0o777 == 0o700
        files = [p for p in root.glob("lg_*/__pycache__/*") if p.suffix in (".nbi", ".nbc")]
        assert files
        # a fresh process: loading from the cache works silently
        disk.forget_loaded()
        with warnings.catch_warnings():
            warnings.simplefilter("error", disk.CacheWarning)
            again = lazygraph.function([x], expr(), mode=NUMBA)(a)
        assert_numpy_equal(again, first)
        # truncate one data file: a warning, a recompile, the right answer
        for p in files:
            if p.suffix == ".nbc":
                p.write_bytes(p.read_bytes()[:10])
                break
        disk.forget_loaded()
        with pytest.warns(disk.CacheWarning, match="checksum"):
            fixed = lazygraph.function([x], expr(), mode=NUMBA)(a)
        assert_numpy_equal(fixed, first)
        # a corrupted generated source is rewritten
        source = next(root.glob("lg_*/lg_*.py"))
        source.write_text("garbage(")
        disk.forget_loaded()
        with pytest.warns(disk.CacheWarning):
            lazygraph.function([x], expr(), mode=NUMBA)(a)
    disk.forget_loaded()


# -- fused elementwise-reduce --------------------------------------------------------


@pytest.mark.parametrize("kind", ["sum", "max", "min", "prod", "all", "any"])
@pytest.mark.parametrize("axis", [(1,), (0,), (0, 1)])
def test_fused_reduce_matches_python(kind, axis):
    from lazygraph.tensor.fused import FusedReduce
    from lazygraph.tensor.scalar import Composite
    from lazygraph.tensor.scalar.basic import ScalarType

    x, y = lt.tensor("float64", (None, None)), lt.tensor("float64", (None,))
    sx, sy = ScalarType("float64")(), ScalarType("float64")()
    comp = Composite([sx, sy], [scalar_op("exp")(scalar_op("subtract")(sx, sy))])
    out = FusedReduce(comp, kind, axis=axis, keepdims=(axis == (1,)))(x, y)
    a = np.array([[0.5, np.nan, -1.0], [2.0, 0.0, -0.0]])
    b = np.array([1.0, 0.0, 2.0])
    got, want = both([x, y], out, [a, b])
    assert_numpy_equal(got, want)


# -- basic indexing ----------------------------------------------------------------------


def test_subtensor_matches_python_and_checks_bounds():
    x = lt.tensor("float64", (None, None))
    i = lt.tensor("int64", ())
    a = np.arange(12.0).reshape(3, 4)
    outs = [x[1], x[-1, ::2], x[:, None, 1:3], x[..., i], x[i:, ::-1], x[2, 3]]
    got, want = both([x, i], outs, [a, np.array(1)])
    for g, w in zip(got, want, strict=True):
        assert_numpy_equal(g, w)
    fn = lazygraph.function([x, i], x[i], mode=NUMBA)
    with pytest.raises(IndexError):
        fn(a, np.array(3))
    with pytest.raises(IndexError):
        fn(a, np.array(-4))


def test_gradient_graph_matches_python():
    from lazygraph.gradient import grad

    x, w = lt.tensor("float64", (None, 3)), lt.tensor("float64", (3,))
    cost = lt.sum(lt.tanh(x * w) ** 2) + lt.max(x)
    gx, gw = grad(cost, [x, w])
    a = np.linspace(-1, 1, 12).reshape(4, 3)
    got, want = both([x, w], [cost, gx, gw], [a, np.array([0.5, -1.0, 2.0])])
    for g, v in zip(got, want, strict=True):
        assert_numpy_equal(g, v, rtol=1e-10)


def test_join_and_shape_ops_match_python():
    x, y = lt.tensor("float64", (None, 2)), lt.tensor("int32", (None, 2))
    a, b = np.arange(6.0).reshape(3, 2), np.arange(4, dtype="int32").reshape(2, 2)
    outs = [
        lt.concatenate([x, y], axis=0),
        lt.reshape(lt.transpose(x), (-1,)),
        lt.broadcast_to(lt.sum(x, axis=0), (4, 2)),
        lt.matmul(x, lt.transpose(x)),
        lt.matmul(y, lt.transpose(y)),
    ]
    got, want = both([x, y], outs, [a, b])
    for g, w in zip(got, want, strict=True):
        assert_numpy_equal(g, w)
    with pytest.raises(ValueError):
        lazygraph.function([x, y], lt.concatenate([x, y], axis=1), mode=NUMBA)(a, b)


@pytest.mark.usefixtures("perform_fallback")
def test_profile_times_every_kernel():
    """``profile=True`` on numba: one row per node of the rewritten graph (its
    kernels run one by one), a node without a lowering included; the results
    are the unprofiled function's."""
    x = lt.dmatrix("x")
    e = lt.exp(x - lt.max(x, axis=1, keepdims=True))
    outputs = [e / lt.sum(e, axis=1, keepdims=True), lt.exp(_NoLowering()(x[0]))]
    value = np.random.default_rng(2).standard_normal((30, 20))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumbaFallbackWarning)
        plain = lazygraph.function([x], outputs, mode=NUMBA)
        profiled = lazygraph.function([x], outputs, mode=NUMBA, profile=True)
        for _ in range(3):
            for got, want in zip(profiled(value), plain(value), strict=True):
                np.testing.assert_array_equal(got, want)
    stats = profiled.profile
    rows = stats.rows()
    assert stats.calls == 3 and len(rows) == len(profiled.fgraph.apply_nodes) >= 4
    assert all(r.calls == 3 and r.seconds > 0 for r in rows)
    assert sum(r.seconds for r in rows) <= stats.seconds
    table = stats.table()
    assert table.startswith("profile (numba backend): 3 calls")
    assert "_NoLowering" in table and "Reduce{max" in table
