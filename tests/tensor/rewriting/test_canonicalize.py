"""The canonicalize stage: one test (or more) per identity, each asserting the
rewritten graph's structure and comparing values before and after rewriting
on random inputs, with NaN, inf and -0.0 where the rule's tags promise them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import lazygraph
import lazygraph.tensor as lt
from lazygraph.compile.function import rewrite_graph
from lazygraph.compile.mode import Mode
from lazygraph.graph.basic import Constant, Variable
from lazygraph.graph.clone import equal_computations
from lazygraph.graph.fg import FunctionGraph
from lazygraph.printing import dprint
from lazygraph.rewriting.db import RewriteDatabaseQuery, optdb
from lazygraph.tensor.broadcast import Alloc
from lazygraph.tensor.dimshuffle import DimShuffle
from lazygraph.tensor.elemwise import Elemwise
from lazygraph.tensor.reduction import Reduce
from lazygraph.tensor.scalar import scalar_op
from lazygraph.tensor.shape import Reshape, Shape_i
from lazygraph.tensor.subtensor import Subtensor
from tests.tensor.harness import arrays

# -- helpers shared with test_stabilize -----------------------------------------------


def stage_mode(
    stage: str, *include: str, exclude: Sequence[str] = (), backend: str | None = None
) -> Mode:
    """The default query up to ``stage`` (canonicalize, stabilize...) included,
    with extra tags switched on or off."""
    excluded = [t for t in ("unsafe_nan", *exclude) if t not in include]
    query = RewriteDatabaseQuery(["fast_run", *include], exclude=excluded, stop_after=stage)
    return Mode(backend=backend, query=query)


def canonicalize(*include: str, exclude: Sequence[str] = (), backend: str | None = None) -> Mode:
    return stage_mode("canonicalize", *include, exclude=exclude, backend=backend)


# Property tests draw many graph structures: each would compile new kernels on a
# compiling backend. They check rewrites, so they compute on the python backend.
PYTHON = "python"


def rewritten(inputs: Sequence[Variable], output: Variable, mode: Mode | None = None) -> Variable:
    """``output`` after ``mode``'s rewrites (a copy of its graph over the same inputs)."""
    fg = FunctionGraph(list(inputs), [output], clone=True, copy_inputs=False)
    rewrite_graph(fg, mode or canonicalize())
    return fg.outputs[0]


def assert_graph(got: Variable, expected: Variable) -> None:
    assert equal_computations([got], [expected]), (
        f"got:\n{dprint(got, file='str')}\nexpected:\n{dprint(expected, file='str')}"
    )


def ops_in(var: Variable) -> list[Any]:
    from lazygraph.graph.traversal import ancestors

    return [v.owner.op for v in ancestors([var]) if v.owner is not None]


def assert_same_values(
    inputs: Sequence[Variable],
    output: Variable,
    values: Sequence[np.ndarray],
    mode: Mode | None = None,
    rtol: float | None = None,
    signed_zeros: bool = True,
    atol: float = 0.0,
    backend: str | None = None,
) -> None:
    """The output computed without rewrites and with ``mode``'s: same dtype, shape,
    NaN positions and values (and signs of zeros, unless told not to)."""
    with np.errstate(all="ignore"):
        plain = Mode(backend=backend)
        before = np.asarray(lazygraph.function(list(inputs), output, plain, rewrite=False)(*values))
        after = np.asarray(
            lazygraph.function(list(inputs), output, mode=mode or canonicalize())(*values)
        )
    assert after.dtype == before.dtype
    assert after.shape == before.shape
    if before.dtype.kind in "fc":
        if rtol is None:
            rtol = 1e-5 if before.dtype in (np.float32, np.complex64) else 1e-12
        np.testing.assert_allclose(after, before, rtol=rtol, atol=atol, equal_nan=True)
        if signed_zeros and before.dtype.kind == "f":
            zeros = before == 0
            np.testing.assert_array_equal(np.signbit(after[zeros]), np.signbit(before[zeros]))
    else:
        np.testing.assert_array_equal(after, before)


def sample(dtype: str, n: int = 64, seed: int = 0) -> np.ndarray:
    """``n`` random values of ``dtype`` over many magnitudes, starting with the edge
    values: NaN, ±inf, ±0.0, ±1, the largest and smallest normal numbers (for
    integers: the limits, 0 and 1)."""
    rng = np.random.default_rng(seed)
    dt = np.dtype(dtype)
    if dt.kind == "b":
        return rng.random(n) < 0.5
    if dt.kind in "iu":
        info = np.iinfo(dt)
        values = rng.integers(info.min, info.max, n, endpoint=True, dtype=dt)
        values[:4] = [info.min, info.max, 0, 1]
        return values
    finfo = np.finfo(dt)
    edges = [np.nan, np.inf, -np.inf, -0.0, 0.0, 1.0, -1.0, finfo.max, finfo.min, finfo.tiny]
    with np.errstate(over="ignore"):
        values = (rng.standard_normal(n) * 10.0 ** rng.uniform(-5, 5, n)).astype(dt)
    values[: len(edges)] = edges
    return values


FLOATS = pytest.mark.parametrize("dtype", ["float32", "float64"])


# -- registration and tags ---------------------------------------------------------------


def test_every_rule_has_its_name_and_the_right_tags() -> None:
    import lazygraph.tensor.rewriting  # noqa: F401

    db = optdb["canonicalize"]
    safe = {"constant_folding", "x_times_1", "neg_neg", "log_exp", "sum_sum", "subtensor_subtensor"}
    unsafe = {"x_mul_y_div_y", "exp_log", "add_chain_float", "mul_chain_float"}
    for name in safe:
        assert {"fast_run", "fast_compile", name} <= db.tags_of(name)
    for name in unsafe:
        assert "unsafe_nan" in db.tags_of(name)
        assert "fast_run" not in db.tags_of(name)
    assert db.tags_of("x_plus_0_signed_zero") == {"signed_zero", "x_plus_0_signed_zero"}
    assert "changes_overflow" in db.tags_of("log_exp")


def test_docs_page_lists_every_rule_of_these_stages() -> None:
    from pathlib import Path

    import lazygraph.tensor.rewriting  # noqa: F401

    page = (Path(__file__).resolve().parents[3] / "docs" / "rewrites.md").read_text()
    for stage in ("canonicalize", "stabilize"):
        assert f"## {stage}" in page
        for name in optdb[stage]:
            assert f"| `{name}` |" in page or name == "constant_folding", name
    assert "| `constant_folding` |" in page


def test_default_mode_excludes_unsafe_nan_and_including_turns_it_on() -> None:
    assert "unsafe_nan" in Mode().query.exclude
    assert "unsafe_nan" not in Mode().including("unsafe_nan").query.exclude
    x = lt.dvector("x")
    out = lt.exp(lt.log(x))
    assert any(isinstance(op, Elemwise) for op in ops_in(rewritten([x], out, Mode())))
    assert rewritten([x], out, Mode().including("unsafe_nan")) is x


# -- neutral elements ------------------------------------------------------------------------


@FLOATS
def test_x_times_1(dtype: str) -> None:
    x = lt.tensor(dtype, (None,), "x")
    value = sample(dtype)
    for out in (x * 1, 1 * x):
        assert rewritten([x], out) is x
        assert_same_values([x], out, [value])
    # ones of a known length: x gets that length asserted
    out = x * lt.constant(np.ones(64, dtype))
    assert_graph(rewritten([x], out), lt.specify_shape(x, (64,)))
    assert_same_values([x], out, [value])


def test_x_times_1_keeps_the_dtype_by_a_cast() -> None:
    value = sample("int8")
    x = lt.tensor("int8", (64,), "x")
    out = x * lt.constant(1.0)  # float64: int8 * float64 -> float64
    assert_graph(rewritten([x], out), lt.cast(x, "float64"))
    assert_same_values([x], out, [value])


def test_x_times_1_keeps_a_broadcast() -> None:
    x = lt.dvector("x")
    out = x * lt.constant(np.ones((2, 1)))
    assert rewritten([x], out).type == out.type
    assert isinstance(rewritten([x], out).owner.op, Elemwise)
    assert_same_values([x], out, [np.arange(3.0)])


@FLOATS
def test_x_div_1(dtype: str) -> None:
    value = sample(dtype)
    x = lt.tensor(dtype, (None,), "x")
    assert rewritten([x], x / 1) is x
    assert_same_values([x], x / 1, [value])


def test_x_plus_0_integers_exact() -> None:
    value = sample("int8")
    x = lt.tensor("int8", (64,), "x")
    for out in (x + 0, 0 + x, x - 0):
        assert rewritten([x], out) is x
        assert_same_values([x], out, [value])
    # int8 + a float64 zero is float64: a cast keeps the type
    out = x + lt.constant(0.0)
    # integers have no -0.0: exact
    assert_graph(rewritten([x], out), lt.cast(x, "float64"))
    assert_same_values([x], out, [value])


@FLOATS
def test_x_plus_negative_zero_is_exact(dtype: str) -> None:
    value = sample(dtype)
    x = lt.tensor(dtype, (None,), "x")
    out = x + lt.constant(np.asarray(-0.0, dtype))
    assert rewritten([x], out) is x
    assert_same_values([x], out, [value])


def test_x_plus_0_for_floats_is_opt_in_signed_zero() -> None:
    x = lt.dvector("x")
    out = x + 0.0
    # numpy: -0.0 + 0.0 is +0.0 (an idiom to clear the sign): kept by default
    assert rewritten([x], out) is not x
    value = np.array([-0.0, 1.0, np.nan, -np.inf])
    assert_same_values([x], out, [value])
    assert rewritten([x], out, canonicalize("signed_zero")) is x
    assert rewritten([x], out, Mode().including("signed_zero")) is x
    # the only difference: the rewritten graph keeps -0.0
    assert_same_values([x], out, [value], canonicalize("signed_zero"), signed_zeros=False)


@FLOATS
def test_x_minus_0_is_exact_with_signed_zeros(dtype: str) -> None:
    value = sample(dtype)
    x = lt.tensor(dtype, (None,), "x")
    out = x - 0.0
    assert rewritten([x], out) is x
    assert_same_values([x], out, [value])


# -- inverse pairs ----------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ["float32", "float64", "int8", "uint8"])
def test_neg_neg(dtype: str) -> None:
    value = sample(dtype)
    x = lt.tensor(dtype, (None,), "x")
    out = lt.negative(lt.negative(x))
    assert rewritten([x], out) is x
    assert_same_values([x], out, [value])


def test_x_mul_y_div_y_is_unsafe() -> None:
    x, y = lt.dvector("x"), lt.dvector("y")
    for out in ((x * y) / y, (y * x) / y):
        assert rewritten([x, y], out).owner.op == Elemwise(scalar_op("divide"))
        assert rewritten([x, y], out, canonicalize("unsafe_nan")) is x
    a, b = sample("float64", seed=1), sample("float64", seed=2)
    # where y is finite and nonzero and x * y neither overflows nor underflows, the
    # values agree (up to rounding); elsewhere the original is nan or 0
    with np.errstate(all="ignore"):
        ok = np.isfinite(b) & (b != 0) & (np.abs(a * b) < 1e300) & (np.abs(a * b) > 1e-300)
    unsafe = canonicalize("unsafe_nan")
    assert_same_values([x, y], (x * y) / y, [a[ok], b[ok]], unsafe, rtol=1e-15)
    with np.errstate(all="ignore"):
        before = lazygraph.function([x, y], (x * y) / y, rewrite=False)(a, b)
    assert np.isnan(before[~ok & np.isfinite(a)]).any()  # why it is unsafe


def test_exp_log_is_unsafe() -> None:
    x = lt.dvector("x")
    out = lt.exp(lt.log(x))
    assert rewritten([x], out).owner.op == Elemwise(scalar_op("exp"))
    assert rewritten([x], out, canonicalize("unsafe_nan")) is x
    # why it is unsafe: nan for negative x before, x after
    values = [np.array([-1.0, 0.5, 2.0])]
    with np.errstate(all="ignore"):
        before = lazygraph.function([x], out, rewrite=False)(*values)
    after = lazygraph.function([x], out, mode=canonicalize("unsafe_nan"))(*values)
    assert np.isnan(before[0]) and after[0] == -1.0
    np.testing.assert_allclose(after[1:], before[1:], rtol=1e-15)


def test_exp_log_of_integers_casts() -> None:
    x = lt.tensor("int16", (None,), "x")
    out = lt.exp(lt.log(x))  # float32
    assert_graph(rewritten([x], out, canonicalize("unsafe_nan")), lt.cast(x, "float32"))


@FLOATS
def test_log_exp(dtype: str) -> None:
    value = sample(dtype)
    x = lt.tensor(dtype, (None,), "x")
    out = lt.log(lt.exp(x))
    assert rewritten([x], out) is x
    assert rewritten([x], out, canonicalize(exclude=["changes_overflow"])) is not x
    # values agree wherever exp neither overflows nor underflows; NaN and ±inf stay
    limit = 80 if dtype == "float32" else 700
    tame = np.where(np.isfinite(value) & (np.abs(value) > limit), 0, value).astype(dtype)
    eps = float(np.finfo(dtype).eps)
    assert_same_values([x], out, [tame], rtol=4 * eps, atol=4 * eps, signed_zeros=False)


# -- add / mul chains ------------------------------------------------------------------------


def test_add_chain_int_orders_terms_and_folds_constants() -> None:
    a, b = sample("int8", seed=1), sample("int8", seed=2)
    x, y = lt.tensor("int8", (64,), "x"), lt.tensor("int8", (64,), "y")
    out = (y + 100) + (x + 100)  # wraps: int8 arithmetic is modular, so reassociation is exact
    assert_graph(rewritten([x, y], out), (x + y) + lt.constant(np.int8(-56)))
    assert_same_values([x, y], out, [a, b])


def test_mul_chain_int() -> None:
    a, b = sample("int8", seed=1), sample("int8", seed=2)
    x, y = lt.tensor("int8", (64,), "x"), lt.tensor("int8", (64,), "y")
    out = 3 * (y * (x * 5))
    assert_graph(rewritten([x, y], out), (x * y) * lt.constant(np.int8(15)))
    assert_same_values([x, y], out, [a, b])


def test_add_chain_drops_a_folded_zero_and_keeps_other_readers() -> None:
    x, y = lt.lvector("x"), lt.lvector("y")
    inner = x + 3
    out = (inner + (-3)) * inner  # inner has two readers: it is a term, not part of the chain
    got = rewritten([x, y], out)
    assert got.owner.op == Elemwise(scalar_op("multiply"))
    assert_same_values([x], out, [np.arange(4)])
    chain = lt.lvector("z")
    assert rewritten([chain], (chain + 3) + (-3)) is chain


def test_add_chain_is_linear_in_the_chain_length() -> None:
    x = lt.lvector("x")
    out = x
    for k in range(3000):
        out = out + (x if k % 2 else 1)
    got = rewritten([x], out)
    # x + x + ... + 1500: the chain root is rewritten once, the rest skipped cheaply
    assert isinstance(got.owner.inputs[1], Constant) and int(got.owner.inputs[1].data) == 1500
    # (the values on the python backend: a backend compiling thousands of nodes
    # into one function is not what this test is about)
    assert_same_values([x], out, [np.arange(3)], canonicalize(backend=PYTHON), backend=PYTHON)


def test_add_chain_leaves_mixed_dtypes_alone() -> None:
    x, y = lt.tensor("int8", (3,), "x"), lt.tensor("int64", (3,), "y")
    out = (x + x) + y  # int8 + int8 wraps before the int64 add: not reassociable
    got = rewritten([x, y], out)
    assert got.owner.inputs[0].owner.op == Elemwise(scalar_op("add"))
    assert_same_values([x, y], out, [np.array([100, 100, -100], "int8"), np.zeros(3, "int64")])


def test_float_chains_are_unsafe() -> None:
    value = np.random.default_rng(0).uniform(-1e3, 1e3, 64)
    x = lt.dvector("x")
    out = (x * 2.0) * 0.5 + 1.0 + 2.0
    assert rewritten([x], out) is not x
    assert_graph(rewritten([x], out), ((x * 2.0) * 0.5 + 1.0) + 2.0)
    assert_graph(rewritten([x], out, canonicalize("unsafe_nan")), x + 3.0)
    assert_same_values([x], out, [value], canonicalize("unsafe_nan"), rtol=1e-14)


@FLOATS
def test_add_mul_order_lets_merge_find_commuted_operands(dtype: str) -> None:
    x, y = lt.tensor(dtype, (None,), "x"), lt.tensor(dtype, (None,), "y")
    out = (y + x) * (x + y) + (2.0 * x)
    got = rewritten([x, y], out, Mode().excluding("fusion", "specialize"))
    s = x + y
    assert_graph(got, s * s + x * 2.0)  # merged after ordering
    a, b = sample(dtype, seed=1), sample(dtype, seed=2)
    assert_same_values([x, y], out, [a, b], Mode())


# -- layouts ------------------------------------------------------------------------------------


def test_double_transpose_and_lift_through_dimshuffle() -> None:
    value = sample("float64", 60).reshape(6, 10)
    x = lt.dmatrix("x")
    out = lt.transpose(lt.exp(lt.transpose(x)) + 1.0)
    assert_graph(rewritten([x], out), lt.exp(x) + 1.0)
    assert_same_values([x], out, [value])


def test_dimshuffle_dimshuffle_composes() -> None:
    x = lt.tensor("float32", (None, 3, None), "x")
    out = lt.expand_dims(lt.transpose(x, (2, 0, 1)), 0)
    assert_graph(rewritten([x], out), DimShuffle(3, ("x", 2, 0, 1))(x))
    assert_same_values([x], out, [np.arange(24, dtype="float32").reshape(2, 3, 4)])


def test_useless_dimshuffle() -> None:
    x = lt.dmatrix("x")
    out = DimShuffle(2, (0, 1))(x)
    assert rewritten([x], out) is x


def test_lift_keeps_different_shuffles() -> None:
    x, y = lt.dmatrix("x"), lt.dmatrix("y")
    out = lt.transpose(x) + y
    got = rewritten([x, y], out)
    assert_graph(got, lt.transpose(x) + y)


def test_lift_with_two_operands_and_a_scalar_constant() -> None:
    a, b = sample("float64", 60, 1).reshape(6, 10), sample("float64", 60, 2).reshape(6, 10)
    x, y = lt.dmatrix("x"), lt.dmatrix("y")
    out = lt.maximum(lt.transpose(x), lt.transpose(y)) * 2.0
    assert_graph(rewritten([x, y], out), lt.transpose(lt.maximum(x, y) * 2.0))
    assert_same_values([x, y], out, [a, b])


# -- reshape, cast, broadcast ---------------------------------------------------------------------


def test_useless_reshape() -> None:
    x = lt.dmatrix("x")
    by_shape = lt.reshape(x, (x.shape[0], x.shape[1]))
    assert rewritten([x], by_shape) is x
    s = lt.tensor("float64", (2, 3), "s")
    by_constant = Reshape(2)(s, lt.constant(np.array([2, -1])))
    assert rewritten([s], by_constant) is s
    assert_same_values([s], by_constant, [np.arange(6.0).reshape(2, 3)])


def test_reshape_reshape() -> None:
    x = lt.dmatrix("x")
    out = lt.reshape(lt.reshape(x, (-1,)), (3, -1))
    assert_graph(rewritten([x], out), lt.reshape(x, (3, -1)))
    assert_same_values([x], out, [np.arange(12.0).reshape(4, 3)])


def test_useless_cast() -> None:
    x = lt.dvector("x")
    out = Elemwise(scalar_op("cast", "float64"))(x)
    assert rewritten([x], out) is x


def test_useless_alloc_and_second() -> None:
    x = lt.dvector("x")
    out = Alloc()(x, Shape_i(0)(x))
    assert rewritten([x], out) is x
    s = lt.tensor("float64", (3,), "s")
    assert rewritten([s], Alloc()(s, 3)) is s
    a = lt.dscalar("a")
    second = Elemwise(scalar_op("second"))(a, s)
    assert rewritten([a, s], second) is s
    b = lt.dvector("b")
    grows = Elemwise(scalar_op("second"))(b, x)  # b may be longer than x
    assert rewritten([b, x], grows) is not x


# -- indexing ------------------------------------------------------------

_steps = st.one_of(st.none(), st.sampled_from([-3, -2, -1, 1, 2, 3]))


def _index(data: Any, shape: tuple[int, ...]) -> tuple[Any, ...]:
    """A random basic index of constant ints and slices that is valid for ``shape``."""
    n = data.draw(st.integers(1, len(shape)))
    entries: list[Any] = []
    for size in shape[:n]:
        if size > 0 and data.draw(st.booleans()):
            entries.append(data.draw(st.integers(-size, size - 1)))
        else:
            bound = st.one_of(st.none(), st.integers(-size - 2, size + 2))
            entries.append(slice(data.draw(bound), data.draw(bound), data.draw(_steps)))
    return tuple(entries)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(0, 5), min_size=1, max_size=3), st.booleans(), st.data())
def test_subtensor_subtensor(shape: list[int], static: bool, data: Any) -> None:
    value = np.arange(int(np.prod(shape)), dtype="float64").reshape(shape)
    i1 = _index(data, value.shape)
    middle = value[i1]
    assume(middle.ndim > 0)
    i2 = _index(data, middle.shape)
    expected = middle[i2]
    x = lt.tensor("float64", tuple(shape) if static else (None,) * len(shape), "x")
    out = lt.getitem(lt.getitem(x, i1), i2)
    got = rewritten([x], out)
    f = lazygraph.function([x], out, mode=canonicalize(backend=PYTHON))
    np.testing.assert_array_equal(f(value), expected)
    if static:  # with known sizes every pair of constant indices composes
        nested = [n for n in ops_in(got) if isinstance(n, Subtensor)]
        assert len(nested) <= 1, dprint(got, file="str")


def test_subtensor_subtensor_dynamic_offsets() -> None:
    x = lt.dvector("x")
    out = x[2::3][1:4:2]
    assert_graph(rewritten([x], out), x[5:14:6])
    assert_graph(rewritten([x], x[1:][2]), x[3])
    kept = rewritten([x], x[:3][1])  # x[:3][5] raises where x[5] may not: not composed
    assert isinstance(kept.owner.inputs[0].owner.op, Subtensor)
    with pytest.raises(IndexError):
        lazygraph.function([x], x[:3][2:][1], mode=canonicalize())(np.arange(10.0))


def test_subtensor_newaxis_is_a_dimshuffle() -> None:
    x = lt.dmatrix("x")
    assert_graph(rewritten([x], x[:, None]), DimShuffle(2, (0, "x", 1))(x))
    assert_graph(rewritten([x], x[None, :, None]), DimShuffle(2, ("x", 0, "x", 1))(x))
    assert_same_values([x], x[:, None], [sample("float64", 12).reshape(3, 4)])


# -- shapes and reductions --------------------------------------------------


def test_shape_of_static_shape_is_a_constant() -> None:
    s = lt.tensor("float32", (2, 5), "s")
    got = rewritten([s], lt.shape(s))
    assert isinstance(got, Constant) and got.type == lt.shape(s).type
    np.testing.assert_array_equal(got.data, [2, 5])
    partial = lt.tensor("float32", (None, 5), "p")
    assert isinstance(rewritten([partial], Shape_i(1)(partial)), Constant)
    assert not isinstance(rewritten([partial], Shape_i(0)(partial)), Constant)


@settings(max_examples=50, deadline=None)
@given(
    st.lists(st.integers(1, 3), min_size=1, max_size=4),
    st.data(),
    st.booleans(),
    st.booleans(),
    st.sampled_from(["float64", "int8", "bool"]),
)
def test_sum_sum(shape: list[int], data: Any, keep1: bool, keep2: bool, dtype: str) -> None:
    ndim = len(shape)
    axes1 = tuple(data.draw(st.sets(st.integers(0, ndim - 1), min_size=1)))
    mid_ndim = ndim if keep1 else ndim - len(axes1)
    assume(mid_ndim > 0)
    axes2 = tuple(data.draw(st.sets(st.integers(0, mid_ndim - 1), min_size=1)))
    x = lt.tensor(dtype, (None,) * ndim, "x")
    out = lt.sum(lt.sum(x, axis=axes1, keepdims=keep1), axis=axes2, keepdims=keep2)
    got = rewritten([x], out)
    assert sum(isinstance(op, Reduce) for op in ops_in(got)) == 1
    value = data.draw(
        arrays(dtype, tuple(shape), finite=True)
        if dtype == "float64"
        else arrays(dtype, tuple(shape))
    )
    assert_same_values([x], out, [value], canonicalize(backend=PYTHON), 1e-12, backend=PYTHON)


def test_sum_sum_keeps_a_different_accumulator() -> None:
    x = lt.tensor("int8", (None, None), "x")
    out = lt.sum(lt.sum(x, axis=0, dtype="int8"), axis=0)  # int8 wraps, then int64
    assert sum(isinstance(op, Reduce) for op in ops_in(rewritten([x], out))) == 2


@pytest.mark.parametrize("marker", ["zero_grad", "disconnected_grad", "undefined_grad"])
def test_gradient_markers_are_removed(marker: str) -> None:
    from lazygraph import gradient

    x = lt.dvector("x")
    out = getattr(gradient, marker)(x) * 2.0
    assert_graph(rewritten([x], out), x * 2.0)
    value = np.array([1.0, -0.0, np.nan])
    fn = lazygraph.function([x], [out, getattr(gradient, marker)(x)])
    got = fn(value)
    np.testing.assert_array_equal(got[0], value * 2.0)
    got[1][0] = 5.0  # an output that is the input is a copy of it
    assert value[0] == 1.0
