"""The elementwise family against numpy: one table of rows, every function over
every dtype (numpy's TypeError where numpy has no loop), broadcasting, 0-d,
empty and non-contiguous inputs, NaN/inf/-0.0 and integer edge values.

The one intended difference from numpy: float results numpy computes in
float16 (bool, int8, uint8 inputs) are float32 here, so the reference recomputes
those with float32 inputs.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph.tensor as lt
from tests.tensor.harness import (
    ALL,
    FLOATS,
    INTS,
    OpCase,
    arrays,
    broadcast_shapes,
    check_case,
    run,
    shapes,
)

# -- reference helpers ------------------------------------------------------------


def no_float16(fn: Any, promote: tuple[int, ...] | None = None) -> Any:
    """numpy's ``fn``, recomputed with float32 inputs where numpy would give float16;
    only the inputs at the positions ``promote`` (a row's promoted inputs: not
    ldexp's integer exponent) when given."""

    def widen(a: Any) -> Any:
        if isinstance(a, np.ndarray) and a.dtype.kind in "biu":
            return a.astype(np.float32)
        if isinstance(a, bool):  # numpy computes a Python bool as a bool array
            return np.float32(a)
        if isinstance(a, int):  # alone in its group (ldexp(0, e)): numpy's float16 loop
            return np.float32(a)
        return a

    def reference(*args: Any) -> Any:
        out = fn(*args)
        if np.asarray(out).dtype == np.float16:
            args = tuple(
                widen(a) if promote is None or i in promote else a for i, a in enumerate(args)
            )
            out = fn(*args)
        return out

    return reference


def real_only(fn: Any) -> Any:
    """A reference for functions lazygraph defines on real dtypes only."""

    def reference(*args: Any) -> Any:
        if any(np.asarray(a).dtype.kind == "c" for a in args):
            raise TypeError("real dtypes only")
        return fn(*args)

    return reference


def float_result(fn64: Any) -> Any:
    """A float function computed in float64 by ``fn64`` and rounded to the dtype
    numpy's float functions give (float32 for small ints and bool, as lazygraph)."""

    def reference(x: np.ndarray) -> np.ndarray:
        dtype = np.exp(np.zeros(0, x.dtype)).dtype
        dtype = np.float32 if dtype == np.float16 else dtype
        return np.asarray(fn64(x.astype(np.float64))).astype(dtype)

    return real_only(reference)


def _vectorize(f: Any) -> Any:
    return lambda x: np.vectorize(f, otypes=[np.float64])(x) if x.size else x.copy()


def _sigmoid64(x: np.ndarray) -> np.ndarray:
    with np.errstate(over="ignore"):
        return 1 / (1 + np.exp(-x))


def _log1mexp_scalar(v: float) -> float:
    if math.isnan(v) or v > 0:
        return math.nan
    if v == 0:
        return -math.inf
    return math.log(-math.expm1(v)) if v > -math.log(2) else math.log1p(-math.exp(v))


# -- input strategies -------------------------------------------------------------


def noncontiguous(dtype: str, shape: tuple[int, ...]) -> st.SearchStrategy[np.ndarray]:
    """Arrays of ``shape`` that are strided (every other element) or transposed views."""
    if not shape:
        return arrays(dtype, shape)
    strided = arrays(dtype, (*shape[:-1], 2 * shape[-1])).map(lambda a: a[..., ::2])
    transposed = arrays(dtype, shape[::-1]).map(lambda a: a.T)
    return st.one_of(arrays(dtype, shape), strided, transposed)


def unary_inputs(dtypes: tuple[str, ...] = ALL) -> st.SearchStrategy[tuple[np.ndarray, ...]]:
    return st.tuples(st.sampled_from(dtypes), shapes()).flatmap(
        lambda ds: st.tuples(noncontiguous(*ds))
    )


def nary_inputs(
    n: int, dtypes: tuple[str, ...] = ALL, first: tuple[str, ...] | None = None
) -> st.SearchStrategy[tuple[np.ndarray, ...]]:
    """``n`` mutually broadcastable arrays, each of its own dtype."""

    def build(shapes_: tuple[tuple[int, ...], ...]) -> st.SearchStrategy[tuple[np.ndarray, ...]]:
        kinds = [first or dtypes] + [dtypes] * (n - 1)
        return st.tuples(
            *(
                st.sampled_from(k).flatmap(lambda dt, s=s: noncontiguous(dt, s))
                for k, s in zip(kinds, shapes_, strict=True)
            )
        )

    return broadcast_shapes(n).flatmap(build)


def same_dtype_inputs(n: int, dtypes: tuple[str, ...] = ALL) -> st.SearchStrategy[Any]:
    """``n`` broadcastable arrays sharing one dtype (more edge values per dtype)."""
    return st.tuples(st.sampled_from(dtypes), broadcast_shapes(n)).flatmap(
        lambda ds: st.tuples(*(noncontiguous(ds[0], s) for s in ds[1]))
    )


# -- the table ----------------------------------------------------------------------
#
# Derived from the scalar table (lazygraph.tensor.scalar.basic.ROWS): every row of
# one or two inputs whose numpy counterpart exists is checked against
# ``getattr(numpy, row.numpy_name)`` with no edit here. The exceptions are named
# below, each with its reason; test_table_covers_every_row fails for a row no
# table covers.

#: Rows with their own cases further down (they take parameters or a third input).
DEDICATED = {
    "where": "three inputs: cases where, where-bool",
    "clip": "three inputs and optional bounds: cases clip, clip-mixed, clip-*-only",
    "round": "a decimals parameter: cases round-<decimals>",
    "cast": "a dtype parameter: cases cast-<dtype>",
}
#: Rows not tested against numpy at all.
EXCLUDED = {
    "second": "the internal fill of gradients (its numpy_name, broadcast_to, takes a shape)",
}


def _numpy_rows(nin: int) -> dict[str, Any]:
    """Row name -> numpy's function for the rows of ``nin`` inputs numpy has (ufuncs,
    and elementwise functions that are not ufuncs: ``real``, ``imag``, ``copy``)."""
    from lazygraph.tensor.scalar import ROWS

    return {
        name: getattr(np, row.numpy_name)
        for name, row in sorted(ROWS.items())
        if row.nin == nin
        and row.numpy_name
        and hasattr(np, row.numpy_name)
        and name not in DEDICATED
        and name not in EXCLUDED
    }


UNARY_UFUNCS = _numpy_rows(1)
BINARY_UFUNCS = _numpy_rows(2)


def _reference(name: str) -> Any:
    """The reference of a row of UNARY_UFUNCS or BINARY_UFUNCS."""
    from lazygraph.tensor.scalar import ROWS

    return no_float16({**UNARY_UFUNCS, **BINARY_UFUNCS}[name], ROWS[name].promote)


# functions numpy has no ufunc for: (reference, rtol for float32, rtol for float64)
SPECIAL = {
    "sigmoid": float_result(_sigmoid64),
    "softplus": float_result(lambda x: np.logaddexp(0.0, x)),
    "log_sigmoid": float_result(lambda x: -np.logaddexp(0.0, -x)),
    "log1mexp": float_result(_vectorize(_log1mexp_scalar)),
    "erf": float_result(_vectorize(math.erf)),
    "erfc": float_result(_vectorize(math.erfc)),
}


def _fn(name: str) -> Any:
    return getattr(lt, name)


TABLE: list[OpCase] = []

for _name in UNARY_UFUNCS:
    TABLE.append(
        OpCase(
            _name,
            _fn(_name),
            _reference(_name),
            unary_inputs(),
            signed_zeros=True,
        )
    )

for _name in BINARY_UFUNCS:
    # mixed dtypes exercise promotion; a shared dtype concentrates edge values
    TABLE.append(OpCase(_name, _fn(_name), _reference(_name), nary_inputs(2), signed_zeros=True))
    TABLE.append(
        OpCase(
            f"{_name}-same-dtype",
            _fn(_name),
            _reference(_name),
            same_dtype_inputs(2),
            signed_zeros=True,
        )
    )

for _name, _ref in SPECIAL.items():
    TABLE.append(OpCase(_name, _fn(_name), _ref, unary_inputs(), rtol=2e-6, atol=1e-37))

TABLE += [
    OpCase("where", lt.where, np.where, nary_inputs(3)),
    OpCase("where-bool", lt.where, np.where, nary_inputs(3, first=("bool",))),
    OpCase("clip", lt.clip, np.clip, same_dtype_inputs(3, INTS + FLOATS), signed_zeros=True),
    OpCase("clip-mixed", lt.clip, np.clip, nary_inputs(3, INTS + FLOATS + ("bool",))),
    OpCase(
        "clip-min-only",
        lambda x, lo: lt.clip(x, lo, None),
        lambda x, lo: np.clip(x, lo, None),
        nary_inputs(2),
    ),
    OpCase(
        "clip-max-only",
        lambda x, hi: lt.clip(x, None, hi),
        lambda x, hi: np.clip(x, None, hi),
        nary_inputs(2),
    ),
]

for _decimals in (0, 1, -1, 3):
    TABLE.append(
        OpCase(
            f"round-{_decimals}",
            lambda x, d=_decimals: lt.round(x, d),
            no_float16(lambda x, d=_decimals: np.round(x, d)),
            unary_inputs(),
            signed_zeros=True,
        )
    )


def _astype(dtype: str) -> Any:
    def reference(x: np.ndarray) -> np.ndarray:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return x.astype(dtype)

    return reference


for _dtype in ALL:
    TABLE.append(
        OpCase(
            f"cast-{_dtype}",
            lambda x, d=_dtype: lt.cast(x, d),
            _astype(_dtype),
            unary_inputs(),
            signed_zeros=True,
        )
    )


@pytest.mark.parametrize("case", TABLE, ids=lambda c: c.name)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_matches_numpy(case: OpCase, data: st.DataObject) -> None:
    values = data.draw(case.inputs, label="inputs")
    static = data.draw(st.booleans(), label="static_shape")
    check_case(replace(case, static_shape=static), values)


def test_table_covers_every_row() -> None:
    from lazygraph.tensor.scalar import ROWS

    tested = {c.name.split("-")[0] for c in TABLE}
    untested = set(ROWS) - tested - set(EXCLUDED)
    assert not untested, f"rows without a test case: {sorted(untested)}"
    # a row numpy lacks needs a hand-written reference in SPECIAL
    no_numpy = {n for n, r in ROWS.items() if not hasattr(np, r.numpy_name or "")}
    assert no_numpy <= set(SPECIAL), f"rows without a reference: {sorted(no_numpy - set(SPECIAL))}"
    # the exceptions name rows that exist
    assert set(DEDICATED) | set(EXCLUDED) <= set(ROWS)


# -- Python scalars are weak (NEP 50) --------------------------------------------

PY_SCALARS = [
    True,
    False,
    0,
    1,
    -1,
    127,
    200,
    -129,
    1000,
    2**31,
    2**40,
    2**63 - 1,
    2**63,
    2**64 - 1,
    2**70,
    -(2**63),
    -(2**70),
    0.5,
    -0.0,
    1e300,
    math.inf,
    math.nan,
    1 + 2j,
]
#: every two-input row numpy has, with a Python scalar on either side
WEAK_OPS = sorted(BINARY_UFUNCS)


@pytest.mark.parametrize("name", WEAK_OPS)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_python_scalar_operands(name: str, data: st.DataObject) -> None:
    scalar = data.draw(st.sampled_from(PY_SCALARS), label="scalar")
    scalar_first = data.draw(st.booleans(), label="scalar_first")
    (value,) = data.draw(unary_inputs(), label="array")
    fn, ufunc = _fn(name), _reference(name)
    if scalar_first:
        case = OpCase(name, lambda x: fn(scalar, x), lambda x: ufunc(scalar, x), st.nothing())
    else:
        case = OpCase(name, lambda x: fn(x, scalar), lambda x: ufunc(x, scalar), st.nothing())
    check_case(case, [value])


@pytest.mark.parametrize(
    "build, reference",
    [
        (lambda x: lt.where(lt.greater(x, 0), x, 1000), lambda x: np.where(x > 0, x, 1000)),
        (lambda x: lt.where(lt.greater(x, 0), 1.5, x), lambda x: np.where(x > 0, 1.5, x)),
        (lambda x: lt.clip(x, 0, 1000), lambda x: np.clip(x, 0, 1000)),
        (lambda x: lt.clip(x, -(2**70), 5), lambda x: np.clip(x, -(2**70), 5)),
        (lambda x: lt.clip(x, None, 2**70), lambda x: np.clip(x, None, 2**70)),
        (lambda x: lt.clip(x, 0.5, 2), lambda x: np.clip(x, 0.5, 2)),
        (lambda x: x + 1, lambda x: x + 1),
        (lambda x: 2.0 * x, lambda x: 2.0 * x),
        (lambda x: 3 - x, lambda x: 3 - x),
        (lambda x: 1 / x, lambda x: 1 / x),
    ],
)
@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_python_scalars_in_where_clip_and_operators(
    build: Any, reference: Any, data: st.DataObject
) -> None:
    (value,) = data.draw(unary_inputs(INTS + FLOATS + ("bool",)), label="array")
    check_case(OpCase("scalar", build, no_float16(reference), st.nothing()), [value])


def test_all_python_scalars_use_default_dtypes() -> None:
    assert lt.add(1, 2).dtype == np.add(1, 2).dtype.name
    assert lt.multiply(1, 2.5).dtype == np.multiply(1, 2.5).dtype.name
    assert lt.where(True, 1, 2).dtype == np.where(True, 1, 2).dtype.name
    assert lt.less(1, 2.0).eval() == np.less(1, 2.0)
    assert lt.add(np.float32(1), 2.0).dtype == "float32"


# -- output dtypes and eager TypeErrors: every row, every dtype pair ----------------


def _numpy_dtype(reference: Any, dtypes: tuple[str, ...]) -> str | type[Exception]:
    args = [np.zeros(1, d) for d in dtypes]
    try:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            return str(np.asarray(reference(*args)).dtype)
    except TypeError:
        return TypeError


def _references() -> dict[str, Any]:
    refs: dict[str, Any] = {}
    for name in {**UNARY_UFUNCS, **BINARY_UFUNCS}:
        refs[name] = _reference(name)
    refs.update(SPECIAL)
    refs["where"] = np.where
    refs["clip"] = np.clip
    refs["round"] = no_float16(np.round)
    return refs


@pytest.mark.parametrize("name", sorted(_references()))
def test_output_dtype_and_type_errors_for_every_dtype_combination(name: str) -> None:
    import itertools

    reference = _references()[name]
    nin = lt.scalar_op(name).nin
    combos = (
        list(itertools.product(ALL, repeat=nin))
        if nin < 3
        else [(c, x, y) for c in ("bool", "float64") for x in ALL for y in ALL]
    )
    for dtypes in combos:
        expected = _numpy_dtype(reference, dtypes)
        variables = [lt.tensor(d, (2,)) for d in dtypes]
        if expected is TypeError:
            with pytest.raises(TypeError, match=name):
                _fn(name)(*variables)
        else:
            assert _fn(name)(*variables).dtype == expected, (name, dtypes)


# -- eager shape errors ---------------------------------------------------------------


@pytest.mark.parametrize(
    "shapes_, message",
    [
        ([(3,), (4,)], r"add: operands could not be broadcast together with shapes \(3,\) \(4,\)"),
        ([(2, 3), (3, 2)], r"\(2, 3\) \(3, 2\)"),
        ([(None, 3), (5, 4)], r"\(\?, 3\) \(5, 4\)"),
    ],
)
def test_static_broadcast_mismatch_raises_value_error(shapes_: Any, message: str) -> None:
    x, y = (lt.tensor("float64", s) for s in shapes_)
    with pytest.raises(ValueError, match=message):
        lt.add(x, y)


def test_runtime_broadcast_mismatch_raises_value_error() -> None:
    x, y = lt.dvector("x"), lt.dvector("y")
    with pytest.raises(ValueError):
        lt.add(x, y).eval({x: np.zeros(3), y: np.zeros(4)})


def test_bitwise_on_floats_is_a_type_error_like_numpy() -> None:
    with pytest.raises(TypeError):
        np.bitwise_and(np.zeros(2), np.zeros(2))
    with pytest.raises(TypeError, match="bitwise_and"):
        lt.bitwise_and(lt.dvector(), lt.dvector())
    with pytest.raises(TypeError, match="subtract"):
        lt.subtract(lt.tensor("bool", (2,)), lt.tensor("bool", (2,)))


def test_static_shapes_are_broadcast() -> None:
    out = lt.add(lt.tensor("float64", (None, 1, 3)), lt.tensor("float64", (4, 1)))
    assert out.type.shape == (None, 4, 3)
    out = lt.add(lt.tensor("float64", (None,)), lt.tensor("float64", (0,)))
    assert out.type.shape == (0,)
    out = lt.add(lt.tensor("float64", (1,)), lt.tensor("float64", (None,)))
    assert out.type.shape == (None,)


@settings(max_examples=30, deadline=None)
@given(data=st.data())
def test_unknown_sizes_broadcast_at_run_time(data: st.DataObject) -> None:
    """Sizes unknown at build time (None) may be 1 and broadcast when computed."""
    a, b = data.draw(nary_inputs(2, FLOATS), label="inputs")
    x = lt.tensor(a.dtype, (None,) * a.ndim)
    y = lt.tensor(b.dtype, (None,) * b.ndim)
    out = lt.multiply(x, y)
    from tests.tensor.harness import assert_numpy_equal, check_infer_shape, run

    got = run([x, y], out, [a, b])
    assert_numpy_equal(got, np.multiply(a, b))
    check_infer_shape(out, [a, b], [x, y], got)


def test_zero_d_results_are_arrays() -> None:
    x = lt.dscalar("x")
    got = lt.exp(x).eval({x: np.array(0.5)})
    assert type(got) is np.ndarray and got.shape == ()


def test_outputs_never_alias_inputs() -> None:
    x = lt.dvector("x")
    for fn in (lt.real, lt.positive, lt.copy, lambda v: lt.cast(v, "float32")):
        data = np.arange(3.0)
        out = fn(x).eval({x: data})
        out[...] = 7
        assert data.tolist() == [0.0, 1.0, 2.0]


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("shape", [(), (1,), (7,), (3, 21)])
def test_signed_zero_ties_give_numpy_operand(dtype: str, shape: tuple[int, ...]) -> None:
    # 0.0 against -0.0 compares equal: numpy's maximum and minimum give the
    # second operand, and its clip of an array is maximum-then-minimum (the
    # bound on a tie); a kernel returning the first operand gave the wrong sign
    # (found by test_matches_numpy on numba). numpy's clip of a 0-d array keeps
    # x instead: that quirk is not reproduced (jax does not either).
    size = math.prod(shape)
    a = np.resize(np.array([0.0, -0.0, -0.0, 0.0], dtype), size).reshape(shape)
    b = np.resize(np.array([-0.0, 0.0, -0.0, 0.0], dtype), size).reshape(shape)
    x, y = lt.tensor(dtype, shape), lt.tensor(dtype, shape)
    pairs = [(lt.maximum(x, y), np.maximum(a, b)), (lt.minimum(x, y), np.minimum(a, b))]
    if shape:
        pairs += [
            (lt.clip(x, y, 1.0), np.clip(a, b, 1.0)),
            (lt.clip(x, -1.0, y), np.clip(a, -1.0, b)),
        ]
    for out, expected in pairs:
        got = run([x, y], out, [a, b])
        np.testing.assert_array_equal(np.signbit(got), np.signbit(expected))


@pytest.mark.parametrize(
    ("build", "expected"),
    [
        (lambda x: x * 1, lambda a: a * 1),
        (lambda x: 1.0 * x, lambda a: 1.0 * a),
        (lambda x: x * (1 + 0j), lambda a: a * (1 + 0j)),
        (lambda x: x / 1, lambda a: a / 1),
        (lambda x: x + 0j, lambda a: a + 0j),
    ],
)
def test_complex_neutral_elements_keep_numpys_special_parts(build: Any, expected: Any) -> None:
    # numpy's complex product with 1+0j mixes the parts: (nan+0j) * 1 is
    # nan+nanj, (inf+0j) * 1 is inf+nanj, (-0-0j) + 0j is +0+0j. The rewrites
    # x * 1 -> x and x / 1 -> x are exact for real x only (they gave nan+0j).
    values = [complex(r, i) for r in (np.nan, np.inf, -0.0, 2.5) for i in (-0.0, -np.inf)]
    a = np.array(values)
    x = lt.tensor("complex128", (None,))
    got = run([x], build(x), [a])
    with np.errstate(all="ignore"):
        want = expected(a)
    for part in (np.real, np.imag):
        g, w = part(got), part(want)
        np.testing.assert_array_equal(g, w)  # NaNs where numpy's are
        numbers = ~np.isnan(w)  # (a NaN's sign is not numpy's promise)
        np.testing.assert_array_equal(np.signbit(g)[numbers], np.signbit(w)[numbers])
