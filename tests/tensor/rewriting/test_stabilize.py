"""The stabilize stage: each identity's rewritten structure, its values against
numpy's accurate function (``log1p``, a max-shifted softmax...) on inputs with
NaN, ±inf and huge and tiny values, and the NaN pattern of the unrewritten
graph kept wherever that graph did not overflow."""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
import pytest

import lazygraph
import lazygraph.tensor as lt
from lazygraph.compile.mode import Mode
from lazygraph.graph.basic import Variable
from lazygraph.rewriting.db import optdb
from lazygraph.tensor.elemwise import Elemwise
from lazygraph.tensor.reduction import Reduce
from tests.tensor.harness import BACKEND
from tests.tensor.rewriting.test_canonicalize import (
    assert_graph,
    ops_in,
    rewritten,
    sample,
    stage_mode,
)

STABILIZE = stage_mode("stabilize")


def reductions(var: Variable, kind: str) -> int:
    return sum(isinstance(op, Reduce) and op.kind == kind for op in ops_in(var))


def elemwise_names(var: Variable) -> list[str]:
    return [op.scalar_op.name for op in ops_in(var) if isinstance(op, Elemwise)]


def compute(
    inputs: Sequence[Variable], output: Variable, values: Sequence[np.ndarray], rewrite: bool
) -> np.ndarray:
    mode = STABILIZE if rewrite else None
    with np.errstate(all="ignore"):
        return np.asarray(
            lazygraph.function(list(inputs), output, mode=mode, rewrite=rewrite)(*values)
        )


def check_against(
    inputs: Sequence[Variable],
    output: Variable,
    values: Sequence[np.ndarray],
    oracle: Callable[..., np.ndarray],
    rtol: float,
    atol: float = 0.0,
    naive_ok: np.ndarray | None = None,
) -> None:
    """Rewritten values equal the accurate ``oracle`` (same dtype and shape, NaN where
    it has NaN), and are NaN exactly where the unrewritten graph is NaN (only where
    ``naive_ok`` says the unrewritten graph does not overflow, if given)."""
    after = compute(inputs, output, values, rewrite=True)
    before = compute(inputs, output, values, rewrite=False)
    with np.errstate(all="ignore"):
        expected = np.asarray(oracle(*values)).astype(before.dtype)
    assert after.dtype == before.dtype and after.shape == before.shape
    if BACKEND == "jax" and after.dtype.kind in "fc":  # XLA flushes subnormal results
        atol = max(atol, float(np.finfo(after.dtype).tiny))
    np.testing.assert_allclose(after, expected, rtol=rtol, atol=atol, equal_nan=True)
    ok = np.ones(after.shape, bool) if naive_ok is None else naive_ok
    np.testing.assert_array_equal(np.isnan(after[ok]), np.isnan(before[ok]))


def tolerance(dtype: str) -> float:
    return 1e-5 if dtype == "float32" else 1e-12


# -- registration ---------------------------------------------------------------------


def test_rules_are_tagged_stability_and_switch_off_by_name() -> None:
    import lazygraph.tensor.rewriting  # noqa: F401

    db = optdb["stabilize"]
    for name in ("log_1_plus_x", "exp_minus_1", "log_sum_exp", "softmax", "log_softmax"):
        assert {"fast_run", "stability", name} <= db.tags_of(name)
    x = lt.dvector("x")
    assert elemwise_names(rewritten([x], lt.log(1 + x), STABILIZE)) == ["log1p"]
    off = rewritten([x], lt.log(1 + x), Mode().excluding("log_1_plus_x"))
    assert "log1p" not in elemwise_names(off)


# -- elementwise identities ---------------------------------------------------------------


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_log_1_plus_x(dtype: str) -> None:
    x = lt.tensor(dtype, (None,), "x")
    for out in (lt.log(1 + x), lt.log(x + 1)):
        assert_graph(rewritten([x], out, STABILIZE), lt.log1p(x))
        check_against([x], out, [sample(dtype)], np.log1p, tolerance(dtype))


def test_log_1_plus_x_leaves_integers_alone() -> None:
    x = lt.tensor("int8", (None,), "x")
    out = lt.log(1 + x)  # 127 + 1 wraps to -128 in int8: log1p(127) would differ
    assert "log1p" not in elemwise_names(rewritten([x], out, STABILIZE))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int16"])
def test_exp_minus_1(dtype: str) -> None:
    x = lt.tensor(dtype, (None,), "x")
    out = lt.exp(x) - 1
    assert_graph(rewritten([x], out, STABILIZE), lt.expm1(x))
    values = sample(dtype) if dtype != "int16" else np.arange(-50, 50, dtype="int16")
    ftype = out.dtype
    check_against([x], out, [values], lambda v: np.expm1(v.astype(ftype)), tolerance(ftype))


def _log_sigmoid_oracle(v: np.ndarray) -> np.ndarray:
    return -np.logaddexp(0, -v)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_log_sigmoid(dtype: str) -> None:
    x = lt.tensor(dtype, (None,), "x")
    out = lt.log(lt.sigmoid(x))
    assert_graph(rewritten([x], out, STABILIZE), lt.log_sigmoid(x))
    values = sample(dtype)
    after = compute([x], out, [values], rewrite=True)
    with np.errstate(all="ignore"):
        expected = _log_sigmoid_oracle(values.astype("float64")).astype(dtype)
    np.testing.assert_allclose(after, expected, rtol=tolerance(dtype), equal_nan=True)
    # the naive form is -inf for x << 0; the rewrite gives about x there
    big = np.array([-800.0], dtype=dtype) if dtype == "float64" else np.array([-120.0], dtype)
    assert np.isneginf(compute([x], out, [big], rewrite=False)[0])
    assert np.isclose(compute([x], out, [big], rewrite=True)[0], big[0])


def _sigmoid_of_minus(v: np.ndarray) -> np.ndarray:
    # 1 - sigmoid(v) = sigmoid(-v), computed without cancellation
    e = np.exp(-np.abs(v))
    return np.where(v >= 0, e / (1 + e), 1 / (1 + e))


@pytest.mark.parametrize("dtype", ["float32", "float64", "int8"])
def test_one_minus_sigmoid(dtype: str) -> None:
    x = lt.tensor(dtype, (None,), "x")
    out = 1 - lt.sigmoid(x)
    got = rewritten([x], out, STABILIZE)
    xf = x if dtype != "int8" else lt.cast(x, "float32")
    assert_graph(got, lt.sigmoid(-xf))
    ftype = out.dtype
    check_against(
        [x],
        out,
        [sample(dtype)],
        lambda v: _sigmoid_of_minus(v.astype("float64")),
        tolerance(ftype),
    )


def _log1mexp_oracle(v: np.ndarray) -> np.ndarray:
    v = v.astype("float64")
    return np.where(v > -np.log(2), np.log(-np.expm1(v)), np.log1p(-np.exp(v)))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_log_1_minus_exp(dtype: str) -> None:
    x = lt.tensor(dtype, (None,), "x")
    out = lt.log(1 - lt.exp(x))
    assert_graph(rewritten([x], out, STABILIZE), lt.log1mexp(x))
    values = sample(dtype)
    # for 0 < x < eps, 1 - exp(x) rounds to 0 and the naive form gives -inf; the
    # true value (NaN, as for every larger x) is what log1mexp gives: compare the
    # NaN pattern elsewhere
    below = values[~((values > 0) & (values < np.finfo(dtype).eps))]
    check_against([x], out, [below], _log1mexp_oracle, tolerance(dtype), atol=1e-30)
    tiny = np.array([np.finfo(dtype).tiny], dtype)
    assert np.isnan(compute([x], out, [tiny], rewrite=True)).all()


def test_log_1_minus_sigmoid_chains_two_rules() -> None:
    x = lt.dvector("x")
    out = lt.log(1 - lt.sigmoid(x))
    assert_graph(rewritten([x], out, STABILIZE), lt.log_sigmoid(-x))
    check_against([x], out, [sample("float64")], lambda v: _log_sigmoid_oracle(-v), 1e-12)


# -- logsumexp ---------------------------------------------------------------------------------


def _logsumexp_oracle(v: np.ndarray, axis: int | None = None, keepdims: bool = False) -> np.ndarray:
    with np.errstate(all="ignore"):
        return np.logaddexp.reduce(v.astype("float64"), axis=axis, keepdims=keepdims)


def test_log_sum_exp_of_large_values() -> None:
    x = lt.dvector("x")
    out = lt.log(lt.sum(lt.exp(x)))
    value = np.array([1000.0, 1000.0])
    with np.errstate(over="ignore"):
        assert np.isinf(np.log(np.sum(np.exp(value))))  # plain numpy overflows
    np.testing.assert_allclose(
        lazygraph.function([x], out)(value), 1000.0 + np.log(2.0), rtol=1e-15
    )


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize(("axis", "keepdims"), [(None, False), (1, False), (0, True)])
def test_log_sum_exp(dtype: str, axis: int | None, keepdims: bool) -> None:
    x = lt.tensor(dtype, (None, None), "x")
    out = lt.log(lt.sum(lt.exp(x), axis=axis, keepdims=keepdims))
    assert_graph(rewritten([x], out, STABILIZE), lt.logsumexp(x, axis=axis, keepdims=keepdims))
    values = sample(dtype, 60).reshape(6, 10)
    check_against(
        [x], out, [values], lambda v: _logsumexp_oracle(v, axis, keepdims), tolerance(dtype)
    )


def test_log_sum_exp_of_integers_keeps_the_dtype() -> None:
    x = lt.tensor("int8", (None,), "x")
    out = lt.log(lt.sum(lt.exp(x)))  # exp(int8) is float32
    got = rewritten([x], out, STABILIZE)
    assert got.type == out.type
    assert_graph(got, lt.logsumexp(lt.cast(x, "float32")))
    values = np.array([127, 127, -128, 0], dtype="int8")
    check_against([x], out, [values], _logsumexp_oracle, 1e-6)


def test_log_sum_exp_leaves_a_max_shifted_form_alone() -> None:
    x = lt.dmatrix("x")
    m = lt.max(x, axis=1, keepdims=True)
    out = lt.log(lt.sum(lt.exp(x - m), axis=1, keepdims=True)) + m
    got = rewritten([x], out, STABILIZE)
    assert reductions(got, "max") == 1 and reductions(got, "logsumexp") == 0
    value = np.array([[1000.0, 1000.0], [-3.0, 2.0]])
    np.testing.assert_allclose(
        lazygraph.function([x], out)(value), _logsumexp_oracle(value, 1, True)
    )


# -- softmax -----------------------------------------------------------------------------------


def _softmax_oracle(v: np.ndarray, axis: int) -> np.ndarray:
    v = v.astype("float64")
    m = np.max(v, axis=axis, keepdims=True)
    e = np.exp(v - m)
    return e / np.sum(e, axis=axis, keepdims=True)


LOGITS = np.array([[1000.0, 1001.0, 1002.0], [-1000.0, 0.0, 1000.0], [0.5, -2.0, 3.0]])


@pytest.mark.parametrize("static", [True, False])
def test_naive_softmax_of_large_logits_is_numpys_stable_softmax(static: bool) -> None:
    x = lt.tensor("float64", LOGITS.shape if static else (None, None), "x")
    out = lt.exp(x) / lt.sum(lt.exp(x), axis=1, keepdims=True)
    with np.errstate(all="ignore"):
        naive = np.exp(LOGITS) / np.sum(np.exp(LOGITS), axis=1, keepdims=True)
    assert np.isnan(naive).any()  # plain numpy: inf / inf
    got = lazygraph.function([x], out)(LOGITS)
    np.testing.assert_allclose(got, _softmax_oracle(LOGITS, 1), rtol=1e-14)


def test_softmax_structure_one_max_pass_when_sizes_are_known() -> None:
    x = lt.tensor("float64", (4, 5), "x")
    out = lt.exp(x) / lt.sum(lt.exp(x), axis=1, keepdims=True)
    got = rewritten([x], out, STABILIZE)
    assert reductions(got, "max") == 1 and reductions(got, "sum") == 1
    assert elemwise_names(got).count("exp") == 1


def test_softmax_of_unknown_sizes_uses_logsumexp() -> None:
    x = lt.dmatrix("x")
    out = lt.exp(x) / lt.sum(lt.exp(x), axis=1, keepdims=True)
    lse = lt.logsumexp(x, axis=1, keepdims=True)
    e = lt.exp(x - lt.where(lt.isfinite(lse), lse, 0.0))
    assert_graph(rewritten([x], out, STABILIZE), e / lt.sum(e, axis=1, keepdims=True))
    # an empty softmax axis works (a max would raise)
    np.testing.assert_array_equal(lazygraph.function([x], out)(np.zeros((3, 0))), np.zeros((3, 0)))


@pytest.mark.parametrize("static", [True, False])
def test_softmax_keeps_the_nan_pattern(static: bool) -> None:
    rows = np.array(
        [
            [0.5, -2.0, 3.0, 1.0],
            [np.inf, 1.0, 2.0, -np.inf],  # naive: nan where inf / inf, 0 elsewhere
            [-np.inf, -np.inf, -np.inf, -np.inf],  # naive: 0 / 0
            [np.nan, 1.0, 2.0, 3.0],
            [-np.inf, 1.0, 2.0, -0.0],
            [1e-300, -1e-300, 5e-324, 0.0],
        ]
    )
    x = lt.tensor("float64", rows.shape if static else (None, None), "x")
    out = lt.exp(x) / lt.sum(lt.exp(x), axis=1, keepdims=True)
    after = compute([x], out, [rows], rewrite=True)
    before = compute([x], out, [rows], rewrite=False)
    np.testing.assert_allclose(after, before, rtol=1e-14, equal_nan=True)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_softmax_random_values(dtype: str) -> None:
    values = sample(dtype, 60, seed=3).reshape(6, 10)
    values = np.where(np.isfinite(values), np.clip(values, -1e4, 1e4), values).astype(dtype)
    x = lt.tensor(dtype, (6, 10), "x")
    out = lt.exp(x) / lt.sum(lt.exp(x), axis=1, keepdims=True)
    after = compute([x], out, [values], rewrite=True)
    with np.errstate(all="ignore"):
        expected = _softmax_oracle(values, 1).astype(dtype)
    finite_rows = np.isfinite(values).all(axis=1)
    np.testing.assert_allclose(
        after[finite_rows], expected[finite_rows], rtol=tolerance(dtype) * 10, atol=1e-30
    )
    before = compute([x], out, [values], rewrite=False)
    tame = finite_rows & (np.abs(values) < 80).all(axis=1)  # where the naive form is accurate
    np.testing.assert_allclose(after[tame], before[tame], rtol=tolerance(dtype) * 10, atol=1e-30)


def test_softmax_leaves_a_user_max_shift_alone() -> None:
    x = lt.tensor("float64", (3, 4), "x")
    e = lt.exp(x - lt.max(x, axis=1, keepdims=True))
    out = e / lt.sum(e, axis=1, keepdims=True)
    got = rewritten([x], out, STABILIZE)
    assert reductions(got, "max") == 1  # no second max pass
    assert_graph(got, out)
    f = lazygraph.function([x], out)
    assert reductions(f.fgraph.outputs[0], "max") <= 1
    value = LOGITS[:, [0, 1, 2, 2]]
    np.testing.assert_allclose(f(value), _softmax_oracle(value, 1), rtol=1e-14)


def test_a_shift_that_is_not_always_the_max_is_not_stable() -> None:
    x = lt.tensor("float64", (3, 3), "x")
    m = lt.max(x, axis=1, keepdims=True)
    z = x - lt.where(m > 1e6, m, 0.0)  # the max only for huge rows: exp(z) may overflow
    out = lt.exp(z) / lt.sum(lt.exp(z), axis=1, keepdims=True)
    assert reductions(rewritten([x], out, STABILIZE), "max") == 2
    np.testing.assert_allclose(
        lazygraph.function([x], out)(LOGITS), _softmax_oracle(LOGITS, 1), rtol=1e-14
    )


@pytest.mark.parametrize("form", ["dimshuffle", "full"])
def test_softmax_with_the_sum_reshaped_by_hand(form: str) -> None:
    if form == "dimshuffle":
        x = lt.dmatrix("x")
        out = lt.exp(x) / lt.sum(lt.exp(x), axis=1)[:, None]
        value, expected = LOGITS, _softmax_oracle(LOGITS, 1)
    else:
        x = lt.dvector("x")
        out = lt.exp(x) / lt.sum(lt.exp(x))
        value, expected = LOGITS[0], _softmax_oracle(LOGITS[0], 0)
    got = rewritten([x], out, STABILIZE)
    assert reductions(got, "logsumexp") == 1 and "divide" in elemwise_names(got)
    np.testing.assert_allclose(lazygraph.function([x], out)(value), expected, rtol=1e-14)


def test_softmax_of_a_transpose_after_canonicalize_lifts_exp() -> None:
    x = lt.dmatrix("x")
    t = lt.transpose(x)
    out = lt.exp(t) / lt.sum(lt.exp(t), axis=1, keepdims=True)  # exp(x.T) becomes exp(x).T
    lse = lt.log(lt.sum(lt.exp(t), axis=0))
    got = rewritten([x], out, STABILIZE)
    assert reductions(got, "logsumexp") == 1
    assert reductions(rewritten([x], lse, STABILIZE), "logsumexp") == 1
    value = LOGITS.T.copy()
    np.testing.assert_allclose(
        lazygraph.function([x], out)(value), _softmax_oracle(LOGITS, 1), rtol=1e-14
    )


def test_softmax_over_the_wrong_axes_is_not_matched() -> None:
    x = lt.tensor("float64", (3, 3), "x")
    out = lt.exp(x) / lt.sum(lt.exp(x), axis=1)  # broadcasts along the rows: not a softmax
    got = rewritten([x], out, STABILIZE)
    assert reductions(got, "max") == 0 and reductions(got, "logsumexp") == 0


# -- log-softmax -------------------------------------------------------------------------------


@pytest.mark.parametrize("static", [True, False])
def test_log_softmax(static: bool) -> None:
    x = lt.tensor("float64", LOGITS.shape if static else (None, None), "x")
    out = lt.log(lt.exp(x) / lt.sum(lt.exp(x), axis=1, keepdims=True))
    got = rewritten([x], out, STABILIZE)
    assert_graph(got, x - lt.logsumexp(x, axis=1, keepdims=True))
    expected = LOGITS - _logsumexp_oracle(LOGITS, 1, True)
    np.testing.assert_allclose(lazygraph.function([x], out)(LOGITS), expected, rtol=1e-14)
    if not static:
        values = sample("float64", 60).reshape(6, 10)
        # the naive form is accurate (and its NaNs meaningful) where exp cannot overflow
        naive_ok = np.repeat((np.abs(values) < 700).all(axis=1, keepdims=True), 10, axis=1)
        naive_ok |= ~np.isfinite(values).all(axis=1, keepdims=True)
        oracle = lambda v: v - _logsumexp_oracle(v, 1, True)  # noqa: E731
        check_against([x], out, [values], oracle, 1e-12, naive_ok=naive_ok)


def test_log_softmax_of_a_max_shifted_form_has_one_max_pass() -> None:
    x = lt.tensor("float64", (3, 3), "x")
    z = x - lt.max(x, axis=1, keepdims=True)
    out = lt.log(lt.exp(z) / lt.sum(lt.exp(z), axis=1, keepdims=True))
    got = rewritten([x], out, STABILIZE)
    assert reductions(got, "max") == 1 and reductions(got, "logsumexp") == 0
    assert "divide" not in elemwise_names(got)
    np.testing.assert_allclose(
        lazygraph.function([x], out)(LOGITS),
        LOGITS - _logsumexp_oracle(LOGITS, 1, True),
        rtol=1e-12,
    )
