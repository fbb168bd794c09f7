"""Device placement for ``lazygraph.numpy`` arrays on the jax backend.

Lazy arrays hold numpy values on the host; ``Array.to_device(d)`` *places* a
value on the jax device ``d``: the value is uploaded once (:func:`place`), and
kept beside its numpy copy. A compiled program called with placed values runs
on their device (the other arguments are uploaded there) and places its
results there too, so a chain of computations stays on the device it started
on. Values placed on two different devices in one call raise ``ValueError``,
as jax does for arrays committed to different devices.

Importing this module registers it with core's device registry
(:mod:`lazygraph.compile.devices`), which is all ``lazygraph.numpy`` reads:
``JaxBackend.load_devices()`` imports it for ``Array.to_device``.

>>> import jax
>>> import numpy as np
>>> from lazygraph.backends.jax.device import place, placement
>>> value = np.arange(3.0)
>>> cpu = jax.devices("cpu")[0]
>>> place(value, cpu).device == cpu
True
>>> placement(value)[0] == cpu
True
>>> placement(np.arange(3.0)) is None
True
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Sequence
from typing import Any

import jax
import numpy as np

from lazygraph.compile.devices import common_device, register_devices

__all__ = [
    "as_jax_device",
    "common_device",
    "default_device",
    "place",
    "placed_arguments",
    "placement",
]

# id(numpy value) -> (weak reference to it, device, the value on the device)
_placed: dict[int, tuple[weakref.ref, Any, Any]] = {}
_lock = threading.Lock()


def as_jax_device(device: Any, where: str = "to_device") -> Any:
    """``device`` as a ``jax.Device``: a device, or ``"cpu"`` / ``"gpu"`` /
    ``"tpu"`` (the first device of that platform).

    >>> as_jax_device("cpu").platform
    'cpu'
    """
    if isinstance(device, jax.Device):
        return device
    if isinstance(device, str):
        try:
            return jax.devices(device)[0]
        except RuntimeError as exc:
            raise ValueError(f"{where}: no jax device of kind {device!r} ({exc})") from None
    raise ValueError(
        f"{where}: unsupported device {device!r}; pass a jax.Device (jax.devices()[i]) or 'cpu'"
    )


def default_device() -> Any:
    """The device jax computes on when nothing is placed (``jax.default_device``
    when set, else the first device).

    >>> default_device() in jax.devices()
    True
    """
    configured = jax.config.jax_default_device
    if configured is None:
        return jax.devices()[0]
    return as_jax_device(configured, "default_device")


def place(value: np.ndarray, device: Any, device_value: Any = None) -> Any:
    """Record that ``value`` lives on ``device`` and return its device copy
    (``device_value`` when given, else an upload of ``value``)."""
    if device_value is None:
        with jax.enable_x64(True):
            device_value = jax.device_put(value, device)
    key = id(value)

    def forget(_: Any, key: int = key) -> None:
        with _lock:
            entry = _placed.get(key)
            if entry is not None and entry[0]() is None:
                del _placed[key]

    with _lock:
        _placed[key] = (weakref.ref(value, forget), device, device_value)
    return device_value


def placement(value: Any) -> tuple[Any, Any] | None:
    """``(device, device value)`` of a placed numpy value, or None."""
    if not _placed:
        return None
    entry = _placed.get(id(value))
    if entry is None or entry[0]() is not value:
        return None
    return entry[1], entry[2]


def placed_arguments(args: Sequence[Any]) -> tuple[list[Any], Any]:
    """The arguments with placed values swapped for their device copies, and
    the device they share (None when none is placed)."""
    if not _placed:
        return list(args), None
    out = list(args)
    devices = []
    for k, a in enumerate(args):
        found = placement(a)
        if found is not None:
            devices.append(found[0])
            out[k] = found[1]
    return out, common_device(devices, "jax backend")


# the placement registry lazygraph.numpy reads: ``_placed`` itself is the
# "anything placed?" container its per-operation fast paths check
register_devices("jax", placed=_placed, placement=placement, as_device=as_jax_device, place=place)
