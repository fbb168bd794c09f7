"""Arguments whose own type numpy lets answer: masked arrays, matrices, pandas.

numpy hands a ufunc call to an operand that overrides ``__array_ufunc__`` and
lets ``sum``/``mean``/``argmax``/... call an argument's own method when it is
not a plain ndarray (lazygraph.numpy._foreign). lazygraph.numpy does the same,
so a masked array keeps its mask and a pandas Series its index and NaN
skipping: every answer here is compared with numpy's, type included.
"""

from __future__ import annotations

from typing import Any

import hypothesis.extra.numpy as hnp
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import lazygraph
import lazygraph.numpy as lnp

UFUNCS = ["add", "multiply", "maximum", "greater", "divide", "power"]
UNARY = ["exp", "negative", "sqrt", "isnan"]
REDUCTIONS = [
    ("sum", {}),
    ("sum", {"axis": 0}),
    ("mean", {}),
    ("mean", {"axis": 1, "keepdims": True}),
    ("std", {"ddof": 1}),
    ("var", {"axis": 0}),
    ("max", {}),
    ("amin", {"axis": 1}),
    ("prod", {}),
    ("argmax", {}),
    ("argmin", {"axis": 0}),
    ("any", {}),
    ("all", {"axis": 1}),
    ("cumsum", {}),
    ("round", {"decimals": 1}),
    ("clip", {"a_min": 0.0, "a_max": 0.5}),
]


def same(ours: Any, theirs: Any) -> None:
    """The same type, values, dtype and (for masked arrays) mask."""
    assert type(ours) is type(theirs), (type(ours), type(theirs))
    if isinstance(theirs, np.ma.MaskedArray):
        np.testing.assert_array_equal(np.ma.getmaskarray(ours), np.ma.getmaskarray(theirs))
        np.testing.assert_array_equal(ours.filled(0), theirs.filled(0))
        assert ours.dtype == theirs.dtype
    elif theirs is np.ma.masked:
        assert ours is np.ma.masked
    else:
        np.testing.assert_array_equal(np.asarray(ours), np.asarray(theirs))
        assert np.asarray(ours).dtype == np.asarray(theirs).dtype


masked_arrays = hnp.arrays(
    np.float64,
    st.tuples(st.integers(1, 4), st.integers(1, 4)),
    elements=st.floats(-2, 2) | st.just(np.nan),
).flatmap(lambda a: hnp.arrays(np.bool_, a.shape).map(lambda m: np.ma.array(a, mask=m)))


@given(masked_arrays, st.sampled_from(UFUNCS), st.booleans())
def test_ufuncs_of_masked_arrays_keep_the_mask(m: np.ma.MaskedArray, name: str, lazy: bool) -> None:
    other = lnp.asarray(np.linspace(0.5, 2.0, m.shape[1])) if lazy else 1.5
    with np.errstate(all="ignore"):
        same(getattr(lnp, name)(m, other), getattr(np, name)(m, np.asarray(other)))
        same(getattr(lnp, name)(other, m), getattr(np, name)(np.asarray(other), m))


@given(masked_arrays)
def test_operators_and_numpys_ufuncs_with_masked_arrays(m: np.ma.MaskedArray) -> None:
    """``lazy + masked``, ``masked * lazy`` and numpy's own ufunc on a lazy
    array and a masked one: masked arrays, as with an ndarray in numpy."""
    row = np.linspace(0.5, 2.0, m.shape[1])
    x = lnp.asarray(row)
    with np.errstate(all="ignore"):
        same(x + m, row + m)
        same(m * x, m * row)
        same(x > m, row > m)
        same(np.add(m, x), np.add(m, row))
        same(np.maximum(x, m), np.maximum(row, m))


@given(masked_arrays, st.sampled_from(UNARY))
def test_unary_ufuncs_of_masked_arrays(m: np.ma.MaskedArray, name: str) -> None:
    with np.errstate(all="ignore"):
        same(getattr(lnp, name)(m), getattr(np, name)(m))


@given(masked_arrays, st.sampled_from(REDUCTIONS))
def test_reductions_of_masked_arrays_skip_the_masked_elements(
    m: np.ma.MaskedArray, case: tuple[str, dict[str, Any]]
) -> None:
    name, kwargs = case
    with np.errstate(all="ignore"):
        same(getattr(lnp, name)(m, **kwargs), getattr(np, name)(m, **kwargs))


@pytest.mark.filterwarnings("ignore:the matrix subclass:PendingDeprecationWarning")
def test_matrices_keep_their_meaning() -> None:
    a = np.matrix([[1.0, 2.0], [3.0, 4.0]])
    for ours, theirs in [
        (lnp.multiply(a, a), np.multiply(a, a)),
        (lnp.sum(a, axis=0), np.sum(a, axis=0)),
        (lnp.mean(a, axis=1), np.mean(a, axis=1)),
        (lnp.argmax(a, axis=0), np.argmax(a, axis=0)),
    ]:
        same(ours, theirs)
        assert ours.shape == theirs.shape  # a matrix stays 2-d


class Labelled:
    """An array type of its own (a pandas stand-in): ufuncs of it and its
    ``sum``/``mean`` are its own (NaN skipped, labels kept)."""

    def __init__(self, values: Any, label: str) -> None:
        self.values = np.asarray(values, dtype=np.float64)
        self.label = label

    def __array__(self, dtype: Any = None, copy: Any = None) -> np.ndarray:
        return self.values

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        plain = [x.values if isinstance(x, Labelled) else np.asarray(x) for x in inputs]
        return Labelled(getattr(ufunc, method)(*plain, **kwargs), self.label)

    def sum(self, axis: Any = None, dtype: Any = None, out: Any = None, **kwargs: Any) -> float:
        return float(np.nansum(self.values))

    def mean(self, axis: Any = None, dtype: Any = None, out: Any = None, **kwargs: Any) -> float:
        return float(np.nanmean(self.values))


def test_an_array_type_of_its_own_answers_ufuncs_and_its_methods() -> None:
    x = Labelled([1.0, np.nan, 3.0], "price")
    for ours, theirs in [
        (lnp.exp(x), np.exp(x)),
        (lnp.add(x, lnp.asarray(np.ones(3))), np.add(x, np.ones(3))),
        (lnp.asarray(np.ones(3)) + x, np.ones(3) + x),
    ]:
        assert isinstance(ours, Labelled) and ours.label == theirs.label == "price"
        np.testing.assert_array_equal(ours.values, theirs.values)
    assert lnp.sum(x) == np.sum(x) == 4.0
    assert lnp.mean(x) == np.mean(x) == 2.0
    # a function numpy reads through __array__: read the same way, lazily
    got = lnp.where(lnp.asarray([True, False, True]), x, 0.0)
    assert isinstance(got, lnp.Array)
    np.testing.assert_array_equal(np.asarray(got), np.where([True, False, True], x, 0.0))


def test_plain_arrays_stay_lazy() -> None:
    memmap_like = np.arange(4.0).view(np.memmap)
    with lazygraph.config.change(eager_max_elements=0):
        for arg in (np.arange(4.0), memmap_like, lnp.arange(4.0), [0.0, 1.0, 2.0, 3.0]):
            assert isinstance(lnp.add(arg, 1.0), lnp.Array)
            assert isinstance(lnp.sum(arg), lnp.Array)


def test_pandas_series_are_pandas() -> None:
    pd = pytest.importorskip("pandas")
    s = pd.Series([1.0, np.nan, 3.0], index=[10, 20, 30])
    t = pd.Series([1.0, 2.0, 3.0], index=[30, 20, 10])
    pd.testing.assert_series_equal(lnp.add(s, t), np.add(s, t))  # aligned on the index
    pd.testing.assert_series_equal(lnp.log(s), np.log(s))
    for name in ("sum", "mean", "std", "max", "argmax"):
        assert getattr(lnp, name)(s) == getattr(np, name)(s)  # NaN skipped
