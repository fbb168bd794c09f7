"""The array API's inspection utilities: ``__array_namespace_info__()`` describes
what this namespace supports (its capabilities, its one device, its dtypes);
``finfo`` gives a floating dtype's limits as the array API asks for them.

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

__all__ = ["__array_namespace_info__", "finfo"]

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


#: numpy's ``finfo`` fields that are floating-point values
_FINFO_FLOATS = (
    "eps",
    "epsneg",
    "max",
    "min",
    "resolution",
    "smallest_normal",
    "smallest_subnormal",
    "tiny",
)


def _as_float(value: Any) -> Any:
    """A ``finfo`` value as a Python ``float`` (the array API's type), equal to
    numpy's: numpy's own ``float64`` scalar (a ``float`` already), a smaller
    one's value as a Python float (weak in promotion, as numpy's ``float32``
    scalar stays in float32 arithmetic); a wider one (``longdouble``) as numpy
    gives it, which no float holds exactly."""
    if type(value) is np.float64 or np.dtype(type(value)).itemsize > 8:
        return value
    return float(value)


class finfo:  # noqa: N801 (numpy's and the array API's name)
    """The machine limits of a floating dtype, or of an array's floating or
    complex dtype (``numpy.finfo``), with numpy's values: ``eps``, ``max``,
    ``min``, ``tiny``, ``smallest_normal``, ``resolution`` and numpy's other
    float fields are Python floats (numpy's ``float64`` scalars for float64, a
    ``float`` already; the array API asks for floats), ``bits``,
    ``precision`` and numpy's other int fields ints, ``dtype`` numpy's (the
    real dtype of a complex one).

    >>> import lazygraph.numpy as lnp
    >>> info = lnp.finfo(lnp.float32)
    >>> info.eps == 2.0**-23, type(info.eps), info.bits, info.dtype
    (True, <class 'float'>, 32, dtype('float32'))
    """

    bits: int
    dtype: np.dtype[Any]
    eps: float
    epsneg: float
    iexp: int
    machep: int
    max: float
    maxexp: int
    min: float
    minexp: int
    negep: int
    nexp: int
    nmant: int
    precision: int
    resolution: float
    smallest_normal: float
    smallest_subnormal: float
    tiny: float

    def __init__(self, type: Any) -> None:
        from lazygraph.numpy._dtypes import _dtype_of

        numpy_info = np.finfo(_dtype_of(type))  # numpy's errors for a bad type
        self._numpy = numpy_info
        for name in ("bits", "iexp", "machep", "maxexp", "minexp", "negep", "nexp", "nmant"):
            setattr(self, name, getattr(numpy_info, name))
        self.precision = numpy_info.precision
        self.dtype = numpy_info.dtype
        for name in _FINFO_FLOATS:
            setattr(self, name, _as_float(getattr(numpy_info, name)))

    def __repr__(self) -> str:
        return repr(self._numpy)

    def __str__(self) -> str:
        return str(self._numpy)

    def __eq__(self, other: object) -> bool:
        if isinstance(other, finfo):
            return self.dtype == other.dtype
        if isinstance(other, np.finfo):
            return self._numpy is other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(("finfo", self.dtype))
