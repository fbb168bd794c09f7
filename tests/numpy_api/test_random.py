"""lazygraph.numpy.random reproduces numpy's streams exactly: after the same seed,
every function (global state, ``RandomState``, ``default_rng`` Generators) gives
numpy's values, dtypes and shapes as lazy arrays bound to the drawn data; the
next numpy draw continues the same stream; lazy ``choice`` / ``permutation`` /
``shuffle`` stay lazy and still match numpy; and a second draw of the same shape
reuses the compiled function (data is input, not constant)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph.numpy as lnp
from lazygraph.numpy import random as lr

# (name, args, kwargs): the same call on numpy.random and lazygraph.numpy.random.
GLOBAL_CALLS: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = [
    ("rand", (2, 3), {}),
    ("rand", (), {}),
    ("randn", (4,), {}),
    ("random", ((2, 2),), {}),
    ("random", (), {}),
    ("random_sample", (3,), {}),
    ("uniform", (-1.0, 2.0, (5,)), {}),
    ("uniform", (), {}),
    ("normal", (1.0, 3.0), {"size": (2, 3)}),
    ("normal", (np.array([0.0, 10.0]), 1.0), {}),
    ("standard_normal", (4,), {}),
    ("exponential", (2.0, 3), {}),
    ("poisson", (3.0, 4), {}),
    ("binomial", (10, 0.3, 4), {}),
    ("randint", (5,), {"size": 6}),
    ("randint", (-3, 3, (2, 2)), {"dtype": np.int8}),
    ("randint", (10,), {}),
    ("choice", (5, 3), {}),
    ("choice", (np.arange(10.0), 4), {"replace": False}),
    ("choice", (4, 6), {"p": [0.1, 0.2, 0.3, 0.4]}),
    ("permutation", (6,), {}),
    ("permutation", (np.arange(12).reshape(4, 3),), {}),
    ("beta", (2.0, 3.0, 3), {}),
    ("gamma", (2.0,), {"size": 2}),
    ("multivariate_normal", ([0.0, 1.0], np.eye(2), 3), {}),
    ("standard_t", (3.0, 2), {}),
]


def _same(got: Any, expected: Any) -> None:
    if isinstance(expected, (np.ndarray, np.generic)):
        assert isinstance(got, lnp.Array), type(got)
        assert got.dtype == expected.dtype and got.shape == np.shape(expected)
        np.testing.assert_array_equal(got.compute(), expected)
    else:
        assert type(got) is type(expected) and got == expected


@pytest.mark.parametrize(("name", "args", "kwargs"), GLOBAL_CALLS)
def test_global_functions_match_numpy(
    name: str, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    np.random.seed(1234)
    got = getattr(lr, name)(*args, **kwargs)
    after_lazy = np.random.random()
    np.random.seed(1234)
    expected = getattr(np.random, name)(*args, **kwargs)
    _same(got, expected)
    assert np.random.random() == after_lazy  # the stream continues identically


GENERATOR_CALLS: list[tuple[str, tuple[Any, ...], dict[str, Any]]] = [
    ("random", (3,), {}),
    ("random", (), {"dtype": np.float32}),
    ("uniform", (0.0, 5.0, 4), {}),
    ("normal", (), {"size": (2, 2)}),
    ("normal", (), {}),
    ("standard_normal", (3,), {"dtype": np.float32}),
    ("integers", (0, 10, 5), {}),
    ("integers", (5,), {"endpoint": True, "dtype": np.uint8, "size": 3}),
    ("integers", (3, 9), {}),
    ("exponential", (1.5, 2), {}),
    ("poisson", (2.0, 3), {}),
    ("binomial", (5, 0.5, 2), {}),
    ("choice", (5, 3), {}),
    ("choice", (np.arange(12).reshape(3, 4), 2), {"axis": 1, "replace": False}),
    ("permutation", (7,), {}),
    ("permutation", (np.arange(12).reshape(3, 4),), {"axis": 1}),
    ("lognormal", (0.0, 1.0, 3), {}),
    ("dirichlet", ([1.0, 2.0, 3.0], 2), {}),
]


@pytest.mark.parametrize(("name", "args", "kwargs"), GENERATOR_CALLS)
def test_generator_methods_match_numpy(
    name: str, args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    rng, ref = lr.default_rng(99), np.random.default_rng(99)
    _same(getattr(rng, name)(*args, **kwargs), getattr(ref, name)(*args, **kwargs))
    _same(rng.random(), ref.random())


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 6), st.integers(0, 3), st.booleans())
def test_lazy_arrays_index_with_numpy_draws(seed: int, n: int, extra: int, legacy: bool) -> None:
    """choice / permutation / shuffle of a *lazy* array equal numpy's on the data."""
    data = np.arange(n * (extra + 1), dtype=float).reshape(n, extra + 1) ** 2
    lazy = lnp.asarray(data) + 0.0  # a lazy (non-leaf) array
    if legacy:
        make: Callable[[], Any] = lambda: lr.RandomState(seed)  # noqa: E731
        ref_make: Callable[[], Any] = lambda: np.random.RandomState(seed)  # noqa: E731
    else:
        make = lambda: lr.default_rng(seed)  # noqa: E731
        ref_make = lambda: np.random.default_rng(seed)  # noqa: E731
    got = make().permutation(lazy)
    _same(got, ref_make().permutation(data))
    rng, ref = make(), ref_make()
    flat_lazy, flat = lazy[:, 0], data[:, 0].copy()
    _same(rng.choice(flat_lazy, size=3), ref.choice(flat, size=3))
    rng.shuffle(lazy)
    expected = data.copy()
    ref.shuffle(expected)
    _same(lazy, expected)


def test_shuffle_rebinds_views_and_numpy_arrays_in_place() -> None:
    base = lnp.asarray(np.arange(6.0).reshape(3, 2))
    view = base[1:]  # sees the shuffle of its base
    lr.seed(5)
    lr.shuffle(base)
    np.random.seed(5)
    expected = np.arange(6.0).reshape(3, 2)
    np.random.shuffle(expected)
    np.testing.assert_array_equal(base.compute(), expected)
    np.testing.assert_array_equal(view.compute(), expected[1:])
    plain = np.arange(5)
    lr.seed(5)
    lr.shuffle(plain)
    np.random.seed(5)
    ref = np.arange(5)
    np.random.shuffle(ref)
    np.testing.assert_array_equal(plain, ref)


def test_draws_are_graph_inputs_and_reuse_compiled_functions() -> None:
    from lazygraph.numpy._convert import is_bound

    x = lr.rand(3)
    assert x._var.owner is None and is_bound(x._var)
    y = lr.default_rng(0).normal(size=3)
    assert is_bound(y._var)
    # Same structure, new data: the same result as numpy for both.
    for seed in (0, 1):
        lr.seed(seed)
        z = (lr.rand(4) * 2.0).compute()
        np.random.seed(seed)
        np.testing.assert_array_equal(z, np.random.rand(4) * 2.0)


def test_lazy_distribution_parameters_are_computed() -> None:
    loc = lnp.asarray(np.array([0.0, 100.0])) * 2
    got = lr.default_rng(3).normal(loc, 1.0)
    np.testing.assert_array_equal(got.compute(), np.random.default_rng(3).normal([0.0, 200.0], 1.0))


def test_namespace_and_errors() -> None:
    assert lr.default_rng(lr.default_rng(1)).bit_generator is not None
    assert isinstance(lr.default_rng(1), lr.Generator)
    assert lr.SeedSequence is np.random.SeedSequence  # classes are numpy's
    assert len(lr.default_rng(0).spawn(2)) == 2
    assert "lognormal" in dir(lr.default_rng(0))
    assert "lognormal" in dir(lr) and "default_rng" in dir(lr)
    state = lr.get_state()
    a = lr.random()
    lr.set_state(state)
    assert lr.random() == a
    with pytest.raises(ValueError):
        lr.choice(lnp.asarray(np.float64(1.0)))
    with pytest.raises(ValueError):
        lr.uniform(size=-1)
    with pytest.raises(AttributeError):
        lr.no_such_distribution  # noqa: B018
    with pytest.raises(ValueError):
        lr.default_rng(0).choice(3, size=5, replace=False)
