"""The array API's inspection utilities: ``__array_namespace_info__()`` describes
what this namespace supports (its capabilities, its one device, its dtypes).

>>> import lazygraph.numpy as lnp
>>> info = lnp.__array_namespace_info__()
>>> info.capabilities()["data-dependent shapes"]
True
>>> info.default_dtypes()["real floating"]
dtype('float64')
"""

from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["__array_namespace_info__"]

_DEVICE = "cpu"

_KINDS: dict[str, tuple[str, ...]] = {
    "bool": ("bool",),
    "signed integer": ("int8", "int16", "int32", "int64"),
    "unsigned integer": ("uint8", "uint16", "uint32", "uint64"),
    "real floating": ("float32", "float64"),
    "complex floating": ("complex64", "complex128"),
}
_KINDS["integral"] = _KINDS["signed integer"] + _KINDS["unsigned integer"]
_KINDS["numeric"] = _KINDS["integral"] + _KINDS["real floating"] + _KINDS["complex floating"]
_ALL = _KINDS["bool"] + _KINDS["numeric"]


def _check_device(device: Any, method: str) -> None:
    if device is not None and str(device) != _DEVICE:
        raise ValueError(
            f"{method}: unsupported device {device!r}; lazygraph.numpy has only {_DEVICE!r}"
        )


class ArrayNamespaceInfo:
    """What ``lazygraph.numpy`` supports, as the array API's inspection methods
    report it. Get one from ``lazygraph.numpy.__array_namespace_info__()``."""

    def capabilities(self) -> dict[str, Any]:
        """Optional features: boolean indexing and data-dependent output shapes
        (``unique_*``, ``nonzero``, masks) are supported; at most 64 dimensions.

        >>> import lazygraph.numpy as lnp
        >>> lnp.__array_namespace_info__().capabilities()["max dimensions"]
        64
        """
        return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64}

    def default_device(self) -> str:
        """The device arrays are created on: ``"cpu"``.

        >>> import lazygraph.numpy as lnp
        >>> lnp.__array_namespace_info__().default_device()
        'cpu'
        """
        return _DEVICE

    def devices(self) -> list[str]:
        """Every device: ``["cpu"]``.

        >>> import lazygraph.numpy as lnp
        >>> lnp.__array_namespace_info__().devices()
        ['cpu']
        """
        return [_DEVICE]

    def default_dtypes(self, *, device: Any = None) -> dict[str, np.dtype[Any]]:
        """The default dtype of each kind (numpy's: float64, complex128, int64;
        indices are int64).

        >>> import lazygraph.numpy as lnp
        >>> lnp.__array_namespace_info__().default_dtypes()["integral"]
        dtype('int64')
        """
        _check_device(device, "default_dtypes")
        return {
            "real floating": np.dtype(np.float64),
            "complex floating": np.dtype(np.complex128),
            "integral": np.dtype(np.int64),
            "indexing": np.dtype(np.int64),
        }

    def dtypes(
        self, *, device: Any = None, kind: str | tuple[str, ...] | None = None
    ) -> dict[str, np.dtype[Any]]:
        """The supported dtypes of ``kind`` (a kind name, or a tuple of them for
        their union; ``None``: all), by name.

        >>> import lazygraph.numpy as lnp
        >>> lnp.__array_namespace_info__().dtypes(kind="real floating")
        {'float32': dtype('float32'), 'float64': dtype('float64')}
        """
        _check_device(device, "dtypes")
        if kind is None:
            names: tuple[str, ...] = _ALL
        else:
            kinds = kind if isinstance(kind, tuple) else (kind,)
            names = ()
            for k in kinds:
                if k not in _KINDS:
                    raise ValueError(
                        f"dtypes: unsupported kind {k!r} (one of {', '.join(map(repr, _KINDS))})"
                    )
                names += tuple(n for n in _KINDS[k] if n not in names)
            names = tuple(n for n in _ALL if n in names)
        return {n: np.dtype(n) for n in names}

    def __repr__(self) -> str:
        return "lazygraph.numpy.__array_namespace_info__()"


def __array_namespace_info__() -> ArrayNamespaceInfo:  # noqa: N807 (the array API's name)
    """The array API's inspection namespace for ``lazygraph.numpy``.

    >>> import lazygraph.numpy as lnp
    >>> lnp.__array_namespace_info__().devices()
    ['cpu']
    """
    return ArrayNamespaceInfo()
