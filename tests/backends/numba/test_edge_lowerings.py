"""Edge cases the op table found on the numba backend (run with 16 workers on a
lent machine): 0-d results of indexing and search kernels, reshape's own
errors, complex ``tanh`` / ``reciprocal`` at infinities; each against the
python backend (numpy)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("numba")

from tests.backends.numba.test_numba_backend import NUMBA, both

import lazygraph
import lazygraph.tensor as lt
from lazygraph.backends.numba.complexmath import complex_cos, complex_sin, complex_sqrt
from lazygraph.backends.numba.helpers import complex_reciprocal, complex_tanh
from lazygraph.backends.numba.linker import NumbaFallbackWarning
from lazygraph.configuration import config
from lazygraph.graph.basic import Apply, Op

pytestmark = pytest.mark.backend("numba")


def _both(inputs, output, values):
    got, want = both(inputs, output, values)
    return np.asarray(got), np.asarray(want)


def test_take_of_a_0d_array_is_0d():
    x, i = lt.tensor("float64", ()), lt.tensor("int64", ())
    got, want = _both([x, i], lt.take(x, i), [np.array(3.5), np.array(0)])
    assert got.shape == want.shape == ()
    assert got == want


def test_searchsorted_of_a_0d_key_is_0d():
    a, v = lt.dvector("a"), lt.tensor("float64", ())
    got, want = _both([a, v], lt.searchsorted(a, v), [np.array([1.0, 2.0, 3.0]), np.array(2.5)])
    assert got.shape == want.shape == ()
    assert got == want


@pytest.mark.parametrize(
    "shape, target",
    [((0,), [-1, 0]), ((0, 0), [0, -1]), ((6,), [4]), ((6,), [-1, 4]), ((6,), [-1, -1])],
)
def test_reshape_errors_are_numpy_errors(shape, target):
    """A size that does not divide, and a -1 beside a zero size (ambiguous),
    raise ValueError as numpy does, with the shape known only at run time."""
    x = lt.tensor("float64", (None,) * len(shape))
    s = lt.tensor("int64", (len(target),), name="s")
    fn = lazygraph.function([x, s], lt.reshape(x, s), mode=NUMBA)
    with pytest.raises(ValueError):
        np.reshape(np.zeros(shape), target)
    with pytest.raises(ValueError, match=r"reshape|unknown dimension"):
        fn(np.zeros(shape), np.array(target))


@pytest.mark.parametrize("shape, target", [((2, 3), [3, -1]), ((0, 3), [-1, 3]), ((1,), [])])
def test_reshape_with_run_time_shapes(shape, target):
    x = lt.tensor("float64", (None,) * len(shape))
    s = lt.tensor("int64", (len(target),), name="s")
    value = np.arange(float(np.prod(shape))).reshape(shape)
    target = np.array(target, dtype=np.int64)
    got, want = _both([x, s], lt.reshape(x, s), [value, target])
    np.testing.assert_array_equal(got, want)
    assert got.shape == want.shape


SPECIAL = [
    complex(0, 0),
    complex(0, np.inf),
    complex(np.inf, 0),
    complex(-np.inf, 2),
    complex(np.inf, np.inf),
    complex(np.nan, 0),
    complex(np.nan, 1),
    complex(1, np.nan),
    complex(np.inf, np.nan),
    complex(30, 1),
    complex(-25, -3),
    complex(0.5, -0.3),
    complex(-0.0, np.inf),
    complex(1e-300, 1e300),
]


@pytest.mark.parametrize("z", SPECIAL, ids=str)
def test_complex_tanh_and_reciprocal_special_values(z):
    with np.errstate(all="ignore"):
        for ours, theirs in ((complex_tanh, np.tanh), (complex_reciprocal, np.reciprocal)):
            args = (z,) if ours is complex_tanh else (z, 1.0)
            got, want = complex(ours(*args)), complex(theirs(np.complex128(z)))
            np.testing.assert_allclose(
                [got.real, got.imag], [want.real, want.imag], rtol=1e-13, equal_nan=True
            )
            # zeros keep numpy's sign
            for g, w in ((got.real, want.real), (got.imag, want.imag)):
                if w == 0:
                    assert np.signbit(g) == np.signbit(w), (ours.__name__, z, got, want)


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_tanh_and_reciprocal_kernels(dtype):
    z = lt.tensor(dtype, (None,), name="z")
    with np.errstate(over="ignore"):  # 1e300 is inf in complex64
        value = np.array(SPECIAL, dtype=dtype)
    for fn in (lt.tanh, lt.reciprocal):
        with np.errstate(all="ignore"):
            got, want = _both([z], fn(z), [value])
        rtol = 1e-5 if dtype == "complex64" else 1e-12
        np.testing.assert_allclose(got, want, rtol=rtol, equal_nan=True)


def _same_bits(got: complex, want: complex) -> bool:
    return all(
        (np.isnan(g) and np.isnan(w)) or (g == w and np.signbit(g) == np.signbit(w))
        for g, w in ((got.real, want.real), (got.imag, want.imag))
    )


def test_complex_sin_cos_sqrt_at_special_parts_are_numpys():
    # every pair of parts from NaN of either sign, +-inf, +-0, and finite values
    # small, large and of both signs: numpy's C99 special values, signs of zeros
    # and infinities included (finite pairs: the finite formulas, to the last bit
    # for sqrt)
    parts = [np.nan, -np.nan, np.inf, -np.inf, -0.0, 0.0, 1.0, -1.0, 2.5, -2.5, 1e300, -1e300]
    info = np.finfo(np.float64)
    sqrt_consts = (1.0, 2 * info.smallest_normal, info.max / 4, 2.0**54, 2.0**-27)
    wrong = []
    with np.errstate(all="ignore"):
        for r in parts:
            for i in parts:
                z = complex(r, i)
                finite = np.isfinite(r) and np.isfinite(i)
                for name, ours in (
                    ("sin", complex_sin),
                    ("cos", complex_cos),
                    ("sqrt", lambda z: complex_sqrt(z, *sqrt_consts)),
                ):
                    want = complex(getattr(np, name)(np.complex128(z)))
                    got = complex(ours(z))
                    if finite and name != "sqrt":
                        ok = np.allclose([got.real, got.imag], [want.real, want.imag], rtol=1e-13)
                    else:
                        ok = _same_bits(got, want)
                    if not ok:
                        wrong.append((name, z, got, want))
    assert wrong == []


@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
def test_complex_division_by_special_values_is_numpys(dtype):
    # Smith's algorithm as numpy's loop runs it: an infinite divisor gives
    # signed zeros (1 / inf), not NaN; a zero divisor numpy's inf/NaN; and
    # integer powers below zero (1 / z**n) divide the same way
    a, b = lt.tensor(dtype, (None,)), lt.tensor(dtype, (None,))
    with np.errstate(over="ignore"):
        values = np.array([*SPECIAL, complex(1, 1), complex(-2, 0.5)], dtype=dtype)
    x, y = (v.ravel() for v in np.meshgrid(values, values))
    for out, arrays in ((a / b, [x, y]), (a**-3, [y])):
        with np.errstate(all="ignore"):
            got, want = _both([a, b][: len(arrays)], out, arrays)
        assert got.dtype == want.dtype
        for g, w in ((got.real, want.real), (got.imag, want.imag)):
            np.testing.assert_array_equal(np.isnan(g), np.isnan(w))
            finite = ~np.isnan(w)
            np.testing.assert_allclose(
                g[finite], w[finite], rtol=1e-6 if dtype == "complex64" else 1e-13
            )
            zero = finite & (w == 0)
            np.testing.assert_array_equal(np.signbit(g[zero]), np.signbit(w[zero]))


def test_reshape_of_a_non_contiguous_input_compiles():
    """Numba types ``reshape`` on C-layout arrays only; a transposed input (as
    ``vector_norm`` over axes ``(0, -1)`` of a 3-d array makes) used to fall back
    to ``perform`` with a NumbaFallbackWarning."""
    x = lt.tensor("float64", (None, None, None))
    y = lt.reshape(x.dimshuffle(1, 0, 2), (3, -1))
    with config.change(on_unsupported="raise"):  # a fallback raises
        f = lazygraph.function([x], y, mode=NUMBA)
        for shape in [(2, 3, 4), (4, 3, 1), (0, 3, 5)]:
            v = np.random.default_rng(0).standard_normal(shape)
            want = np.transpose(v, (1, 0, 2)).reshape(3, -1)
            np.testing.assert_array_equal(f(v), want)


_PARTS = [0.0, -0.0, 0.5, 2.5, -1.5, 700.0, np.inf, -np.inf, np.nan]
#: every pair of special parts: NaN / inf / signed zeros in each position
COMPLEX_GRID = np.array([complex(r, i) for r in _PARTS for i in _PARTS])


@pytest.mark.filterwarnings("error::lazygraph.backends.numba.linker.NumbaFallbackWarning")
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize(
    "fn",
    [
        *(lt.sign, lt.rint, lambda z: lt.round(z, 1), lambda z: lt.round(z, -1), lt.exp2),
        *(lt.expm1, lt.log2, lambda z: lt.max(z), lambda z: lt.min(z)),
    ],
    ids=["sign", "rint", "round1", "round-1", "exp2", "expm1", "log2", "max", "min"],
)
def test_complex_special_values_unary(fn, dtype):
    """numpy's complex loops (complexmath.py) on NaN, inf and signed zeros."""
    z = lt.tensor(dtype, (None,), name="z")
    with np.errstate(all="ignore"):
        got, want = _both([z], fn(z), [COMPLEX_GRID.astype(dtype)])
    rtol = 1e-5 if dtype == "complex64" else 1e-13
    np.testing.assert_allclose(got, want, rtol=rtol, equal_nan=True)


@pytest.mark.filterwarnings("error::lazygraph.backends.numba.linker.NumbaFallbackWarning")
@pytest.mark.parametrize(
    "fn",
    [
        *(lt.less, lt.less_equal, lt.greater, lt.greater_equal),
        *(lt.maximum, lt.minimum, lt.fmax, lt.fmin),
    ],
    ids=lambda f: f.__name__,
)
def test_complex_ordering_of_every_pair(fn):
    """numpy's lexicographic order, NaN rules included, on all 81 x 81 pairs."""
    a, b = lt.zvector("a"), lt.zvector("b")
    left, right = (
        np.repeat(COMPLEX_GRID, COMPLEX_GRID.size),
        np.tile(COMPLEX_GRID, COMPLEX_GRID.size),
    )
    with np.errstate(all="ignore"):
        got, want = _both([a, b], fn(a, b), [left, right])
    np.testing.assert_array_equal(got, want)
    if got.dtype.kind == "c":  # the operand chosen, down to the sign of a zero
        np.testing.assert_array_equal(np.signbit(got.real), np.signbit(want.real))
        np.testing.assert_array_equal(np.signbit(got.imag), np.signbit(want.imag))


@pytest.mark.filterwarnings("error::lazygraph.backends.numba.linker.NumbaFallbackWarning")
def test_round_of_integers_to_negative_decimals():
    x = lt.tensor("int64", (None,), name="x")
    values = np.array([0, 4, 5, 15, 25, -15, -25, 149, 2**62 + 7, -(2**62)])
    got, want = _both([x], lt.round(x, -1), [values])
    np.testing.assert_array_equal(got, want)
    assert got.dtype == want.dtype == np.int64


@pytest.mark.filterwarnings("error::lazygraph.backends.numba.linker.NumbaFallbackWarning")
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("name", ["var", "std"])
@pytest.mark.parametrize("axis", [None, 0, 1])
@pytest.mark.parametrize("ddof", [0, 1, 9])
def test_complex_var_and_std(name, dtype, axis, ddof):
    """Mean of |x - mean|**2 (a real result), special values and empty rows too."""
    z = lt.tensor(dtype, (None, None), name="z")
    grid = COMPLEX_GRID.reshape(9, 9).astype(dtype)
    out = getattr(lt, name)(z, axis=axis, ddof=ddof)
    rtol = 1e-5 if dtype == "complex64" else 1e-12
    for value in (grid, grid[:, :0], np.abs(grid[1:4, 2:5]).astype(dtype)):
        with np.errstate(all="ignore"):
            got, want = _both([z], out, [value])
        assert got.dtype == want.dtype
        np.testing.assert_allclose(got, want, rtol=rtol, equal_nan=True)


@pytest.mark.filterwarnings("error::lazygraph.backends.numba.linker.NumbaFallbackWarning")
@pytest.mark.parametrize("dtype", ["float64", "float32", "int64", "int8", "bool"])
@pytest.mark.parametrize("fn", [lt.cumsum, lt.cumprod], ids=["cumsum", "cumprod"])
def test_complex_scan_in_a_real_dtype_keeps_the_real_part(fn, dtype):
    z = lt.zmatrix("z")
    value = np.array([[1.5 + 2j, -2.25 - 1j, 3 + 0.5j], [0.5 - 7j, 2 + 1j, -1.5]])
    got, want = _both([z], fn(z, axis=1, dtype=dtype), [value])
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


@pytest.mark.filterwarnings("error::lazygraph.backends.numba.linker.NumbaFallbackWarning")
@pytest.mark.parametrize("value_dtype", ["bool", "int8", "uint64", "float32", "complex64"])
def test_where_with_a_complex_condition(value_dtype):
    """Only the condition is complex: the branches keep their own result type
    (the kernel converted them to complex128 first, which does not cast back)."""
    c, x = lt.zvector("c"), lt.tensor(value_dtype, (None,), name="x")
    y = lt.tensor("int8", (), name="y")
    cond = np.array([0, 1j, -0.0, np.nan, complex(0, -0.0)])
    values = [cond, np.arange(5).astype(value_dtype), np.array(-3, np.int8)]
    got, want = _both([c, x, y], lt.where(c, x, y), values)
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


@pytest.mark.filterwarnings("error::lazygraph.backends.numba.linker.NumbaFallbackWarning")
@pytest.mark.parametrize("dtype", ["complex64", "complex128"])
@pytest.mark.parametrize("name", ["argmax", "argmin"])
@pytest.mark.parametrize("axis", [None, 0, 1])
def test_complex_argmax_and_argmin(name, dtype, axis):
    """numpy's lexicographic order; the first value with a NaN part is the answer."""
    z = lt.tensor(dtype, (None, None), name="z")
    rng = np.random.default_rng(0)
    shuffled = rng.permutation(COMPLEX_GRID).reshape(9, 9).astype(dtype)
    ties = np.array([[1 + 2j, 1 + 3j, 1 + 3j, -5j], [2, 2, 2, 2]], dtype)
    for keepdims in (False, True):
        out = getattr(lt, name)(z, axis=axis, keepdims=keepdims)
        for value in (shuffled, ties, shuffled[:, 1:2], np.abs(shuffled[1:4]).astype(dtype)):
            got, want = _both([z], out, [value])
            assert got.shape == want.shape
            np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("index", [(), (slice(None),), (1,)], ids=["0d", "slice", "element"])
def test_increment_of_int64_by_uint64_adds_in_float64(index):
    """numpy's int64 + uint64 is float64: 2**53 + 1 rounds to 2**53 before the store
    (Numba added the two integers exactly)."""
    shape = () if index == () else (3,)
    x, y = lt.tensor("int64", shape, name="x"), lt.tensor("uint64", shape, name="y")
    values = [np.full(shape, 2**53, np.int64), np.ones(shape, np.uint64)]
    out = lt.inc_subtensor(x[index], y[index])
    got, want = _both([x, y], out, values)
    expected = values[0].copy()
    np.add.at(expected, index, values[1][index])
    np.testing.assert_array_equal(want, expected)
    np.testing.assert_array_equal(got, expected)


@pytest.mark.filterwarnings("error::lazygraph.backends.numba.linker.NumbaFallbackWarning")
@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", ["max", "min"])
@pytest.mark.parametrize("axis", [-1, (1, 2), None, 0])
def test_float_max_and_min_of_rows(name, dtype, axis):
    """The row kernels' four accumulators: a NaN, an infinity or the extreme at
    every position of rows of every length up to 9, against the python backend."""
    rng = np.random.default_rng(11)
    for n in range(1, 10):
        base = rng.standard_normal((3, 2 * n, n)).astype(dtype)
        for position in range(n):
            value = base.copy()
            value[0, :, position] = np.nan
            value[1, :, position] = 100.0 if name == "max" else -100.0
            value[2, 1, position] = -np.inf if name == "max" else np.inf
            value[2, 0, :] = np.inf if name == "max" else -np.inf
            z = lt.tensor(dtype, (None, None, None), name="z")
            for keepdims in (False, True):
                out = getattr(lt, name)(z, axis=axis, keepdims=keepdims)
                got, want = _both([z], out, [value])
                assert got.shape == want.shape and got.dtype == want.dtype
                np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("axis", [-1, (1, 2)])
def test_float_max_of_rows_in_parallel(monkeypatch, axis):
    """The multithreaded row kernel (a prange over the kept axis)."""
    from lazygraph.backends.numba import linker

    monkeypatch.setattr(linker, "PARALLEL_MIN_SIZE", 64)
    z = lt.tensor("float64", (None, None, None), name="z")
    value = np.random.default_rng(12).standard_normal((40, 3, 7))
    value[5, 1, 3] = np.nan
    with config.change(num_threads=2):
        for out in (lt.max(z, axis=axis), lt.min(z, axis=axis, keepdims=True)):
            got, want = _both([z], out, [value])
            np.testing.assert_array_equal(got, want)


class _StoresAScalar(Op):
    """A user Op whose ``perform`` stores a numpy scalar for a 0-d output."""

    __props__ = ()

    def make_node(self, x):
        x = lt.as_tensor_variable(x)
        return Apply(self, [x], [x.type()])

    def perform(self, node, inputs, output_storage):
        output_storage[0][0] = inputs[0][()] * 2


@pytest.mark.usefixtures("perform_fallback")
@pytest.mark.parametrize("dtype", ["complex128", "float32", "int64"])
def test_a_perform_storing_a_numpy_scalar_feeds_the_next_kernel(dtype):
    """The next node's kernel gets a 0-d array (it raised a TypingError and
    fell back to perform too)."""
    from lazygraph.backends.numba import linker

    x = lt.tensor(dtype, (), name="x")
    out = lt.exp(_StoresAScalar()(x)) * x
    linker._warned.clear()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        got, want = _both([x], out, [np.array(1.5).astype(dtype)])
    np.testing.assert_allclose(got, want, rtol=1e-6)
    fallbacks = [str(w.message) for w in caught if issubclass(w.category, NumbaFallbackWarning)]
    assert fallbacks and all("_StoresAScalar" in m for m in fallbacks), fallbacks


@pytest.mark.parametrize("dtype", ["int64", "float64"])
def test_nested_composite_temporaries_keep_the_broadcast_flags(dtype):
    """A nested Composite's temporaries (``t0_0``, ...) once shared their names with
    the broadcast flags of input 0: a float temporary failed to type (a fallback),
    an integer one became an index (out-of-bounds reads, silently)."""
    from lazygraph.tensor.elemwise import Elemwise
    from lazygraph.tensor.scalar import Composite, ScalarType, scalar_op

    a, b = ScalarType(dtype)("a"), ScalarType(dtype)("b")
    inner = Composite([a, b], [scalar_op("add")(a, b)])
    x, y = ScalarType(dtype)("x"), ScalarType(dtype)("y")
    outer = Composite([x, y], [scalar_op("multiply")(inner(x, y), x)])
    mx, vy = lt.tensor(dtype, (None, None), name="mx"), lt.tensor(dtype, (None,), name="vy")
    out = Elemwise(outer)(mx, vy)
    values = [np.arange(1, 4).reshape(3, 1).astype(dtype), np.arange(10, 14).astype(dtype)]
    with config.change(on_unsupported="raise"):
        got, want = _both([mx, vy], out, values)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(want, (values[0] + values[1]) * values[0])
