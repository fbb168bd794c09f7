"""lazygraph.numpy's dtypes, constants and dtype functions against numpy, and the
namespace's coverage of the array API standard (2024.12) main namespace."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph.numpy as lnp
from lazygraph.tensor.scalar.basic import ROWS
from tests.numpy_api.namespace_harness import ALL, array_args, check, python_scalars

#: The standard's element-wise functions: its text, not derived from the scalar
#: table (test_array_api_elementwise_functions_are_rows checks the table has them).
ARRAY_API_2024_12_ELEMENTWISE = [
    "abs", "acos", "acosh", "add", "asin", "asinh", "atan", "atan2", "atanh", "bitwise_and",
    "bitwise_left_shift", "bitwise_invert", "bitwise_or", "bitwise_right_shift", "bitwise_xor",
    "ceil", "clip", "conj", "copysign", "cos", "cosh", "divide", "equal", "exp", "expm1",
    "floor", "floor_divide", "greater", "greater_equal", "hypot", "imag", "isfinite", "isinf",
    "isnan", "less", "less_equal", "log", "log1p", "log2", "log10", "logaddexp", "logical_and",
    "logical_not", "logical_or", "logical_xor", "maximum", "minimum", "multiply", "negative",
    "nextafter", "not_equal", "positive", "pow", "real", "reciprocal", "remainder", "round",
    "sign", "signbit", "sin", "sinh", "square", "sqrt", "subtract", "tan", "tanh", "trunc",
]  # fmt: skip

#: The array API standard 2024.12 main namespace, from its specification
#: (https://data-apis.org/array-api/2024.12/API_specification/index.html);
#: ``linalg`` and ``fft`` are the extensions.
ARRAY_API_2024_12 = [
    "__array_api_version__", "__array_namespace_info__",
    # constants
    "e", "inf", "nan", "newaxis", "pi",
    # creation functions
    "arange", "asarray", "empty", "empty_like", "eye", "from_dlpack", "full", "full_like",
    "linspace", "meshgrid", "ones", "ones_like", "tril", "triu", "zeros", "zeros_like",
    # data type functions and data types
    "astype", "can_cast", "finfo", "iinfo", "isdtype", "result_type",
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float32", "float64", "complex64", "complex128",
    # element-wise functions
    *ARRAY_API_2024_12_ELEMENTWISE,
    # indexing, linear algebra, manipulation
    "take", "take_along_axis",
    "matmul", "matrix_transpose", "tensordot", "vecdot",
    "broadcast_arrays", "broadcast_to", "concat", "expand_dims", "flip", "moveaxis",
    "permute_dims", "repeat", "reshape", "roll", "squeeze", "stack", "tile", "unstack",
    # searching, set, sorting, statistical, utility
    "argmax", "argmin", "count_nonzero", "nonzero", "searchsorted", "where",
    "unique_all", "unique_counts", "unique_inverse", "unique_values",
    "argsort", "sort",
    "cumulative_prod", "cumulative_sum", "max", "mean", "min", "prod", "std", "sum", "var",
    "all", "any", "diff",
    # extensions
    "linalg", "fft",
]  # fmt: skip

#: The numpy names of the scalar table's rows that numpy has (rows numpy lacks,
#: sigmoid or erf, are lazygraph.tensor functions only).
ROW_NUMPY_NAMES = sorted(
    {row.numpy_name for row in ROWS.values() if row.numpy_name and hasattr(np, row.numpy_name)}
)


@pytest.mark.parametrize("name", ROW_NUMPY_NAMES)
def test_namespace_has_every_row_by_its_numpy_name(name: str) -> None:
    assert hasattr(lnp, name), f"lazygraph.numpy lacks {name!r}, a row of the scalar table"
    assert name in lnp.__all__


@pytest.mark.parametrize("name", ARRAY_API_2024_12_ELEMENTWISE)
def test_array_api_elementwise_functions_are_rows(name: str) -> None:
    assert name in ROWS, f"the array API element-wise function {name!r} is not a row"


DTYPE_NAMES = [
    "bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
    "float32", "float64", "complex64", "complex128", "intp", "int_", "double", "bool_",
]  # fmt: skip


@pytest.mark.parametrize("name", ARRAY_API_2024_12)
def test_namespace_has_every_array_api_name(name: str) -> None:
    assert hasattr(lnp, name), f"lazygraph.numpy lacks the array API name {name!r}"
    if not name.startswith("__"):
        assert name in lnp.__all__


@pytest.mark.parametrize("name", DTYPE_NAMES)
def test_dtypes_are_numpys_own(name: str) -> None:
    assert getattr(lnp, name) is getattr(np, name)
    assert lnp.zeros(2, dtype=getattr(lnp, name)).dtype == np.dtype(getattr(np, name))


def test_constants() -> None:
    assert lnp.e == math.e and lnp.pi == math.pi and lnp.newaxis is None
    assert lnp.inf == math.inf and math.isnan(lnp.nan)
    assert lnp.float64(1.0) == 1.0 and type(lnp.float32(2)) is np.float32


dtype_like = st.sampled_from([*ALL, np.float32, np.int64, bool, int, float, complex])


@settings(max_examples=25, deadline=None)
@given(
    operands=st.lists(
        st.one_of(array_args(ALL, max_dims=1), python_scalars(), dtype_like), min_size=1, max_size=3
    )
)
def test_result_type_follows_nep50(operands: list[object]) -> None:
    check(lnp.result_type, np.result_type, *operands)
    lazy = [lnp.asarray(o) if isinstance(o, np.ndarray) else o for o in operands]
    check(lnp.result_type, lambda *_: np.result_type(*operands), *lazy)


@settings(max_examples=25, deadline=None)
@given(a=dtype_like, b=dtype_like, casting=st.sampled_from(["no", "safe", "same_kind", "unsafe"]))
def test_can_cast_promote_types_issubdtype(a: object, b: object, casting: str) -> None:
    check(lnp.can_cast, np.can_cast, a, b, casting)
    check(lnp.can_cast, lambda x, *r: np.can_cast(np.zeros(1, a), *r), lnp.zeros(1, a), b, casting)
    check(lnp.promote_types, np.promote_types, a, b)
    check(lnp.issubdtype, np.issubdtype, a, b)


def test_can_cast_rejects_python_scalars_like_numpy() -> None:
    check(lnp.can_cast, np.can_cast, 1.5, np.float32)


KINDS = ["bool", "signed integer", "unsigned integer", "integral", "real floating",
         "complex floating", "numeric", ("bool", "integral")]  # fmt: skip


@settings(max_examples=25, deadline=None)
@given(dtype=st.sampled_from(ALL), kind=st.sampled_from([*KINDS, *ALL]))
def test_isdtype(dtype: str, kind: object) -> None:
    kind = np.dtype(kind) if kind in ALL else kind
    assert lnp.isdtype(np.dtype(dtype), kind) == np.isdtype(np.dtype(dtype), kind)
    assert lnp.isdtype(lnp.zeros(1, dtype).dtype, kind) == np.isdtype(np.dtype(dtype), kind)


@pytest.mark.parametrize("dtype", ALL)
def test_iinfo_finfo(dtype: str) -> None:
    x = lnp.zeros(2, dtype)
    if np.dtype(dtype).kind in "iu":
        assert lnp.iinfo(x).max == np.iinfo(dtype).max
        assert lnp.iinfo(dtype).min == np.iinfo(dtype).min
    elif np.dtype(dtype).kind in "fc":
        assert lnp.finfo(x).eps == np.finfo(dtype).eps
        assert lnp.finfo(dtype).max == np.finfo(dtype).max
    else:
        with pytest.raises(ValueError):
            lnp.iinfo(x)


@settings(max_examples=25, deadline=None)
@given(x=array_args(ALL), dtype=st.sampled_from(ALL))
def test_astype(x: np.ndarray, dtype: str) -> None:
    check(lnp.astype, lambda a, d: a.astype(d), x, dtype)


# -- numpy's other type names -------------------------------------------------------

OTHER_TYPE_NAMES = [
    "long", "ulong", "longdouble", "clongdouble", "object_", "str_", "bytes_", "void",
    "character", "flexible", "datetime64", "timedelta64", "False_", "True_", "ScalarType",
    "sctypeDict", "typecodes", "little_endian", "typename", "mintypecode", "min_scalar_type",
    "s_", "index_exp", "ndindex", "iterable", "ndenumerate",
]  # fmt: skip


@pytest.mark.parametrize("name", OTHER_TYPE_NAMES)
def test_numpys_type_names_and_index_helpers_are_numpys_own(name: str) -> None:
    assert getattr(lnp, name) is getattr(np, name)
    assert name in lnp.__all__


def test_ndarray_is_the_type_of_lazy_and_numpy_arrays() -> None:
    x = lnp.asarray(np.ones(3))
    assert isinstance(x, lnp.ndarray) and isinstance(x * 2, lnp.ndarray)
    assert isinstance(np.ones(2), lnp.ndarray)
    assert not isinstance([1.0], lnp.ndarray) and not isinstance(1.0, lnp.ndarray)
    assert issubclass(lnp.Array, lnp.ndarray) and not issubclass(list, lnp.ndarray)
    assert lnp.ndarray[int, np.dtype[np.float64]] is lnp.ndarray  # an annotation
    made = lnp.ndarray((2, 3), dtype=np.int8)
    assert isinstance(made, lnp.Array) and made.shape == (2, 3) and made.dtype == np.int8
    buffer = np.arange(4, dtype=np.int16).tobytes()
    viewed = lnp.ndarray((2,), dtype=np.int16, buffer=buffer, offset=4)
    np.testing.assert_array_equal(viewed.compute(), np.ndarray((2,), np.int16, buffer, 4))


def test_view_as_ndarray_keeps_the_array() -> None:
    # x.view(np.ndarray) with this namespace's ndarray (as after ``import ... as np``):
    # a view of the same values, not a reinterpretation as an object dtype
    x = lnp.asarray(np.arange(6.0).reshape(2, 3))
    for how in ({"dtype": lnp.ndarray}, {"type": lnp.ndarray}, {"type": np.ndarray}):
        v = x.view(**how)
        assert isinstance(v, lnp.Array) and v.dtype == x.dtype
        np.testing.assert_array_equal(v.compute(), np.arange(6.0).reshape(2, 3))
    v[0, 0] = 7.0  # a view: the write reaches x
    assert x.tolist()[0][0] == 7.0


def test_common_type_reads_dtypes_only() -> None:
    x = lnp.asarray(np.ones(2, dtype=np.float32))
    y = lnp.asarray(np.arange(3, dtype=np.int8)) + 1  # lazy: nothing computes it
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no numpy fallback
        got = lnp.common_type(x, y, np.float16(1.5))
    assert got is np.common_type(np.ones(2, np.float32), np.arange(3, dtype=np.int8))
    assert lnp.common_type(x) is np.float32
    with pytest.raises(AttributeError):  # numpy's error for a list
        lnp.common_type(x, [1.5])


@settings(deadline=None)
@given(array_args(("bool", "int8", "int64", "uint8", "float32", "float64")))
def test_fix_is_numpys(x: np.ndarray) -> None:
    check(lnp.fix, np.fix, x)


def test_row_stack_is_vstack_with_numpys_warning() -> None:
    with pytest.warns(DeprecationWarning, match="row_stack"):
        got = lnp.row_stack([np.ones(2), np.zeros(2)])
    np.testing.assert_array_equal(got.compute(), np.vstack([np.ones(2), np.zeros(2)]))


def test_ndenumerate_of_a_lazy_array_gives_numpys_pairs() -> None:
    x = lnp.asarray(np.arange(6.0).reshape(2, 3)) * 2
    assert list(lnp.ndenumerate(x)) == list(np.ndenumerate(np.arange(6.0).reshape(2, 3) * 2))
    assert list(lnp.ndindex(2, 3)) == list(np.ndindex(2, 3))
    assert lnp.iterable(x) and not lnp.iterable(1.0)


#: Python scalars whose value, not only their truth, decides a predicate.
SPECIAL_SCALARS = [math.nan, math.inf, -math.inf, -0.0, complex(1, math.inf), complex(math.nan, 0)]


@pytest.mark.parametrize("name", ["isnan", "isinf", "isfinite", "signbit", "logical_not"])
@settings(max_examples=10, deadline=None)
@given(x=python_scalars())
def test_predicates_of_python_scalars_read_their_value(name: str, x: object) -> None:
    for value in [x, *SPECIAL_SCALARS]:  # (isnan(nan) was isnan(True): False)
        check(getattr(lnp, name), getattr(np, name), value)
