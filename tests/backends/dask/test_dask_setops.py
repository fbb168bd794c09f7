"""The dask lowerings of ``unique_*``, ``searchsorted``, ``repeat`` (and its
gradient), the gradient of ``pad`` and ``SliceLength``, against the python
backend (numpy): chunks that do not divide the arrays, NaN, ties, ``-0.0``,
empty and 0-d inputs, sizes that depend on the data, numpy's errors, and
gradients. Every check asserts that each node of the compiled graph lowers
(no whole-array ``perform`` step)."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("dask")
pytest.importorskip("numba")

import dask.array as da
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import lazygraph
import lazygraph.gradient
import lazygraph.tensor as lt
from lazygraph.compile.backends import lowering_of
from lazygraph.compile.mode import Mode

pytestmark = [
    pytest.mark.filterwarnings("error::lazygraph.backends.dask.dispatch.DaskFallbackWarning"),
    pytest.mark.filterwarnings("ignore:Cannot cache compiled function"),
]

DASK = Mode(backend="dask")
PYTHON = Mode(backend="python")
RNG = np.random.default_rng(11)


def _dask_fn(inputs, outputs, **options):
    f = lazygraph.function(inputs, outputs, mode=DASK, **options)
    nodes = f.fgraph.toposort()
    unlowered = {str(n.op): lowering_of(n, "dask") for n in nodes}
    assert not {op: why for op, why in unlowered.items() if why is not None}
    return f, {type(n.op).__name__ for n in nodes}


def check(inputs, outputs, values, chunk_size=64, ops=(), sort_first=False, signs=True):
    """The dask backend's results are the python backend's, exactly (also the
    sign of a zero, unless ``signs`` is false), with every node lowered and the
    Ops ``ops`` in the graph."""
    want = lazygraph.function(inputs, outputs, mode=PYTHON)(*values)
    with lazygraph.config.change(dask_chunk_size=chunk_size, on_unsupported="raise"):
        f, names = _dask_fn(inputs, outputs)
        got = f(*values)
    assert set(ops) <= names, names
    for g, w in zip(got, want, strict=True):
        assert isinstance(g, np.ndarray) and g.dtype == w.dtype and g.shape == w.shape
        if sort_first:
            g, w = np.sort(g, axis=None), np.sort(w, axis=None)
        np.testing.assert_array_equal(g, w)
        if signs:
            np.testing.assert_array_equal(np.signbit(g), np.signbit(w))
    return got


def raises_like_python(inputs, output, values, error, match=None):
    with pytest.raises(error, match=match):
        lazygraph.function(inputs, output, mode=PYTHON)(*values)
    with (
        lazygraph.config.change(dask_chunk_size=64, on_unsupported="raise"),
        pytest.raises(error, match=match),
    ):
        _dask_fn(inputs, output)[0](*values)


M, V = lt.dmatrix("m"), lt.dvector("v")
# NaNs (distinct), -0.0 before 0.0 (unique_all reports the first one), ties
# across chunks of 8 float64
TIES = np.array([[3.0, np.nan, 1.0, -0.0, 3.0, 2.0, 7.0], [1.0, 0.0, np.nan, 3.0, 2.0, 2.0, -1.0]])
TIES = np.concatenate([TIES, TIES[:, ::-1] * 2.0, np.full((1, 7), 5.0)])

UNIQUES = {
    "all": lambda x: list(lt.unique_all(x)),
    "counts": lambda x: list(lt.unique_counts(x)),
    "inverse": lambda x: list(lt.unique_inverse(x)),
}


@pytest.mark.parametrize("kind", UNIQUES)
def test_unique_matches_numpy(kind):
    ints = lt.lmatrix("ints")
    check([ints], UNIQUES[kind](ints), [RNG.integers(-3, 4, size=(11, 5))], chunk_size=40)
    if kind != "inverse":
        # which of -0.0 and 0.0 unique_counts reports depends on numpy's
        # unstable sort; unique_all's is the first one's
        check([M], UNIQUES[kind](M), [TIES], ops={"Unique"}, signs=kind == "all")
        return
    # numpy's unstable sort also decides which NaN entry a NaN element points
    # at: the numbers' entries are numpy's, the NaNs' point at NaNs, each at its own
    with lazygraph.config.change(dask_chunk_size=64, on_unsupported="raise"):
        values, inverse = _dask_fn([M], UNIQUES[kind](M))[0](TIES)
    want = np.unique_inverse(TIES)
    np.testing.assert_array_equal(values, want.values)
    nan = np.isnan(TIES)
    np.testing.assert_array_equal(inverse[~nan], want.inverse_indices[~nan])
    assert np.isnan(values[inverse[nan]]).all() and len(set(inverse[nan])) == nan.sum()
    np.testing.assert_array_equal(inverse[nan], np.arange(11, 15))  # in order of position


def test_unique_values_are_numpys_in_sorted_order():
    # numpy 2.3+ leaves their order unspecified (a hash table's, for integers)
    ints = lt.lvector("ints")
    data = np.array([5, 3, 1, 3, 7, 2, 9, 9, 0, -4, 5])
    (got,) = check([ints], [lt.unique_values(ints)], [data], chunk_size=24, sort_first=True)
    np.testing.assert_array_equal(got, np.unique(data))
    check([M], [lt.unique_values(M)], [TIES], sort_first=True, signs=False)


def test_unique_of_0d_empty_and_unknown_sizes():
    s, e = lt.dscalar("s"), lt.dtensor3("e")
    check([s], list(lt.unique_all(s)), [np.array(np.nan)])
    check([e], list(lt.unique_all(e)), [np.zeros((2, 0, 3))])
    # a mask's result has chunk sizes dask does not know; the unique values'
    # number is known only when computed, and a later op reads it
    kept = V[V > 0]
    out = lt.unique_all(kept)
    data = RNG.integers(-3, 6, size=50).astype(float)
    check([V], [*out, out.values * 2.0 + out.counts, lt.shape(out.values)[0]], [data])
    check([V], list(lt.unique_inverse(V[V > 100])), [data])


def test_unique_tree_of_explicit_chunks_and_split_every():
    import dask

    f, _ = _dask_fn([M], UNIQUES["all"](M), compile_options={"dask_arrays": True})
    data = RNG.integers(0, 6, size=(30, 9)).astype(float)
    data[data == 5.0] = np.nan
    with dask.config.set(split_every=2), lazygraph.config.change(on_unsupported="raise"):
        lazy = f.fn(da.from_array(data, chunks=(7, 4)))
    assert np.isnan(lazy[0].shape[0]) and lazy[2].shape == data.shape
    want = np.unique_all(data)
    for g, w in zip(dask.compute(*lazy), want, strict=True):
        np.testing.assert_array_equal(g, w)


@given(
    hnp.arrays(
        np.float64,
        hnp.array_shapes(min_dims=1, max_dims=2, min_side=0, max_side=9),
        elements=st.sampled_from([0.0, -0.0, 1.0, 2.5, -1.0, np.nan, np.inf]),
    ),
    st.sampled_from([8, 24, 64]),
)
def test_unique_all_matches_numpy_on_any_data(data, chunk_size):
    x = lt.tensor("float64", (None,) * data.ndim, "x")
    check([x], list(lt.unique_all(x)), [data], chunk_size=chunk_size)


A = lt.dvector("a")
SORTED = np.array([-np.inf, -1.0, 0.0, 0.0, 2.0, 2.0, 2.0, 5.0, np.inf, np.nan, np.nan])
NEEDLES = np.array([[2.0, np.nan, -0.0, 7.0], [-np.inf, np.inf, 2.0, -3.0], [5.0, 0.0, 9.0, -1.0]])


@pytest.mark.parametrize("side", ["left", "right"])
def test_searchsorted_matches_numpy(side):
    check([A, M], [lt.searchsorted(A, M, side=side)], [SORTED, NEEDLES], chunk_size=16)
    s = lt.dscalar("s")
    check([A, s], [lt.searchsorted(A, s, side=side)], [SORTED, np.array(2.0)])
    order = RNG.permutation(SORTED.size)
    shuffled = SORTED[order]
    sorter = lt.lvector("sorter")
    check(
        [A, M, sorter],
        [lt.searchsorted(A, M, side=side, sorter=sorter)],
        [shuffled, NEEDLES, np.argsort(shuffled, kind="stable")],
        chunk_size=16,
    )


def test_searchsorted_of_empty_arrays_and_data_dependent_needles():
    check([A, V], [lt.searchsorted(A, V)], [np.zeros(0), np.array([1.0, np.nan])])
    check([A, V], [lt.searchsorted(A, V, side="right")], [SORTED, np.zeros(0)])
    # needles of unknown chunk sizes; the sorted array itself computed (sort)
    data = RNG.normal(size=40)
    check([A, V], [lt.searchsorted(lt.sort(A), V[V > 0])], [data[:25], data], chunk_size=32)


R = lt.lvector("r")


def test_repeat_with_a_count_matches_numpy():
    x3 = lt.dtensor3("x3")
    data = RNG.normal(size=(5, 4, 3))
    outs = [
        lt.repeat(x3, 3, axis=1),
        lt.repeat(x3, 0, axis=0),
        lt.repeat(x3, 2),
        lt.repeat(x3, [2]),
    ]
    check([x3], outs, [data], ops={"Repeat"})
    s = lt.dscalar("s")
    check(
        [s, x3], [lt.repeat(s, 4), lt.repeat(x3, 5, axis=2)], [np.array(-0.0), np.zeros((0, 2, 3))]
    )


def test_repeat_keeps_chunks_within_the_chunk_size():
    f, _ = _dask_fn([V], [lt.repeat(V, 50)], compile_options={"dask_arrays": True})
    with lazygraph.config.change(dask_chunk_size=800):  # 100 float64
        (lazy,) = f.fn(np.arange(40.0))
    assert max(lazy.chunks[0]) <= 100 and lazy.shape == (2000,)
    np.testing.assert_array_equal(lazy.compute(), np.repeat(np.arange(40.0), 50))


def test_repeat_with_counts_known_and_computed_from_the_data():
    data = RNG.normal(size=(9, 4))
    counts = np.array([0, 3, 1, 0, 2, 30, 1, 0, 4])
    check([M], [lt.repeat(M, counts, axis=0)], [data], chunk_size=48)
    # counts from the data: the sizes along the axis are unknown until needed
    lazy_counts = lt.cast(M[:, 0] > 0, "int64") * 2 + R
    out = lt.repeat(M, lazy_counts, axis=0)
    check([M, R], [out, lt.max(out, axis=1), lt.shape(out)[0] + 0], [data, counts])
    f, _ = _dask_fn([M, R], [out], compile_options={"dask_arrays": True})
    with lazygraph.config.change(dask_chunk_size=48):
        (lazy,) = f.fn(data, counts)
    assert np.isnan(lazy.shape[0]) and lazy.shape[1] == 4
    check([M, R], [lt.repeat(M, R, axis=1)], [data, np.array([2, 0, 1, 3])])
    check([M, R], [lt.repeat(M, R, axis=0)], [np.zeros((0, 4)), np.zeros(0, np.int64)])


def test_repeat_refuses_negative_counts_and_wrong_lengths_as_numpy():
    data = RNG.normal(size=(3, 4))
    n = lt.lscalar("n")
    raises_like_python([M, n], lt.repeat(M, n, axis=0), [data, np.array(-1)], ValueError)
    raises_like_python(
        [M, R], lt.repeat(M, R, axis=0), [data, np.array([1, -1, 2])], ValueError, "negative"
    )
    raises_like_python([M, R], lt.repeat(M, R, axis=1), [data, np.array([1, 2])], ValueError)
    # nothing to repeat: numpy objects to nothing
    check([M, n], [lt.repeat(M, n, axis=0)], [np.zeros((0, 4)), np.array(-2)])


def test_repeat_gradient_matches_python():
    x3 = lt.dtensor3("x3")
    data = RNG.normal(size=(6, 5, 3))
    w = RNG.normal(size=(6, 5 * 7, 3))
    loss = lt.sum(lt.repeat(x3, 7, axis=1) * w)
    check([x3], [lazygraph.gradient.grad(loss, x3)], [data], ops={"RepeatGrad"})
    counts = np.array([0, 3, 1, 0, 2, 30])
    loss = lt.sum(lt.repeat(x3, R, axis=0) ** 2)
    check([x3, R], [lazygraph.gradient.grad(loss, x3)], [data, counts], ops={"RepeatGrad"})
    zero = lt.sum(lt.repeat(x3, 0, axis=2) ** 2)
    check([x3], [lazygraph.gradient.grad(zero, x3)], [data])
    # 40 copies of magnitudes far apart: numpy adds them one after the other
    # (more than one element after the axis), also in chunks one element wide
    from lazygraph.tensor.structure import RepeatGrad

    spread = RNG.normal(size=(5, 13 * 40, 3)) * 10.0 ** RNG.integers(-8, 8, size=(5, 520, 3))
    check([x3], [RepeatGrad(1)(x3, 40, 13)], [spread], ops={"RepeatGrad"})
    last = np.ascontiguousarray(spread.transpose(0, 2, 1))  # pairwise sums along the last axis
    check([x3], [RepeatGrad(2)(x3, 20, 26)], [last], ops={"RepeatGrad"})
    with lazygraph.config.change(dask_chunk_size=64, on_unsupported="raise"):
        lazygraph.gradient.verify_grad(
            lambda a: lt.repeat(a, np.array([2, 0, 3]), axis=0) ** 2,
            [RNG.normal(size=(3, 4))],
            mode=DASK,
        )


PAD_GRADS = {
    "constant": lambda x: lt.pad(x, ((2, 1), (0, 3)), constant_values=4.0),
    "edge": lambda x: lt.pad(x, ((3, 0), (1, 2)), mode="edge"),
    "reflect wider than the axis": lambda x: lt.pad(x, ((20, 11), (1, 15)), mode="reflect"),
    "symmetric wider than the axis": lambda x: lt.pad(x, ((19, 2), (16, 0)), mode="symmetric"),
    "wrap wider than the axis": lambda x: lt.pad(x, ((30, 10), (8, 7)), mode="wrap"),
}


@pytest.mark.parametrize("mode", PAD_GRADS)
def test_pad_gradient_matches_python(mode):
    data = RNG.normal(size=(9, 7))
    loss = lt.sum(lt.sin(PAD_GRADS[mode](M)))
    check([M], [lazygraph.gradient.grad(loss, M)], [data], ops={"PadGrad"})


def test_pad_gradient_adds_in_numpys_order_and_of_empty_and_0d():
    # -0.0 and magnitudes far apart: only numpy's order of additions gives its sums
    from lazygraph.tensor.structure import PadGrad

    g = lt.dmatrix("g")
    data = -0.0 * np.ones((12, 5))
    data[::3] = RNG.normal(size=(4, 5)) * 10.0 ** RNG.integers(-8, 8, size=(4, 5))
    outs = [PadGrad(((4, 5), (2, 0)), mode)(g) for mode in ("reflect", "edge", "wrap")]
    check([g], outs, [data], ops={"PadGrad"})
    check([g], [PadGrad(((0, 0), (1, 1)), "symmetric")(g)], [np.zeros((0, 4))])
    raises_like_python([g], PadGrad(((1, 1), (0, 0)), "wrap")(g), [np.ones((2, 3))], ValueError)
    s = lt.dscalar("s")
    check([s], [lazygraph.gradient.grad(lt.sum(lt.pad(s, 2) ** 2), s)], [np.array(1.5)])
    with lazygraph.config.change(dask_chunk_size=64, on_unsupported="raise"):
        lazygraph.gradient.verify_grad(
            lambda a: lt.pad(a, ((3, 1), (2, 2)), mode="symmetric") ** 2,
            [RNG.normal(size=(4, 3))],
            mode=DASK,
        )


def test_slice_lengths_computed_from_the_data():
    from lazygraph.tensor.indexing import slice_length

    n = V.shape[0]
    lo, hi = lt.argmin(V), lt.argmax(V)
    lengths = [
        slice_length(n, hi, None, -2),
        slice_length(n, None, lo, 3),
        slice_length(n, lo - 40, hi, 1),
        slice_length(n, hi, lo, -1),
    ]
    outs = [*lengths, lt.alloc(2.0, lengths[0]), V[hi::-2] * 2.0]
    check([V], outs, [RNG.normal(size=30)], ops={"SliceLength"})
