"""The optional parts of the backend protocol core offers: compile options
(``function`` / ``cached_function`` pass them to ``compile`` and key the cache
on them) and the device registry (``lazygraph.compile.devices``), checked with
a made-up backend that wraps the python one."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import lazygraph
import lazygraph.compile.backends as backends_mod
import lazygraph.tensor as lt
from lazygraph.compile import devices as devices_mod
from lazygraph.compile.backends import get_backend, register_backend
from lazygraph.compile.cache import cached_function, clear_cache, stats
from lazygraph.compile.devices import common_device, devices, load_devices, register_devices


class OptionsBackend:
    """The python backend, taking one compile option and recording it."""

    name = "options-test"
    compile_options = ("flag",)

    def __init__(self) -> None:
        self.seen: list[dict[str, Any]] = []

    def compile(self, fgraph: Any, **options: Any) -> Any:
        self.seen.append(options)
        return get_backend("python").compile(fgraph)


@pytest.fixture
def options_backend():
    backend = register_backend(OptionsBackend())
    clear_cache()
    yield backend
    clear_cache()
    backends_mod._registry.pop(backend.name, None)


def test_function_passes_compile_options(options_backend: OptionsBackend) -> None:
    x = lt.dvector("x")
    f = lazygraph.function([x], x * 2.0, mode=options_backend.name, compile_options={"flag": 3})
    np.testing.assert_array_equal(f(np.ones(2)), [2.0, 2.0])
    assert options_backend.seen == [{"flag": 3}]
    lazygraph.function([x], x * 2.0, mode=options_backend.name)
    assert options_backend.seen[-1] == {}


def test_unknown_compile_options_raise(options_backend: OptionsBackend) -> None:
    x = lt.dvector("x")
    with pytest.raises(ValueError, match=r"no compile option 'other'.*takes only flag"):
        lazygraph.function([x], x, mode=options_backend.name, compile_options={"other": 1})
    with pytest.raises(ValueError, match=r"'python' backend has no compile option.*takes none"):
        lazygraph.function([x], x, mode="python", compile_options={"flag": 1})
    with pytest.raises(ValueError, match="profile=True"):
        lazygraph.function(
            [x], x, mode=options_backend.name, profile=True, compile_options={"flag": 1}
        )


def test_the_cache_keys_on_compile_options(options_backend: OptionsBackend) -> None:
    def build() -> tuple[Any, Any, Any]:
        a, b = lt.dvector("a"), lt.dvector("b")
        return a, b, a - b

    mode = options_backend.name
    a, b, out = build()
    first = cached_function([a, b], [out], mode=mode, compile_options={"flag": [1, 2]})
    a, b, out = build()
    again = cached_function([a, b], [out], mode=mode, compile_options={"flag": (1, 2)})
    assert again.function is first.function and stats().compiles == 1
    a, b, out = build()
    other = cached_function([a, b], [out], mode=mode, compile_options={"flag": [2, 1]})
    assert other.function is not first.function and stats().compiles == 2
    # per-input options are in the caller's order: inputs listed the other way
    # round get a function of their own, called in their order
    a, b, out = build()
    swapped = cached_function([b, a], [out], mode=mode, compile_options={"flag": [1, 2]})
    assert swapped.function is not first.function and stats().compiles == 3
    np.testing.assert_array_equal(swapped(np.ones(2), np.full(2, 5.0))[0], [4.0, 4.0])
    assert options_backend.seen == [{"flag": [1, 2]}, {"flag": [2, 1]}, {"flag": [1, 2]}]
    # without options, the structural cache as before
    a, b, out = build()
    cached_function([a, b], [out], mode=mode)
    assert options_backend.seen[-1] == {} and stats().compiles == 4


def test_unhashable_compile_options_compile_uncached(options_backend: OptionsBackend) -> None:
    x = lt.dvector("x")
    mode = options_backend.name
    f = cached_function([x], [x + 1.0], mode=mode, compile_options={"flag": {1}})
    np.testing.assert_array_equal(f(np.zeros(1))[0], [1.0])
    g = cached_function([x], [x + 1.0], mode=mode, compile_options={"flag": {1}})
    assert g.function is not f.function
    assert stats().uncacheable == 2 and options_backend.seen == [{"flag": {1}}] * 2


# -- the device registry ------------------------------------------------------------


@pytest.fixture
def saved_registry():
    saved = {k: getattr(devices, k) for k in devices.__slots__}
    yield devices
    for k, v in saved.items():
        setattr(devices, k, v)


def test_the_registry_answers_neutrally_until_a_backend_registers(saved_registry) -> None:
    devices.reset()
    assert not devices.placed and devices.backend is None
    assert devices.placement(np.zeros(2)) is None
    with pytest.raises(ValueError, match="no backend with devices"):
        devices.as_device("gpu")
    with pytest.raises(ValueError, match="no backend with devices"):
        devices.place(np.zeros(2), "gpu")
    with pytest.raises(ValueError, match="'python' backend has no devices"):
        load_devices("python")
    with pytest.raises(ValueError, match="no lazygraph backend named"):
        load_devices("no-such-backend")


def test_a_registered_backend_answers(saved_registry) -> None:
    placed: dict[int, Any] = {}
    value = np.arange(3.0)
    register_devices(
        "made-up",
        placed=placed,
        placement=lambda v: placed.get(id(v)),
        as_device=lambda spec, where="to_device": f"dev:{spec}",
        place=lambda v, d: placed.setdefault(id(v), (d, v.copy()))[1],
    )
    assert devices.backend == "made-up" and not devices.placed
    devices.place(value, devices.as_device("x"))
    assert devices.placed and devices.placement(value)[0] == "dev:x"
    assert common_device(["dev:x", "dev:x"], "t") == "dev:x"
    with pytest.raises(ValueError, match="different devices"):
        common_device(["dev:x", "dev:y"], "t")


def test_load_devices_asks_the_backend(saved_registry) -> None:
    class WithDevices:
        name = "devices-test"
        loads = 0

        def compile(self, fgraph: Any) -> Any:
            return get_backend("python").compile(fgraph)

        def load_devices(self) -> None:
            WithDevices.loads += 1
            register_devices(
                "devices-test",
                placed={},
                placement=lambda v: None,
                as_device=lambda spec, where="to_device": spec,
                place=lambda v, d: v,
            )

    register_backend(WithDevices())
    try:
        devices.reset()
        assert load_devices("devices-test") is devices and devices.backend == "devices-test"
        load_devices("devices-test")  # loaded already
        assert WithDevices.loads == 1
    finally:
        backends_mod._registry.pop("devices-test", None)


def test_the_fast_paths_read_a_plain_attribute() -> None:
    # lazygraph.numpy's per-operation check is ``if devices.placed:``: a slot
    # holding a container, not a property that would run code
    assert "placed" in devices_mod.Devices.__slots__
    assert not isinstance(getattr(devices_mod.Devices, "placed", None), property)


# -- the capability query ----------------------------------------------------------


class Picky:
    """A backend that compiles additions only."""

    name = "picky-test"

    def compile(self, fgraph: Any, **options: Any) -> Any:
        return get_backend("python").compile(fgraph)

    def lowers(self, node: Any) -> str | None:
        return None if "add" in str(node.op) else f"no lowering for {node.op}"


def test_lowering_of_asks_the_backend() -> None:
    from lazygraph.compile.backends import lowering_of

    x = lt.dvector("x")
    register_backend(Picky())
    try:
        assert lowering_of((x + 1).owner, "picky-test") is None
        assert "no lowering for Elemwise{exp}" in lowering_of(lt.exp(x).owner, "picky-test")
        assert "perform" in lowering_of((x + 1).owner, "python")
        register_backend(OptionsBackend())  # says nothing: it compiles what it is given
        assert lowering_of(lt.exp(x).owner, "options-test") is None
    finally:
        backends_mod._registry.pop("picky-test", None)
        backends_mod._registry.pop("options-test", None)
