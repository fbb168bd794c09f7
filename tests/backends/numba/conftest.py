"""The numba backend's own tests check its kernels: nodes that only view, move
or create data run their compiled kernels here too, where users' graphs run
them with numpy until a graph function compiles them
(``config.numba_prefer_numpy``). The op table on numba runs them as
users get them; tests/backends/numba/test_numba_tiers.py checks both."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from lazygraph.configuration import config


@pytest.fixture(autouse=True)
def _compile_every_kernel() -> Iterator[None]:
    with config.change(numba_prefer_numpy=False):
        yield
