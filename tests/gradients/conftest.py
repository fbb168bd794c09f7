"""The gradient sweeps are about the rules, not the lowerings: they run on the
python backend whatever ``LAZYGRAPH_BACKEND`` says (tests/backends/* compare
compiled gradients with the python backend's)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

import lazygraph


@pytest.fixture(autouse=True)
def _python_backend() -> Iterator[None]:
    with lazygraph.config.change(backend="python"):
        yield
