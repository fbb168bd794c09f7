"""The team's own corpus: realistic numpy programs, run unchanged under numpy
and under ``lazygraph.numpy``, compared value by value.

Each ``pNN_<name>.py`` module next to this file defines ``main(np)``: it takes
the namespace (``numpy`` or ``lazygraph.numpy``), prints what it found and
returns a dict of results. The test runs it once with each namespace and
checks that

* the printed text is identical, character for character, and
* the returned values agree leaf by leaf (:func:`assert_same`): arrays in
  dtype, shape and value (floats to ``rtol=1e-9, atol=1e-12``, everything
  else exactly), Python scalars and strings in type and value, containers in
  structure.

Each program runs twice under ``lazygraph.numpy``: with the default
configuration ("eager": small arrays whose inputs are known are computed at
once with numpy, which is what every program here is made of) and with
``eager_max_elements=0`` ("graph": every operation is recorded as a graph
node and computed by the backend, rewrites included), so that the corpus
exercises the graph path and not only the eager dispatch.

A program may loosen the float tolerance of some of its results with a
module-level ``TOLERANCE = {"key": {"rtol": ..., "atol": ...}}``, and must
say why next to it.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import pkgutil
from pathlib import Path
from typing import Any

import numpy
import pytest

import lazygraph
import lazygraph.numpy as lnp

RTOL = 1e-9
ATOL = 1e-12

PROGRAMS = sorted(
    info.name
    for info in pkgutil.iter_modules([str(Path(__file__).parent)])
    if info.name[0] == "p" and info.name[1:3].isdigit()
)


def _is_array_like(x: Any) -> bool:
    return isinstance(x, numpy.ndarray | numpy.generic | lnp.Array)


def assert_same(
    got: Any, want: Any, rtol: float = RTOL, atol: float = ATOL, path: str = ""
) -> None:
    """``got`` (from lazygraph.numpy) equals ``want`` (from numpy), leaf by leaf.

    Arrays (numpy arrays, numpy scalars and lazy Arrays alike) must agree in
    dtype, shape and value; Python scalars and strings in type and value;
    dicts, lists and tuples in keys/length and then element by element.
    """
    where = path or "result"
    if isinstance(want, dict):
        assert isinstance(got, dict), f"{where}: {type(got).__name__} where numpy gave a dict"
        assert list(got) == list(want), f"{where}: keys {list(got)} != {list(want)}"
        for key in want:
            assert_same(got[key], want[key], rtol, atol, f"{where}[{key!r}]")
        return
    if isinstance(want, list | tuple):
        assert type(got) is type(want), (
            f"{where}: {type(got).__name__} where numpy gave a {type(want).__name__}"
        )
        assert len(got) == len(want), f"{where}: length {len(got)} != {len(want)}"
        for i, (g, w) in enumerate(zip(got, want, strict=True)):
            assert_same(g, w, rtol, atol, f"{where}[{i}]")
        return
    if _is_array_like(want):
        assert _is_array_like(got) or isinstance(got, bool | int | float | complex), (
            f"{where}: {type(got).__name__} where numpy gave {type(want).__name__}"
        )
        g, w = numpy.asarray(got), numpy.asarray(want)
        assert g.dtype == w.dtype, f"{where}: dtype {g.dtype} != {w.dtype}"
        assert g.shape == w.shape, f"{where}: shape {g.shape} != {w.shape}"
        if w.dtype.kind in "fc":
            numpy.testing.assert_allclose(g, w, rtol=rtol, atol=atol, err_msg=where)
        else:
            numpy.testing.assert_array_equal(g, w, err_msg=where)
        return
    # Python scalars, strings, None: same type and value
    assert type(got) is type(want), (
        f"{where}: {type(got).__name__} {got!r} where numpy gave {type(want).__name__} {want!r}"
    )
    if isinstance(want, float) and want != want:
        assert got != got, f"{where}: {got!r} != nan"
    elif isinstance(want, float | complex):
        numpy.testing.assert_allclose(got, want, rtol=rtol, atol=atol, err_msg=where)
    else:
        assert got == want, f"{where}: {got!r} != {want!r}"


def run(module: Any, namespace: Any) -> tuple[Any, str]:
    """``module.main(namespace)``: what it returns and what it prints."""
    buffer = io.StringIO()
    with contextlib.redirect_stdout(buffer):
        result = module.main(namespace)
    return result, buffer.getvalue()


def test_the_corpus_is_large_enough():
    assert len(PROGRAMS) >= 25, PROGRAMS


#: The default configuration, and every operation through the graph. Where the
#: run's configuration already records everything (the compiled backends'
#: sessions set LAZYGRAPH_EAGER_MAX_ELEMENTS=0), the two are one mode.
MODES = {"eager": {}, "graph": {"eager_max_elements": 0}}
if lazygraph.config.eager_max_elements <= 0:
    del MODES["eager"]


#: programs where lazygraph.numpy differs from numpy today, and why: each is an
#: expected failure that fails the run once it passes (strict)
KNOWN_DIFFERENCES = {
    "p36_stabilised_overflow": (
        "the stabilize stage rewrites log(sum(exp(x))) to a log-sum-exp that does not "
        "overflow where numpy's gives inf"
    ),
}


def _marked(name: str) -> Any:
    reason = KNOWN_DIFFERENCES.get(name)
    if reason is None:
        return name
    return pytest.param(name, marks=pytest.mark.xfail(reason=reason, strict=True))


@pytest.mark.parametrize("name", [_marked(name) for name in PROGRAMS])
@pytest.mark.parametrize("mode", list(MODES))
def test_program(mode, name):
    module = importlib.import_module(f"{__package__}.{name}")
    want, want_out = run(module, numpy)
    with lazygraph.config.change(**MODES[mode]):
        got, got_out = run(module, lnp)
    assert got_out.splitlines() == want_out.splitlines()
    assert isinstance(want, dict)
    tolerance = getattr(module, "TOLERANCE", {})
    assert isinstance(got, dict), f"main returned {type(got).__name__}, numpy's a dict"
    assert list(got) == list(want)
    for key in want:
        tol = {"rtol": RTOL, "atol": ATOL} | tolerance.get(key, {})
        assert_same(got[key], want[key], path=key, **tol)
