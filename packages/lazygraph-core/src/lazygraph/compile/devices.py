"""Device placement: what a backend with devices tells the rest of lazygraph.

Lazy arrays hold numpy values on the host. A backend with devices (jax) can
*place* such a value on one of them (``Array.to_device``): it uploads it once
and remembers the device copy beside the numpy value, and a computation
reading placed values runs on their device. ``lazygraph.numpy`` asks this
module, never the backend's own modules, where values are; the backend fills
:data:`devices` when its device support is imported (:func:`register_devices`),
and :func:`load_devices` imports it on demand through the backend's
``load_devices()`` method (see :class:`~lazygraph.compile.backends.Backend`).

Until a backend registers, :data:`devices` gives the neutral answers: nothing
is placed, and ``as_device`` / ``place`` raise ``ValueError``.

>>> import numpy as np
>>> from lazygraph.compile.devices import common_device, devices
>>> devices.placement(np.zeros(2)) is None  # a value nobody placed
True
>>> common_device(["d0", "d0"], "example")
'd0'
>>> common_device([], "example") is None
True
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable
from typing import Any

__all__ = ["Devices", "common_device", "devices", "load_devices", "register_devices"]


def _nowhere(value: Any) -> None:
    return None


def _no_device(spec: Any, where: str = "to_device") -> Any:
    raise ValueError(f"{where}: unsupported device {spec!r}; no backend with devices is loaded")


def _one_device(found: Any, where: str) -> Any:
    return common_device(found, where)  # (defined below)


def _cannot_place(value: Any, device: Any) -> Any:
    raise ValueError(f"cannot place a value on {device!r}: no backend with devices is loaded")


class Devices:
    """The device support of the backend that registered last (neutral until one
    does). Read its attributes, which :func:`register_devices` sets:

    - ``backend``: that backend's name (``None`` before any registers);
    - ``placed``: a container, non-empty exactly when some value may be placed.
      Per-operation fast paths read it before anything else (``if
      devices.placed:``), so it must stay a plain container, not a property;
    - ``placement(value) -> (device, device_value) | None``: where a numpy
      value was placed, and its copy there;
    - ``as_device(spec, where="to_device") -> device``: a device from what a
      user passes to ``to_device`` (``ValueError`` if it names none);
    - ``place(value, device) -> device_value``: place ``value`` on ``device``;
    - ``common(found, where) -> device``: where one computation reading values
      placed at ``found`` runs (``ValueError`` when they cannot be combined);
      :func:`common_device` unless the backend says otherwise (jax: shardings
      over the same devices combine).
    """

    __slots__ = ("as_device", "backend", "common", "place", "placed", "placement")

    backend: str | None
    placed: Collection[Any]
    placement: Callable[[Any], tuple[Any, Any] | None]
    as_device: Callable[..., Any]
    place: Callable[[Any, Any], Any]
    common: Callable[[Any, str], Any]

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        """Back to the neutral answers (no backend with devices)."""
        self.backend = None
        self.placed = ()
        self.placement = _nowhere
        self.as_device = _no_device
        self.place = _cannot_place
        self.common = _one_device

    def __repr__(self) -> str:
        return f"<Devices of {self.backend or 'no backend'}: {len(self.placed)} placed>"


#: the one device registry lazygraph.numpy reads
devices = Devices()


def register_devices(
    backend: str,
    *,
    placed: Collection[Any],
    placement: Callable[[Any], tuple[Any, Any] | None],
    as_device: Callable[..., Any],
    place: Callable[[Any, Any], Any],
    common: Callable[[Any, str], Any] | None = None,
) -> Devices:
    """Make ``backend``'s device support the one :data:`devices` answers with
    (see :class:`Devices` for what each argument does). A backend calls it when
    its device module is imported; the last registration wins."""
    # the functions first: a reader that sees ``placed`` non-empty calls them
    devices.placement = placement
    devices.as_device = as_device
    devices.place = place
    devices.common = common or _one_device
    devices.placed = placed
    devices.backend = backend
    return devices


def load_devices(backend: str) -> Devices:
    """:data:`devices`, once ``backend``'s device support is loaded: the backend
    (:func:`~lazygraph.compile.backends.get_backend`) is asked to import it with
    its ``load_devices()`` method. ``ValueError`` when ``backend`` is not
    available or has no devices.

    >>> load_devices("python")
    Traceback (most recent call last):
    ...
    ValueError: the 'python' backend has no devices
    """
    from lazygraph.compile.backends import get_backend

    loader = getattr(get_backend(backend), "load_devices", None)
    if loader is None:
        raise ValueError(f"the {backend!r} backend has no devices")
    if devices.backend != backend:
        loader()
        if devices.backend != backend:
            raise RuntimeError(f"the {backend!r} backend loaded no device support")
    return devices


def common_device(found: Iterable[Any], where: str) -> Any:
    """The one device of ``found`` (None when empty); ``ValueError`` when they
    differ: the values of one computation must be on one device.

    >>> try:
    ...     common_device(["d0", "d1"], "f")
    ... except ValueError as exc:
    ...     print(str(exc)[:60])
    f: the arrays of one computation are placed on different dev
    """
    distinct = set(found)
    if len(distinct) > 1:
        names = ", ".join(sorted(map(str, distinct)))
        raise ValueError(
            f"{where}: the arrays of one computation are placed on different devices "
            f"({names}); move them to one device with to_device"
        )
    return next(iter(distinct), None)
