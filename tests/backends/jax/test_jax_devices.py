"""``lazygraph.jit`` with shardings, ``Array.to_device`` / ``Array.device`` and
device arrays (``jax.numpy.asarray``) on the jax backend, on 4 simulated CPU
devices (``XLA_FLAGS=--xla_force_host_platform_device_count=4``, set in a
subprocess before jax starts) and in this process."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("jax")

import jax
import jax.numpy as jnp
from tests.backends.four_devices import run_on_four_devices

import lazygraph
import lazygraph.numpy as lnp

FOUR_DEVICES = """
    rng = np.random.default_rng(0)
    scale = rng.standard_normal(8)  # captured by f: replicated

    def f(x, w):
        y = lnp.tanh(x @ w) * scale + lnp.sum(x, axis=1, keepdims=True)
        return y, lnp.sum(y * y), x

    # -- lazygraph.jit with shardings -------------------------------------------
    sharded = lazygraph.jit(
        f, mode="jax", in_shardings=(rows, rep), out_shardings=(rows, rep, cols)
    )
    plain = lazygraph.jit(f, mode="python")
    for shape in [(16, 12), (4, 8), (8, 0)]:
        xv = rng.standard_normal(shape)
        xv[0, :1] = np.nan  # NaN travels through the sharded program too
        wv = rng.standard_normal((shape[1], 8))
        got, want = sharded(xv, wv), plain(xv, wv)
        for g, w in zip(got, want, strict=True):
            assert isinstance(g, jax.Array), type(g)
            assert g.dtype == w.dtype == np.float64
            np.testing.assert_allclose(np.asarray(g), w, rtol=1e-12, atol=1e-12)
        assert got[0].sharding.is_equivalent_to(rows, 2), got[0].sharding
        assert got[1].sharding.is_equivalent_to(rep, 0), got[1].sharding
        # an output that is an argument, laid out as asked
        assert got[2].sharding.is_equivalent_to(cols, 2), got[2].sharding
        assert len(got[0].addressable_shards) == 4
    assert sharded.trace_count == 3

    # a pytree argument: one sharding per leaf, or one for the whole argument
    def g(params, x):
        return params["w"] @ x + params["b"]

    tree = lazygraph.jit(
        g, mode="jax", in_shardings=({"w": rows, "b": rep}, None), out_shardings=rows
    )
    params = {"w": rng.standard_normal((8, 5)), "b": rng.standard_normal((8, 1))}
    xv = rng.standard_normal((5, 3))
    out = tree(params, xv)
    np.testing.assert_allclose(np.asarray(out), params["w"] @ xv + params["b"], rtol=1e-12)
    assert out.sharding.is_equivalent_to(rows, 2)

    # -- to_device, device, jax.numpy.asarray ----------------------------------
    lazygraph.config.backend = "jax"
    base = rng.standard_normal((3, 4))
    a = lnp.asarray(base)
    assert a.device == "cpu"
    b = a.to_device(devices[2])
    assert b.device == devices[2] and (b * 2).device == devices[2]
    c = lnp.exp(b) + 1.0
    value = c.compute()
    assert type(value) is np.ndarray and value.flags.writeable
    np.testing.assert_allclose(value, np.exp(base) + 1.0, rtol=1e-15)
    assert c.device == devices[2]  # still there after computing
    on_device = jnp.asarray(c)
    assert on_device.devices() == {devices[2]} and on_device.dtype == np.float64
    np.testing.assert_array_equal(np.asarray(on_device), value)
    d = lnp.sum(c * c)  # computed from a value already on device 2
    np.testing.assert_allclose(float(d), np.sum(value * value), rtol=1e-12)
    assert jnp.asarray(d).devices() == {devices[2]}
    other = a.to_device(devices[1])
    try:
        (other + b).compute()
    except ValueError as exc:
        assert "different devices" in str(exc), exc
    else:
        raise AssertionError("arrays on two devices computed together")
    back = c.to_device("cpu")
    assert back.device == "cpu" and back.to_device("cpu") is back
    np.testing.assert_array_equal(back.compute(), value)
"""


def test_four_simulated_devices():
    run_on_four_devices(FOUR_DEVICES)


def _single() -> jax.sharding.Sharding:
    return jax.sharding.SingleDeviceSharding(jax.devices()[0])


def test_jit_shardings_need_the_jax_backend():
    with pytest.raises(ValueError, match="need the jax backend"):
        lazygraph.jit(lambda x: x + 1.0, mode="python", in_shardings=_single())
    with pytest.raises(ValueError, match="need the jax backend"):
        lazygraph.jit(out_shardings=_single(), mode="numba")(lambda x: x + 1.0)


def test_jit_shardings_must_match_the_arguments():
    f = lazygraph.jit(lambda x, y: x + y, mode="jax", in_shardings=(_single(),))
    with pytest.raises(ValueError, match="does not match the structure"):
        f(np.ones(2), np.ones(2))


def test_jit_with_shardings_on_one_device_matches_numpy():
    sharding = _single()
    f = lazygraph.jit(
        lambda x, n: lnp.cumsum(x * n, axis=0) - x.mean(),
        mode="jax",
        in_shardings=sharding,
        out_shardings=sharding,
    )
    x = np.random.default_rng(2).standard_normal((5, 3))
    out = f(x, np.float64(-0.0))
    assert isinstance(out, jax.Array) and out.sharding.is_equivalent_to(sharding, 2)
    np.testing.assert_allclose(np.asarray(out), np.cumsum(x * -0.0, axis=0) - x.mean())


def test_to_device_with_a_jax_device_needs_the_jax_backend():
    x = lnp.asarray(np.ones(3))
    if lazygraph.config.backend == "jax":
        pytest.skip("this run uses the jax backend")
    with pytest.raises(ValueError, match="jax devices need"):
        x.to_device(jax.devices()[0])
    assert x.to_device("cpu") is x and x.device == "cpu"


def test_to_device_on_the_jax_backend(monkeypatch):
    monkeypatch.setattr(lazygraph.config, "backend", "jax")
    cpu = jax.devices("cpu")[0]
    data = np.array([[1.0, -0.0, np.nan], [np.inf, 2.0, -3.0]])
    x = lnp.asarray(data)
    y = x.to_device(cpu)
    assert y.device == cpu and y.to_device(cpu) is y
    z = lnp.where(y > 0, y * 2, y)
    np.testing.assert_array_equal(z.compute(), np.where(data > 0, data * 2, data))
    assert z.device == cpu
    assert jnp.asarray(z).devices() == {cpu}
    with pytest.raises(ValueError, match="unsupported device"):
        x.to_device(3)
