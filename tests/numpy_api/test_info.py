"""``__array_namespace_info__()`` as the array API 2024.12 specifies it, checked
against numpy's own inspection namespace where the two should agree."""

from __future__ import annotations

import numpy as np
import pytest

import lazygraph.numpy as lnp

KINDS = (
    "bool",
    "signed integer",
    "unsigned integer",
    "integral",
    "real floating",
    "complex floating",
    "numeric",
)


def test_exported() -> None:
    assert "__array_namespace_info__" in lnp.__all__
    assert callable(lnp.__array_namespace_info__)


def test_capabilities() -> None:
    caps = lnp.__array_namespace_info__().capabilities()
    assert caps == {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": 64}


def test_devices() -> None:
    info = lnp.__array_namespace_info__()
    assert info.default_device() == "cpu"
    assert info.devices() == ["cpu"]
    assert info.default_device() in info.devices()
    assert lnp.asarray(np.ones(2)).device == info.default_device()


def test_default_dtypes_match_numpy() -> None:
    info = lnp.__array_namespace_info__()
    assert info.default_dtypes() == np.__array_namespace_info__().default_dtypes()
    assert info.default_dtypes(device="cpu") == info.default_dtypes()
    # The defaults are what creation functions actually produce.
    assert lnp.asarray(1.5).dtype == info.default_dtypes()["real floating"]
    assert lnp.asarray(1).dtype == info.default_dtypes()["integral"]


@pytest.mark.parametrize(
    "kind", [None, *KINDS, ("bool", "real floating"), ("integral", "signed integer")]
)
def test_dtypes_match_numpy(kind: str | tuple[str, ...] | None) -> None:
    got = lnp.__array_namespace_info__().dtypes(kind=kind)
    expected = np.__array_namespace_info__().dtypes(kind=kind)
    expected = {k: v for k, v in expected.items() if k != "float16"}
    assert got == expected
    assert list(got) == list(expected)
    for name, dt in got.items():
        assert isinstance(dt, np.dtype) and dt.name == name


def test_every_listed_dtype_is_usable() -> None:
    for dt in lnp.__array_namespace_info__().dtypes().values():
        assert lnp.asarray(np.zeros(2, dtype=dt)).dtype == dt


def test_bad_arguments() -> None:
    info = lnp.__array_namespace_info__()
    with pytest.raises(ValueError, match="device"):
        info.dtypes(device="gpu")
    with pytest.raises(ValueError, match="device"):
        info.default_dtypes(device="cuda:0")
    with pytest.raises(ValueError, match="kind"):
        info.dtypes(kind="floating")


FLOAT_FIELDS = (
    "eps",
    "epsneg",
    "max",
    "min",
    "resolution",
    "smallest_normal",
    "smallest_subnormal",
    "tiny",
)
INT_FIELDS = ("bits", "iexp", "machep", "maxexp", "minexp", "negep", "nexp", "nmant", "precision")


@pytest.mark.parametrize("dtype", ["float32", "float64", "complex64", "complex128"])
def test_finfo_fields_are_python_floats_of_numpys_values(dtype: str) -> None:
    """The array API asks for Python floats; the values are numpy's (numpy's
    float32 scalars are not floats: their values are, and stay weak in float32
    arithmetic as numpy's scalars keep it float32)."""
    expected = np.finfo(dtype)
    for arg in (dtype, np.dtype(dtype), lnp.asarray(np.ones(2, dtype=dtype)), np.ones(1, dtype)):
        info = lnp.finfo(arg)
        for name in FLOAT_FIELDS:
            value = getattr(info, name)
            assert isinstance(value, float), (name, type(value))
            assert value == getattr(expected, name), name
        for name in INT_FIELDS:
            assert (
                getattr(info, name) == getattr(expected, name) and type(getattr(info, name)) is int
            )
        assert info.dtype == expected.dtype
        assert repr(info) == repr(expected) and str(info) == str(expected)
    x = lnp.asarray(np.ones(3, dtype=np.float32))
    assert (x + lnp.finfo(np.float32).eps).dtype == np.float32
    assert (x * lnp.finfo(np.float32).max).dtype == np.float32


@pytest.mark.parametrize("dtype", ["int8", "int64", "uint8", "uint64"])
def test_iinfo_fields_are_numpys_ints(dtype: str) -> None:
    expected = np.iinfo(dtype)
    for arg in (dtype, lnp.asarray(np.ones(2, dtype=dtype))):
        info = lnp.iinfo(arg)
        for name in ("min", "max", "bits"):
            assert getattr(info, name) == getattr(expected, name)
            assert type(getattr(info, name)) is int
        assert info.dtype == expected.dtype


def test_finfo_iinfo_errors_are_numpys() -> None:
    with pytest.raises(ValueError):
        lnp.finfo(np.int32)
    with pytest.raises(ValueError):
        lnp.iinfo(np.float64)
    assert "finfo" in lnp.__all__ and "iinfo" in lnp.__all__
