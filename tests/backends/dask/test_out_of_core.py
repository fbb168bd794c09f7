"""Out of core on the dask backend (issue 22): ``np.std(x, axis=0)`` and a
logistic-regression gradient step over a float64 array read from disk (an
``.npy`` memory map), larger than the memory of the two worker processes of a
``distributed.LocalCluster`` together, through ``lazygraph.numpy`` with
``config.backend = "dask"``.

The memory map enters ``lazygraph.numpy`` as it is (``lnp.asarray`` of a
read-only map copies nothing); the backend cuts it into chunks that each task
reads from the file (``MappedFile``). Checked: the results equal numpy's
(computed block by block here, never the whole array at once), no worker
restarted (the same processes before and after, and no restart or memory
kill in the nannies' logs), every worker's memory stayed under its limit
(``MemorySampler`` for the cluster, each worker's own monitor for itself), and
the client's own memory grew by far less than the array (it read none of it).

``NBYTES`` is 4 GiB, the issue's size: the test writes the file (~1 min on 2
cores) and is marked ``slow`` and ``outofcore``, outside CI's default run
(``pytest -m outofcore tests/backends/dask/test_out_of_core.py`` runs it).
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("dask")
pytest.importorskip("distributed")
pytest.importorskip("numba")

import cloudpickle
import dask
import distributed
import psutil
from distributed.diagnostics import MemorySampler

import lazygraph
import lazygraph.numpy as lnp
import lazygraph.tensor as lt
from lazygraph import config
from lazygraph.numpy._convert import BoundVariable, DistributedVariable

pytestmark = [
    pytest.mark.filterwarnings("error::lazygraph.backends.dask.dispatch.DaskFallbackWarning"),
    pytest.mark.filterwarnings("ignore:Cannot cache compiled function"),
]

#: bytes of the float64 array on disk (the issue's 4 GiB)
NBYTES = 4 * 2**30
COLS = 64
ROWS = NBYTES // (8 * COLS)
#: each worker's memory limit, and the number of workers
MEMORY_LIMIT = 2**30
WORKERS = 2
#: rows per block when the test writes the file and computes numpy's answers
BLOCK = 2**17


# -- small arrays (CI): how a memory map is read ---------------------------------

DATA = np.random.default_rng(7).normal(size=(4000, 50))
DATA[3, 4] = np.nan
DATA[5, 6] = -0.0

VIEWS = {
    "whole": lambda m: m,
    "rows reversed, some columns": lambda m: m[::-3, 2:9],
    "transposed": lambda m: m.T,
    "one column": lambda m: m[:, 5],
    "np.asarray of it": np.asarray,
}


@pytest.mark.parametrize("view", VIEWS.values(), ids=list(VIEWS))
def test_a_mapped_array_is_read_from_its_file_by_each_reader(tmp_path, view):
    path = tmp_path / "data.npy"
    np.save(path, DATA)
    mapped, want = view(np.load(path, mmap_mode="r")), view(DATA)
    x = lt.tensor(dtype="float64", shape=(None,) * want.ndim)
    f = lazygraph.function(
        [x], [x * 2.0, lt.sum(x, axis=0)], mode="dask", compile_options={"dask_arrays": True}
    )
    with config.change(dask_chunk_size=want.nbytes // 8):  # ~10 chunks
        doubled, total = f.fn(mapped)
    # no chunk of the data in the graph (a distributed scheduler would receive it)
    graph = cloudpickle.dumps(dict(doubled.__dask_graph__()))
    assert len(graph) < want.nbytes / 2
    assert doubled.npartitions > 1
    # each reader reads its own chunks: none held for the other
    loads = [{k for k in a.dask.layers if k.startswith("array-")} for a in (doubled, total)]
    assert loads[0] and loads[1] and not loads[0] & loads[1]
    got = dask.compute(doubled, total, scheduler="threads")
    np.testing.assert_array_equal(got[0], want * 2.0)
    np.testing.assert_allclose(got[1], want.sum(axis=0), rtol=1e-12)


def test_lazygraph_numpy_leaves_a_read_only_map_to_the_dask_backend(tmp_path):
    path = tmp_path / "data.npy"
    np.save(path, DATA)
    # chunks of 32 KiB (82 rows of the 4000, the last one shorter), not the
    # session's 64 bytes: 25,000 chunks and 183,000 tasks took 28 s
    with config.change(backend="dask", eager_max_elements=10**6, dask_chunk_size=2**15):
        x = lnp.asarray(np.load(path, mmap_mode="r"))
        assert type(x._var) is DistributedVariable
        s = lnp.std(x, axis=0)
        assert s._var.owner is not None  # not computed at once, reading the whole file
        np.testing.assert_allclose(s.compute(), np.std(DATA, axis=0), rtol=1e-12)
        # a writable map is numpy data like any other: a snapshot of its values
        writable = np.load(path, mmap_mode="r+")
        w = lnp.asarray(writable)
        assert type(w._var) is BoundVariable
        writable[0, 0] = 1e300
        assert float(w[0, 0]) == DATA[0, 0]
    with config.change(backend="python"):  # other backends: numpy data, as ever
        y = lnp.asarray(np.load(path, mmap_mode="r"))
        assert type(y._var) is BoundVariable


# -- 4 GiB on a two-worker cluster (slow) ---------------------------------------


def _blocks(path: Path) -> Iterator[tuple[slice, np.ndarray]]:
    """The rows of the array in ``path``, a block at a time, each a copy read
    from a fresh map (unmapped at once, so this process never holds the file)."""
    for start in range(0, ROWS, BLOCK):
        rows = slice(start, min(start + BLOCK, ROWS))
        mapped = np.load(path, mmap_mode="r")
        block = np.array(mapped[rows])
        del mapped
        yield rows, block


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, Path]]:
    """``x.npy``: (ROWS, COLS) float64, each column with its own mean and scale
    (a mean far larger than the spread, where a one-pass variance loses
    digits); ``y.npy``: 0/1 labels of a noisy linear model of x."""
    where = tmp_path_factory.mktemp("out_of_core")
    x_path, y_path = where / "x.npy", where / "y.npy"
    rng = np.random.default_rng(22)
    loc = rng.uniform(-1e3, 1e3, size=COLS)
    scale = rng.uniform(0.1, 10.0, size=COLS)
    truth = rng.normal(size=COLS) / scale
    for path, shape in ((x_path, (ROWS, COLS)), (y_path, (ROWS,))):
        np.lib.format.open_memmap(path, mode="w+", dtype=np.float64, shape=shape).flush()
    for start in range(0, ROWS, BLOCK):
        rows = slice(start, min(start + BLOCK, ROWS))
        block = loc + scale * rng.standard_normal((rows.stop - start, COLS))
        logits = (block - loc) @ truth + rng.normal(size=rows.stop - start)
        for path, value in ((x_path, block), (y_path, (logits > 0).astype(np.float64))):
            mapped = np.lib.format.open_memmap(path, mode="r+")
            mapped[rows] = value
            mapped.flush()
            del mapped
    yield x_path, y_path
    x_path.unlink()  # (pytest keeps its last three temporary folders: not 4 GiB each)
    y_path.unlink()


@pytest.fixture(scope="module")
def client() -> Iterator[distributed.Client]:
    with (
        distributed.LocalCluster(
            n_workers=WORKERS,
            threads_per_worker=1,
            processes=True,
            memory_limit=MEMORY_LIMIT,
            dashboard_address=None,
        ) as cluster,
        distributed.Client(cluster) as c,
    ):
        yield c


class _PeakRSS:
    """The peak resident memory of this process while the block runs (sampled
    every 20 ms on a thread)."""

    def __init__(self) -> None:
        self.process = psutil.Process()
        self.peak = self.start = 0
        self._stop = threading.Event()

    def __enter__(self) -> _PeakRSS:
        self.peak = self.start = self.process.memory_info().rss
        self._thread = threading.Thread(target=self._sample, daemon=True)
        self._thread.start()
        return self

    def _sample(self) -> None:
        while not self._stop.wait(0.02):
            self.peak = max(self.peak, self.process.memory_info().rss)

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def _worker_peak(dask_worker: distributed.Worker, since: float) -> float:
    """The highest process memory this worker's monitor recorded (every 0.5 s)
    from time ``since`` (``time.time()``) on."""
    quantities = dask_worker.monitor.quantities
    return max(
        m for t, m in zip(quantities["time"], quantities["memory"], strict=True) if t >= since
    )


def _on_cluster(client: distributed.Client, run) -> np.ndarray:
    """``run()`` on the cluster, checking that no worker restarted and that each
    worker's memory, and the client's, stayed low."""
    pids = client.run(os.getpid)
    assert len(pids) == WORKERS
    sampler = MemorySampler()
    start, since = time.perf_counter(), time.time()
    with sampler.sample("run", client=client, interval=0.1), _PeakRSS() as here:
        got = run()
    assert client.run(os.getpid) == pids, "a worker restarted"
    logs = client.get_worker_logs(nanny=True)
    for address, lines in logs.items():
        text = "\n".join(line for _, line in lines)
        assert "Restarting" not in text and "memory budget" not in text, (address, text)
    cluster_peak = max(v for _, v in sampler.samples["run"])
    peaks = client.run(_worker_peak, since=since)
    print(
        f"array {NBYTES / 2**30:.2f} GiB: {time.perf_counter() - start:.1f} s; peak memory: "
        f"cluster {cluster_peak / 2**20:.0f} MiB, workers "
        f"{', '.join(f'{p / 2**20:.0f}' for p in peaks.values())} MiB (limit "
        f"{MEMORY_LIMIT / 2**20:.0f} each), client +{(here.peak - here.start) / 2**20:.0f} MiB"
    )
    assert cluster_peak < WORKERS * MEMORY_LIMIT
    for address, peak in peaks.items():
        assert peak < MEMORY_LIMIT, (address, peak)
    # the client read none of the array (only results come back)
    assert here.peak - here.start < NBYTES / 8
    return got


@pytest.mark.slow
@pytest.mark.outofcore
def test_std_over_axis_0_of_an_array_on_disk(files, client):
    x_path, _ = files
    total = np.zeros(COLS)
    for _, block in _blocks(x_path):
        total += block.sum(axis=0)
    mean = total / ROWS
    squares = np.zeros(COLS)
    for _, block in _blocks(x_path):
        squares += ((block - mean) ** 2).sum(axis=0)
    want = np.sqrt(squares / ROWS)

    def run() -> np.ndarray:
        with config.change(backend="dask"):
            x = lnp.asarray(np.load(x_path, mmap_mode="r"))  # no copy: read-only
            return lnp.std(x, axis=0).compute()

    got = _on_cluster(client, run)
    # sums in another order than numpy's pairwise sums: the last bits differ
    np.testing.assert_allclose(got, want, rtol=1e-9)


def _loss(w, x, y):
    """The mean logistic loss of weights ``w`` on rows ``x`` and 0/1 labels ``y``."""
    z = x @ w
    return lnp.mean(lnp.logaddexp(0.0, z) - y * z)


@pytest.mark.slow
@pytest.mark.outofcore
def test_a_logistic_regression_gradient_step_on_disk(files, client):
    x_path, y_path = files
    rng = np.random.default_rng(5)
    w = rng.normal(size=COLS) * 1e-3
    labels = np.load(y_path)  # (ROWS / COLS of the data: 1/64 of it)
    want = np.zeros(COLS)
    for rows, block in _blocks(x_path):
        z = block @ w
        want += block.T @ (1.0 / (1.0 + np.exp(-z)) - labels[rows])
    want /= ROWS
    assert np.abs(want).max() > 1.0  # (a gradient that a wrong answer cannot match by chance)

    def run() -> np.ndarray:
        with config.change(backend="dask"):
            x = np.load(x_path, mmap_mode="r")
            y = np.load(y_path, mmap_mode="r")
            return np.asarray(lazygraph.grad(_loss)(w, x, y))

    got = _on_cluster(client, run)
    np.testing.assert_allclose(got, want, rtol=1e-9)
