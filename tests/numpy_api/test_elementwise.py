"""lazygraph.numpy's elementwise functions against numpy: one row per function,
over every dtype (numpy's TypeError where numpy has no loop), Python and numpy
scalar operands (NEP 50 promotion, overflow of weak Python ints), 0-d, empty and
broadcast shapes, NaN/inf/-0.0 and the integer limits."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph.numpy as lnp
from lazygraph.tensor.scalar.basic import ROWS
from tests.numpy_api.namespace_harness import (
    ALL,
    _float32_inputs,
    array_args,
    binary_args,
    check,
    materialize,
    unary_args,
)
from tests.tensor.harness import BACKEND, FLOATS, INTS, arrays

JAX = BACKEND == "jax"

# The functions of the scalar table (lazygraph.tensor.scalar.basic.ROWS), by their
# numpy names (row.numpy_name): every row of one or two inputs that numpy has is
# checked here with no edit. The exceptions are named below, each with its reason;
# test_every_row_is_tested fails for a row no test covers.

#: Rows tested by their own tests, not as f(x) / f(x1, x2).
DEDICATED = {
    "clip": "three inputs and optional bounds: test_clip_matches_numpy",
    "where": "three inputs: tests/numpy_api/test_searching_sorting_set.py",
    "cast": "numpy's astype takes a dtype: test_dtypes.py::test_astype",
}
#: Rows lazygraph.numpy does not offer as an elementwise function.
EXCLUDED = {
    "second": "the internal fill of gradients (its numpy_name, broadcast_to, takes a shape)",
}


def _row_names(nin: int) -> list[str]:
    """The numpy names of the rows of ``nin`` inputs that numpy has."""
    return [
        row.numpy_name
        for name, row in sorted(ROWS.items())
        if row.nin == nin
        and row.numpy_name is not None
        and hasattr(np, row.numpy_name)
        and name not in DEDICATED
        and name not in EXCLUDED
    ]


#: lazygraph.numpy's elementwise functions that are not rows of the table (built
#: from rows, or numpy aliases with their own behaviour), tested the same way.
MORE_UNARY = [
    "degrees", "radians", "fabs", "isposinf", "isneginf", "iscomplex", "isreal", "around",
    "nan_to_num", "angle", "sinc",
]  # fmt: skip
MORE_BINARY = ["divmod", "heaviside", "float_power"]

UNARY = _row_names(1) + [n for n in MORE_UNARY if n not in _row_names(1)]
BINARY = _row_names(2) + [n for n in MORE_BINARY if n not in _row_names(2)]

#: numpy 2 names that are the same function under another name (numpy: ``np.acos is
#: np.arccos``): a row's name where it differs from its numpy name, and these.
MORE_ALIASES = {
    "bitwise_not": "invert", "true_divide": "divide", "mod": "remainder",
}  # fmt: skip
ALIASES = {
    **{
        name: row.numpy_name
        for name, row in ROWS.items()
        if row.numpy_name is not None
        and name != row.numpy_name
        and hasattr(np, name)
        and hasattr(np, row.numpy_name)
    },
    **MORE_ALIASES,
}

# float32 math: numpy's and lazygraph's kernels may round the last bit differently.
#: Examples per function row: enough for every row to see 0-d, empty, broadcast and
#: scalar operands across CI runs, few enough for the whole table to stay fast.
ROW_EXAMPLES = 6

RTOL = {"cbrt": 1e-5, "logaddexp2": 1e-6}


def _reference(name: str) -> Any:
    """numpy's function ``name``. For a row whose promotion leaves inputs out
    (ldexp's integer exponent), a float16 result is recomputed here with only the
    promoted inputs in float32 (the harness would widen the exponent too)."""
    fn = getattr(np, name)
    promote = next((r.promote for r in ROWS.values() if r.numpy_name == name), None)
    if promote is None:
        return fn

    def reference(*args: Any, **kwargs: Any) -> Any:
        out = fn(*args, **kwargs)
        if np.asarray(out).dtype == np.float16:
            wide = _float32_inputs(args)
            pairs = enumerate(zip(args, wide, strict=True))
            out = fn(*(w if i in promote else a for i, (a, w) in pairs), **kwargs)
        return out

    return reference


@pytest.mark.parametrize("name", UNARY)
@settings(max_examples=ROW_EXAMPLES, deadline=None)
@given(data=st.data())
def test_unary_matches_numpy(name: str, data: st.DataObject) -> None:
    args = data.draw(unary_args(), label="args")
    check(getattr(lnp, name), _reference(name), *args, rtol=RTOL.get(name))


@pytest.mark.parametrize("name", BINARY)
@settings(max_examples=ROW_EXAMPLES, deadline=None)
@given(data=st.data())
def test_binary_matches_numpy(name: str, data: st.DataObject) -> None:
    args = data.draw(binary_args(), label="args")
    check(getattr(lnp, name), _reference(name), *args, rtol=RTOL.get(name))


@pytest.mark.parametrize(("alias", "name"), sorted(ALIASES.items()))
def test_aliases_are_the_same_function(alias: str, name: str) -> None:
    assert getattr(lnp, alias) is getattr(lnp, name)
    assert getattr(np, alias) is getattr(np, name)  # the same aliases numpy has


def test_every_row_is_tested() -> None:
    tested = set(UNARY) | set(BINARY)
    untested = {
        name
        for name, row in ROWS.items()
        if hasattr(np, row.numpy_name or name) and row.numpy_name not in tested
    }
    untested -= set(DEDICATED) | set(EXCLUDED)
    assert not untested, f"rows numpy has but no test covers: {sorted(untested)}"
    # rows numpy lacks (sigmoid, erf...) are not in lazygraph.numpy, which mirrors numpy
    no_numpy = {n for n, r in ROWS.items() if not hasattr(np, r.numpy_name or n)}
    assert not {n for n in no_numpy if hasattr(lnp, n)}, "test these against a reference"
    assert set(DEDICATED) | set(EXCLUDED) <= set(ROWS)


@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_promotion_with_python_and_numpy_scalars(data: st.DataObject) -> None:
    x = data.draw(array_args(ALL, max_dims=2), label="x")
    scalar = data.draw(
        st.one_of(
            st.integers(-(2**65), 2**65),
            st.floats(width=64),
            st.sampled_from([np.int8(3), np.uint64(7), np.float32(0.5), np.complex64(1j)]),
        ),
        label="scalar",
    )
    for fn in ("add", "multiply", "maximum", "less"):
        check(getattr(lnp, fn), getattr(np, fn), x, scalar)
        check(getattr(lnp, fn), getattr(np, fn), scalar, x)


@settings(max_examples=15, deadline=None)
@given(
    x=array_args(ALL),
    decimals=st.integers(-3, 3),
)
def test_round_decimals(x: np.ndarray, decimals: int) -> None:
    check(lnp.round, np.round, x, decimals)


@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_clip_matches_numpy(data: st.DataObject) -> None:
    x = data.draw(array_args(INTS + FLOATS), label="x")
    lo = data.draw(st.one_of(st.none(), st.integers(-200, 200), st.floats(-10, 10)), label="lo")
    hi = data.draw(st.one_of(st.none(), st.integers(-200, 200), st.floats(-10, 10)), label="hi")
    check(lnp.clip, np.clip, x, lo, hi)
    check(lambda a: lnp.clip(a, min=lo, max=hi), lambda a: np.clip(a, min=lo, max=hi), x)
    bound = data.draw(arrays(x.dtype, x.shape[-1:]), label="bound")
    check(lnp.clip, np.clip, x, bound, None)


@settings(max_examples=15, deadline=None)
@given(x=array_args((*FLOATS, "complex64", "complex128")), posinf=st.floats(-5, 5))
def test_nan_to_num_keywords(x: np.ndarray, posinf: float) -> None:
    check(lnp.nan_to_num, np.nan_to_num, x, nan=-1.5, posinf=posinf)


@settings(max_examples=15, deadline=None)
@given(x=array_args(("float32", "float64", "complex128", "int16")), lazy=st.booleans())
def test_nan_to_num_without_copy_replaces_in_place(x: np.ndarray, lazy: bool) -> None:
    # copy=False: numpy writes into x and returns it; a lazy x is rebound
    expected = np.nan_to_num(x.copy(), nan=-1.5)
    arg = lnp.asarray(x.copy()) if lazy else x.copy()
    got = lnp.nan_to_num(arg, copy=False, nan=-1.5)
    assert got is arg
    np.testing.assert_array_equal(np.asarray(arg), expected, strict=True)
    finite = np.isfinite(x)  # (a finite complex keeps the signs of its zero parts)
    for part in (np.real, np.imag):
        assert (np.signbit(part(np.asarray(arg))) == np.signbit(part(expected)))[finite].all()


@settings(max_examples=15, deadline=None)
@given(x=array_args(ALL))
def test_angle_in_degrees_and_dtype_objects(x: np.ndarray) -> None:
    check(lnp.angle, np.angle, x, deg=True)
    assert lnp.iscomplexobj(x) == np.iscomplexobj(x)
    assert lnp.isrealobj(x) == np.isrealobj(x)


class _DuckDtype:
    """A dtype-like object that is no numpy dtype (as pandas' extension dtypes)."""

    type = np.complex128
    kind = "c"


@pytest.mark.parametrize("dtype", [np.dtype("complex64"), _DuckDtype, np.dtype("float32")])
def test_iscomplexobj_reads_any_objects_dtype(dtype: object) -> None:
    duck = type("Duck", (), {"dtype": dtype})()  # not convertible to an array
    assert lnp.iscomplexobj(duck) == np.iscomplexobj(duck)
    assert lnp.isrealobj(duck) == np.isrealobj(duck)


@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_ufunc_dtype_keyword(data: st.DataObject) -> None:
    a, b = data.draw(binary_args(INTS + FLOATS, scalars=False), label="args")
    dtype = data.draw(st.sampled_from(["float32", "float64", "int64", "complex128"]))
    casting = data.draw(st.sampled_from(["same_kind", "unsafe"]))
    check(lnp.add, np.add, a, b, dtype=dtype, casting=casting)
    check(lnp.exp, np.exp, a, dtype=dtype, casting=casting)


def test_out_where_and_bad_keywords() -> None:
    x = lnp.asarray(np.arange(3.0))
    buffer = np.empty(3)
    assert lnp.exp(x, out=buffer) is buffer  # numpy's out= (tests/numpy_api/test_ufunc_objects.py)
    np.testing.assert_allclose(buffer, np.exp(np.arange(3.0)), rtol=1e-15)  # (XLA's exp: an ulp)
    assert lnp.add(x, 1, buffer) is buffer
    np.testing.assert_array_equal(buffer, [1.0, 2.0, 3.0])
    got = lnp.sin(x, where=np.array([True, False, True]), out=buffer)
    np.testing.assert_allclose(got, [0.0, 2.0, np.sin(2.0)], rtol=1e-15)
    with pytest.raises(TypeError, match=r"exp\(\) got an unexpected keyword argument 'foo'"):
        lnp.exp(x, foo=1)
    with pytest.raises(ValueError, match="casting must be one of"):
        lnp.exp(x, casting="nope")
    with pytest.raises(TypeError, match="cannot cast"):
        lnp.add(x, 1.5, dtype="int32")  # numpy: same_kind forbids float64 -> int32


def test_results_are_lazy_and_accept_arrays_lists_and_scalars() -> None:
    a = lnp.asarray(np.array([1, 2], dtype=np.int8))
    assert isinstance(lnp.add(a, 1), lnp.Array)
    assert lnp.add(a, 1).dtype == np.int8
    assert lnp.add(a, np.int16(1)).dtype == np.int16
    assert lnp.add([1, 2], 1.5).dtype == np.float64
    with pytest.raises(OverflowError):
        lnp.add(a, 1000)  # numpy 2: a weak Python int must fit int8
    np.testing.assert_array_equal(materialize(lnp.multiply(a, [[1], [2]])), [[1, 2], [2, 4]])


def test_divmod_returns_both_parts() -> None:
    q, r = lnp.divmod(np.array([7, -7, 0]), 3)
    eq, er = np.divmod(np.array([7, -7, 0]), 3)
    np.testing.assert_array_equal(q.compute(), eq)
    np.testing.assert_array_equal(r.compute(), er)


@pytest.mark.xfail(
    strict=True,
    reason="known wrong answer: numpy interpolates a complex fp's real and imaginary "
    "parts separately; lazygraph computes in complex arithmetic, where an infinite "
    "part makes the other part NaN (needs an Op that builds a complex from its parts)",
)
def test_interp_of_complex_values_interpolates_each_part() -> None:
    fp = np.array([0j, complex(0, np.inf)])
    got = np.asarray(lnp.interp(0.0, [-1.0, 1.0], fp))
    want = np.interp(0.0, [-1.0, 1.0], fp)  # 0+infj
    np.testing.assert_array_equal([got.real, got.imag], [want.real, want.imag])


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_interp(data: st.DataObject) -> None:
    n = data.draw(st.integers(1, 5))
    xp = np.sort(data.draw(arrays("float64", (n,), finite=True)))
    fp = data.draw(arrays(data.draw(st.sampled_from(["float64", "int32", "complex128"])), (n,)))
    x = data.draw(st.one_of(array_args(("float64", "int8")), st.floats(-5, 5)))
    x = data.draw(st.sampled_from([x, xp[0], xp[-1]]))
    lr = data.draw(st.sampled_from([(None, None), (-1.0, 2.0)]))
    # XLA (jax backend) computes slope * (x - x0) + f0 as one fused multiply-add:
    # where numpy's two roundings cancel to 0 it can leave one ulp of f0.
    scale = float(np.max(np.abs(fp[np.isfinite(fp)]), initial=0.0))
    atol = 4 * np.finfo(float).eps * scale if JAX else 0.0
    check(lnp.interp, np.interp, x, xp, fp, *lr, signed_zeros=False, atol=atol)


_COMPARISONS = ["equal", "not_equal", "less", "less_equal", "greater", "greater_equal"]


@settings(max_examples=40, deadline=None)
@given(
    x=array_args(INTS, max_dims=2),
    value=st.one_of(
        st.integers(-(2**63), 2**64 - 1),
        st.sampled_from([-1, 127, 128, 255, 256, -129, 2**15, 2**31, 2**32, 2**63, 2**64 - 1]),
    ),
    name=st.sampled_from(_COMPARISONS),
)
def test_comparison_with_a_python_int_out_of_the_dtypes_range(
    x: np.ndarray, value: int, name: str
) -> None:
    # numpy 2 compares an integer array with any Python int exactly (int8_x == 200
    # is all False), where arithmetic raises OverflowError; a first in-range call
    # of the same kinds must not change that for the next ones
    lazy = lnp.asarray(x)
    getattr(lnp, name)(lazy, 0)  # an in-range operand first
    for got, want in [
        (getattr(lnp, name)(lazy, value), getattr(np, name)(x, value)),
        (getattr(lnp, name)(value, lazy), getattr(np, name)(value, x)),
    ]:
        np.testing.assert_array_equal(materialize(got), want, strict=True)


@settings(max_examples=30, deadline=None)
@given(
    name=st.sampled_from(["add", "subtract", "multiply", "true_divide", "maximum", "arctan2"]),
    huge=st.one_of(
        st.integers(2**63, 2**80), st.integers(-(2**80), -(2**63) - 1), st.just(2**1030)
    ),
    other=st.one_of(
        st.floats(-4, 4),
        st.sampled_from([np.nan, -0.0, np.inf, 1j]),
        array_args(FLOATS, max_dims=1),
    ),
    huge_first=st.booleans(),
)
def test_python_int_beyond_int64_beside_an_inexact_operand(
    name: str, huge: int, other: Any, huge_first: bool
) -> None:
    # numpy converts a Python int that int64 cannot hold to the float it meets
    # (add(1.0, 2**100) is a float64; float32 data keeps float32), and one too
    # large for a float is its OverflowError
    if name == "arctan2" and isinstance(other, complex):
        other = 0.5
    args = (huge, other) if huge_first else (other, huge)
    with np.errstate(all="ignore"):
        check(getattr(lnp, name), getattr(np, name), *args)
