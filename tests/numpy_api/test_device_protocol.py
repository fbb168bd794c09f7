"""``Array.to_device`` / ``Array.device`` talk to core's device registry
(``lazygraph.compile.devices``), not to a backend's modules: a made-up backend
with two devices, ``dev0`` and ``dev1``, that registers itself there, is
enough for them (the jax backend's own devices: tests/backends/jax)."""

from __future__ import annotations

import weakref
from typing import Any

import numpy as np
import pytest

import lazygraph
import lazygraph.compile.backends as backends_mod
import lazygraph.numpy as lnp
from lazygraph.compile.backends import get_backend, register_backend
from lazygraph.compile.devices import devices, register_devices


class TwoDeviceBackend:
    """The python backend, with two pretend devices whose copies are numpy."""

    name = "two-devices-test"

    def __init__(self) -> None:
        self.placed: dict[int, tuple[Any, str, np.ndarray]] = {}
        self.loads = 0

    def compile(self, fgraph: Any) -> Any:
        return get_backend("python").compile(fgraph)

    def load_devices(self) -> None:
        self.loads += 1
        register_devices(
            self.name,
            placed=self.placed,
            placement=self.placement,
            as_device=self.as_device,
            place=self.place,
        )

    def placement(self, value: Any) -> tuple[str, np.ndarray] | None:
        entry = self.placed.get(id(value))
        if entry is None or entry[0]() is not value:
            return None
        return entry[1], entry[2]

    def as_device(self, spec: Any, where: str = "to_device") -> str:
        if spec in ("dev0", "dev1"):
            return spec
        raise ValueError(f"{where}: unsupported device {spec!r}")

    def place(self, value: np.ndarray, device: str) -> np.ndarray:
        copy = value.copy()
        self.placed[id(value)] = (weakref.ref(value), device, copy)
        return copy


@pytest.fixture
def two_devices():
    saved = {k: getattr(devices, k) for k in devices.__slots__}
    backend = register_backend(TwoDeviceBackend())
    try:
        with lazygraph.config.change(backend=backend.name):
            yield backend
    finally:
        backends_mod._registry.pop(backend.name, None)
        for k, v in saved.items():
            setattr(devices, k, v)


def test_to_device_goes_through_the_registry(two_devices: TwoDeviceBackend) -> None:
    data = np.array([1.0, -0.0, np.nan])
    x = lnp.asarray(data)
    assert x.device == "cpu"
    y = x.to_device("dev0")
    assert two_devices.loads == 1 and devices.backend == two_devices.name
    assert y.device == "dev0" and y.to_device("dev0") is y
    z = lnp.exp(y) * 2.0 + 1.0  # computed from a placed value: stays on its device
    assert z.device == "dev0"
    np.testing.assert_array_equal(z.compute(), np.exp(data) * 2.0 + 1.0)
    other = x.to_device("dev1")
    assert two_devices.loads == 1  # loaded once
    with pytest.raises(ValueError, match="different devices"):
        _ = (other + y).device
    back = y.to_device("cpu")
    assert back.device == "cpu"
    np.testing.assert_array_equal(back.compute(), data)
    with pytest.raises(ValueError, match="unsupported device 'dev9'"):
        x.to_device("dev9")


def test_a_backend_without_devices_has_only_the_cpu(two_devices: TwoDeviceBackend) -> None:
    x = lnp.asarray(np.ones(2))
    with lazygraph.config.change(backend="python"):
        with pytest.raises(ValueError, match=r"the 'python' backend lazygraph\.numpy has only"):
            x.to_device("dev0")
        assert x.to_device("cpu") is x
    assert two_devices.loads == 0
