"""benchmarks/dropin.py: every drop-in program runs on lazygraph.numpy and agrees with numpy.

A smoke test at the programs' ``--quick`` sizes, in this process, on the python
backend (no compiles); it keeps the programs from rotting. No timings are checked.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

import numpy
import pytest

import lazygraph.numpy as lnp
from lazygraph import config

ROOT = Path(__file__).resolve().parents[2]


def _load() -> Any:
    spec = importlib.util.spec_from_file_location("bench_dropin", ROOT / "benchmarks" / "dropin.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_dropin"] = module
    spec.loader.exec_module(module)
    return module


dropin = _load()


@pytest.mark.parametrize("name", [p.name for p in dropin.PROGRAMS])
def test_program_agrees_with_numpy(name: str) -> None:
    program = dropin.BY_NAME[name]
    data = program.setup(program.quick)
    pristine = {k: v.copy() for k, v in data.items()}
    want = dropin.to_numpy(dropin.run_program(program, numpy, data)())
    with config.change(backend="python"):
        call = dropin.run_program(program, lnp, data)
        first = dropin.to_numpy(call())
        second = dropin.to_numpy(call())  # the warm runs repeat the same call
    assert dropin.check(program, first, want) is None
    assert dropin.check(program, second, want) is None
    for key, value in data.items():  # repeats would see a changed input
        assert numpy.array_equal(value, pristine[key], equal_nan=True), key


def test_the_issue_lists_programs() -> None:
    programs = [p for p in dropin.PROGRAMS if not p.micro]
    assert len(programs) >= 15
    assert len({p.name for p in dropin.PROGRAMS}) == len(dropin.PROGRAMS)
    micro = {p.name for p in dropin.PROGRAMS if p.micro}
    assert len(micro) == 8  # issue 17's micro-cost rows, the textbook DCT included


def test_measure_and_render() -> None:
    program = dropin.BY_NAME["micro_item"]
    result = dropin.measure(program, "numpy", program.quick, repeats=2, quick=True)
    assert "error" not in result and len(result["samples"]) == 2
    assert dropin.check(program, result["first"], (numpy.asarray(result["first"][0]),)) is None
    failed = {"error": dropin.jax_reason("'ArrayImpl' object does not support item assignment.")}
    results = {"micro_item": {"numpy": {"empty": result, "cached": result}}}
    results["micro_item"]["jax"] = {"empty": failed, "cached": failed}
    meta = {
        "engines": ["numpy", "jax"],
        "sizes": {"micro_item": 3},
        "machine": "test",
        "load_before": 0.0,
        "load_after": 0.0,
        "date": "today",
        "repeats": 2,
        "quick": True,
    }
    table = dropin.render(results, meta)
    assert "n/a: item assignment (jax arrays are immutable)" in table
    assert "| micro: `float(a[1, 2])` on a computed (3, 4) array | " in table
