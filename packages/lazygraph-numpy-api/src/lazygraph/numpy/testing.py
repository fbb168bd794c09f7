"""``lazygraph.numpy.testing``: numpy.testing, taking lazy arrays everywhere.

numpy's array assertions (``assert_allclose``, ``assert_array_equal``, ...) read
their arguments through ``__array__``, which computes a lazy array. Its general
ones (``assert_equal``, ``assert_almost_equal``, ``assert_approx_equal``) take
the array path only for ``numpy.ndarray`` arguments and otherwise ask
``bool(desired == actual)``, which is ambiguous for two arrays of several
elements. The assertions here compute every lazygraph array among the arguments
(inside lists, tuples and dicts too) to a numpy array first, then call numpy's,
so ``import lazygraph.numpy.testing as npt`` works wherever
``import numpy.testing as npt`` did. Everything else is numpy.testing's own.

>>> import lazygraph.numpy as lnp
>>> import lazygraph.numpy.testing as npt
>>> npt.assert_allclose(lnp.arange(3.0) * 2, [0.0, 2.0, 4.0])
>>> npt.assert_equal(lnp.arange(3) * 2, lnp.asarray([0, 2, 4]))
>>> npt.assert_equal({"a": (lnp.ones(2), 1)}, {"a": (lnp.ones(2), 1)})
>>> npt.assert_almost_equal(lnp.asarray([1.0, 2.0]) / 3, [0.3333333, 0.6666667])
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import numpy
import numpy.testing as _numpy_testing
from lazygraph.numpy._array import Array
from numpy.testing import *  # noqa: F403
from numpy.testing import extbuild as extbuild
from numpy.testing import test as test

__all__ = [*_numpy_testing.__all__, "extbuild", "test"]


def _computed(value: Any) -> Any:
    """``value`` with every lazygraph array in it (nested in lists, tuples and
    dicts) computed to a numpy array; anything else as it is (the same object
    where nothing in it was lazy)."""
    if isinstance(value, Array):
        return numpy.asarray(value)
    if isinstance(value, dict):
        items = {key: _computed(item) for key, item in value.items()}
        same = all(items[key] is item for key, item in value.items())
        return value if same else items
    if isinstance(value, (list, tuple)):
        parts = [_computed(item) for item in value]
        if all(new is old for new, old in zip(parts, value, strict=True)):
            return value
        # a namedtuple (a result like SlogdetResult) keeps its type
        return type(value)(*parts) if hasattr(value, "_fields") else type(value)(parts)
    return value


def _taking_lazy_arrays(assertion: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(assertion)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        __tracebackhide__ = True  # pytest shows the caller's line
        args = tuple(_computed(arg) for arg in args)
        kwargs = {key: _computed(arg) for key, arg in kwargs.items()}
        return assertion(*args, **kwargs)

    return wrapper


# every assertion comparing values (assert_raises, assert_warns and the other
# context-manager helpers take callables, not values: numpy's own)
for _name in (
    "assert_equal",
    "assert_almost_equal",
    "assert_approx_equal",
    "assert_array_equal",
    "assert_array_almost_equal",
    "assert_array_less",
    "assert_allclose",
    "assert_array_max_ulp",
    "assert_array_almost_equal_nulp",
    "assert_string_equal",
):
    globals()[_name] = _taking_lazy_arrays(getattr(_numpy_testing, _name))
del _name


def __getattr__(name: str) -> Any:
    """numpy.testing's other names (its private helpers too, for test suites
    that import them)."""
    try:
        return getattr(_numpy_testing, name)
    except AttributeError:
        message = f"module 'lazygraph.numpy.testing' has no attribute {name!r}"
        raise AttributeError(message) from None
