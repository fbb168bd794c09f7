"""The dask backend's blocked numpy evaluation of elementwise chunks
(lazygraph.backends.dask.blocked) against the python backend's ``perform`` on
whole arrays, bit for bit: block sizes that do not divide the chunk, NaN, inf
and -0.0, broadcast, 0-d and empty inputs, float32/float64, integer, complex
and multi-output regions; the ``"auto"`` rule; ``config.dask_chunk_kernels``
through the backend, against the numba kernel."""

from __future__ import annotations

import contextlib
import functools
import os
import subprocess
import sys

import numpy as np
import pytest

pytest.importorskip("dask")
pytest.importorskip("numba")

import dask.array as da
import hypothesis.extra.numpy as hnp
from hypothesis import given
from hypothesis import strategies as st

import lazygraph
import lazygraph.tensor as lt
from lazygraph.backends.dask import blocked, elemwise
from lazygraph.backends.dask.blocks import detached, node_perform
from lazygraph.tensor.scalar import Composite, ScalarType, scalar_op

pytestmark = pytest.mark.filterwarnings(
    "error::lazygraph.backends.dask.dispatch.DaskFallbackWarning"
)


@contextlib.contextmanager
def block_size(n):
    """``blocked.BLOCK_ELEMENTS = n`` for a ``with`` block (hypothesis tests
    cannot take pytest's function-scoped monkeypatch)."""
    old = blocked.BLOCK_ELEMENTS
    blocked.BLOCK_ELEMENTS = n
    try:
        yield
    finally:
        blocked.BLOCK_ELEMENTS = old


def fused(build, *types):
    """The single (fused) elementwise node the rewrites make of ``build`` on
    fresh variables of ``types`` (dtype, ndim), detached from its graph."""
    inputs = [lt.tensor(dtype=d, shape=(None,) * n) for d, n in types]
    outs = build(*inputs)
    graph = lazygraph.function(inputs, outs, mode="python").fgraph
    (node,) = graph.toposort()
    return detached(node)


def chain(e):
    for k in range(4):
        e = lt.sin(e) * 1.25 + 0.5 if k % 2 else lt.exp(-lt.abs(e)) - 0.25
    return e


def guarded(x, y):
    # division by zero, log of negatives, comparisons (bool temporaries), where
    return lt.where(x > y, lt.log1p(x) / y, lt.tanh(x * y) - lt.sqrt(y))


def same_bits(got, want):
    """Equal dtype, shape and bytes (the sign of zero included), once every NaN
    is made numpy's positive NaN: numpy does not define a NaN's sign (its
    complex loops give one that depends on the array's length, so even perform
    on two lengths differs)."""
    got, want = canonical(got), canonical(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert got.tobytes() == want.tobytes(), (got, want)


def canonical(a):
    a = np.array(a)  # a copy
    if a.dtype.kind in "fc":
        parts = a.reshape(-1).view(a.real.dtype)  # a complex's real and imaginary parts
        parts[np.isnan(parts)] = np.nan
    return a


def check_blocked(node, *values, sizes=(1, 2, 3, 5, 7), rtol=0.0):
    """blocked_block equals the python perform on the whole arrays, for every
    block size in ``sizes``: bit for bit, or (``rtol``) NaNs and infinities at
    the same places and the rest that close."""
    values = [np.asarray(v, dtype=t.dtype) for v, t in zip(values, node.inputs, strict=True)]
    want = node_perform(node, *values)
    for n in sizes:
        with block_size(n):
            got = blocked.blocked_block(node, *values)
        got = [got] if len(node.outputs) == 1 else list(got)
        for g, w in zip(got, want, strict=True):
            if rtol:
                assert g.dtype == w.dtype
                np.testing.assert_allclose(g, w, rtol=rtol, atol=0, equal_nan=True)
            else:
                same_bits(g, w)


CHAIN32 = fused(chain, ("float32", 1))
GUARDED = fused(guarded, ("float64", 2), ("float64", 2))

special = st.sampled_from([np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-310, 1e300, -1.0])
floats64 = st.floats(allow_nan=True, allow_infinity=True) | special


# -- the tiling --------------------------------------------------------------


@given(hnp.array_shapes(min_dims=0, max_dims=4, min_side=0, max_side=6), st.integers(1, 40))
def test_blocks_tile_the_array_in_order(shape, limit):
    seen = np.zeros(shape, dtype=np.int64)
    order = []
    for index in blocked.block_indices(shape, limit):
        view = seen[index]
        assert np.size(view) <= limit and view.flags.c_contiguous
        seen[index] += 1
        order.extend(np.arange(int(np.prod(shape))).reshape(shape)[index].ravel())
    assert (seen == 1).all()  # every element once
    assert order == sorted(order)  # in C order


# -- blocked evaluation equals perform, bit for bit --------------------------


@given(
    hnp.arrays(np.float64, hnp.array_shapes(min_dims=0, max_dims=3, max_side=7), elements=floats64),
    st.integers(1, 11),
)
def test_chain_float64(x, n):
    check_blocked(chain_of_rank(x.ndim), x, sizes=(n,))


@functools.cache
def chain_of_rank(ndim):
    return fused(chain, ("float64", ndim))


@given(
    hnp.arrays(
        np.float32,
        st.integers(0, 40),
        elements=st.floats(width=32) | st.sampled_from([np.nan, -np.inf, -0.0, 1e-45]),
    )
)
def test_chain_float32(x):
    check_blocked(CHAIN32, x)


@given(
    hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=2, max_dims=2, max_side=6).flatmap(
        lambda s: st.tuples(
            *(hnp.arrays(np.float64, shape, elements=floats64) for shape in s.input_shapes)
        )
    ),
    st.integers(1, 9),
)
def test_broadcast_inputs(xy, n):
    # size-1 axes, as dask hands blocks of a broadcast operand over
    check_blocked(GUARDED, *xy, sizes=(n,))


def test_scalar_zero_d_and_empty():
    node = fused(guarded, ("float64", 2), ("float64", 0))
    x = np.array([[-0.0, 0.0, np.nan], [np.inf, -np.inf, 2.0]])
    for y in (0.0, -0.0, np.nan, 0.5):
        check_blocked(node, x, np.array(y))  # a 0-d operand stays 0-d
    check_blocked(node, np.empty((0, 3)), np.array(1.0))
    zero_d = fused(chain, ("float64", 0))
    check_blocked(zero_d, np.array(-0.0))
    out = blocked.blocked_block(zero_d, np.float64(2.0))  # dask's 0-d chunk: a scalar
    same_bits(out, node_perform(zero_d, np.array(2.0))[0])


def test_signed_zeros_and_specials_survive():
    neg = fused(lambda x: -x * lt.exp(x), ("float64", 1))
    x = np.array([0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324, -5e-324, 1e308])
    check_blocked(neg, x)
    with block_size(3):
        out = blocked.blocked_block(neg, x)
    assert np.signbit(out[:2]).tolist() == [True, False]  # -(0.0) * 1 and -(-0.0) * 1
    assert np.isnan(out[[3, 4]]).all() and out[2] == -np.inf  # -(-inf) * 0 is NaN


@given(hnp.arrays(np.int32, st.integers(0, 30), elements=st.integers(-(2**31), 2**31 - 1)))
def test_integer_region(x):
    node = fused(lambda v: (v * 3 + 7) // 5 - (v % 4) * v, ("int32", 1))
    check_blocked(node, x)


@given(
    hnp.arrays(
        np.complex128,
        st.integers(0, 20),
        elements=st.complex_numbers(max_magnitude=1e3)
        | st.sampled_from([complex(np.nan, 1.0), complex(np.inf, -0.0), complex(-0.0, -np.inf)]),
    )
)
def test_complex_region(z):
    # numpy's complex multiply writing into one of its operands (perform's
    # reuse of a temporary) rounds a one-element array's product differently
    # (by an ulp) from a longer one's: perform itself depends on the length
    node = fused(lambda v: lt.exp(v * 1j) + lt.sqrt(v) * v, ("complex128", 1))
    check_blocked(node, z, rtol=4 * np.finfo(np.float64).eps)


def test_several_outputs():
    s = ScalarType("float64")("s")
    e = scalar_op("exp")(s)
    comp = Composite(
        [s], [scalar_op("add")(e, 1.0), scalar_op("multiply")(scalar_op("tanh")(s), e)]
    )
    node = detached(lt.Elemwise(comp).make_node(lt.dvector("x")))
    assert len(node.outputs) == 2
    check_blocked(node, np.linspace(-30.0, 30.0, 23))


def test_mixed_precision():
    node = fused(lambda a, b: lt.exp(a) * b + lt.log(b), ("float32", 1), ("float64", 1))
    check_blocked(node, np.linspace(-3, 3, 17), np.linspace(-1, 4, 17))


# -- the "auto" rule ---------------------------------------------------------


@pytest.mark.parametrize(
    ("build", "dtype", "want"),
    [
        (chain, "float64", "numpy"),  # exp's SIMD loop
        (lambda v: v * 1.5 + 2.0 - v * v, "float64", "numba"),  # arithmetic only
        (lambda v: lt.sin(v) * 2.0, "float64", "numba"),  # numpy calls libm's sin too
        (lambda v: lt.sin(v) * 2.0, "float32", "numpy"),  # float32 sin is SIMD
        (lambda v: lt.tanh(v), "float64", "numpy"),
        (
            lambda v: lt.exp(functools.reduce(lambda a, k: a * 1.01 + k, range(12), v)),
            "float64",
            "numba",
        ),  # one exp (2.1 ns) against 25 cheap nodes (0.15 ns each)
        (lambda v: lt.exp(v), "complex64", "numba"),
        (lambda v: lt.exp(v), "complex128", "numba"),
        (lambda v: lt.exp(lt.cast(v, "float64")), "int64", "numba"),
    ],
)
def test_auto_rule(build, dtype, want):
    assert blocked.chunk_kernel(fused(build, (dtype, 1))) == want


# -- through the backend -----------------------------------------------------


def run_dask(inputs, outputs, values, setting, chunk_size=64):
    with lazygraph.config.change(dask_chunk_size=chunk_size, dask_chunk_kernels=setting):
        return lazygraph.function(inputs, outputs, mode="dask")(*values)


@pytest.fixture
def tasks(monkeypatch):
    """Which per-chunk function each lowered elementwise layer runs."""
    seen = []

    def spy(fn):
        @functools.wraps(fn)
        def call(*args):
            seen.append(fn.__name__)
            return fn(*args)

        return call

    monkeypatch.setattr(elemwise, "blocked_block", spy(blocked.blocked_block))
    monkeypatch.setattr(elemwise, "elemwise_block", spy(elemwise.elemwise_block))
    return seen


@pytest.mark.parametrize("setting", ["auto", "numpy", "numba"])
def test_backend_settings_agree(setting, tasks):
    x, y = lt.dmatrix("x"), lt.dvector("y")
    values = [np.linspace(-4.0, 4.0, 143).reshape(11, 13), np.linspace(0.5, 2.0, 13)]
    values[0][0, :4] = [np.nan, np.inf, -np.inf, -0.0]
    outs = [chain(x) * y, guarded(x, y)]
    want = lazygraph.function([x, y], outs, mode="python")(*values)
    with block_size(5):
        got = run_dask([x, y], outs, values, setting)
    kind = {"auto": "blocked_block", "numpy": "blocked_block", "numba": "elemwise_block"}
    assert set(tasks) == {kind[setting]}
    for g, w in zip(got, want, strict=True):
        if setting == "numba":  # libm's exp, not numpy's SIMD loop: a few ulp
            np.testing.assert_allclose(g, w, rtol=1e-14, atol=1e-15, equal_nan=True)
            assert (np.isnan(g) == np.isnan(w)).all()
        else:
            same_bits(g, w)


def test_auto_keeps_the_kernel_for_integers_and_complex(tasks):
    i, z = lt.lvector("i"), lt.zvector("z")
    ints = np.arange(-20, 21)
    zs = np.linspace(-2.0, 2.0, 41) * (1 + 1j)
    outs = [(i * 3 + 1) // 4, lt.exp(z) * 2.0 + z]
    want = lazygraph.function([i, z], outs, mode="python")(ints, zs)
    got = run_dask([i, z], outs, [ints, zs], "auto")
    assert set(tasks) == {"elemwise_block"}
    np.testing.assert_array_equal(got[0], want[0])
    np.testing.assert_allclose(got[1], want[1], rtol=1e-14)


def test_broadcast_chunks_through_dask():
    x, y = lt.dmatrix("x"), lt.dmatrix("y")
    a = da.from_array(np.linspace(-3.0, 3.0, 60).reshape(6, 10), chunks=(4, 3))
    b = da.from_array(np.linspace(0.0, 1.0, 10).reshape(1, 10), chunks=(1, 4))
    f = lazygraph.function([x, y], lt.tanh(x) * lt.exp(y) - y, mode="dask")
    f.trust_input = True
    want = lazygraph.function([x, y], lt.tanh(x) * lt.exp(y) - y, mode="python")(
        a.compute(), b.compute()
    )
    with block_size(4), lazygraph.config.change(dask_chunk_kernels="numpy"):
        same_bits(f(a, b), want)


def test_bad_setting():
    x = lt.dvector("x")
    with pytest.raises(ValueError, match=r"dask_chunk_kernels.*'simd'"):
        run_dask([x], [lt.exp(x)], [np.zeros(3)], "simd")


def test_environment_variable():
    env = {**os.environ, "LAZYGRAPH_DASK_CHUNK_KERNELS": "numba"}
    code = "from lazygraph.configuration import config; print(config.dask_chunk_kernels)"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.stdout.strip() == "numba", out.stderr
