"""The dask backend against the python backend (the reference): a cross-section
of ops on chunks that do not divide the arrays, the shape of the dask graphs it
builds (one task per chunk for a fused chain, a log2-deep reduction tree),
gradients, the fallbacks, and one run on a two-process local cluster (pickling)."""

from __future__ import annotations

import pickle
import warnings

import numpy as np
import pytest

pytest.importorskip("dask")
pytest.importorskip("numba")

import dask
import dask.array as da

import lazygraph
import lazygraph.numpy as lnp
import lazygraph.tensor as lt
import lazygraph.tensor.linalg as la
from lazygraph import gradient
from lazygraph.backends.dask import backend, blocks
from lazygraph.backends.dask.dispatch import DaskFallbackWarning
from lazygraph.compile.mode import Mode
from lazygraph.graph.fg import FunctionGraph
from lazygraph.graph.traversal import graph_inputs

# every node lowers unless a test says otherwise (pytest.warns); numba at -O0
# (the op table's level) cannot cache kernels that call BLAS, and says so
pytestmark = [
    pytest.mark.filterwarnings("error::lazygraph.backends.dask.dispatch.DaskFallbackWarning"),
    pytest.mark.filterwarnings("ignore:Cannot cache compiled function"),
]

DASK = Mode(backend="dask")
PYTHON = Mode(backend="python")
RNG = np.random.default_rng(0)


@pytest.fixture(autouse=True)
def _fresh_fallback_warnings(monkeypatch):
    """The backend warns once per Op and reason in a process: each test sees its own."""
    from lazygraph.backends.dask import linker

    monkeypatch.setattr(linker, "_warned", set())


def check(inputs, outputs, values, chunk_size=64, rtol=1e-12):
    """The dask backend's results equal the python backend's, with inputs cut
    into chunks of ``chunk_size`` bytes (8 float64: chunks that do not divide
    the test arrays' sizes)."""
    want = lazygraph.function(inputs, outputs, mode=PYTHON)(*values)
    with lazygraph.config.change(dask_chunk_size=chunk_size):
        got = lazygraph.function(inputs, outputs, mode=DASK)(*values)
    for g, w in zip(got, want, strict=True):
        assert isinstance(g, np.ndarray) and g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=rtol, atol=0, equal_nan=True)
    return got


X = lt.dmatrix("x")
V = lt.dvector("v")
XV = RNG.normal(size=(7, 5))
VV = RNG.normal(size=5)


def _chain(e, n):
    for k in range(n):
        e = lt.sin(e) * 1.25 + 0.5 if k % 2 else lt.exp(-lt.abs(e)) - 0.25
    return e


CASES = {
    "broadcast chain": lambda: _chain(X + V, 6) * X[:, :1],
    "int semantics": lambda: lt.floor_divide(lt.cast(X * 10, "int64"), 3) % 4,
    "comparison and where": lambda: lt.where(X > V, X, V * 2.0),
    "nan and inf": lambda: lt.log(X) + lt.true_divide(1.0, X - X),
    "sum axis 0": lambda: lt.sum(X, axis=0),
    "fused sum axis 1": lambda: lt.sum(lt.exp(X) * X, axis=1),
    "keepdims max": lambda: lt.max(X, axis=1, keepdims=True),
    "min prod all": lambda: lt.min(X) + lt.prod(X[:3]),
    "mean var std": lambda: lt.stack([lt.mean(X), lt.var(X), lt.std(X, axis=None)]),
    "argmax argmin": lambda: lt.argmax(X, axis=0) + lt.argmin(X),
    "all any": lambda: lt.all(X > -3, axis=0) & lt.any(X > 1, axis=0),
    "logsumexp": lambda: lt.logsumexp(X * 50.0, axis=1),
    "matmul": lambda: lt.matmul(X, X.T),
    "einsum": lambda: lt.einsum("ij,j->i", X, V),
    "transpose reshape": lambda: lt.reshape(X.T, (5, 7))[::-2, 1:],
    "slicing": lambda: X[1:-1, ::-2],
    "concatenate": lambda: lt.concatenate([X, X * 2.0], axis=1),
    "set subtensor": lambda: lt.set_subtensor(X[2:5, 1], 0.0),
    "inc subtensor": lambda: lt.inc_subtensor(X[::2], V),
    "boolean mask then reduce": lambda: (
        lt.sum(lt.exp(X[X > 0])) + lt.cast(lt.shape(X[X > 0])[0], "float64")
    ),
    "nonzero": lambda: lt.nonzero(X > 0.5)[1],
    "integer index": lambda: X[np.array([4, 0, 0, -1])],
}


@pytest.mark.parametrize("name", list(CASES))
def test_ops_match_the_python_backend(name):
    out = CASES[name]()
    inputs = [v for v in (X, V) if v in graph_inputs([out])]
    check(inputs, [out], [XV if v is X else VV for v in inputs], rtol=1e-10)


def test_zero_d_empty_and_dask_inputs_with_their_own_chunks():
    s = lt.dscalar("s")
    check([s, V], [V * s + 1.0, lt.sum(V) * s], [np.array(-0.0), VV])
    check([X], [lt.exp(X) + 1.0, lt.sum(X, axis=0)], [np.zeros((0, 3))])
    f = lazygraph.function([V], lt.cumsum(V) * 0 + V * 2.0, mode=DASK)
    f.trust_input = True
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DaskFallbackWarning)
        got = f(da.from_array(np.arange(10.0), chunks=3))
    np.testing.assert_array_equal(got, np.arange(10.0) * 2.0)


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # (numpy warns of 0 / 0 too)
def test_var_and_std_take_numpys_two_passes():
    # dask's one-pass moments gave 0.37 and inf here (numpy: 0.5 and nan, from its
    # float32 mean half an ulp off the true one)
    f = lt.TensorType("float32", (None,))("f")
    values = [np.full(3, 5592407, np.float32), np.full(3, 8388609, np.float32)]
    for value, correction in zip(values, (0, 3), strict=True):
        (got,) = check([f], [lt.std(f, correction=correction)], [value], rtol=1e-6)
        np.testing.assert_array_equal(got, np.std(value, ddof=correction))
    i = lt.TensorType("int16", (None, None))("i")
    ints = RNG.integers(-300, 300, size=(7, 5)).astype(np.int16)
    outs = [lt.var(i, axis=0), lt.std(i, axis=1, correction=1), lt.var(i, dtype="float32")]
    check([i], outs, [ints], rtol=1e-6)
    check([X], [lt.var(X[:0], axis=0), lt.std(X * (1 + 2j), axis=1)], [XV], rtol=1e-12)


def test_reductions_of_empty_arrays_are_numpys():
    # (dask's trees failed on these: max over a size-1 axis of an empty array,
    # and reducing no axis of an empty one)
    outs = [lt.max(X, axis=1), lt.argmin(X, axis=1), lt.min(X, axis=()), lt.sum(X, axis=())]
    check([X], outs, [np.zeros((0, 1))])
    check([X], [lt.prod(X, axis=0), lt.mean(X, axis=1), lt.any(X > 0, axis=0)], [np.ones((0, 3))])


def test_cumulative_scans_combine_in_numpys_order_across_chunks():
    from lazygraph.tensor.cumulative import CumOp

    # chunks of two: a tree or chunk-then-offset scan gives 0 where numpy gives 1
    v = np.array([1e16, 1.0, -1e16, 1.0, 3.0, -2.0, 0.5])
    (got,) = check([V], [lt.cumsum(V)], [v], chunk_size=16)
    np.testing.assert_array_equal(got, np.cumsum(v))
    i = lt.TensorType("int8", (None, None))("i")
    ints = RNG.integers(-100, 100, size=(7, 5)).astype(np.int8)
    scans = [
        lt.cumprod(X, axis=0),
        lt.cumsum(X),  # axis=None: the flattened array
        CumOp("sum", 1, "float64", exclusive=True, reverse=True)(X),
        CumOp("prod", 0, "float64", exclusive=True)(X[1:, ::-2]),
    ]
    for got in check([X], scans, [XV], rtol=0):
        assert got.shape  # compared exactly (rtol=0) with the python backend
    check([i], [lt.cumsum(i, axis=1), lt.cumprod(i, axis=0)], [ints], rtol=0)
    check([X], [lt.cumsum(X, axis=1)], [np.zeros((3, 0))])
    f = lazygraph.function([V], lt.cumsum(V), mode=DASK)
    f.trust_input = True  # a dask array with an empty chunk: the carry skips it
    got = f(da.from_array(v, chunks=((2, 0, 3, 2),)))
    np.testing.assert_array_equal(got, np.cumsum(v))


def test_reshape_beyond_merging_or_splitting_axes_and_numpys_errors():
    # dask reshapes only by merging or splitting whole axes: (2, 6) -> (3, 4) is
    # neither, and runs as a merge into one axis then a split
    m = lt.dmatrix("m")
    value = np.arange(12.0).reshape(2, 6)
    check([m], [lt.reshape(m, (3, 4)), lt.reshape(m.T, (4, -1)), lt.reshape(m, (1, 12))], [value])
    check([m], [lt.reshape(m, (3, 0, 2)), lt.flatten(m, 1)], [np.zeros((0, 4))])
    n = lt.TensorType("int64", (2,))("n")
    f = lazygraph.function([m, n], lt.reshape(m, n), mode=DASK)
    with pytest.raises(ValueError, match=r"cannot reshape array of size 12 into shape \(5,1\)"):
        f(value, np.array([5, 1]))
    with pytest.raises(ValueError, match="can only specify one unknown dimension"):
        f(value, np.array([-1, -1]))


def test_subtensor_updates_leave_their_input_alone():
    # assignment into the dask array of x would change x for every other reader
    check([X], [lt.set_subtensor(X[1:3], 0.0), X * 1.0], [XV])
    check([X], [lt.set_subtensor(X[1:3], 0.0) + X], [XV])
    check([X, V], [lt.inc_subtensor(X[::-2, None, -2:0:-1], V[:3]) - X], [XV, VV])


def same_as_python(inputs, build, values):
    """The dask backend's result equals the python backend's exactly, or both
    raise the same exception type (building the graph or calling it)."""
    results = []
    for mode in (PYTHON, DASK):
        try:
            with lazygraph.config.change(dask_chunk_size=64):
                results.append(lazygraph.function(inputs, build(), mode=mode)(*values))
        except (TypeError, ValueError, IndexError, OverflowError) as exc:
            results.append(type(exc))
    want, got = results
    if isinstance(want, type) or isinstance(got, type):
        assert got is want
        return False
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
    return True


@pytest.mark.parametrize(
    ("index", "y_shape", "runs"),
    [
        ((2,), (1, 5), 2),  # (a leading 1: assignment only)
        ((-1, slice(None, None, -2)), (3,), 5),  # (+= of float into int: a TypeError)
        ((None, slice(1, 3)), (1, 2, 5), 5),
        ((0, 0), (), 5),  # one element: int8 += float is allowed, an overflow raises
        ((0, 0), (1,), 0),  # an array into one element: numpy raises
        ((slice(1, 1),), (5,), 5),
        ((Ellipsis, 1), (1,), 5),
        ((slice(None, None, -3), None), (1, 5), 5),
    ],
)
def test_subtensor_updates_with_numpys_casts_and_shapes(index, y_shape, runs):
    # set: numpy's assignment; inc: in-place addition (refusing float into int);
    # add.at; one element: a numpy scalar's sum assigned back. Each has its own
    # casts and its own rule for y's shape (a leading 1 only for assignment).
    i = lt.TensorType("int8", (None, None))("i")
    f = lt.TensorType("float64", (None,) * len(y_shape))("f")
    y = 2.47 + 0.25 * np.arange(np.prod(y_shape)).reshape(y_shape)  # (x 100: past int8)
    values = [XV, np.arange(-35, 35, 2, dtype=np.int8).reshape(7, 5), y]
    updates = [
        lambda part: lt.set_subtensor(part, f * 100.0),
        lambda part: lt.inc_subtensor(part, f * 100.0, ignore_duplicates=True),
        lambda part: lt.inc_subtensor(part, f * 100.0),  # np.add.at
    ]
    ran = 0
    for target in (X, i):
        for update in updates:
            ran += same_as_python([X, i, f], lambda: update(target[index]), values)  # noqa: B023
    assert ran == runs  # of the six updates, those numpy does not refuse


@pytest.mark.parametrize(
    ("index", "valid"),
    [
        ((1, slice(None), np.array([0, 2])), True),  # an int apart from the array: front
        ((slice(None), np.array([[4, 0], [0, -1]])), True),  # a 2-d integer array
        ((np.array([[0, 1], [2, 3]]), None, 1), True),
        ((None, Ellipsis, np.array([2, 1]), None), True),
        ((np.array([-1, 0]), slice(None), None, 2), True),
        (("mask",), True),  # a 2-d mask over the first two of three axes
        ((slice(None), np.array([7])), False),  # out of bounds: numpy's IndexError
    ],
)
def test_one_array_indexes_as_numpy_does(index, valid):
    t = lt.dtensor3("t")
    value = np.arange(60.0).reshape(4, 5, 3) - 30.0

    def build():
        return t[t[..., 0] > 0] if isinstance(index[0], str) else t[index]

    assert same_as_python([t], build, [value]) == valid


def test_a_negative_fill_size_raises_numpys_error():
    n = lt.lscalar("n")
    assert not same_as_python([V, n], lambda: lt.alloc(V, n, 5), [VV, np.array(-1)])
    assert same_as_python([V, n], lambda: lt.alloc(V, n, 5), [VV, np.array(3)])


def test_a_fallbacks_output_size_is_known_before_computing():
    # infer_shape gives the pseudo-inverse's shape: later nodes need not compute it
    with (
        lazygraph.config.change(on_unsupported="fallback"),
        pytest.warns(DaskFallbackWarning, match="Pinv"),
    ):
        (out,) = _graph_of([X], [la.pinv(X) + 1.0], XV)
    assert out.shape == (5, 7)
    np.testing.assert_allclose(out.compute(), np.linalg.pinv(XV) + 1.0, rtol=1e-12)


def test_a_kernel_compiles_once_for_strided_and_read_only_chunks():
    # 64-byte chunks of a (7, 5) matrix are strided views of it, some read-only
    # after a transpose: each would be one more compile of the same kernel
    from lazygraph.backends.dask.elemwise import kernel_source

    y = lt.dmatrix("y")
    f = lazygraph.function([y], lt.exp(y) * 3.0 + y, mode=DASK)
    (node,) = f.fgraph.toposort()
    data = RNG.normal(size=(7, 9))
    read_only = np.array(data)
    read_only.flags.writeable = False
    for value in (data, read_only, data.T.copy().T, data[::2]):
        with lazygraph.config.change(dask_chunk_kernels="numba"):  # (auto: numpy's exp)
            np.testing.assert_allclose(f(value), np.exp(value) * 3.0 + value, rtol=1e-14)
    assert len(blocks._kernels[kernel_source(node)].signatures) == 1


def test_sum_to_shape_sums_the_broadcast_axes():
    from lazygraph.tensor.elemwise import SumToShape

    g = lt.dtensor3("g")
    data = RNG.normal(size=(4, 5, 3))
    for shape in [(5, 1), (1, 1, 3), (4, 5, 3), ()]:
        target = lt.TensorType("float64", (None,) * len(shape))("t")
        check([g, target], [SumToShape()(g, target)], [data, np.zeros(shape)], rtol=1e-13)


def test_linalg_matches_numpy():
    a = RNG.normal(size=(6, 6))
    spd = a @ a.T + 6 * np.eye(6)
    rhs = RNG.normal(size=6)
    tall = RNG.normal(size=(20, 3))
    m, t, b = lt.dmatrix("m"), lt.dmatrix("t"), lt.dvector("b")
    # (16 float64 chunks: 4x4 blocks of a 6x6 matrix, rechunked to square ones)
    check([m, b], [la.solve(m, b), la.inv(m), la.cholesky(m)], [spd, rhs], 128, rtol=1e-9)
    with lazygraph.config.change(dask_chunk_size=200):  # TSQR over 3 row blocks
        q, r = lazygraph.function([t], la.qr(t), mode=DASK)(tall)
        u, s, vh = lazygraph.function([t], la.svd(t, full_matrices=False), mode=DASK)(tall)
        values = lazygraph.function([t], la.svdvals(t), mode=DASK)(tall)
    np.testing.assert_allclose(q @ r, tall, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(q.T @ q, np.eye(3), atol=1e-12)
    np.testing.assert_allclose(np.abs(r), np.abs(np.linalg.qr(tall)[1]), rtol=1e-10)
    np.testing.assert_allclose(u * s @ vh, tall, rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(s, np.linalg.svd(tall, compute_uv=False), rtol=1e-10)
    np.testing.assert_allclose(values, s, rtol=1e-12)


def test_qr_of_a_wide_matrix_falls_back_naming_the_op():
    t = lt.dmatrix("t")
    wide = RNG.normal(size=(3, 8))
    with (
        lazygraph.config.change(on_unsupported="fallback"),
        pytest.warns(DaskFallbackWarning, match=r"QR.*wide matrix.*transpose"),
    ):
        q, r = lazygraph.function([t], la.qr(t), mode=DASK)(wide)
    np.testing.assert_allclose(q @ r, wide, rtol=1e-10, atol=1e-12)
    with lazygraph.config.change(on_unsupported="raise"), pytest.raises(NotImplementedError):
        lazygraph.function([t], la.qr(t)[1] + 1.0, mode=DASK)(wide)


def test_an_op_without_lowering_warns_and_is_exact():
    square = XV[:5]
    with (
        lazygraph.config.change(on_unsupported="fallback"),
        pytest.warns(DaskFallbackWarning, match="Det"),
    ):
        check([X], [la.det(X * -1.0)], [square], rtol=0)
    with (
        lazygraph.config.change(on_unsupported="raise"),
        pytest.raises(NotImplementedError, match="Det"),
    ):
        lazygraph.function([X], la.det(X + 2.0), mode=DASK)(square)


@pytest.mark.parametrize(
    "transform",
    [
        lambda x: lt.fft.rfft(x, axis=0),
        lambda x: lt.fft.irfft(x, n=9, axis=1),
        lambda x: lt.fft.fft2(x * 1j),
        lambda x: lt.fft.ihfft(x, axis=1, norm="ortho"),
    ],
    ids=["rfft-axis0", "irfft-n9", "fft2", "ihfft-ortho"],
)
def test_ffts_lower_with_their_axes_in_one_chunk(transform):
    # 64-byte chunks: every axis of the (7, 5) input is split, the transformed
    # ones are joined; the others keep their chunks (a task per chunk)
    with lazygraph.config.change(on_unsupported="raise", dask_chunk_size=64):
        check([X], [transform(X)], [XV], rtol=0)
        (out,) = _graph_of([X], [transform(X)], XV)
    assert (
        out.numblocks[0] > 1 or out.numblocks[1] > 1 or out.ndim == len(transform(X).owner.op.axes)
    )


def test_fft_gradient_lowers():
    from lazygraph.gradient import grad

    cost = lt.sum(lt.abs(lt.fft.rfft(X, axis=1)) ** 2)
    with lazygraph.config.change(on_unsupported="raise"):
        check([X], [grad(cost, X)], [XV], rtol=1e-13)


def test_an_fft_of_an_empty_axis_raises_numpys_error():
    with pytest.raises(ValueError, match="Invalid number of FFT data points"):
        lazygraph.function([X], lt.fft.fft(X, axis=0), mode=DASK)(np.zeros((0, 3)))
    check([X], [lt.fft.rfft(X, axis=1)], [np.zeros((0, 4))], rtol=0)


def _graph_of(inputs, outputs, *values):
    fn = backend.compile(FunctionGraph(inputs, outputs), dask_arrays=True)
    return fn(*values)


def test_a_fused_20_op_chain_is_one_task_per_chunk():
    x = lt.dvector("x")
    f = lazygraph.function([x], _chain(x, 20), mode=DASK, compile_options={"dask_arrays": True})
    assert len(f.fgraph.toposort()) == 1  # the rewrites fused the chain into one node
    with lazygraph.config.change(dask_chunk_size=800, dask_chunk_kernels="numba"):
        (out,) = f.fn(np.linspace(-2, 2, 1000))  # 100 float64 per chunk
    layers = {name: len(layer) for name, layer in out.dask.layers.items()}
    assert out.numblocks == (10,)
    assert sorted(layers.values()) == [10, 10]  # the input's chunks and the chain's
    (fused,) = [n for n in layers if n.startswith("lazygraph-fused")]
    (computed,) = dask.compute(out)
    np.testing.assert_allclose(
        computed,
        lazygraph.function([x], _chain(x, 20), mode=PYTHON)(np.linspace(-2, 2, 1000)),
        rtol=1e-12,
    )
    # the task runs numba's kernel for the node, loaded from its source
    assert any("def kernel" in source for source in blocks._kernels)
    # and pickles, as a distributed worker receives it
    task = out.dask.layers[fused]
    assert pickle.loads(pickle.dumps(dict(task)))


@pytest.mark.parametrize("n_chunks", [16, 64])
def test_a_reduction_over_n_chunks_is_log2_n_deep(n_chunks):
    x = lt.dvector("x")
    data = np.arange(n_chunks * 10.0)
    with lazygraph.config.change(dask_chunk_size=80), dask.config.set(split_every=2):
        (out,) = _graph_of([x], [lt.sum(lt.exp(x * 1e-3))], data)
    tree = [n for n in out.dask.layers if "partial" in n or "aggregate" in n]
    assert len(tree) == int(np.log2(n_chunks))
    np.testing.assert_allclose(out.compute(), np.exp(data * 1e-3).sum(), rtol=1e-12)


def test_grad_over_a_chunked_array_equals_the_python_backend():
    def loss(w, data):
        return lnp.sum(lnp.tanh(data @ w) ** 2) + lnp.mean(lnp.exp(-w * w))

    w = RNG.normal(size=4)
    data = RNG.normal(size=(50, 4))
    with lazygraph.config.change(eager_max_elements=0):
        want = lazygraph.grad(loss, mode="python")(w, data)
        with lazygraph.config.change(dask_chunk_size=160):
            got = lazygraph.grad(loss, mode="dask")(w, data)
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_an_alloc_of_a_read_size_is_chunked_as_the_axis_it_was_read_from():
    """The gradient of a mean allocates 1/n at the length of the mean's input
    (``Alloc`` of a ``Shape_i``): it takes that input's chunks, so the
    logistic-regression gradient step meets no rechunk (it had two, 32 tasks
    each, on 16 chunks)."""
    x, y, w = lt.dmatrix("x"), lt.dvector("y"), lt.dvector("w")
    z = lt.dot(x, w)
    step = gradient.grad(lt.mean(lt.logaddexp(0.0, z) - y * z), w)
    f = lazygraph.function([x, y, w], step, mode=DASK, compile_options={"dask_arrays": True})
    data = RNG.normal(size=(110, 3))  # 16 chunks of 7 rows, the last of 5
    labels = (RNG.random(110) > 0.5).astype(np.float64)
    weights = RNG.normal(size=3)
    args = (da.from_array(data, chunks=(7, 3)), da.from_array(labels, chunks=7), weights)
    (out,) = f.fn(*args)
    assert not [name for name in out.dask.layers if name.startswith("rechunk")]
    want = lazygraph.function([x, y, w], step, mode=PYTHON)(data, labels, weights)
    np.testing.assert_allclose(out.compute(), want, rtol=1e-12)


@pytest.mark.slow
def test_a_two_process_local_cluster_runs_the_kernels():
    distributed = pytest.importorskip("distributed")
    x = lt.dvector("x")
    out = [lt.sum(_chain(x, 8), axis=0), _chain(x, 8)[::7]]
    data = np.linspace(-3, 3, 500)
    want = lazygraph.function([x], out, mode=PYTHON)(data)
    with (
        distributed.LocalCluster(
            n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None
        ) as cluster,
        distributed.Client(cluster),
        lazygraph.config.change(dask_chunk_size=800),
    ):
        got = lazygraph.function([x], out, mode=DASK)(data)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(g, w, rtol=1e-12)
