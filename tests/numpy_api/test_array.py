"""The Array object: static attributes, conversions, copies, the array API
methods, the materialization points (which compute, and give numpy's answers)
and printing (``str`` / ``format`` / ``repr`` exactly numpy's)."""

from __future__ import annotations

import copy
import inspect
import operator
import pickle
import warnings
from typing import Any

import array_api_compat  # a dependency of lazygraph-numpy-api, not optional
import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph
import lazygraph.numpy as lnp
from lazygraph.compile.cache import stats
from lazygraph.numpy._convert import bound_value
from lazygraph.numpy._printing import summary
from tests.numpy_api.namespace_harness import check
from tests.tensor.harness import ALL, arrays, assert_numpy_equal, numpy_result

SHAPES = hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=4)


# -- static facts ---------------------------------------------------------------


@settings(max_examples=40, deadline=None)
@given(dtype=st.sampled_from(ALL), data=st.data())
def test_static_attributes_match_numpy(dtype: str, data: Any) -> None:
    a = data.draw(arrays(dtype, SHAPES))
    x = lnp.asarray(a)
    assert x.dtype == a.dtype and isinstance(x.dtype, np.dtype)
    assert x.shape == a.shape and all(type(s) is int for s in x.shape)
    assert x.ndim == a.ndim
    assert x.size == a.size and type(x.size) is int
    assert x.itemsize == a.itemsize and x.nbytes == a.nbytes
    assert x.device == "cpu"
    assert x.T.shape == a.T.shape
    assert_numpy_equal(x.T.compute(), a.T)
    if a.ndim >= 2:
        assert_numpy_equal(x.mT.compute(), np.swapaxes(a, -1, -2))
    else:
        with pytest.raises(ValueError):
            x.mT  # noqa: B018


@pytest.fixture
def graphs() -> Any:
    """Every array a graph (small known values would otherwise run at once)."""
    with lazygraph.config.change(eager_max_elements=0):
        yield


def test_sizes_that_depend_on_the_data_are_computed_when_asked_for() -> None:
    x = lnp.asarray(np.arange(5.0))
    y = x[x > 2]
    assert y._static_shape == (None,)  # unknown when the graph is built
    assert summary(y) == "Array(shape=(None,), dtype=float64, lazy)"  # computes nothing
    assert y.shape == (2,)  # numpy's ints: computed
    assert y.size == 2 and len(y) == 2
    np.testing.assert_array_equal(y.compute(), [3.0, 4.0])


@pytest.mark.parametrize("eager", [True, False])
def test_repr_and_hash_are_numpys(eager: bool) -> None:
    """repr shows numpy's repr of the value (a computed 0-d result is numpy's
    scalar, which hashes as one); a 0-d array made as one has no hash, as in
    numpy. Eager or recorded, the text is the same."""
    data = np.array([[0.5, -0.0, np.nan], [np.inf, 1e-300, 3.0]], dtype=np.float32)
    with lazygraph.config.change(eager_max_elements=100 if eager else 0):
        x = lnp.asarray(data)
        pairs = [
            (x * 2, data * 2),
            (lnp.exp(x)[0, 0], np.exp(data)[0, 0]),
            (x[0], data[0]),
            (x.sum(), data.sum()),
            (lnp.argmax(x[1]), np.argmax(data[1])),
            (x[1, 1:] > 0, data[1, 1:] > 0),
            (lnp.array(4.5), np.array(4.5)),
            (lnp.zeros((0, 2), dtype="int8"), np.zeros((0, 2), dtype="int8")),
            (lnp.asarray([1 + 2j]), np.asarray([1 + 2j])),
        ]
        for ours, theirs in pairs:
            if lazygraph.config.backend == "dask" and isinstance(ours, lnp.Array):
                assert repr(ours) == summary(ours)  # a dask array's way: no compute
                continue
            assert repr(ours) == repr(theirs)
            assert repr([ours, 1]) == repr([theirs, 1])
        total = x[1, 2].sum()
        assert hash(total) == hash(np.float32(3.0)) and {total: 1}[3.0] == 1
        for unhashable in (x, lnp.array(4.5), x[0]):
            with pytest.raises(TypeError, match="unhashable"):
                hash(unhashable)


@pytest.mark.usefixtures("graphs")
def test_the_summary_is_lazy() -> None:
    x = lnp.asarray(np.zeros((2, 3), dtype=np.float32))
    before = stats().compiles
    assert summary(x * 2) == "Array(shape=(2, 3), dtype=float32, lazy)"
    assert summary(lnp.exp(x)[0, 0]) == "Array(shape=(), dtype=float32, lazy)"
    assert summary(x[0]) == "Array(shape=(3,), dtype=float32, lazy)"
    assert stats().compiles == before


def test_array_namespace() -> None:
    x = lnp.asarray(np.arange(3))
    assert x.__array_namespace__() is lnp
    assert x.__array_namespace__(api_version="2024.12") is lnp
    assert x.__array_namespace__(api_version="2023.12") is lnp
    with pytest.raises(ValueError, match=r"1999\.01"):
        x.__array_namespace__(api_version="1999.01")


def test_array_api_compat_finds_lazygraph_numpy() -> None:
    x = lnp.asarray(np.arange(3))
    assert array_api_compat.array_namespace(x) is lnp
    assert array_api_compat.array_namespace(x, 1.0) is lnp
    assert array_api_compat.is_array_api_obj(x)
    assert array_api_compat.device(x) == "cpu"


def test_to_device() -> None:
    x = lnp.asarray(np.arange(3))
    assert x.to_device("cpu") is x
    assert x.to_device(x.device) is x
    if _gpu_backend():
        assert x.to_device("cuda").device != x.device
    else:
        with pytest.raises(ValueError, match="cuda"):
            x.to_device("cuda")


def _gpu_backend() -> bool:
    """Whether this run's backend is jax and jax sees a GPU (``cuda`` is a device
    then, not an error)."""
    if lazygraph.config.backend != "jax":
        return False
    import jax

    return jax.default_backend() == "gpu"


@settings(max_examples=40, deadline=None)
@given(src=st.sampled_from(ALL), dst=st.sampled_from(ALL), data=st.data())
def test_astype_matches_numpy(src: str, dst: str, data: Any) -> None:
    a = data.draw(arrays(src, (4,), finite=True, min_value=-1000, max_value=1000))
    x = lnp.asarray(a)
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        expected = a.astype(dst)
        got = x.astype(dst)
        assert got.dtype == expected.dtype
        assert_numpy_equal(got.compute(), expected)
    same = x.astype(src, copy=False)
    assert same is x
    copied = x.astype(src)
    assert copied is not x
    copied[0] = 0
    assert_numpy_equal(x.compute(), a)


def test_astype_casting_rule() -> None:
    x = lnp.asarray(np.arange(3.0))
    with pytest.raises(TypeError):
        x.astype("int32", casting="safe")
    assert x.astype("complex128", casting="safe").dtype == np.complex128


def test_copy_protocols() -> None:
    x = lnp.asarray(np.arange(3.0))
    for c in (x.copy(), copy.copy(x), copy.deepcopy(x)):
        assert c is not x
        c[0] = 5
        assert float(x[0]) == 0.0
    restored = pickle.loads(pickle.dumps(x * 2))
    assert isinstance(restored, lnp.Array)
    np.testing.assert_array_equal(restored.compute(), [0.0, 2.0, 4.0])


# -- asarray ---------------------------------------------------------------------


def test_asarray_binds_inputs_not_constants() -> None:
    data = np.arange(4.0)
    x = lnp.asarray(data)
    var = x._var
    assert var.owner is None
    np.testing.assert_array_equal(bound_value(var), data)
    assert not bound_value(var).flags.writeable
    assert lnp.asarray(x) is x
    assert lnp.asarray(x, dtype="float32").dtype == np.float32
    assert lnp.asarray([1, 2], float).dtype == np.float64  # numpy's positional dtype
    assert lnp.asarray(data, None, "F").shape == (4,)
    y = lnp.asarray([[1, 2], [3, 4]], dtype="int8")
    assert y.dtype == np.int8 and y.shape == (2, 2)
    z = lnp.asarray([x, x + 1])
    np.testing.assert_array_equal(z.compute(), [data, data + 1])
    assert lnp.asarray(3.5).dtype == np.float64
    with pytest.raises(ValueError, match="copy=False"):
        lnp.asarray([1, 2], copy=False)
    with pytest.raises(ValueError, match="device"):
        lnp.asarray([1, 2], device="gpu")
    with pytest.raises(TypeError):
        lnp.asarray(np.array(["a", "b"]))
    with pytest.raises(TypeError, match="float16"):
        lnp.asarray(np.ones(2, dtype=np.float16))
    swapped = np.arange(3.0, dtype=">f8")  # non-native byte order: converted
    np.testing.assert_array_equal((lnp.asarray(swapped) + 1).compute(), swapped + 1)


def test_new_data_of_the_same_type_does_not_recompile() -> None:
    def program(data: np.ndarray) -> np.ndarray:
        x = lnp.asarray(data)
        return ((x - x.mean()) * 3.0).compute()

    program(np.arange(5.0))
    before = stats().compiles
    rng = np.random.default_rng(0)
    for _ in range(3):
        d = rng.standard_normal(5)
        out = program(d)
        expected = (d - d.mean()) * 3.0
        np.testing.assert_allclose(out, expected)
    assert stats().compiles == before


def _gradient_descent(xp, X, y, steps):
    """Logistic regression written update-first: ``w`` is updated after the
    gradient it reads is built, and the convergence test computes only that
    gradient, never ``w`` itself."""
    w = xp.zeros(X.shape[1])
    for _ in range(steps):
        p = 1 / (1 + xp.exp(-(X @ w)))
        grad = X.T @ (p - y) / X.shape[0]
        w = w - 0.1 * grad
        if xp.linalg.norm(grad) < 1e-12:
            break
    return w


def test_a_loop_that_updates_after_computing_keeps_its_graph_bounded() -> None:
    # Computing the gradient computes the w it reads; the new w's graph reads
    # that value from then on instead of repeating every earlier update (it used
    # to grow one step per iteration and compile a longer graph every time).
    rng = np.random.default_rng(0)
    X, y = rng.standard_normal((30, 4)), (rng.random(30) > 0.5) * 1.0
    expected = _gradient_descent(np, X, y, 40)
    before = stats().compiles
    got = _gradient_descent(lnp, lnp.asarray(X), lnp.asarray(y), 40)
    np.testing.assert_allclose(got.compute(), expected, rtol=1e-12)
    assert stats().compiles - before <= 4


@pytest.mark.usefixtures("graphs")
def test_a_pending_array_reads_the_value_a_computation_passed_through() -> None:
    x = lnp.asarray(np.arange(4.0))
    a = x * 2  # not kept below: only b reads it
    b = a + 1
    c = lnp.sqrt(a)
    del a
    np.testing.assert_array_equal(c.compute(), np.sqrt(np.arange(4.0) * 2))
    (node,) = {b._var.owner}
    assert node.inputs[0].owner is None, "b starts from the computed x * 2"
    np.testing.assert_array_equal(b.compute(), np.arange(4.0) * 2 + 1)


# -- materialization ---------------------------------------------------------------


def _same_outcome(lazy_fn: Any, numpy_fn: Any) -> None:
    expected, exc = numpy_result(numpy_fn)
    if exc is not None:
        with pytest.raises(exc), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            lazy_fn()
        return
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = lazy_fn()
    assert type(got) is type(expected), (type(got), type(expected))
    if isinstance(expected, float) and np.isnan(expected):
        assert np.isnan(got)
    else:
        assert got == expected or (got != got and expected != expected)


@settings(max_examples=60, deadline=None)
@given(
    dtype=st.sampled_from(ALL),
    shape=st.sampled_from([(), (1,), (1, 1), (0,), (2,), (2, 2)]),
    conv=st.sampled_from([bool, int, float, complex, operator.index, len]),
    data=st.data(),
)
def test_scalar_conversions_match_numpy(dtype: str, shape: Any, conv: Any, data: Any) -> None:
    a = data.draw(arrays(dtype, shape))
    _same_outcome(lambda: conv(lnp.asarray(a)), lambda: conv(a))


@settings(max_examples=40, deadline=None)
@given(dtype=st.sampled_from(ALL), data=st.data())
def test_tolist_item_iter_match_numpy(dtype: str, data: Any) -> None:
    a = data.draw(arrays(dtype, SHAPES))
    x = lnp.asarray(a)
    assert x.tolist() == a.tolist() or np.array_equal(a, np.asarray(x.tolist()), equal_nan=True)
    _same_outcome(lambda: x.item(), lambda: a.item())
    if a.size:
        assert np.array_equal(np.asarray(x.item(0)), np.asarray(a.item(0)), equal_nan=True)
    if a.ndim == 0:
        with pytest.raises(TypeError):
            iter(x).__next__()
        return
    items = list(x)
    assert len(items) == len(a)
    for got, ref in zip(items, a, strict=True):
        got_np = got.compute() if isinstance(got, lnp.Array) else got
        assert type(got_np) is type(ref) or isinstance(got, lnp.Array)
        assert_numpy_equal(got_np, ref)


def test_iteration_of_rows_gives_views() -> None:
    a_np = np.zeros((2, 3))
    a = lnp.asarray(a_np)
    for row, row_np in zip(a, a_np, strict=True):
        row[0] = 1
        row_np[0] = 1
    assert_numpy_equal(a.compute(), a_np)


def test_numpy_methods_delegate_to_the_namespace() -> None:
    a = np.array([[3.0, -1.0, 2.0], [0.5, 4.0, -2.0]])
    x = lnp.asarray(a)
    checks = [
        (x.sum(axis=0), a.sum(axis=0)),
        (x.mean(), a.mean()),
        (x.std(axis=1, ddof=1), a.std(axis=1, ddof=1)),
        (x.max(axis=1, keepdims=True), a.max(axis=1, keepdims=True)),
        (x.argmin(), a.argmin()),
        (x.cumsum(axis=1), a.cumsum(axis=1)),
        (x.clip(0, 2), a.clip(0, 2)),
        (x.round(1), a.round(1)),
        (x.dot(a.T), a.dot(a.T)),
        (x.argsort(axis=1), a.argsort(axis=1)),
        (x.take([0, 2], axis=1), a.take([0, 2], axis=1)),
        (x.repeat(2, axis=0), a.repeat(2, axis=0)),
        (x.trace(), a.trace()),
        ((x > 0).all(axis=0), (a > 0).all(axis=0)),
        (x.conj(), a.conj()),
        (round(x, 1), np.round(a, 1)),
    ]
    for got, expected in checks:
        assert_numpy_equal(got.compute(), expected)
    assert x.tobytes() == a.tobytes()
    for got_i, expected_i in zip(x.nonzero(), a.nonzero(), strict=True):
        assert_numpy_equal(got_i.compute(), expected_i)


def test_contains() -> None:
    x = lnp.asarray(np.array([1, 2, 3]))
    assert 2 in x
    assert 5 not in x


@settings(max_examples=40, deadline=None)
@given(dtype=st.sampled_from(ALL), data=st.data())
def test_array_protocol(dtype: str, data: Any) -> None:
    a = data.draw(arrays(dtype, SHAPES))
    x = lnp.asarray(a) + 0 if dtype != "bool" else lnp.asarray(a)
    expected = a + 0 if dtype != "bool" else a
    out = np.asarray(x)
    assert type(out) is np.ndarray and out.flags.writeable
    assert_numpy_equal(out, expected)
    assert_numpy_equal(np.asarray(x, dtype="complex128"), expected.astype("complex128"))
    assert_numpy_equal(np.array(x, copy=True), expected)
    assert_numpy_equal(x.__array__(), expected)


def test_dlpack() -> None:
    x = lnp.asarray(np.arange(6.0).reshape(2, 3)) * 2
    expected = np.arange(6.0).reshape(2, 3) * 2
    assert x.__dlpack_device__() == expected.__dlpack_device__() == (1, 0)
    np.testing.assert_array_equal(np.from_dlpack(x), expected)
    # the array API's keywords, as numpy's ndarray.__dlpack__ takes them
    params = inspect.signature(lnp.Array.__dlpack__).parameters
    assert [(p.name, p.kind, p.default) for p in params.values()][1:] == [
        (name, inspect.Parameter.KEYWORD_ONLY, None)
        for name in ("stream", "max_version", "dl_device", "copy")
    ]
    for kwargs in (
        {"max_version": (1, 0)},
        {"copy": True},
        {"copy": False, "max_version": (1, 0)},
        {"dl_device": (1, 0)},
    ):
        np.testing.assert_array_equal(np.from_dlpack(_Exporter(x, kwargs)), expected)
    for kwargs, error in (
        ({"stream": 1}, RuntimeError),  # numpy's: only stream=None
        ({"dl_device": (2, 0)}, BufferError),
        ({"bogus": 1}, TypeError),
    ):
        with pytest.raises(error):
            x.__dlpack__(**kwargs)
        with pytest.raises(error):
            expected.__dlpack__(**kwargs)


class _Exporter:
    """``x`` handed to ``from_dlpack`` with extra ``__dlpack__`` keywords."""

    def __init__(self, x: Any, kwargs: dict[str, Any]) -> None:
        self.x, self.kwargs = x, kwargs

    def __dlpack__(self, **kwargs: Any) -> Any:
        return self.x.__dlpack__(**{**kwargs, **self.kwargs})

    def __dlpack_device__(self) -> Any:
        return self.x.__dlpack_device__()


CLIP_CALLS: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
    ((0, 6), {}),
    ((), {"min": 0, "max": 6}),
    ((), {"min": 0}),
    ((), {"max": 6}),
    ((), {}),
    ((None, None), {}),
    ((), {"min": None, "max": None}),
    ((), {"a_min": 1, "a_max": 4}),
    ((), {"min": np.array([0, 1, 2, 3], dtype=np.int8), "max": np.int8(4)}),
    ((), {"min": np.array([[0], [1]], dtype=np.int8)}),
    ((), {"min": 1.5}),
    ((), {"min": 300}),  # OverflowError, as numpy
    ((0, 6), {"max": 3}),  # ValueError: a_min and a_max with max
    ((0,), {"min": 3}),  # TypeError
    ((), {"a_max": 2, "max": 3}),  # TypeError
]


@pytest.mark.parametrize("method", [False, True])
@pytest.mark.parametrize(("args", "kwargs"), CLIP_CALLS, ids=str)
def test_clip_takes_numpys_and_the_array_apis_names(
    args: tuple[Any, ...], kwargs: dict[str, Any], method: bool
) -> None:
    """``clip(x, a_min, a_max)`` and ``clip(x, /, min=None, max=None)``, as a
    function and as a method: numpy's values, dtypes and error types."""
    x = np.array([-3, 0, 5, 9], dtype=np.int8)

    if method:
        check(lambda a: lnp.asarray(a).clip(*args, **kwargs), lambda a: a.clip(*args, **kwargs), x)
    else:
        check(lambda a: lnp.clip(a, *args, **kwargs), lambda a: np.clip(a, *args, **kwargs), x)


def test_clip_takes_the_array_apis_positional_min() -> None:
    """The array API's ``clip(x, min)`` (numpy's signature wants both bounds):
    the lower bound only, as array_api_compat.numpy gives it."""
    import array_api_compat.numpy as xp

    x = np.array([-3.0, 0.5, 9.0])
    np.testing.assert_array_equal(lnp.clip(lnp.asarray(x), 0.0).compute(), xp.clip(x, 0.0))
    np.testing.assert_array_equal(
        lnp.clip(lnp.asarray(x), None, 1.0).compute(), xp.clip(x, None, 1.0)
    )


# -- printing -----------------------------------------------------------------------

FORMATS = ["", ".3f", "10.2e", "g", "+", "8"]


@settings(max_examples=60, deadline=None)
@given(dtype=st.sampled_from(ALL), data=st.data(), spec=st.sampled_from(FORMATS))
def test_str_and_format_match_numpy(dtype: str, data: Any, spec: str) -> None:
    a = data.draw(arrays(dtype, hnp.array_shapes(min_dims=0, max_dims=3, min_side=0, max_side=12)))
    x = lnp.asarray(a)
    assert str(x) == str(a)
    assert f"{x}" == f"{a}"
    _same_outcome(lambda: format(x, spec), lambda: format(a, spec))
    assert repr(x.compute()) == repr(a)


def test_printing_large_arrays_summarizes_like_numpy() -> None:
    a = np.arange(5000.0).reshape(50, 100)
    x = lnp.asarray(a)
    assert str(x) == str(a)
    with np.printoptions(precision=2, threshold=5, edgeitems=1):
        assert str(x / 7) == str(a / 7)


# -- reshape / ravel / flatten orders (issue 16, item 13) ------------------------------

_LAYOUTS = {
    "c": lambda m: m,
    "transposed": lambda m: m.T,  # Fortran-contiguous: "A" reads as "F"
    "permuted": lambda m: m.transpose(1, 0, 2),  # neither: "K" follows the strides
    "reversed": lambda m: m[:, ::-1],
    "transposed_reversed": lambda m: m.T[::-1],
    "sliced": lambda m: m.reshape(6, 4)[:, 1:3],
}


@pytest.mark.parametrize("layout", list(_LAYOUTS))
@pytest.mark.parametrize("order", ["C", "F", "A", "K", None])
def test_ravel_and_flatten_orders_match_numpy(layout: str, order: Any) -> None:
    base = np.arange(24).reshape(2, 3, 4)
    n, lz = _LAYOUTS[layout](base), _LAYOUTS[layout](lnp.asarray(base))
    np.testing.assert_array_equal(lz.ravel(order=order).compute(), n.ravel(order=order))
    np.testing.assert_array_equal(lz.flatten(order=order).compute(), n.flatten(order=order))
    np.testing.assert_array_equal(
        lnp.ravel(lz, order=order or "C").compute(), np.ravel(n, order=order or "C")
    )


@pytest.mark.parametrize("layout", list(_LAYOUTS))
@pytest.mark.parametrize("order", ["C", "F", "A", None])
def test_reshape_orders_match_numpy(layout: str, order: Any) -> None:
    base = np.arange(24).reshape(2, 3, 4)
    n, lz = _LAYOUTS[layout](base), _LAYOUTS[layout](lnp.asarray(base))
    half = n.size // 2
    np.testing.assert_array_equal(
        lz.reshape(half, 2, order=order).compute(), n.reshape(half, 2, order=order)
    )
    np.testing.assert_array_equal(
        lz.reshape((2, half), order=order).compute(), n.reshape((2, half), order=order)
    )


def test_reshape_order_f_is_a_view_where_numpy_makes_one() -> None:
    x = np.arange(6.0).reshape(2, 3)
    lx = lnp.asarray(x.copy())
    v, lv = x.T.reshape(6, order="F"), lx.T.reshape(6, order="F")  # numpy: a view
    v[0] = 99
    lv[0] = 99
    np.testing.assert_array_equal(lx.compute(), x)
    w, lw = x.reshape((3, 2), order="F"), lx.reshape((3, 2), order="F")  # numpy: a copy
    w[0, 0] = -1
    lw[0, 0] = -1
    np.testing.assert_array_equal(lx.compute(), x)
    with pytest.raises(ValueError, match="Unable to avoid creating a copy"):
        x.reshape(3, 2, order="F", copy=False)
    with pytest.raises(ValueError, match="Unable to avoid creating a copy"):
        lx.reshape(3, 2, order="F", copy=False)


def test_reshape_order_errors_match_numpy() -> None:
    lx = lnp.asarray(np.arange(6))
    with pytest.raises(ValueError, match="order 'K' is not permitted"):
        lx.reshape(2, 3, order="K")
    for call in (
        lambda a: a.reshape(6, order="X"),
        lambda a: a.ravel("X"),
        lambda a: a.flatten("X"),
    ):
        with pytest.raises(ValueError, match="order must be one of"):
            call(np.arange(6))
        with pytest.raises(ValueError, match="order must be one of"):
            call(lx)


def test_base_flags_and_view_follow_numpy() -> None:
    a_np = np.arange(6.0).reshape(2, 3)
    a = lnp.asarray(np.arange(6.0)).reshape(2, 3)
    for expr in (lambda x: x, lambda x: x.T, lambda x: x[:, ::2], lambda x: x[0], lambda x: x.T.T):
        got, want = expr(a).flags, expr(a_np).flags
        for key in ("C_CONTIGUOUS", "F_CONTIGUOUS", "OWNDATA"):
            assert got[key] == want[key], (key, got, want)
        assert (expr(a).base is None) == (expr(a_np).base is None)
    v = a.view()
    assert v.base is a
    v[0, 0] = -1.0
    assert float(a[0, 0]) == -1.0
    with pytest.warns(lnp.LazygraphFallbackWarning):
        bits = a.view(np.int64)
    np.testing.assert_array_equal(bits.compute(), a.compute().view(np.int64))
    with pytest.raises(KeyError):
        a.flags["NOPE"]


def test_an_empty_numpy_array_stays_writeable_after_asarray() -> None:
    """Binding a caller's empty array once made the caller's own array read-only
    (numpy's may_share_memory counts no shared bytes in an empty array)."""
    for shape in [(0,), (2, 0)]:
        a = np.zeros(shape)
        lnp.asarray(a)
        lnp.add(a, 1)
        assert a.flags.writeable


@pytest.mark.parametrize("order", ["C", "F", "A", "K", "c", "f", "a", "k", None, "x", "fortran", 1])
def test_order_letters_are_read_in_either_case(order) -> None:
    """numpy reads ``order`` case-insensitively and raises ValueError for other
    values; lazygraph.numpy does the same everywhere it takes one."""
    data = np.arange(6.0).reshape(2, 3)
    calls = [
        lambda m, a: a.flatten(order),
        lambda m, a: a.ravel(order),
        lambda m, a: m.ravel(a, order),
        lambda m, a: a.reshape(6, order=order),
        lambda m, a: m.asarray(a, order=order),
        lambda m, a: m.add(a, 1.0, order=order),
        lambda m, a: m.zeros(3, order=order),
        lambda m, a: m.ones_like(a, order=order),
    ]
    for call in calls:
        try:
            want = call(np, data)
        except (ValueError, TypeError) as exc:
            with pytest.raises(type(exc)):
                call(lnp, lnp.asarray(data))
            continue
        assert_numpy_equal(np.asarray(call(lnp, lnp.asarray(data))), want)
