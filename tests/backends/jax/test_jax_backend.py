"""The JAX backend against the python backend (the reference) and numpy:
random graphs, float64 kept, integer semantics, host-run nodes with
data-dependent shapes, bounds checks, the compile cache, sharding on 4
simulated CPU devices, and GPU runs where a GPU is present."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("jax")

from tests.tensor.harness import arrays, assert_numpy_equal, flush_subnormals

import lazygraph
import lazygraph.tensor as lt
from lazygraph.backends.jax import backend
from lazygraph.compile.mode import Mode
from lazygraph.graph.fg import FunctionGraph

JAX = Mode(backend="jax")
PYTHON = Mode(backend="python")


def both(inputs, outputs, values):
    """(jax result, python result) of the same graph."""
    got = lazygraph.function(inputs, outputs, mode=JAX)(*values)
    want = lazygraph.function(inputs, outputs, mode=PYTHON)(*values)
    return got, want


# -- random graphs ---------------------------------------------------------------

# exp and sin see bounded arguments: a chain like exp(exp(exp(exp(x)))) then sin
# takes the sine of ~4e6 in float32, where one ulp of exp's result (last-bit
# differences between XLA's and numpy's exp) moves the sine anywhere in [-1, 1].
UNARY = [
    lambda v: lt.exp(lt.minimum(v, 3.0)),
    lt.negative,
    lt.abs,
    lt.tanh,
    lt.floor,
    lt.sign,
    lt.square,
    lambda v: lt.sin(lt.clip(v, -100.0, 100.0)),
]
BINARY = [lt.add, lt.subtract, lt.multiply, lt.divide, lt.maximum, lt.minimum, lt.hypot]
REDUCE = [lt.sum, lt.max, lt.mean, lt.prod]


@settings(max_examples=30, deadline=None)
@given(
    ops=st.lists(
        st.integers(0, len(UNARY) + len(BINARY) + len(REDUCE) - 1), min_size=1, max_size=6
    ),
    data=st.data(),
)
def test_random_graphs_match_python(ops, data):
    dtype = data.draw(st.sampled_from(["float32", "float64"]))
    x_val = data.draw(arrays(dtype, (3, 4), finite=True, min_value=-3, max_value=3))
    y_val = data.draw(arrays(dtype, (4,), finite=True, min_value=-3, max_value=3))
    # XLA on the CPU flushes subnormals to zero (documented in docs/backends-jax.md)
    x_val, y_val = flush_subnormals([x_val, y_val])
    x, y = lt.tensor(dtype, (3, 4), name="x"), lt.tensor(dtype, (4,), name="y")
    out = x
    for k in ops:
        if k < len(UNARY):
            out = UNARY[k](out)
        elif k < len(UNARY) + len(BINARY):
            out = BINARY[k - len(UNARY)](out, y)
        elif out.ndim == 2:
            out = REDUCE[k - len(UNARY) - len(BINARY)](out, axis=0)
    got, want = both([x, y], [out], [x_val, y_val])
    rtol = 1e-4 if dtype == "float32" else 1e-10
    assert_numpy_equal(got[0], want[0], rtol=rtol, atol=1e-30)


def test_float64_stays_float64_without_global_x64():
    import jax

    assert not jax.config.jax_enable_x64
    x = lt.dvector("x")
    f = lazygraph.function([x], lt.exp(x) + 1e-300, mode=JAX)
    v = np.array([-700.0, 0.0, 1.0])
    got = f(v)
    assert got.dtype == np.float64
    assert_numpy_equal(got, np.exp(v) + 1e-300)
    assert not jax.config.jax_enable_x64  # the user's setting is untouched
    n = lt.lscalar("n")
    g = lazygraph.function([n], n * 2**40, mode=JAX)
    assert g(np.int64(3)) == 3 * 2**40


# -- integers follow numpy, not XLA ---------------------------------------------

INT_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint32", "uint64"]


@settings(max_examples=25, deadline=None)
@given(dtype=st.sampled_from(INT_DTYPES), data=st.data())
def test_integer_semantics(dtype, data):
    a = data.draw(arrays(dtype, (6,)))
    b = data.draw(arrays(dtype, (6,)))
    b[0] = 0  # division by zero is 0 in numpy
    if np.dtype(dtype).kind == "i":
        a[1], b[1] = np.iinfo(dtype).min, -1  # MIN // -1 wraps
    x, y = lt.tensor(dtype, (6,), name="x"), lt.tensor(dtype, (6,), name="y")
    s = lt.tensor(dtype, (6,), name="s")
    shifts = np.array([0, 1, 3, 7, 8, 65], dtype="int64").astype(dtype)
    outs = [
        lt.floor_divide(x, y),
        lt.remainder(x, y),
        lt.fmod(x, y),
        lt.add(x, y),
        lt.multiply(x, y),
        lt.subtract(x, y),
        lt.left_shift(x, s),
        lt.right_shift(x, s),
        lt.pow(x, lt.abs(y) % 5),
        lt.sum(x),
    ]
    got = lazygraph.function([x, y, s], outs, mode=JAX)(a, b, shifts)
    with np.errstate(all="ignore"):
        expected = [
            np.floor_divide(a, b),
            np.remainder(a, b),
            np.fmod(a, b),
            a + b,
            a * b,
            a - b,
            np.left_shift(a, shifts),
            np.right_shift(a, shifts),
            np.power(a, np.abs(b) % 5),
            np.sum(a),
        ]
    for g, e in zip(got, expected, strict=True):
        assert_numpy_equal(g, e)


def test_negative_integer_power_raises_like_numpy():
    x = lt.lvector("x")
    f = lazygraph.function([x], lt.pow(x, x), mode=JAX)
    with pytest.raises(ValueError, match="negative integer powers"):
        f(np.array([2, -1]))
    np.testing.assert_array_equal(f(np.array([2, 3])), [4, 27])
    b = lt.tensor("bool", (None,))
    g = lazygraph.function([b], lt.pow(b, np.int64(-1)), mode=JAX)
    assert g(np.array([], dtype=bool)).shape == (0,)  # nothing to raise about


SPECIAL_FLOATS = [0.0, -0.0, 0.5, -1.0, -5.5, 2.0**31, 4.294968e9, 2.0**63, -(2.0**63), 9.3e18]
SPECIAL_FLOATS += [1e19, 2.0**64, 3e19, np.nan, np.inf, -np.inf, 1e-45, -1e-40]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_float_to_uint64_cast_follows_numpy(dtype):
    # x86's unsigned conversion, as numpy does it: not XLA's saturation
    values = np.array(SPECIAL_FLOATS, dtype=dtype)
    x = lt.tensor(dtype, (None,))
    got = lazygraph.function([x], lt.cast(x, "uint64"), mode=JAX)(values)
    with np.errstate(invalid="ignore"):
        np.testing.assert_array_equal(got, values.astype(np.uint64))


def test_bool_factor_keeps_negative_zero():
    # XLA turns y * convert(pred) into select(pred, y, 0), losing -0.0 * False == -0.0
    x, b = lt.tensor("float32", (None,)), lt.tensor("bool", (None,))
    f = lazygraph.function([x, b], lt.multiply(x, b), mode=JAX)
    xv = np.array([-0.0, -2.0, 3.0, -0.0], dtype=np.float32)
    bv = np.array([False, False, True, True])
    got = f(xv, bv)
    np.testing.assert_array_equal(got, xv * bv)
    np.testing.assert_array_equal(np.signbit(got), np.signbit(xv * bv))


def test_float32_subnormals_survive_widening():
    # float32 subnormals are normal float64 numbers: widening keeps them although
    # XLA on the CPU reads float32 subnormals as zero
    x, y = lt.tensor("float32", (None,)), lt.tensor("float64", (None,))
    f = lazygraph.function([x, y], [x * y, lt.cast(x, "float64")], mode=JAX)
    xv = np.array(SPECIAL_FLOATS, dtype=np.float32)
    yv = np.linspace(-2.0, 3.0, xv.size)
    got = f(xv, yv)
    for g, e in zip(got, [xv * yv, xv.astype(np.float64)], strict=True):
        np.testing.assert_array_equal(g, e)
        np.testing.assert_array_equal(np.signbit(g), np.signbit(e))


# -- nodes outside jit, checks after the call -------------------------------------


def test_data_dependent_shapes_run_on_host():
    x = lt.dvector("x")
    nz = lt.nonzero(x > 0)[0]
    uniq = lt.unique_values(x)
    masked = x[x > 0]
    out = [lt.exp(masked) * 2, nz + 1, uniq, lt.sum(x[nz])]
    v = np.array([1.0, -1.0, 2.0, 1.0, 0.0])
    got, want = both([x], out, [v])
    for g, w in zip(got, want, strict=True):
        assert_numpy_equal(g, w)
    program = lazygraph.function([x], out, mode=JAX).fn
    assert len(program.segments) >= 2  # a jitted segment after the host nodes


def test_out_of_bounds_index_raises_index_error():
    x, i = lt.dvector("x"), lt.lvector("i")
    f = lazygraph.function([x, i], x[i], mode=JAX)
    np.testing.assert_array_equal(f(np.arange(3.0), np.array([-3, 2])), [0.0, 2.0])
    with pytest.raises(IndexError):
        f(np.arange(3.0), np.array([3]))
    g = lazygraph.function([x, i], lt.take(x, i), mode=JAX)
    with pytest.raises(IndexError):
        g(np.arange(3.0), np.array([-4]))


def test_singular_matrix_raises_linalg_error():
    a = lt.dmatrix("a")
    f = lazygraph.function([a], lt.linalg.inv(a), mode=JAX)
    assert_numpy_equal(f(np.eye(2) * 4), np.eye(2) / 4)
    with pytest.raises(np.linalg.LinAlgError):
        f(np.ones((2, 2)))


def test_results_are_writable_numpy_arrays():
    x = lt.dvector("x")
    out = lazygraph.function([x], [x * 2, x], mode=JAX)(np.ones(3))
    for r in out:
        assert isinstance(r, np.ndarray) and r.flags.writeable
        r[0] = 5.0


def test_device_arrays_on_request():
    import jax

    x = lt.dvector("x")
    fn = backend.compile(FunctionGraph([x], [x + 1]), device_arrays=True)
    (out,) = fn(np.zeros(2))
    assert isinstance(out, jax.Array)
    assert out.dtype == np.float64


def test_fusion_and_inplace_are_skipped():
    x = lt.dvector("x")
    f = lazygraph.function([x], lt.exp(x) * 2 + 1, mode=JAX)
    ops = [type(n.op).__name__ for n in f.fgraph.toposort()]
    assert all(getattr(n.op, "inplace_pattern", ()) == () for n in f.fgraph.toposort()), ops
    names = [str(n.op) for n in f.fgraph.toposort()]
    assert not any("Composite" in s for s in names), names


def test_programs_are_shared_between_equal_structures():
    # core's one program cache, keyed with the backend's program_key
    backend.clear_cache()

    def build(options=None):
        x = lt.dvector("x")
        return lazygraph.function([x], lt.exp(x) * 3.0, mode="jax", compile_options=options)

    p1, p2 = build(), build()
    assert p1.fn is p2.fn
    np.testing.assert_allclose(p2(np.zeros(2)), [3.0, 3.0])
    assert build({"device_arrays": True}).fn is not p1.fn  # another program_key
    with lazygraph.config.change(on_unsupported="raise"):
        assert build().fn is not p1.fn
    backend.clear_cache()
    assert build().fn is not p1.fn


def test_small_elementwise_calls_share_one_flat_program():
    # graphs differing only in static shapes share the padded 1-d program (a
    # 0-d input is part of the key: numpy's power has 0-d-exponent shortcuts)
    programs, rng = [], np.random.default_rng(3)
    for shape in [(0,), (3, 1), (2, 2, 3), (1, 5), (4,)]:
        x, y = lt.tensor("float64", shape), lt.tensor("int32", shape[-1:])
        p = backend.compile(FunctionGraph([x, y], [lt.hypot(lt.sin(x), y), x * -1.0]))
        xv = rng.standard_normal(shape)
        yv = rng.integers(-9, 9, size=shape[-1:]).astype(np.int32)
        got = p(xv, yv)
        np.testing.assert_allclose(got[0], np.hypot(np.sin(xv), yv), rtol=1e-12)
        np.testing.assert_array_equal(got[1], xv * -1.0)
        assert got[0].shape == np.broadcast_shapes(shape, shape[-1:])
        programs.append(p.segments[0].flat_jitted)
    assert all(p is not None and p[0] is programs[0][0] for p in programs)


class _Raising:
    """A jitted program whose every call raises ``exc``."""

    def __init__(self, exc: BaseException) -> None:
        self.exc = exc

    def __call__(self, *args):
        raise self.exc


@pytest.mark.parametrize("flat", [False, True])
@pytest.mark.parametrize("how", ["interrupted", "poisoned"])
def test_a_program_jax_left_half_made_is_made_again(flat, how):
    # A Ctrl-C while jax traces can leave an entry of its caches half made:
    # every later call reaching it fails with "RecursionError: Recursively
    # calling". A program an interrupt went through is never called again, and
    # one found in that state is made again (from a cleared jax cache).
    from lazygraph.backends.jax import linker

    backend.clear_cache()
    x = lt.dvector("x")
    out = lt.exp(x) * 3.0 if flat else lt.sum(lt.exp(x)) * 3.0
    p = backend.compile(FunctionGraph([x], [out]))
    seg = p.segments[0]
    assert (seg.flat_jitted is not None) == flat
    exc = (
        KeyboardInterrupt()
        if how == "interrupted"
        else RecursionError("Recursively calling <weakref>")
    )
    bad = _Raising(exc)
    if flat:
        (key,) = [k for k, v in linker._flat_programs.items() if v is seg.flat_jitted]
        seg.flat_jitted = linker._flat_programs[key] = (bad, seg)
    else:
        seg.jitted = bad
    want = np.exp(np.arange(3.0)) * 3.0
    if how == "interrupted":
        with pytest.raises(KeyboardInterrupt):
            p(np.arange(3.0))
    got = p(np.arange(3.0))[0]
    np.testing.assert_allclose(got, want if flat else want.sum(), rtol=1e-12)
    assert (seg.flat_jitted[0] if flat else seg.jitted) is not bad
    assert all(v[0] is not bad for v in linker._flat_programs.values())


def test_donation_gives_the_same_result():
    x = lt.dvector("x")
    fg = FunctionGraph([x], [lt.exp(x) * 3.0])
    fn = backend.compile(fg, donate=True)
    np.testing.assert_allclose(fn(np.zeros(2))[0], [3.0, 3.0])


# -- sharding on 4 simulated CPU devices -------------------------------------------

SHARDED = textwrap.dedent(
    """
    import numpy as np
    import jax
    from jax.sharding import Mesh, NamedSharding, PartitionSpec as P
    import lazygraph.tensor as lt
    from lazygraph.backends.jax import backend
    from lazygraph.graph.fg import FunctionGraph

    assert len(jax.devices()) == 4, jax.devices()
    mesh = Mesh(np.array(jax.devices()), ("d",))
    rows = NamedSharding(mesh, P("d", None))
    x, w = lt.dmatrix("x"), lt.dmatrix("w")
    out = lt.tanh(lt.matmul(x, w)) + lt.sum(x, axis=1, keepdims=True)
    fg = FunctionGraph([x, w], [out, lt.sum(out)])
    sharded = backend.compile(
        fg, in_shardings=(rows, NamedSharding(mesh, P())), out_shardings=(rows, None),
        device_arrays=True,
    )
    plain = backend.compile(FunctionGraph([x, w], [out, lt.sum(out)]))
    rng = np.random.default_rng(0)
    xv, wv = rng.standard_normal((16, 8)), rng.standard_normal((8, 5))
    got = sharded(xv, wv)
    assert len(got[0].sharding.device_set) == 4, got[0].sharding
    assert got[0].dtype == np.float64
    want = plain(xv, wv)
    np.testing.assert_allclose(np.asarray(got[0]), want[0], rtol=1e-12)
    np.testing.assert_allclose(np.asarray(got[1]), want[1], rtol=1e-12)
    print("SHARDED-OK")
    """
)


def test_sharded_matches_unsharded_on_four_cpu_devices():
    env = dict(os.environ)
    env["XLA_FLAGS"] = "--xla_force_host_platform_device_count=4"
    env["JAX_PLATFORMS"] = "cpu"
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
    proc = subprocess.run(
        [sys.executable, "-c", SHARDED],
        env=env,
        cwd=root,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "SHARDED-OK" in proc.stdout


def test_sharding_needs_a_single_segment():
    import jax
    from jax.sharding import SingleDeviceSharding

    x = lt.dvector("x")
    fg = FunctionGraph([x], [lt.nonzero(x)[0] + 1])
    with pytest.raises(ValueError, match="one jitted segment"):
        backend.compile(fg, in_shardings=SingleDeviceSharding(jax.devices()[0]))


# -- GPU ---------------------------------------------------------------------------


def _gpu_available() -> bool:
    import jax

    try:
        return bool(jax.devices("gpu"))
    except RuntimeError:
        return False


@pytest.mark.skipif(not _gpu_available(), reason="no GPU visible to jax")
def test_gpu_matches_python_backend():
    import jax

    x = lt.dmatrix("x")
    out = [lt.logsumexp(x, axis=1), lt.matmul(x, x.T), lt.cumsum(x, axis=0)]
    v = np.random.default_rng(1).standard_normal((64, 32))
    fn = backend.compile(FunctionGraph([x], out), device_arrays=True)
    got = fn(v)
    assert all(g.devices() <= set(jax.devices("gpu")) for g in got)
    want = lazygraph.function([x], out, mode=PYTHON)(v)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(np.asarray(g), w, rtol=1e-9, atol=1e-12)


@pytest.mark.parametrize("upper", [False, True])
def test_cholesky_reads_the_triangle_numpy_reads(upper):
    a = lt.dmatrix("a")
    f = lazygraph.function([a], lt.linalg.cholesky(a, upper=upper), mode=JAX)
    m = np.array([[4.0, 2.0, -1.0], [2.0, 5.0, 0.5], [-1.0, 0.5, 3.0]])
    junk = np.triu(np.full((3, 3), 77.0), 1)  # the triangle numpy does not read
    m = m + (junk.T if upper else junk)
    np.testing.assert_allclose(f(m), np.linalg.cholesky(m, upper=upper), rtol=1e-12)


def test_reductions_cast_and_order_like_numpy():
    # numpy casts a reduction's input with its own unsafe cast, divides an integer
    # mean in float64, and orders complex numbers by (real, imag) with NaN first
    f32 = lt.tensor("float32", (None,))
    i8 = lt.tensor("int8", (None,))
    c = lt.tensor("complex128", (None, None))
    outs = [lt.cumsum(f32, dtype="int8"), lt.sum(f32, dtype="int16"), lt.mean(i8, dtype="uint64")]
    outs += [lt.argmax(c), lt.argmin(c, axis=0), lt.argmax(c, axis=1, keepdims=True)]
    f = lazygraph.function([f32, i8, c], outs, mode=JAX)
    rng = np.random.default_rng(5)
    fv = np.array([np.inf, 3.7, -1e10, np.nan, -2.5, 40000.0], dtype=np.float32)
    iv = np.array([-1, -128, 127, 0], dtype=np.int8)
    cv = rng.integers(-2, 3, size=(4, 5)) + 1j * rng.integers(-2, 3, size=(4, 5))
    cv[2, 1], cv[1, 3] = complex(np.nan, 0.0), complex(1.0, np.nan)
    with np.errstate(invalid="ignore", over="ignore"):
        want = [np.cumsum(fv, dtype="int8"), np.sum(fv, dtype="int16"), np.mean(iv, dtype="uint64")]
    want += [np.argmax(cv), np.argmin(cv, axis=0), np.argmax(cv, axis=1, keepdims=True)]
    for g, w in zip(f(fv, iv, cv), want, strict=True):
        assert_numpy_equal(g, w)


def test_max_min_clip_and_divmod_signed_zeros_follow_numpy():
    import itertools

    special = [0.0, -0.0, 1.0, -1.0, 0.5, -2.0, 7.5, np.inf, -np.inf, np.nan]
    a, b = (np.array(v) for v in zip(*itertools.product(special, special), strict=True))
    x, y = lt.dvector("x"), lt.dvector("y")
    outs = [lt.maximum(x, y), lt.minimum(x, y), lt.clip(x, y, 1.0)]
    outs += [lt.floor_divide(x, y), lt.remainder(x, y)]
    got = lazygraph.function([x, y], outs, mode=JAX)(a, b)
    with np.errstate(all="ignore"):
        want = [np.maximum(a, b), np.minimum(a, b), np.clip(a, b, 1.0)]
        want += [np.floor_divide(a, b), np.remainder(a, b)]
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(g, w)
        np.testing.assert_array_equal(np.signbit(g), np.signbit(w))


def test_elementwise_of_constants_only():
    import lazygraph.numpy as lnp

    # eager_max_elements=0: Python scalars alone would give numpy's scalar at once
    with lazygraph.config.change(backend="jax", eager_max_elements=0):
        np.testing.assert_array_equal(lnp.sqrt(-1).compute(), np.float64(np.nan))
        assert float(lnp.log(False)) == -np.inf


_LITERAL_ZERO_SUMS = [
    lambda x: x + 0.0,
    lambda x: 0.0 + x,
    lambda x: x - (-0.0),
    lambda x: lt.add(x, np.zeros(2)),
]


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize(
    "build",
    [*_LITERAL_ZERO_SUMS, lambda x: lt.exp(x) * 2 + (x + 0.0)],  # last: fused
)
def test_adding_a_literal_zero_gives_positive_zero(dtype, build):
    # -0.0 + 0.0 is +0.0 (IEEE, numpy); XLA's simplifier folds x + 0.0 into x
    x = lt.tensor(dtype, (2,), name="x")
    value = np.array([-0.0, 1.0], dtype=dtype)
    got, want = both([x], [build(x)], [value])
    assert_numpy_equal(got[0], want[0])
    np.testing.assert_array_equal(np.signbit(got[0]), np.signbit(want[0]))


@pytest.mark.parametrize("build", _LITERAL_ZERO_SUMS)
def test_adding_a_literal_complex_zero_gives_positive_zero(build):
    # XLA folds x + 0j into x even behind an optimization barrier: summed by parts
    x = lt.tensor("complex128", (2,), name="x")
    value = np.array([complex(-0.0, -0.0), 1.0], dtype="complex128")
    got, want = both([x], [build(x)], [value])
    for part in (np.real, np.imag):
        np.testing.assert_array_equal(np.signbit(part(got[0])), np.signbit(part(want[0])))


_SPECIAL_PARTS = [complex(r, i) for r in (np.nan, np.inf, -0.0, 2.5) for i in (0.0, -np.inf)]


@pytest.mark.parametrize(
    "build",
    [lambda x: x * (1 + 0j), lambda x: x * True, lambda x: (2 - 3j) * x, lambda x: x / 1],
)
def test_complex_products_with_a_literal_one_keep_numpys_nan_parts(build):
    # numpy: (nan+0j) * 1 is nan+nanj, (inf+0j) * 1 is inf+nanj; XLA folded the
    # product with a literal 1 into x (and lazygraph's own x * 1 -> x did too)
    x = lt.tensor("complex128", (None,), name="x")
    got, want = both([x], [build(x)], [np.array(_SPECIAL_PARTS)])
    for part in (np.real, np.imag):
        np.testing.assert_array_equal(np.isnan(part(got[0])), np.isnan(part(want[0])))
        np.testing.assert_array_equal(part(got[0]), part(want[0]))


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex128"])
@pytest.mark.parametrize("shape", [(), (1,), (1, 1), (3, 2)])
@pytest.mark.parametrize("reduce", [lt.sum, lt.mean])
def test_sums_of_negative_zeros_are_positive_zero(dtype, shape, reduce):
    # numpy's sums start from +0.0: a sum of -0.0 (one element, or no axes) is
    # +0.0; XLA dropped the identity and gave -0.0 (test_eager found it)
    x = lt.tensor(dtype, (None,) * len(shape), name="x")
    value = np.full(shape, -0.0, dtype=dtype)
    for axis in [None, *range(len(shape))]:
        got, want = both([x], [reduce(x, axis=axis)], [value])
        np.testing.assert_array_equal(np.signbit(np.real(got[0])), np.signbit(np.real(want[0])))
        np.testing.assert_array_equal(np.signbit(np.imag(got[0])), np.signbit(np.imag(want[0])))


@pytest.mark.parametrize("dtype", ["float64", "float32", "complex128"])
@pytest.mark.parametrize("decimals", [1, 2, 6, -1, 0])
def test_round_with_decimals_is_numpys_bit_for_bit(dtype: str, decimals: int) -> None:
    """numpy rounds as rint(x * 10**d) / 10**d; XLA folds a division by a constant
    into a multiplication by its reciprocal, which gave 1.4642089999999999 for
    round(1.464209, 6) (printed programs showed it)."""
    x = lt.tensor(dtype, (None,), name="x")
    values = np.random.default_rng(decimals + 10).normal(size=2000) * 100
    values[:3] = [1.464209, 2.7500679999999997, 13.930190999999999]
    if dtype.startswith("complex"):
        values = values + 1j * values[::-1]
    values = values.astype(dtype)
    got = lazygraph.function([x], lt.round(x, decimals), mode=JAX)(values)
    want = np.round(values, decimals)
    assert got.dtype == want.dtype
    assert got.tobytes() == want.tobytes()
