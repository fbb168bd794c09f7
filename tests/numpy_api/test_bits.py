"""packbits / unpackbits against numpy on random shapes (0-d, empty), dtypes,
axes, bit orders and counts."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import lazygraph.numpy as lnp
from tests.numpy_api.namespace_harness import check
from tests.tensor.harness import arrays, shapes


@settings(max_examples=25, deadline=None)
@given(data=st.data())
def test_packbits_and_back(data):
    dtype = data.draw(st.sampled_from(["bool", "int8", "uint8", "int64"]))
    shape = data.draw(shapes(min_dims=1, max_dims=3))
    a = data.draw(arrays(dtype, shape))
    axis = data.draw(st.sampled_from([None, *range(-len(shape), len(shape))]))
    order = data.draw(st.sampled_from(["big", "little"]))
    check(lnp.packbits, np.packbits, a, axis=axis, bitorder=order)
    packed = np.packbits(a, axis=axis, bitorder=order)
    count = data.draw(st.sampled_from([None, 0, 3, -2]))
    if count is not None and count > 0 and packed.size == 0:
        count = None  # numpy pads an empty input with uninitialised bytes
    check(lnp.unpackbits, np.unpackbits, packed, axis=axis, count=count, bitorder=order)


def test_unpackbits_pads_with_zeros_and_refuses_bad_input():
    got = lnp.unpackbits(lnp.asarray([5], dtype="uint8"), count=12).compute()
    np.testing.assert_array_equal(got, np.unpackbits(np.array([5], np.uint8), count=12))
    with pytest.raises(ValueError):
        lnp.unpackbits(lnp.asarray([5], dtype="uint8"), count=-9)
    with pytest.raises(TypeError):
        lnp.unpackbits(lnp.asarray([5]))
    with pytest.raises(TypeError):
        lnp.packbits([1.0, 0.0])
    with pytest.raises(ValueError):
        lnp.packbits([1, 0], bitorder="middle")
