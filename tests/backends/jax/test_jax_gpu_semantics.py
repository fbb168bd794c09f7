"""Where XLA on a GPU answers differently from numpy, and how the jax lowerings
keep numpy's answer. Found by running the op table on an H100; each test here
runs on the CPU too, forcing the GPU code path where the CPU's would hide it."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("jax")

import jax
import jax.numpy as jnp

import lazygraph
import lazygraph.numpy as lnp
import lazygraph.tensor as lt
from lazygraph.backends.jax.subtensor import _set_last_wins
from lazygraph.compile.mode import Mode

JAX = Mode(backend="jax")


@settings(max_examples=40, deadline=None)
@given(
    size=st.integers(1, 6),
    index=st.lists(st.integers(-6, 5), min_size=0, max_size=12),
    seed=st.integers(0, 2**16),
)
def test_repeated_indices_keep_the_last_value(size, index, seed):
    """numpy's ``x[i] = y`` keeps the last of repeated indices; XLA's scatter
    leaves the winner unspecified, and on the GPU it varies."""
    idx = np.array([i % size for i in index], dtype=np.int64)
    rng = np.random.default_rng(seed)
    _check_last_wins(rng.standard_normal(size), idx, rng.standard_normal(idx.shape))


def _check_last_wins(x, idx, y):
    expected = x.copy()
    expected[idx] = y
    with jax.enable_x64(True):
        got = _set_last_wins(jnp.asarray(x), (jnp.asarray(idx),), jnp.asarray(y), sequential=False)
    np.testing.assert_array_equal(np.asarray(got), expected)


def test_repeated_indices_in_a_matrix_keep_the_last_row():
    _check_last_wins(np.zeros((3, 4)), np.array([2, 0, 2, 2]), np.arange(16.0).reshape(4, 4))


def test_bool_increment_with_repeated_indices_reads_then_writes():
    """``b[i] += v`` on bools is ``b[i] = b[i] | v`` with the last write kept,
    not an or over all the repeats (that is ``inc_subtensor``'s accumulate)."""
    bv, iv, vv = np.array([False, False]), np.array([0, 0]), np.array([True, False])
    expected = bv.copy()
    expected[iv] += vv
    with lazygraph.config.change(backend="jax"):
        b = lnp.asarray(bv)
        b[iv] += vv
        np.testing.assert_array_equal(b.compute(), expected)


@pytest.mark.parametrize("kind", ["var", "std"])
@pytest.mark.parametrize("correction", [2, 3, 5])
def test_var_std_with_correction_at_least_the_count(kind, correction):
    """numpy divides by ``max(n - correction, 0)``: inf, or NaN for constant data."""
    x = lt.dvector("x")
    fn = lazygraph.function([x], getattr(lt, kind)(x, correction=correction), mode=JAX)
    for value in (np.array([0.0, 1.0]), np.array([4.0, 4.0]), np.array([])):
        with np.errstate(all="ignore"):
            expected = getattr(np, kind)(value, ddof=correction)
        np.testing.assert_array_equal(fn(value), expected)


@pytest.mark.parametrize("shape", [(0, 0), (0, 3), (2, 3)])
def test_squeezing_an_axis_not_of_size_one_raises(shape):
    """numpy's ValueError, for empty arrays too (jnp.reshape turns (0, 0) into
    (0,) without complaint: the CI op table drew it)."""
    x = lt.tensor("bool", (None, None), name="x")
    fn = lazygraph.function([x], lt.squeeze(x, axis=0), mode=JAX)
    with pytest.raises(ValueError, match="cannot drop axis 0"):
        fn(np.zeros(shape, bool))
    np.testing.assert_array_equal(fn(np.ones((1, 0), bool)), np.ones((0,), bool))


def test_outputs_are_writable_and_never_shared():
    """The same variable returned twice, an input returned, a constant: each a
    writable array of its own (a result XLA made on the call is handed out
    without a copy: on the CPU XLA's buffer, from a GPU jax's host copy)."""
    x = lt.dvector("x")
    y = x * 2.0
    fn = lazygraph.function([x], [y, y, x, lt.as_tensor_variable(np.ones(3))], mode=JAX)
    value = np.arange(3.0)
    outs = fn(value)
    assert all(o.flags.writeable for o in outs)
    outs[0][0] = 99.0
    outs[2][0] = 99.0
    outs[3][0] = 99.0
    np.testing.assert_array_equal(outs[1], [0.0, 2.0, 4.0])
    np.testing.assert_array_equal(value, [0.0, 1.0, 2.0])
    np.testing.assert_array_equal(fn(value)[3], np.ones(3))


def test_a_host_copy_is_handed_out_writable_without_copying():
    """A GPU result's host copy is wrapped by jax in an object numpy will not
    make writable: it is handed out as a writable view of the same memory,
    which keeps the copy alive."""
    from lazygraph.backends.jax.linker import _own_host_view

    source = np.frombuffer(bytearray(np.arange(6.0).tobytes()), dtype=np.float64).reshape(2, 3)
    source.flags.writeable = False
    assert source.base is not None
    out = _own_host_view(source)
    assert out.flags.writeable and np.shares_memory(out, source)
    del source
    out[0, 0] = -1.0
    np.testing.assert_array_equal(out, [[-1.0, 1.0, 2.0], [3.0, 4.0, 5.0]])
    owned = np.arange(3.0)
    owned.flags.writeable = False
    assert _own_host_view(owned) is owned and owned.flags.writeable


def test_large_results_are_handed_out_without_a_copy():
    """Results too large for the flat path are XLA's own (CPU) buffers or jax's
    host copies, made writable in place; a later call never writes into them."""
    from lazygraph.backends.jax.linker import FLAT_LIMIT, _HostView

    x = lt.dvector("x")
    fn = lazygraph.function([x], [x + 1.0, lt.exp(x)], mode=JAX)
    value = np.linspace(0.0, 1.0, 4 * FLAT_LIMIT)
    first = fn(value)
    assert all(o.flags.writeable and isinstance(o.base, _HostView) for o in first)
    kept = [o.copy() for o in first]
    first[0][:] = -1.0
    second = fn(value)
    assert not np.shares_memory(first[0], second[0])
    np.testing.assert_array_equal(second[0], kept[0])
    np.testing.assert_array_equal(first[1], kept[1])
    np.testing.assert_array_equal(value, np.linspace(0.0, 1.0, 4 * FLAT_LIMIT))


def test_forwarded_results_are_noted_at_trace_time():
    """A traced result that is an argument, a repeat or not a tracer (a constant)
    may come back as an array jax shares: its host value is copied."""
    import jax

    from lazygraph.backends.jax.linker import _note_forwarded, _Segment

    seg = _Segment()

    def run(a):
        b = a + 1.0
        _note_forwarded(seg, [a], [b, a, b, np.ones(2), a * 2.0])
        return b

    jax.jit(run)(np.ones(2))
    assert seg.forwarded == {1, 2, 3}
