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
