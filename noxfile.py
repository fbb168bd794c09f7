"""Development sessions. ``nox -l`` lists them; ``nox`` alone runs tests and lint.

- ``tests(backend=...)``: the test suite with ``LAZYGRAPH_BACKEND`` set to
  python, numba, jax or dask. Unmarked tests run in every one; a test marked
  ``backend(name)`` runs only in its backend's session.
- ``lint``: ruff check and ruff format --check.
- ``demo``: runs demo/run.py.
- ``docs``: builds the documentation site (mkdocs, warnings are errors) into site/.
- ``bench``: runs the benchmark scripts and writes docs/benchmarks/ (benchmarks/report.py).
- ``packaging``: only the tests marked ``packaging`` (wheels, venvs).

Arguments after ``--`` go to pytest: ``nox -s "tests(backend='python')" -- -x -k merge``.
"""

from __future__ import annotations

from pathlib import Path

import nox

nox.needs_version = ">=2025.2.9"  # nox.project.dependency_groups
nox.options.default_venv_backend = "uv|virtualenv"
nox.options.sessions = ["tests", "lint"]

PYPROJECT = nox.project.load_toml("pyproject.toml")
BACKENDS = ("python", "numba", "jax", "dask")
LINT_PATHS = ("packages", "tests", "benchmarks", "demo", "noxfile.py", "conftest.py")
ENV = {"OPENBLAS_NUM_THREADS": "1", "HYPOTHESIS_PROFILE": "ci"}


def install_lazygraph(session: nox.Session, backend: str = "python") -> None:
    """Editable installs of the three distributions, with the backend's extra."""
    backends = "packages/lazygraph-backends"
    if backend != "python":
        backends += f"[{backend}]"
    session.install(
        "-e",
        "packages/lazygraph-core",
        "-e",
        "packages/lazygraph-numpy-api",
        "-e",
        backends,
    )


def backend_is_placeholder(session: nox.Session, backend: str) -> bool:
    """Whether the backend's entry point still names ``backend = None``.

    An import error is not a placeholder: it fails the session.
    """
    code = (
        "from importlib.metadata import entry_points; "
        f"(ep,) = entry_points(group='lazygraph.backends', name={backend!r}); "
        "print('placeholder' if ep.load() is None else 'ready')"
    )
    output = session.run("python", "-c", code, silent=True)
    return isinstance(output, str) and output.strip() == "placeholder"


# What each backend's session runs when no paths are given after ``--``. The
# python session runs everything (testpaths in pyproject.toml). The numba
# session runs the backend's differential tests against the python backend
# (random graphs, every lowering family, tiers and threads; at the op table's
# optimisation level, see LOWERING_SUITES), its doctests, the
# reliability suite, the eight numpy-namespace programs and the program corpus
# (tests/programs) on numba; the jax
# session the same for jax. Sessions listed in OP_TABLE_BACKENDS then run the
# whole op table (OP_TABLE_DIRS) on their backend, compared with the python
# backend's reference results, see op_table_groups.
BACKEND_SUITES: dict[str, tuple[str, ...]] = {
    "python": (),
    "numba": (
        # the rest of tests/backends/numba runs at the op table's level
        # (LOWERING_SUITES); background compilation and the disk cache at
        # the level users get (at -O0 Numba will not cache a kernel that
        # calls one of the backend's helpers, see OP_TABLE_ENV)
        "tests/backends/numba/test_background.py",
        "packages/lazygraph-backends/src/lazygraph/backends/numba",
        "tests/reliability",
        "tests/numpy_api/test_programs.py",
        "tests/programs",
    ),
    "jax": (
        "tests/backends/jax",
        "packages/lazygraph-backends/src/lazygraph/backends/jax",
        "tests/reliability",
        "tests/numpy_api/test_programs.py",
        "tests/programs",
    ),
    # dask: its own tests and doctests, its docs page, and a cross-section of the
    # op table (the files below: the families with dask lowerings of their own,
    # reductions and scans, shapes, indexing and assignment, sorting, FFTs) on chunks of 64
    # bytes (DASK_ENV), so that lowerings meet chunks that do not divide the
    # arrays. 82 s of pytest in a clean-clone .ci/run (2026-11-29; tests of
    # their own data path, such as the read-only memory map, set chunks of
    # their own size: 64 bytes made that one 183,000 tasks). Most of it is
    # Numba compiling kernels at -O0 (about 45% of a second-order gradient
    # test), the rest building dask graphs and
    # running them. Left out for time: the rest of the op table (its first 15
    # files took 14 min beside other work: test_elemwise.py alone 8 min, a
    # kernel per op and dtype; numpy_api/test_statistical.py 1 min); and
    # test_blas.py, whose matmul row gives inf-overflowing complex products
    # whose NaNs numpy's own result takes from the BLAS kernel it picks for the
    # operands' shape and layout, which a product of blocks cannot follow.
    "dask": (
        "tests/backends/dask",
        "packages/lazygraph-backends/src/lazygraph/backends/dask",
        "tests/docs/test_doc_examples.py::test_doc_examples_run[docs/backends-dask.md]",
        "tests/tensor/test_dimshuffle.py",
        "tests/tensor/test_join.py",
        "tests/tensor/test_reduction.py",
        "tests/tensor/test_shape.py",
        "tests/tensor/test_structure.py",
        "tests/tensor/test_subtensor.py",
        "tests/tensor/test_advanced_subtensor.py",
        "tests/tensor/test_sort.py",
        "tests/tensor/test_fft.py",
        "tests/numpy_api/test_manipulation.py",
        "tests/numpy_api/test_array_indexing.py",
    ),
}
#: environment of the dask session: 8-float64 chunks and kernels at LLVM -O0
#: (see OP_TABLE_ENV; -O0's BLAS warning is ignored, see OP_TABLE_ARGS)
DASK_ENV = {"LAZYGRAPH_DASK_CHUNK_SIZE": "64", "NUMBA_OPT": "0"}


def jax_env(location: str) -> dict[str, str]:
    """Environment of the jax session: XLA's persistent compilation cache in
    the session's directory, for programs of every size (JAX caches only those
    that took a second to compile by default), so that a program compiled by
    one pytest process is loaded, not compiled again, by the other worker and
    by every later op-table group; the numba session shares its kernel cache
    the same way. tests/tensor/test_reduction.py on jax, one process: 28 s of
    CPU with every program compiled, 15 s with every program loaded from the
    cache (XLA's compiles are ~45% of the jax op table's time)."""
    return {
        "JAX_COMPILATION_CACHE_DIR": f"{location}/jax-cache",
        "JAX_PERSISTENT_CACHE_MIN_COMPILE_TIME_SECS": "0",
        "JAX_PERSISTENT_CACHE_MIN_ENTRY_SIZE_BYTES": "0",
    }


#: the backend's own differential tests that run at the op table's
#: optimisation level (OP_TABLE_ENV), before the op table, leaving out what
#: BACKEND_SUITES runs: tests/backends/numba, 429 s of CPU at Numba's default
#: level, 268 s at -O0 (2026-11-29, two workers). The level users get stays
#: tested by the program corpus, the reliability suite and the namespace
#: programs (BACKEND_SUITES), which run every lowering family in real programs.
LOWERING_SUITES: dict[str, tuple[str, ...]] = {"numba": ("tests/backends/numba",)}
OP_TABLE_DIRS = ("tests/tensor", "tests/numpy_api")
OP_TABLE_BACKENDS = ("numba", "jax")
#: backends whose op table runs with LAZYGRAPH_ON_UNSUPPORTED=raise (the jax
#: backend's host steps by design, listed with their reasons in its
#: HOST_BY_DESIGN, do not raise; every other node must lower)
OP_TABLE_MUST_LOWER = ("numba", "jax")
#: environment of a backend's op table runs. Numba: LLVM at -O0. The op table
#: compiles ~10,000 small kernels, one or two per example, each used once on a
#: few elements; LLVM's passes and code generation are 45% of its time
#: (tests/tensor/test_blas.py on 2 workers: 332 s at -O3, 182 s at -O0). The
#: optimisation level cannot change a result: kernels use no fastmath flags, so
#: LLVM neither reassociates nor contracts floating-point operations at any
#: level, and the op table replaces the inputs whose casts C leaves undefined
#: (tests/tensor/harness.py). The numba session's program corpus, reliability
#: suite, namespace programs and doctests run at Numba's default level, the one
#: users get, over the same lowering families (see LOWERING_SUITES).
#: JAX: XLA's CPU code generation at LLVM -O0 too, for the same reason (XLA
#: enables no fast-math by default); XLA's own HLO passes still run.
#: tests/tensor/test_structure.py + test_reduction.py: 97 s at the default
#: level, 86 s at 0.
OP_TABLE_ENV: dict[str, dict[str, str]] = {
    "numba": {"NUMBA_OPT": "0"},
    "jax": {"XLA_FLAGS": "--xla_backend_optimization_level=0"},
}
#: pytest options of a backend's op table runs. At -O0 a kernel calling BLAS
#: keeps an unused global holding the function pointer (-O3 removes it), and
#: Numba then warns, once per such kernel, that it cannot cache the kernel.
OP_TABLE_ARGS: dict[str, tuple[str, ...]] = {
    "numba": ("-W", "ignore:Cannot cache compiled function"),
}
#: pytest options of every test run: two xdist workers (CI's two cores), work
#: stealing, and the slowest tests listed (where CI's time goes)
XDIST = ("-n", "2", "--dist", "worksteal", "--durations=15")
#: test files per pytest run of the op table on a compiled backend
OP_TABLE_FILES_PER_RUN = 15


def op_table_groups(suite: tuple[str, ...]) -> list[list[str]]:
    """The op table's test files (those not already in ``suite``) in groups.

    Each group is one pytest run with two pytest-xdist workers, so every
    process lives for a few files only. Compiled kernels stay in a process
    until it ends (Numba frees no machine code): one process running the whole
    op table on numba grows past 12 GB (~3,700 kernels of ~3 MB), and two of
    them swap a 24 GB machine to a standstill. The two workers and every
    later group share one kernel cache directory, so a kernel is compiled
    once per run (the cache's per-entry locks keep concurrent
    writers apart, see lazygraph.backends.numba.cache).
    """

    files = sorted(
        str(path)
        for directory in OP_TABLE_DIRS
        for path in Path(directory).rglob("test_*.py")
        if str(path) not in suite
    )
    size = OP_TABLE_FILES_PER_RUN
    return [files[i : i + size] for i in range(0, len(files), size)]


@nox.session
@nox.parametrize("backend", BACKENDS)
def tests(session: nox.Session, backend: str) -> None:
    """Run pytest with LAZYGRAPH_BACKEND=<backend>."""
    # pip and setuptools (>= 77: PEP 639 license expressions): the packaging tests
    # build wheels without build isolation.
    session.install(*nox.project.dependency_groups(PYPROJECT, "test"), "pip", "setuptools>=77")
    install_lazygraph(session, backend)
    if backend != "python" and backend_is_placeholder(session, backend):
        session.skip(f"lazygraph.backends.{backend} is still a placeholder (backend = None)")
    env = {**ENV, "LAZYGRAPH_BACKEND": backend}
    if backend != "python":
        # fewer hypothesis examples: each new (dtype, rank) an example draws is a compile
        env["HYPOTHESIS_PROFILE"] = "ci-compiled"
        # One kernel cache for the sessions of a run (beside their virtual
        # environments, under .nox): the dask session runs the numba session's
        # kernels on its chunks and loads them instead of compiling them again.
        # A kernel's file name is the hash of its source and of the backend's
        # code generator, so an entry of an older checkout is never used.
        env["LAZYGRAPH_CACHE_DIR"] = str(
            Path(session.virtualenv.location).parent / "lazygraph-cache"
        )
        # Every node through the backend: lazygraph.numpy would otherwise compute
        # the tests' small arrays of known values at once, with numpy's perform,
        # and the backend's lowering would go untested. The python session
        # tests that path; tests/numpy_api/test_eager.py checks it against the
        # graph on every backend.
        env["LAZYGRAPH_EAGER_MAX_ELEMENTS"] = "0"
    if backend == "dask":
        env.update(DASK_ENV)
    if backend == "jax":
        env.update(jax_env(str(session.virtualenv.location)))
    if session.posargs:
        session.run("pytest", *session.posargs, env=env)
        return
    # two pytest-xdist workers use CI's two cores (compiles and tests alike);
    # work stealing: a worker that runs out takes queued tests from the other,
    # instead of idling while the other finishes a long hypothesis test
    suite_args = OP_TABLE_ARGS["numba"] if backend == "dask" else ()
    session.run("pytest", *XDIST, *suite_args, *BACKEND_SUITES[backend], env=env)
    if backend in LOWERING_SUITES:
        ignored = [f"--ignore={path}" for path in BACKEND_SUITES[backend]]
        level = {**env, **OP_TABLE_ENV[backend]}
        args = (*XDIST, *OP_TABLE_ARGS.get(backend, ()), *ignored, *LOWERING_SUITES[backend])
        session.run("pytest", *args, env=level)
    if backend in OP_TABLE_BACKENDS:
        groups = op_table_groups(BACKEND_SUITES[backend])
        if backend in OP_TABLE_MUST_LOWER:
            # every tensor Op lowers: a node falling back to perform fails its test
            # (a test's own Ops ask for the fallback: the perform_fallback fixture)
            env["LAZYGRAPH_ON_UNSUPPORTED"] = "raise"
        env.update(OP_TABLE_ENV.get(backend, {}))
        for number, group in enumerate(groups, 1):
            session.log(f"op table on {backend}, part {number} of {len(groups)}")
            session.run("pytest", *XDIST, *OP_TABLE_ARGS.get(backend, ()), *group, env=env)


@nox.session
def lint(session: nox.Session) -> None:
    """ruff check and ruff format --check."""
    session.install("ruff")
    session.run("ruff", "check", *LINT_PATHS)
    session.run("ruff", "format", "--check", *LINT_PATHS)


@nox.session
def demo(session: nox.Session) -> None:
    """Install lazygraph (with numba, the default backend) and run the demo script."""
    install_lazygraph(session, "numba")
    session.run("python", "demo/run.py", *session.posargs, env=ENV)


@nox.session
def docs(session: nox.Session) -> None:
    """Build the documentation with ``mkdocs build --strict``; ``-- serve`` serves it."""
    session.install("mkdocs", "mkdocs-material", "mkdocstrings[python]")
    install_lazygraph(session)
    if session.posargs[:1] == ["serve"]:
        session.run("mkdocs", "serve", *session.posargs[1:], env=ENV)
    else:
        session.run("mkdocs", "build", "--strict", *session.posargs, env=ENV)


@nox.session
def bench(session: nox.Session) -> None:
    """Run the benchmarks and write the report to docs/benchmarks/ (``-- --quick``: small sizes)."""
    session.install("matplotlib")
    install_lazygraph(session, "numba,jax")  # JAX columns appear when it is installed
    session.run("python", "benchmarks/report.py", *session.posargs, env=ENV)


@nox.session
def packaging(session: nox.Session) -> None:
    """Only the tests marked ``packaging``: wheel builds and installs."""
    session.install(*nox.project.dependency_groups(PYPROJECT, "test"), "pip", "setuptools>=77")
    install_lazygraph(session)
    # tests/ only: importing packages/ for its doctests would add nothing here.
    session.run("pytest", "-m", "packaging", *(session.posargs or ["tests"]), env=ENV)
