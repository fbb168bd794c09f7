"""lazygraph.numpy.testing: numpy's assertions, with lazy arrays on both sides.

numpy's general assertions (``assert_equal``, ``assert_almost_equal``,
``assert_approx_equal``) ask ``bool(desired == actual)`` of anything that is
not a ``numpy.ndarray``, ambiguous for two lazy arrays. The module computes
lazy arrays first, so each assertion passes and fails exactly where numpy's
does on the computed values.
"""

from __future__ import annotations

import numpy as np
import numpy.testing as numpy_testing
import pytest

import lazygraph.numpy as lnp
import lazygraph.numpy.testing as npt

VALUE_ASSERTIONS = (
    "assert_equal",
    "assert_almost_equal",
    "assert_approx_equal",
    "assert_array_equal",
    "assert_array_almost_equal",
    "assert_allclose",
)

PAIRS = [
    # (actual, desired): numpy arrays; each case is also run with lazy arrays
    (np.arange(6.0).reshape(2, 3), np.arange(6.0).reshape(2, 3)),
    (np.array([1.0, np.nan, -np.inf]), np.array([1.0, np.nan, -np.inf])),
    (np.array(2.5), np.array(2.5)),
    (np.array([0.0, 1.0]), np.array([-0.0, 1.0])),
    (np.arange(4), np.arange(4) + np.array([0, 0, 1, 0])),
    (np.array([1.0, 2.0]), np.array([1.0, 2.0 + 1e-9])),
    (np.zeros((0, 3)), np.zeros((0, 3))),
    (np.array([1.0, 2.0]), np.array([1.0, 2.0, 3.0])),
]


def outcome(assertion, actual, desired):
    try:
        assertion(actual, desired)
    except AssertionError:
        return "fails"
    except (TypeError, ValueError) as error:
        return type(error).__name__
    return "passes"


@pytest.mark.parametrize("name", VALUE_ASSERTIONS)
@pytest.mark.parametrize("pair", range(len(PAIRS)))
def test_lazy_arrays_are_judged_as_numpy_judges_their_values(name, pair):
    actual, desired = PAIRS[pair]
    if name == "assert_approx_equal" and actual.size != 1:
        return  # numpy's takes scalars only
    expected = outcome(getattr(numpy_testing, name), actual, desired)
    lazy = getattr(npt, name)
    assert outcome(lazy, lnp.asarray(actual), lnp.asarray(desired)) == expected
    assert outcome(lazy, lnp.asarray(actual) * 1, desired) == expected
    assert outcome(lazy, actual, lnp.asarray(desired) + 0) == expected


def test_nested_containers_and_named_results():
    x = lnp.asarray([[2.0, 1.0], [1.0, 3.0]])
    npt.assert_equal({"a": [x, (x + 1, 3)]}, {"a": [x, (x + 1, 3)]})
    with pytest.raises(AssertionError):
        npt.assert_equal({"a": [x, (x + 1, 3)]}, {"a": [x, (x + 2, 3)]})
    result = lnp.linalg.slogdet(x)
    npt.assert_allclose(result, np.linalg.slogdet(np.asarray(x)))
    npt.assert_equal(lnp.linalg.eigh(x), lnp.linalg.eigh(x))


def test_the_other_names_are_numpy_testings_own():
    assert npt.assert_raises is numpy_testing.assert_raises
    assert npt.suppress_warnings is numpy_testing.suppress_warnings
    assert set(numpy_testing.__all__) <= set(npt.__all__)
