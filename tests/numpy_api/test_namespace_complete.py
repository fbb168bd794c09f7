"""The whole numpy namespace: every public name of numpy (and of the numpy
submodules lazygraph.numpy mirrors) exists in lazygraph.numpy; the eager
fallbacks (printing, files, datetimes, numpy.matrix) give numpy's answers, as
lazy arrays where numeric, without a warning; the submodules import; and
docs/numpy-coverage.md is what its generator writes."""

from __future__ import annotations

import importlib.util
import inspect
import io
import sys
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import lazygraph
import lazygraph.numpy as lnp
from lazygraph.numpy import _fallback, _fallback_io, _interop
from lazygraph.numpy._errors import UnsupportedArgumentsError
from lazygraph.numpy._interop import LazygraphFallbackWarning
from lazygraph.numpy.lib.stride_tricks import as_strided, sliding_window_view

ROOT = Path(__file__).resolve().parents[2]


def _load_generator() -> Any:
    spec = importlib.util.spec_from_file_location(
        "gen_numpy_coverage", ROOT / "docs" / "gen_numpy_coverage.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["gen_numpy_coverage"] = module
    spec.loader.exec_module(module)
    return module


GEN = _load_generator()


@pytest.fixture(autouse=True)
def _fallbacks_here_do_not_warn() -> Any:
    """The fallbacks of this file lose nothing lazy: any LazygraphFallbackWarning
    is an error (the as_strided test expects its own)."""
    _interop._warned.clear()
    with warnings.catch_warnings():
        warnings.simplefilter("error", LazygraphFallbackWarning)
        warnings.simplefilter("ignore", PendingDeprecationWarning)  # (numpy.matrix)
        yield


def lazy(value: Any, dtype: Any = None) -> Any:
    return lnp.asarray(np.asarray(value, dtype=dtype))


# -- every name ---------------------------------------------------------------------------


@pytest.mark.parametrize(("numpy_name", "path"), GEN.MODULES, ids=[m for m, _ in GEN.MODULES])
def test_every_public_numpy_name_exists(numpy_name: str, path: str) -> None:
    numpy_module = GEN.resolve(np, numpy_name.removeprefix("numpy"))
    counterpart = GEN.resolve(lnp, path)
    names = GEN.public_names(numpy_module)
    assert names, numpy_name
    missing = [n for n in names if counterpart is None or not hasattr(counterpart, n)]
    where = "lazygraph.numpy" + (f".{path}" if path else "")
    assert not missing, f"{len(missing)} names of {numpy_name} missing in {where}: {missing}"


@pytest.mark.parametrize(
    "module",
    [
        "lazygraph.numpy.testing",
        "lazygraph.numpy.ma",
        "lazygraph.numpy.polynomial",
        "lazygraph.numpy.lib",
        "lazygraph.numpy.lib.stride_tricks",
        "lazygraph.numpy.char",
        "lazygraph.numpy.strings",
        "lazygraph.numpy.rec",
        "lazygraph.numpy.ctypeslib",
        "lazygraph.numpy.dtypes",
        "lazygraph.numpy.exceptions",
        "lazygraph.numpy.typing",
        "lazygraph.numpy.f2py",
        "lazygraph.numpy.core",
    ],
)
def test_submodules_import_and_mirror_numpy(module: str) -> None:
    mod = importlib.import_module(module)
    numpy_module = GEN.resolve(np, module.removeprefix("lazygraph.numpy"))
    assert getattr(lnp, module.split(".")[2]) is importlib.import_module(
        ".".join(module.split(".")[:3])
    )
    missing = [n for n in GEN.public_names(numpy_module) if not hasattr(mod, n)]
    assert not missing
    assert all(hasattr(mod, n) for n in getattr(mod, "__all__", []))


def test_submodule_imports_the_numpy_way() -> None:
    import lazygraph.numpy.testing as npt
    from lazygraph.numpy.lib.stride_tricks import sliding_window_view as swv

    npt.assert_allclose(lnp.arange(3.0) + 1, [1.0, 2.0, 3.0])
    with pytest.raises(AssertionError):
        npt.assert_array_equal(lnp.arange(3), [0, 1, 3])
    assert swv is sliding_window_view
    assert lnp.linalg.test is np.linalg.test and lnp.fft.test is np.fft.test


def test_numpy_modules_take_lazy_arrays() -> None:
    x = lazy([1.0, np.nan, 3.0])
    masked = lnp.ma.masked_invalid(x)
    assert isinstance(masked, np.ma.MaskedArray) and float(masked.sum()) == 4.0
    p = lnp.polynomial.Polynomial([1.0, 2.0])
    np.testing.assert_array_equal(p(lnp.arange(3.0)), [1.0, 3.0, 5.0])
    assert lnp.rec.fromarrays([lnp.arange(2), lnp.ones(2)], names="a,b").a.tolist() == [0, 1]
    assert lnp.char.add(["a"], ["b"]).tolist() == ["ab"]
    assert lnp.exceptions.AxisError is np.exceptions.AxisError
    assert lnp.dtypes.Float64DType is np.dtypes.Float64DType
    assert lnp.typing.ArrayLike is np.typing.ArrayLike
    assert lnp.f2py.get_include() == np.f2py.get_include()
    assert "run_main" in dir(lnp.f2py)
    with pytest.warns(DeprecationWarning):
        assert lnp.core.multiarray is not None
    scimath = lnp.lib.scimath
    assert scimath is getattr(lnp, "emath", np.lib.scimath)
    assert lnp.lib.NumpyVersion is np.lib.NumpyVersion


# -- the fallbacks are functions with numpy's signature --------------------------------------

FALLBACKS = sorted(n for n in _fallback.__all__ if GEN.is_fallback(getattr(_fallback, n)))
NUMPY_OWN = [
    "matrix",
    "broadcast",
    "busdaycalendar",
    "flatiter",
    "memmap",
    "nditer",
    "recarray",
    "record",
    "get_include",
    "getbufsize",
    "setbufsize",
    "geterrcall",
    "seterrcall",
    "info",
    "show_config",
    "show_runtime",
    "test",
]


def test_every_fallback_is_listed() -> None:
    assert set(FALLBACKS) == set(_fallback.__all__) - set(NUMPY_OWN) - set(_fallback.SUBMODULES)
    assert set(_fallback_io.__all__) <= set(FALLBACKS)


@pytest.mark.parametrize("name", FALLBACKS)
def test_fallback_is_marked_documented_and_has_numpys_signature(name: str) -> None:
    own = getattr(_fallback, name)
    assert own.__lazygraph_fallback__ is True
    assert own.__doc__ and ">>>" in own.__doc__
    assert GEN.is_fallback(getattr(lnp, name))
    try:
        expected = inspect.signature(getattr(np, name))
    except ValueError:  # (fromstring: no text signature in numpy)
        expected = inspect.signature(own)
    assert inspect.signature(getattr(lnp, name)) == expected


@pytest.mark.parametrize("name", NUMPY_OWN)
def test_numpys_own_objects_are_numpys(name: str) -> None:
    assert getattr(lnp, name) is getattr(np, name)


# -- printing ------------------------------------------------------------------------------

ARRAYS = [
    np.arange(6.0).reshape(2, 3) / 3,
    np.array([1, -2, 3], dtype="int32"),
    np.array([True, False]),
    np.array(2.5),
    np.zeros((0, 2)),
    np.array([1 + 2j, np.nan, np.inf]),
    np.linspace(0.0, 1.0, 2000),
]


@pytest.mark.parametrize("value", ARRAYS, ids=lambda v: f"{v.dtype}{v.shape}")
@pytest.mark.parametrize(
    ("name", "kwargs"),
    [
        ("array2string", {}),
        ("array2string", {"precision": 2, "separator": ", ", "suppress_small": True}),
        ("array_repr", {}),
        ("array_repr", {"max_line_width": 30}),
        ("array_str", {"precision": 3}),
    ],
)
def test_printing_is_numpys_text(value: np.ndarray, name: str, kwargs: dict[str, Any]) -> None:
    expected = getattr(np, name)(value, **kwargs)
    assert getattr(lnp, name)(lnp.asarray(value), **kwargs) == expected
    assert getattr(np, name)(lnp.asarray(value), **kwargs) == expected  # (through numpy)


@pytest.mark.parametrize("name", ["array2string", "array_repr", "array_str"])
def test_printing_a_list_is_numpys_answer(name: str) -> None:
    try:
        expected: Any = getattr(np, name)([1.5, 2.0])
    except Exception as exc:  # (numpy's array2string wants an array)
        with pytest.raises(type(exc)):
            getattr(lnp, name)([1.5, 2.0])
    else:
        assert getattr(lnp, name)([1.5, 2.0]) == expected


def test_number_formatting() -> None:
    for n, width in [(5, None), (-5, 8), (0, 3)]:
        assert lnp.binary_repr(lazy(n), width) == np.binary_repr(n, width)
    assert lnp.base_repr(lazy(255), 16, padding=2) == np.base_repr(255, 16, padding=2)
    for value in [np.float32(0.1), np.float64(1 / 3), np.float64(1e-300)]:
        x = lnp.asarray(np.asarray(value))
        for f in ("format_float_positional", "format_float_scientific"):
            assert getattr(lnp, f)(x) == getattr(np, f)(value)
            assert getattr(lnp, f)(x, precision=3) == getattr(np, f)(value, precision=3)


# -- numpy.matrix, datetimes, iteration -------------------------------------------------------


def test_matrix_helpers_give_numpys_matrix() -> None:
    a = lazy([[1.0, 2.0], [3.0, 4.0]])
    m = lnp.asmatrix(a)
    assert type(m) is np.matrix
    np.testing.assert_array_equal(m * m, np.asmatrix(np.asarray(a)) @ np.asarray(a))
    b = lnp.bmat([[a, lnp.eye(2)]])
    assert type(b) is np.matrix and b.shape == (2, 4)
    assert lnp.bmat("a, a").shape == (2, 4)  # (names read in the caller's frame)
    assert type(lnp.matrix(a)) is np.matrix


def test_datetime_functions() -> None:
    count = lnp.busday_count(["2024-01-01", "2024-03-01"], "2024-06-01")
    assert isinstance(count, lnp.Array)
    np.testing.assert_array_equal(
        count, np.busday_count(["2024-01-01", "2024-03-01"], "2024-06-01")
    )
    offsets = lazy([0, 1, 5])
    expected = np.busday_offset("2024-01-05", [0, 1, 5])
    np.testing.assert_array_equal(lnp.busday_offset("2024-01-05", offsets), expected)
    busy = lnp.is_busday(np.arange("2024-01-01", "2024-01-08", dtype="M8[D]"))
    assert isinstance(busy, lnp.Array) and busy.tolist() == [True] * 5 + [False] * 2
    calendar = lnp.busdaycalendar(weekmask="1111110")
    assert int(lnp.busday_count("2024-01-01", "2024-01-08", busdaycal=calendar)) == 6
    dates = np.array(["2024-01-02T03:04", "NaT"], dtype="M8[m]")
    assert lnp.datetime_as_string(dates, unit="h").tolist() == ["2024-01-02T03", "NaT"]
    assert lnp.datetime_data(dates.dtype) == ("m", 1)
    assert lnp.isnat(dates).tolist() == [False, True]
    with pytest.raises(TypeError):
        lnp.isnat(lnp.ones(2))  # (numpy's error: isnat needs datetimes)


def test_iteration_helpers() -> None:
    a = lnp.arange(6).reshape(2, 3)
    assert [int(v) for v in lnp.nditer(a)] == list(range(6))
    assert lnp.broadcast(a, lnp.ones(3)).shape == (2, 3)
    outer, inner = lnp.nested_iters(a, [[0], [1]])
    assert [[int(v) for v in inner] for _ in outer] == [[0, 1, 2], [3, 4, 5]]


# -- files -------------------------------------------------------------------------------------


def test_save_load_round_trip(tmp_path: Path) -> None:
    x = lnp.arange(12.0).reshape(3, 4) * 0.5
    lnp.save(tmp_path / "x.npy", x)
    back = lnp.load(tmp_path / "x.npy")
    assert isinstance(back, lnp.Array)
    np.testing.assert_array_equal(back, np.asarray(x))
    np.save(tmp_path / "y.npy", x + 1)  # (numpy's own save, on a lazy array)
    np.testing.assert_array_equal(np.load(tmp_path / "y.npy"), np.asarray(x) + 1)
    mapped = lnp.load(tmp_path / "x.npy", mmap_mode="r")
    assert isinstance(mapped, np.memmap)
    np.save(tmp_path / "s.npy", np.array(["a", "b"]))
    assert lnp.load(tmp_path / "s.npy").tolist() == ["a", "b"]


@pytest.mark.parametrize("save", ["savez", "savez_compressed"])
def test_savez_round_trip(tmp_path: Path, save: str) -> None:
    x, y = lnp.arange(3), lnp.ones((2, 2)) / 3
    getattr(lnp, save)(tmp_path / "a.npz", x, y=y)
    with lnp.load(tmp_path / "a.npz") as archive:
        assert isinstance(archive, np.lib.npyio.NpzFile)
        np.testing.assert_array_equal(archive["arr_0"], np.asarray(x))
        np.testing.assert_array_equal(archive["y"], np.asarray(y))


def test_savetxt_loadtxt_round_trip(tmp_path: Path) -> None:
    x = lnp.linspace(0.0, 1.0, 6).reshape(2, 3)
    lnp.savetxt(tmp_path / "x.txt", x, delimiter=",", header="a,b,c")
    back = lnp.loadtxt(tmp_path / "x.txt", delimiter=",")
    assert isinstance(back, lnp.Array)
    np.testing.assert_array_equal(back, np.asarray(x))
    columns = lnp.loadtxt(tmp_path / "x.txt", delimiter=",", unpack=True)
    np.testing.assert_array_equal(columns, np.asarray(x).T)
    record = lnp.loadtxt(io.StringIO("1 2.5\n3 4.5"), dtype=[("i", "i8"), ("f", "f8")])
    assert type(record) is np.ndarray and record["i"].tolist() == [1, 3]


def test_genfromtxt() -> None:
    text = "# a b\n1,2\n3,\n5,6\n"
    table = lnp.genfromtxt(io.StringIO(text), delimiter=",")
    assert isinstance(table, lnp.Array)
    np.testing.assert_array_equal(table, np.genfromtxt(io.StringIO(text), delimiter=","))
    masked = lnp.genfromtxt(io.StringIO(text), delimiter=",", usemask=True)
    assert isinstance(masked, np.ma.MaskedArray) and masked.mask.sum() == 1
    named = lnp.genfromtxt(io.StringIO("a,b\n1,x\n"), delimiter=",", names=True, dtype=None)
    assert named.dtype.names == ("a", "b")


def test_binary_and_text_readers(tmp_path: Path) -> None:
    data = np.arange(5, dtype="int16")
    data.tofile(tmp_path / "d.bin")
    np.testing.assert_array_equal(lnp.fromfile(tmp_path / "d.bin", dtype="int16"), data)
    from_buffer = lnp.frombuffer(data.tobytes(), dtype="int16", count=3, offset=2)
    assert isinstance(from_buffer, lnp.Array) and from_buffer.tolist() == [1, 2, 3]
    assert lnp.fromstring("1 2 3", dtype="int64", sep=" ").tolist() == [1, 2, 3]
    with pytest.raises(ValueError):
        lnp.fromstring("1 2 3")  # (numpy's binary mode is removed)
    found = lnp.fromregex(io.StringIO("x=1.5 x=2.5"), r"x=(\S+)", [("x", "f8")])
    assert found["x"].tolist() == [1.5, 2.5]


def test_fromiter_of_lazy_scalars() -> None:
    x = lnp.arange(5.0) * 2
    got = lnp.fromiter((x[i] + 1 for i in range(5)), dtype=float)
    assert isinstance(got, lnp.Array) and got.tolist() == [1.0, 3.0, 5.0, 7.0, 9.0]
    naturals = iter(range(10**9))
    assert lnp.fromiter(naturals, "int64", count=3).tolist() == [0, 1, 2]
    assert next(naturals) == 3  # (count= reads no further)
    pairs = lnp.fromiter(((x[i], i) for i in range(2)), dtype=[("v", "f8"), ("i", "i8")])
    assert pairs["v"].tolist() == [0.0, 2.0]
    with pytest.raises(ValueError):
        lnp.fromiter(iter([1.0]), float, count=2)


# -- stride tricks -----------------------------------------------------------------------------

WINDOWS = [
    ((7,), 3, None),
    ((7,), 7, None),
    ((7,), 0, None),
    ((50,), 40, None),  # (a long window: the gather)
    ((3, 4), (2, 2), None),
    ((3, 4), 2, 1),
    ((3, 4), (2, 3), (1, 0)),
    ((3, 5), (2, 2), (1, 1)),  # (an axis windowed twice)
    ((2, 3, 4), (2,), (-1,)),
]


@pytest.mark.parametrize(("shape", "window", "axis"), WINDOWS)
def test_sliding_window_view_is_numpys(shape: Any, window: Any, axis: Any) -> None:
    value = np.arange(float(np.prod(shape))).reshape(shape)
    expected = np.lib.stride_tricks.sliding_window_view(value, window, axis)
    got = sliding_window_view(lnp.asarray(value), window, axis)
    assert isinstance(got, lnp.Array) and got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("width", [3, 40])
def test_sliding_window_view_is_differentiable(width: int) -> None:
    x0 = np.random.default_rng(0).normal(size=50)
    g = lazygraph.grad(lambda x: lnp.sum(sliding_window_view(x, width) ** 2))(x0)
    windows_per_element = np.lib.stride_tricks.sliding_window_view(np.ones(50), width).shape[0]
    counts = np.convolve(np.ones(windows_per_element), np.ones(width))
    np.testing.assert_allclose(g, 2 * x0 * counts)


@pytest.mark.parametrize(
    ("shape", "window", "axis"),
    [((4,), 5, None), ((4,), -1, None), ((3, 4), 2, None), ((3, 4), (2, 2), 0), ((3,), 1, 1)],
)
def test_sliding_window_view_errors_are_numpys(shape: Any, window: Any, axis: Any) -> None:
    value = np.zeros(shape)
    with pytest.raises(Exception) as numpy_error:
        np.lib.stride_tricks.sliding_window_view(value, window, axis)
    with pytest.raises(type(numpy_error.value), match=str(numpy_error.value)[:30]):
        sliding_window_view(lnp.asarray(value), window, axis)


def test_sliding_window_view_writeable_needs_numpy_data() -> None:
    value = np.arange(4.0)
    view = sliding_window_view(value, 2, writeable=True)
    view[0, 1] = 9.0
    assert value[1] == 9.0  # (numpy's view of numpy data)
    with pytest.raises(UnsupportedArgumentsError):
        sliding_window_view(lnp.arange(4.0), 2, writeable=True)


def test_as_strided_is_numpys_view_and_warns_for_lazy_input() -> None:
    expected = np.lib.stride_tricks.as_strided(np.arange(6), shape=(4, 3), strides=(8, 8))
    plain = as_strided(np.arange(6), shape=(4, 3), strides=(8, 8))  # (no warning: numpy data)
    np.testing.assert_array_equal(plain, expected)
    with pytest.warns(LazygraphFallbackWarning, match="as_strided"):
        view = as_strided(lnp.arange(6), shape=(4, 3), strides=(8, 8))
    np.testing.assert_array_equal(view, expected)
    transposed = lnp.arange(6).reshape(2, 3).T
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", LazygraphFallbackWarning)
        rows = as_strided(transposed, shape=(3,), strides=(8,))
    np.testing.assert_array_equal(rows, np.asarray(transposed).ravel()[:3])


# -- the coverage page --------------------------------------------------------------------------


def test_coverage_page_is_up_to_date() -> None:
    page = (ROOT / "docs" / "numpy-coverage.md").read_text()
    generated_with = GEN.page_numpy_version(page)
    if generated_with != np.__version__:
        pytest.skip(f"the page is generated with numpy {generated_with}, not {np.__version__}")
    assert GEN.render(GEN.page_date(page)) == page, (
        "docs/numpy-coverage.md is stale: run python docs/gen_numpy_coverage.py"
    )


def test_coverage_statuses() -> None:
    status = dict(GEN.rows(np, lnp))
    assert status["sin"] == GEN.LAZY_DIFFERENTIABLE
    assert status["argmax"] == GEN.LAZY
    assert status["array2string"] == status["loadtxt"] == GEN.FALLBACK
    assert status["matrix"] == status["float64"] == status["pi"] == GEN.NUMPYS
    assert status["linalg"] == status["testing"] == GEN.SUBMODULE
    tricks = dict(GEN.rows(np.lib.stride_tricks, lnp.lib.stride_tricks))
    assert tricks == {"sliding_window_view": GEN.LAZY_DIFFERENTIABLE, "as_strided": GEN.FALLBACK}


def _public_functions() -> list[tuple[str, Any, Any]]:
    found = []
    for prefix, ours, theirs in [
        ("", lnp, np),
        ("linalg.", lnp.linalg, np.linalg),
        ("fft.", lnp.fft, np.fft),
    ]:
        for name in sorted(dir(ours)):
            mine, numpys = getattr(ours, name), getattr(theirs, name, None)
            if name.startswith("_") or not inspect.isfunction(mine) or not callable(numpys):
                continue
            if isinstance(numpys, (np.ufunc, type)):
                continue
            found.append((prefix + name, mine, numpys))
    return found


def _keyword_names(fn: Any) -> set[str] | None:
    try:
        params = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):
        return None
    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    return {p.name for p in params if p.kind in kinds}


def test_numpys_keyword_names_are_accepted() -> None:
    """Every leading argument numpy's function takes by keyword (``a`` of
    ``linalg.inv``, where the array API says ``x``, positional only) is
    accepted under numpy's name: ours takes it, or its wrapper maps it to its
    position (lazygraph.numpy._errors._numpy_keywords)."""
    from lazygraph.numpy._errors import _numpy_keywords

    missing = []
    for public, mine, numpys in _public_functions():
        theirs = _keyword_names(numpys)
        if theirs is None:
            continue
        wrapped = getattr(mine, "__wrapped__", mine)
        positional = [
            p.name
            for p in inspect.signature(numpys).parameters.values()
            if p.kind is inspect.Parameter.POSITIONAL_OR_KEYWORD
        ]
        ours_positional = [
            p
            for p in inspect.signature(wrapped).parameters.values()
            if p.kind
            in (inspect.Parameter.POSITIONAL_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
        ]
        accepted = (_keyword_names(wrapped) or set()) | set(_numpy_keywords(wrapped, public) or ())
        for name in positional[: len(ours_positional)]:
            if name not in accepted:
                missing.append(f"{public}({name}=)")
    assert not missing, missing


def test_calls_with_numpys_keyword_names_match_numpy() -> None:
    a = np.array([[4.0, 1.0], [1.0, 3.0]])
    b = np.array([1.0, 2.0])
    t = np.eye(4).reshape(4, 2, 2)
    calls = [
        lambda m: m.linalg.solve(a=a, b=b),
        lambda m: m.linalg.solve(a, b=b),
        lambda m: m.linalg.inv(a=a),
        lambda m: m.linalg.det(a=a),
        lambda m: m.linalg.eigvalsh(a=a),
        lambda m: m.linalg.svd(a=a, compute_uv=False),
        lambda m: m.linalg.pinv(a=a),
        lambda m: m.linalg.matrix_power(a=a, n=3),
        lambda m: m.linalg.matrix_rank(A=a),
        lambda m: m.linalg.tensorinv(a=t, ind=1),
        lambda m: m.fft.fft(a=b, n=4),
        lambda m: m.fft.rfft2(a=a),
        lambda m: m.sort(a=b[::-1]),
        lambda m: m.argsort(a=b[::-1]),
    ]
    for call in calls:
        np.testing.assert_allclose(np.asarray(call(lnp)), call(np), rtol=1e-12, atol=1e-14)
    with pytest.raises(TypeError, match="multiple values"):
        lnp.linalg.solve(a, a=a)
