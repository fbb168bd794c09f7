"""Host steps on the jax backend are never silent: a node it cannot lower warns
once per Op and reason with ``JaxFallbackWarning`` (``config.on_unsupported =
"raise"`` raises instead), while the host steps that are by design, each listed
with its reason in ``HOST_BY_DESIGN``, do neither."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

pytest.importorskip("jax")

import lazygraph
import lazygraph.tensor as lt
from lazygraph.backends.jax import backend, linker
from lazygraph.backends.jax.dispatch import HOST_BY_DESIGN, Unsupported
from lazygraph.backends.jax.linker import JaxFallbackWarning
from lazygraph.compile.cache import clear_cache
from lazygraph.compile.mode import Mode
from lazygraph.configuration import config
from lazygraph.graph.basic import Apply, Op

JAX = Mode(backend="jax")


class Twice(Op):
    """``2 * x``, with no jax lowering (only a ``perform``)."""

    __props__ = ()

    def make_node(self, x: Any) -> Apply:
        x = lt.as_tensor_variable(x)
        return Apply(self, [x], [x.type()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        output_storage[0][0] = 2 * inputs[0]


@pytest.fixture(autouse=True)
def _fresh() -> Any:
    linker._warned.clear()
    backend.clear_cache()
    clear_cache()  # every test compiles (and so classifies its nodes) afresh
    yield
    linker._warned.clear()


def test_an_op_without_lowering_warns_once_and_runs_on_the_host() -> None:
    x = lt.dvector("x")
    with config.change(on_unsupported="fallback"):
        with pytest.warns(JaxFallbackWarning, match=r"Twice \(no jax lowering\)"):
            got = lazygraph.function([x], Twice()(x) + 1.0, mode=JAX)(np.arange(3.0))
        np.testing.assert_array_equal(got, np.arange(3.0) * 2 + 1)
        with warnings.catch_warnings():  # once per Op and reason
            warnings.simplefilter("error", JaxFallbackWarning)
            lazygraph.function([x], Twice()(x) * 3.0, mode=JAX)(np.arange(3.0))


def test_raise_on_unsupported_raises() -> None:
    x = lt.dvector("x")
    raising = config.change(on_unsupported="raise")
    with raising, pytest.raises(NotImplementedError, match="jax backend: cannot lower Twice"):
        lazygraph.function([x], Twice()(x), mode=JAX)(np.arange(3.0))


def test_a_program_compiled_with_fallbacks_is_not_reused_under_raise() -> None:
    x = lt.dvector("x")
    with config.change(on_unsupported="fallback"), warnings.catch_warnings():
        warnings.simplefilter("ignore", JaxFallbackWarning)
        lazygraph.function([x], Twice()(x), mode=JAX)(np.arange(3.0))
    with config.change(on_unsupported="raise"), pytest.raises(NotImplementedError):
        lazygraph.function([x], Twice()(x), mode=JAX)(np.arange(3.0))


def test_a_lowering_that_gives_up_is_a_fallback(monkeypatch: pytest.MonkeyPatch) -> None:
    from lazygraph.backends.jax import dispatch
    from lazygraph.tensor.elemwise import Elemwise

    def refuse(op: Any, node: Apply, ctx: Any) -> Any:
        raise Unsupported("refused for the test")

    lowering = dispatch.lowering_for(lt.exp(lt.dvector()).owner)
    monkeypatch.setitem(dispatch._lowerings, Elemwise, type(lowering)(refuse))
    x = lt.dvector("x")
    falling_back = config.change(on_unsupported="fallback")
    with falling_back, pytest.warns(JaxFallbackWarning, match="refused for the test"):
        got = lazygraph.function([x], lt.exp(x), mode=JAX)(np.zeros(2))
    np.testing.assert_array_equal(got, np.ones(2))
    backend.clear_cache()
    clear_cache()
    with config.change(on_unsupported="raise"), pytest.raises(NotImplementedError):
        lazygraph.function([x], lt.sin(x), mode=JAX)(np.zeros(2))


def test_host_steps_by_design_neither_warn_nor_raise() -> None:
    x = lt.dvector("x")
    outs = [
        lt.nonzero(x)[0],  # data-dependent shape
        x[x > 0],  # boolean mask
        lt.sqrt(lt.cast(x, "complex128")),  # numpy's complex special values
    ]
    with config.change(on_unsupported="raise"), warnings.catch_warnings():
        warnings.simplefilter("error", JaxFallbackWarning)
        got = lazygraph.function([x], outs, mode=JAX)(np.array([-1.0, 0.0, 4.0]))
    np.testing.assert_array_equal(got[0], [0, 2])
    np.testing.assert_array_equal(got[1], [4.0])
    np.testing.assert_array_equal(got[2], np.sqrt(np.array([-1.0, 0.0, 4.0], complex)))


def test_every_host_step_by_design_has_a_reason() -> None:
    assert HOST_BY_DESIGN
    for key, why in HOST_BY_DESIGN.items():
        assert isinstance(why, str) and len(why) > 20, key
    with pytest.raises(KeyError, match="not an entry of HOST_BY_DESIGN"):
        Unsupported("x", by_design="a reason nobody listed")


@pytest.mark.parametrize("name", ["less", "less_equal", "greater", "greater_equal"])
def test_complex_comparisons_lower_with_numpys_ordering(name: str) -> None:
    parts = [0.0, -0.0, 1.0, -2.5, np.inf, -np.inf, np.nan]
    values = np.array([complex(a, b) for a in parts for b in parts])
    a, b = (v.ravel() for v in np.meshgrid(values, values))
    x, y = lt.zvector("x"), lt.zvector("y")
    with config.change(on_unsupported="raise"):
        got = lazygraph.function([x, y], getattr(lt, name)(x, y), mode=JAX)(a, b)
    with np.errstate(invalid="ignore"):
        np.testing.assert_array_equal(got, getattr(np, name)(a, b))


@pytest.mark.parametrize("name", ["maximum", "minimum", "fmax", "fmin"])
def test_complex_extrema_lower_with_numpys_nan_rules(name: str) -> None:
    parts = [0.0, -0.0, 1.0, -2.5, np.inf, -np.inf, np.nan]
    values = np.array([complex(a, b) for a in parts for b in parts])
    a, b = (v.ravel() for v in np.meshgrid(values, values))
    x, y = lt.zvector("x"), lt.zvector("y")
    with config.change(on_unsupported="raise"):
        got = lazygraph.function([x, y], getattr(lt, name)(x, y), mode=JAX)(a, b)
    want = getattr(np, name)(a, b)
    np.testing.assert_array_equal(got.real, want.real)
    np.testing.assert_array_equal(got.imag, want.imag)
