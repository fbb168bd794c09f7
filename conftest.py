"""Repository-wide pytest setup: which backend this run is for.

``LAZYGRAPH_BACKEND`` (default ``python``) names the backend of the run; nox
sets it per session. A test marked ``@pytest.mark.backend("numba")`` runs only
in the run for that backend; unmarked tests run in every run.
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings

# Hypothesis profiles. "dev" (the default) explores new random examples on every
# run; "ci" (HYPOTHESIS_PROFILE=ci, set by the nox test sessions) derives the
# examples from each test's name, so a CI run is reproducible and a red CI run
# can be replayed exactly. Neither has a deadline: machines here are shared, and
# timing is the benchmarks' business, not the tests'.
settings.register_profile("dev", deadline=None)
settings.register_profile(
    "ci", deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow]
)
# "ci-compiled" is "ci" with fewer examples per test, for the compiled backends'
# sessions: there every new (dtype, rank) combination an example draws costs a
# kernel compile, so examples cost far more than on the python backend, which
# explores the full default count.
settings.register_profile("ci-compiled", settings.get_profile("ci"), max_examples=30)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "dev"))

BACKEND = os.environ.get("LAZYGRAPH_BACKEND", "python")

# The numba backend compiles kernels on a background thread by default, running
# numpy's perform meanwhile; a test comparing a kernel with the python backend
# must get the kernel, so tests compile at first call (read when lazygraph is
# imported, which happens after this file). tests/backends/numba/test_background.py
# turns it back on where it is the subject.
os.environ.setdefault("LAZYGRAPH_NUMBA_BACKGROUND_COMPILE", "0")

_BACKENDS_SRC = "packages/lazygraph-backends/src/lazygraph/backends"

# The backend modules import numba or jax at the top; where that library is not
# installed, --doctest-modules must not try to import them.
collect_ignore = [
    f"{_BACKENDS_SRC}/{library}"
    for library in ("numba", "jax", "dask")
    if importlib.util.find_spec(library) is None
]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        for marker in item.iter_markers("backend"):
            name = marker.args[0] if marker.args else marker.kwargs.get("name")
            if name != BACKEND:
                reason = f"needs LAZYGRAPH_BACKEND={name} (this run: {BACKEND})"
                item.add_marker(pytest.mark.skip(reason=reason))
                break


@pytest.fixture
def perform_fallback() -> Iterator[None]:
    """Lets a test's own Ops, which no compiled backend lowers, run through their
    ``perform`` where the run raises on a fallback instead (the numba session's op
    table sets ``LAZYGRAPH_ON_UNSUPPORTED=raise``: every tensor Op must lower)."""
    from lazygraph.configuration import config

    with config.change(on_unsupported="fallback"):
        yield


@pytest.fixture(autouse=True)
def _floating_point_state_is_left_as_found() -> Iterator[None]:
    """A test that leaves numpy's floating-point error state changed (a
    ``np.seterr`` not undone, a context-variable token of lazygraph's
    ``quiet``/``watching`` reset out of order) fails, named, instead of making
    a later test in the same worker miss the warnings it checks for; the
    state is put back either way."""
    import numpy as np

    before = np.geterr()
    yield
    after = np.geterr()
    if after != before:
        np.seterr(**before)
        pytest.fail(f"the test left numpy's error state changed: {before} -> {after}")
