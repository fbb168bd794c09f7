#!/bin/bash
# What a lent GPU machine runs (the device tool; nothing here runs in CI):
# the jax benchmark table, the jax backend's own tests (GPU-only ones included)
# and the whole op table on jax, on the GPU. Results go to $OUT.
#
# That machine has jax with CUDA, numpy, numba, pytest, pytest-xdist and
# hypothesis, but no network: array-api-compat travels as a wheel in .whl/
# (see the device tool's README), lazygraph is installed from this checkout.
# Each step has its own time limit so the steps after it still run.
set -u
OUT=${OUT:-/tmp/gpu_check}
mkdir -p "$OUT"
export PYTHONUNBUFFERED=1 OPENBLAS_NUM_THREADS=1
python3 -m pip install -q --no-index --no-deps --no-build-isolation .whl/*.whl \
    -e packages/lazygraph-core -e packages/lazygraph-numpy-api -e packages/lazygraph-backends
python3 -c "import jax, numpy; print(jax.devices(), 'jax', jax.__version__, 'numpy', numpy.__version__)"

echo "== benchmark"
timeout "${BENCH_S:-150}" python3 benchmarks/jax_workloads.py 2>&1 | tee "$OUT/bench.md"

# Several pytest workers share the GPU: no worker may take most of its memory.
export XLA_PYTHON_CLIENT_PREALLOCATE=false LAZYGRAPH_BACKEND=jax HYPOTHESIS_PROFILE=ci-compiled
echo "== jax backend suite"
timeout "${SUITE_S:-150}" python3 -m pytest -q -p no:cacheprovider -n 4 -m "not slow" \
    tests/backends/jax packages/lazygraph-backends/src/lazygraph/backends/jax \
    tests/numpy_api/test_programs.py 2>&1 | tee "$OUT/suite.txt" | tail -30
echo "== op table on jax"
# TABLE_PATHS: a part of the op table instead of all of it
# shellcheck disable=SC2086
timeout "${TABLE_S:-270}" python3 -m pytest -q -p no:cacheprovider -n 10 \
    ${TABLE_PATHS:-tests/tensor tests/numpy_api} --ignore=tests/numpy_api/test_programs.py \
    2>&1 | tee "$OUT/table.txt" | tail -40
