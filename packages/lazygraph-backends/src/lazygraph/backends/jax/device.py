"""Device placement for ``lazygraph.numpy`` arrays on the jax backend.

Lazy arrays hold numpy values on the host; ``Array.to_device(d)`` *places* a
value on the jax device ``d``, or lays it out across several devices with a
``jax.sharding.Sharding``: the value is uploaded once (:func:`place`, with
``jax.device_put``), and kept beside its numpy copy. A compiled program called
with placed values runs where they are (other arguments are uploaded there)
and places its results there too, so a chain of computations stays on the
device, or stays sharded, where it started. Where a value is recorded as what
``jax.Array.device`` says of its device copy: the ``jax.Device`` when it is on
one device, else its ``Sharding``. Values placed on different sets of devices
in one call raise ``ValueError``, as jax does for committed arrays; different
shardings over the same devices combine (XLA picks the results' layouts).

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
    "common_placement",
    "default_device",
    "place",
    "placed_arguments",
    "placement",
]

# id(numpy value) -> (weak reference to it, device, the value on the device)
_placed: dict[int, tuple[weakref.ref, Any, Any]] = {}
_lock = threading.Lock()


def as_jax_device(device: Any, where: str = "to_device") -> Any:
    """Where ``to_device`` puts a value: a ``jax.Device`` or a
    ``jax.sharding.Sharding`` as given, or for ``"cpu"`` / ``"gpu"`` / ``"tpu"``
    the first device of that platform.

    >>> as_jax_device("cpu").platform
    'cpu'
    >>> sharding = jax.sharding.SingleDeviceSharding(as_jax_device("cpu"))
    >>> as_jax_device(sharding) is sharding
    True
    """
    if isinstance(device, (jax.Device, jax.sharding.Sharding)):
        return device
    if isinstance(device, str):
        try:
            return jax.devices(device)[0]
        except RuntimeError as exc:
            raise ValueError(f"{where}: no jax device of kind {device!r} ({exc})") from None
    raise ValueError(
        f"{where}: unsupported device {device!r}; pass a jax.Device (jax.devices()[i]), "
        "a jax.sharding.Sharding or 'cpu'"
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
    """Record that ``value`` lives on ``device`` (a ``jax.Device`` or a
    ``Sharding``) and return its device copy: ``device_value`` when given, else
    ``jax.device_put(value, device)``. Recorded as the copy's ``.device``: a
    ``Sharding`` over one device is recorded as that device, as jax reports it.

    >>> cpu = jax.devices("cpu")[0]
    >>> value = np.ones(2)
    >>> _ = place(value, jax.sharding.SingleDeviceSharding(cpu))
    >>> placement(value)[0] == cpu
    True
    """
    if device_value is None:
        with jax.enable_x64(True):
            device_value = jax.device_put(value, device)
    if isinstance(device_value, jax.Array):
        device = device_value.device
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
    where they are (:func:`common_placement`; None when none is placed)."""
    if not _placed:
        return list(args), None
    out = list(args)
    where = []
    for k, a in enumerate(args):
        found = placement(a)
        if found is not None:
            where.append(found[0])
            out[k] = found[1]
    return out, common_placement(where, "jax backend")


def common_placement(where: Sequence[Any], context: str) -> Any:
    """Where a computation on values placed at ``where`` runs: None (nothing
    placed), their one ``jax.Device``, or, when some are sharded, a
    ``Sharding`` among them (the results' layouts are XLA's choice).
    ``ValueError`` when they are not all on the same set of devices.

    >>> cpu = jax.devices("cpu")[0]
    >>> common_placement([cpu, cpu], "f") == cpu
    True
    >>> one = jax.sharding.SingleDeviceSharding(cpu)
    >>> common_placement([one, cpu], "f") is one
    True
    """
    shardings = [w for w in where if isinstance(w, jax.sharding.Sharding)]
    if not shardings:
        return common_device(where, context)
    device_sets = {_device_ids(w) for w in where}
    if len(device_sets) > 1:
        names = "; ".join(", ".join(ids) for ids in sorted(device_sets))
        raise ValueError(
            f"{context}: the arrays of one computation are placed on different devices "
            f"({names}); move them to one set of devices with to_device"
        )
    return shardings[0]


def _device_ids(where: Any) -> tuple[str, ...]:
    found = where.device_set if isinstance(where, jax.sharding.Sharding) else {where}
    return tuple(sorted(str(d) for d in found))  # ("cpu:0", ...): platforms apart


# the placement registry lazygraph.numpy reads: ``_placed`` itself is the
# "anything placed?" container its per-operation fast paths check
register_devices(
    "jax",
    placed=_placed,
    placement=placement,
    as_device=as_jax_device,
    place=place,
    common=common_placement,
)
