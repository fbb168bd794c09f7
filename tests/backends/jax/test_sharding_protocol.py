"""Sharding through the backend protocol: ``lazygraph.jit(in_shardings=...,
out_shardings=...)`` and ``Array.to_device(sharding)`` reach the jax backend
(its ``compile_options`` and its device support), checked against numpy.

The multi-device checks run in one subprocess on 4 simulated CPU devices
(``XLA_FLAGS=--xla_force_host_platform_device_count=4`` must be set before jax
starts); the errors, and a one-device sharding, run in this process."""

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
    rng = np.random.default_rng(7)

    def loss(x, w):
        return lnp.sum(lnp.tanh(x @ w) ** 2)

    def loss_grad_w(x, w):  # the oracle: d/dw sum(tanh(x @ w)**2)
        t = np.tanh(x @ w)
        return x.T @ (2.0 * t * (1.0 - t * t))

    # -- jit: one sharding per argument, layouts as asked ------------------------
    def f(x, w):
        return lnp.tanh(x @ w) * 2.0, lnp.max(x, axis=1), x - w[:, 0]

    sharded = lazygraph.jit(
        f, mode="jax", in_shardings=(rows, rep), out_shardings=(rows, rep, cols)
    )
    xv = rng.standard_normal((8, 4))
    xv[1, 2] = np.nan
    xv[3, 0] = -0.0
    xv[5, 1] = np.inf
    wv = rng.standard_normal((4, 4))
    got = sharded(xv, wv)
    want = (np.tanh(xv @ wv) * 2.0, np.max(xv, axis=1), xv - wv[:, 0])
    for g, w, s in zip(got, want, (rows, rep, cols), strict=True):
        assert isinstance(g, jax.Array), type(g)
        assert jnp.asarray(g).sharding == s, (g.sharding, s)
        assert g.dtype == w.dtype == np.float64
        np.testing.assert_allclose(np.asarray(g), w, rtol=1e-12, atol=1e-12)
    assert np.signbit(np.asarray(got[2])[3, 0]) == np.signbit(-0.0 - wv[0, 0])

    # a max / min across the split axis gives numpy's NaN (XLA's cross-device
    # max drops it on the CPU: jax.jit's own result differs), as unsharded
    split = np.ones((8, 2))
    split[5, 0] = np.nan
    split[2, 1] = -np.inf
    for reduce in (lnp.max, lnp.min, lnp.nanmax):
        ours = lazygraph.jit(lambda a: reduce(a, axis=0), mode="jax", in_shardings=rows)(split)
        np.testing.assert_array_equal(np.asarray(ours), getattr(np, reduce.__name__)(split, axis=0))
        unsharded = lazygraph.jit(lambda a: reduce(a, axis=0), mode="jax")(split)
        np.testing.assert_array_equal(unsharded, getattr(np, reduce.__name__)(split, axis=0))

    # one sharding for every argument (and a 0-d result of a broadcast)
    everywhere = lazygraph.jit(
        lambda a, b: (a + b, lnp.sum(a * b)), mode="jax", in_shardings=rep, out_shardings=rep
    )
    av, bv = rng.standard_normal((4, 1)), rng.standard_normal(3)
    total, dot = everywhere(av, bv)
    np.testing.assert_allclose(np.asarray(total), av + bv, rtol=1e-15)
    np.testing.assert_allclose(float(dot), np.sum(av * bv), rtol=1e-12)
    assert total.sharding == rep and dot.sharding == rep and dot.shape == ()

    # a one-device sharding puts the computation on that device
    on_3 = SingleDeviceSharding(devices[3])
    last = lazygraph.jit(lambda a: a * 3.0, mode="jax", in_shardings=on_3)
    out = last(np.arange(4.0))
    assert out.devices() == {devices[3]}, out.devices()
    np.testing.assert_array_equal(np.asarray(out), np.arange(4.0) * 3.0)

    # the compile cache keys on the shardings: a second jit of the same graph
    # with other shardings compiles again and lays its results out its own way
    def h(x):
        return lnp.exp(x) - 1.0

    by_rows = lazygraph.jit(h, mode="jax", in_shardings=rows, out_shardings=rows)
    by_cols = lazygraph.jit(h, mode="jax", in_shardings=rows, out_shardings=cols)
    again = lazygraph.jit(h, mode="jax", in_shardings=rows, out_shardings=rows)
    for fn, s in ((by_rows, rows), (by_cols, cols), (again, rows)):
        r = fn(xv)
        assert r.sharding == s, (r.sharding, s)
        np.testing.assert_allclose(np.asarray(r), np.expm1(xv), rtol=1e-12)

    # -- gradients through a sharded jit ----------------------------------------
    xv, wv = rng.standard_normal((8, 3)), rng.standard_normal(3)
    inside = lazygraph.jit(
        lazygraph.grad(loss, argnums=1), mode="jax", in_shardings=(rows, rep), out_shardings=rep
    )
    gw = inside(xv, wv)
    assert gw.sharding == rep
    np.testing.assert_allclose(np.asarray(gw), loss_grad_w(xv, wv), rtol=1e-12)
    # around: grad traces through the jitted function (inlined: the arrays'
    # own placement decides where it runs)
    around = lazygraph.grad(lazygraph.jit(loss, mode="jax", in_shardings=(rows, rep)), argnums=1)
    np.testing.assert_allclose(around(xv, wv), loss_grad_w(xv, wv), rtol=1e-12)

    # -- to_device(sharding) ------------------------------------------------------
    lazygraph.config.backend = "jax"
    data = rng.standard_normal((8, 4))
    data[0, :] = [np.nan, -0.0, np.inf, -np.inf]
    x = lnp.asarray(data).to_device(rows)
    assert x.device == rows and x.to_device(rows) is x
    assert jnp.asarray(x).sharding == rows  # placed with jax.device_put(value, rows)
    y = lnp.where(x > 0, x * 2.0, x) + 1.0  # computed from a sharded value: sharded
    assert y.device == rows
    value = y.compute()
    assert type(value) is np.ndarray and value.flags.writeable
    np.testing.assert_array_equal(value, np.where(data > 0, data * 2.0, data) + 1.0)
    assert jnp.asarray(y).sharding == rows and y.device == rows
    # two layouts over the same devices combine; the result's is XLA's, and
    # ``device`` reports it as jax.Array.device does
    mv, kv, hv = rng.standard_normal((8, 3)), rng.standard_normal((3, 3)), rng.standard_normal(3)
    m = lnp.asarray(mv).to_device(rows) @ lnp.asarray(kv).to_device(rep)
    np.testing.assert_allclose(m.compute(), mv @ kv, rtol=1e-12)
    assert m.device == jnp.asarray(m).sharding and m.device.device_set == set(devices)
    s = lnp.sum(m * lnp.asarray(hv))  # a host value joins a sharded computation
    np.testing.assert_allclose(float(s), np.sum((mv @ kv) * hv), rtol=1e-12)
    # resharded, onto one device (reported as the device), back to the host
    c = y.to_device(cols)
    assert c.device == cols and jnp.asarray(c).sharding == cols
    one = y.to_device(SingleDeviceSharding(devices[2]))
    assert one.device == devices[2] and jnp.asarray(one).devices() == {devices[2]}
    np.testing.assert_array_equal(one.compute(), value)
    back = c.to_device("cpu")
    assert back.device == "cpu"
    np.testing.assert_array_equal(back.compute(), value)
    # an empty array and a small elementwise chain stay sharded too
    e = lnp.asarray(np.zeros((0, 4))).to_device(rows) + 1.0
    assert e.compute().shape == (0, 4) and e.device.device_set == set(devices)
    v = lnp.asarray(np.arange(8.0)).to_device(NamedSharding(mesh, P("d"))) * 3.0
    np.testing.assert_array_equal(v.compute(), np.arange(8.0) * 3.0)
    assert len(jnp.asarray(v).sharding.device_set) == 4
    # a gradient of placed values runs sharded
    gx = lazygraph.grad(loss, argnums=1)(
        lnp.asarray(xv).to_device(rows), lnp.asarray(wv).to_device(rep)
    )
    np.testing.assert_allclose(gx.compute(), loss_grad_w(xv, wv), rtol=1e-12)
    assert len(jnp.asarray(gx).sharding.device_set) == 4
    # values on different sets of devices do not combine
    elsewhere = lnp.asarray(data).to_device(devices[1])
    for attempt in (lambda: (elsewhere + x).compute(), lambda: (elsewhere + x).device):
        try:
            attempt()
        except ValueError as exc:
            assert "different devices" in str(exc) and "cpu:1" in str(exc), exc
        else:
            raise AssertionError("values on different devices computed together")
"""


def test_sharding_on_four_simulated_devices():
    run_on_four_devices(FOUR_DEVICES)


def _single() -> jax.sharding.Sharding:
    return jax.sharding.SingleDeviceSharding(jax.devices()[0])


@pytest.mark.parametrize("backend", ["python", "numba"])
@pytest.mark.parametrize("option", ["in_shardings", "out_shardings"])
def test_jit_sharding_options_need_a_backend_that_takes_them(backend, option):
    # the backend's compile_options decide; the message names the option and backend
    with pytest.raises(ValueError, match=f"'{backend}' backend does not take {option}"):
        lazygraph.jit(lambda x: x + 1.0, mode=backend, **{option: _single()})
    # checked again at the call: the configured backend may have changed since
    with lazygraph.config.change(backend="jax"):
        f = lazygraph.jit(lambda x: x + 1.0, **{option: _single()})
    message = f"'{backend}' backend does not take {option}"
    with lazygraph.config.change(backend=backend), pytest.raises(ValueError, match=message):
        f(np.ones(2))


def test_to_device_with_a_sharding_needs_the_jax_backend():
    x = lnp.asarray(np.array([1.0, -0.0]))
    with (
        lazygraph.config.change(backend="python"),
        pytest.raises(ValueError, match="jax devices need"),
    ):
        x.to_device(_single())


def test_to_device_with_a_one_device_sharding_in_process():
    data = np.array([[-0.0, np.nan], [np.inf, 2.0]])
    with lazygraph.config.change(backend="jax"):
        x = lnp.asarray(data).to_device(_single())
        # jax.Array.device of a one-device array is the device: so is ours
        assert x.device == jax.devices()[0]
        y = x * 2.0
        np.testing.assert_array_equal(y.compute(), data * 2.0)
        assert np.signbit(y.compute()[0, 0])
        assert jnp.asarray(y).sharding.device_set == {jax.devices()[0]}
