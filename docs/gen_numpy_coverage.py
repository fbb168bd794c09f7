"""Write docs/numpy-coverage.md: every public name of numpy (and of the numpy
submodules lazygraph.numpy mirrors) with how lazygraph.numpy provides it.

    python docs/gen_numpy_coverage.py           # rewrite the page
    python docs/gen_numpy_coverage.py --check   # exit 1 when the page is stale

The status of a name is read from the namespace, not written by hand:

- a module is a submodule (its own section says what it holds);
- the very object numpy has (a class, a dtype, a constant, a module of numpy's
  re-exported) is numpy's own; so is any other value that is not callable;
- a function marked ``__lazygraph_fallback__`` (on it or on what it wraps), or
  one that falls back to numpy on the probe input, is a numpy fallback;
- a class of lazygraph's own (``ndarray``, ``random.Generator``) is listed as
  such;
- any other lazygraph function is lazy. It is probed on a symbolic float64
  input ``x`` of shape (4,), then (3, 3), called as ``f(x)``, ``f(x, x)``, then
  ``f(x, 2)``:
  it is differentiable when ``lazygraph.gradient.grad`` builds the gradient of
  ``sum(real(f(x)))`` (a float or complex result; no undefined gradient), and
  "eager" when the call computes ``x`` (it reads the input's values). A
  function no probe call accepts is listed as lazy, without a differentiability
  claim.

The probe builds graphs only (nothing is compiled or run), so the page takes
a few seconds to generate.
"""

from __future__ import annotations

import argparse
import datetime
import sys
import types
import warnings
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np

PAGE = Path(__file__).resolve().parent / "numpy-coverage.md"

#: (numpy module, its lazygraph.numpy counterpart as an attribute path)
MODULES = [
    ("numpy", ""),
    ("numpy.linalg", "linalg"),
    ("numpy.fft", "fft"),
    ("numpy.random", "random"),
    ("numpy.emath", "emath"),
    ("numpy.lib.stride_tricks", "lib.stride_tricks"),
    ("numpy.testing", "testing"),
    ("numpy.ma", "ma"),
    ("numpy.polynomial", "polynomial"),
]

LAZY_DIFFERENTIABLE = "lazy, differentiable"
LAZY = "lazy"
EAGER = "eager: computes its input"
FALLBACK = "fallback (numpy)"
NUMPYS = "numpy's own object"
CLASS = "lazygraph's class"
SUBMODULE = "submodule"
MISSING = "**missing**"
STATUSES = [LAZY_DIFFERENTIABLE, LAZY, EAGER, FALLBACK, CLASS, NUMPYS, SUBMODULE, MISSING]

#: a probe calls f(x, *extra) for each of these (_X: x itself)
_X = object()
_PROBE_EXTRA_ARGUMENTS: tuple[tuple[Any, ...], ...] = ((), (_X,), (2,))

_NO_VALUE = "a graph input with no value"  # (the error computing a symbolic input raises)


def resolve(root: Any, path: str) -> Any:
    """``root.<path>`` (dotted), or None where an attribute is missing."""
    obj = root
    for part in filter(None, path.split(".")):
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return obj


def public_names(module: Any) -> list[str]:
    """The public names of a numpy module, as ``dir`` lists them."""
    return sorted(n for n in dir(module) if not n.startswith("_"))


def is_fallback(obj: Any) -> bool:
    """Whether ``obj`` or anything it wraps carries ``__lazygraph_fallback__``."""
    seen: set[int] = set()
    while obj is not None and id(obj) not in seen:
        seen.add(id(obj))
        if getattr(obj, "__lazygraph_fallback__", False):
            return True
        obj = getattr(obj, "__wrapped__", None)
    return False


def _symbolic(shape: tuple[int, ...]) -> Any:
    import lazygraph.tensor as lt
    from lazygraph.numpy import Array

    return Array(lt.tensor("float64", shape, "x"))


def _first_array(result: Any) -> Any:
    from lazygraph.numpy import Array

    if isinstance(result, Array):
        return result
    if isinstance(result, (tuple, list)):
        return next((r for r in result if isinstance(r, Array)), None)
    return None


def probe(function: Callable[..., Any]) -> str:
    """The status of a lazygraph function, from calls on a symbolic input."""
    import lazygraph.numpy as lnp
    from lazygraph.configuration import config
    from lazygraph.gradient import grad
    from lazygraph.numpy import LazygraphFallbackError

    for shape in ((4,), (3, 3)):
        for extra in _PROBE_EXTRA_ARGUMENTS:
            x = _symbolic(shape)
            args = [x, *(x if e is _X else e for e in extra)]
            try:
                with config.change(on_numpy_fallback="raise"), warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    out = _first_array(function(*args))
            except LazygraphFallbackError:
                return FALLBACK
            except Exception as exc:
                if _NO_VALUE in str(exc) and not extra:
                    return EAGER  # (f(x) computed x; f(x, x) may read a static argument)
                continue
            if out is None:
                continue
            if out.dtype.kind not in "fc":
                return LAZY  # (an integer or boolean result has no gradient)
            try:
                grad(lnp.sum(lnp.real(out))._var, x._var)
            except Exception:
                return LAZY
            return LAZY_DIFFERENTIABLE
    return LAZY


def status(numpy_value: Any, value: Any, missing: bool) -> str:
    """How lazygraph.numpy provides a name numpy has (``value``: its object)."""
    if missing:
        return MISSING
    if isinstance(value, types.ModuleType):
        return SUBMODULE
    if value is numpy_value:
        return NUMPYS
    if not callable(value):
        # lazygraph's own index helpers (r_, c_, mgrid, ogrid) build lazy arrays
        lazy = (getattr(type(value), "__module__", None) or "").startswith("lazygraph")
        return LAZY if lazy else NUMPYS
    if is_fallback(value):
        return FALLBACK
    if not (getattr(value, "__module__", None) or "").startswith("lazygraph"):
        return NUMPYS  # (numpy's or Python's function, reached some other way)
    if isinstance(value, type):
        return CLASS
    return probe(value)


def rows(numpy_module: Any, lazy_module: Any) -> Iterator[tuple[str, str]]:
    """(name, status) for every public name of ``numpy_module``."""
    for name in public_names(numpy_module):
        missing = lazy_module is None or not hasattr(lazy_module, name)
        value = None if missing else getattr(lazy_module, name)
        yield name, status(getattr(numpy_module, name, None), value, missing)


def render(date: str | None = None) -> str:
    """The page's Markdown (``date``: the date it says it was generated on)."""
    import lazygraph.numpy as lnp

    date = date or datetime.date.today().isoformat()
    sections: list[str] = []
    totals = dict.fromkeys(STATUSES, 0)
    for numpy_name, path in MODULES:
        numpy_module = resolve(np, numpy_name.removeprefix("numpy"))
        lazy_name = "lazygraph.numpy" + (f".{path}" if path else "")
        table = list(rows(numpy_module, resolve(lnp, path)))
        counts = {s: sum(1 for _, t in table if t == s) for s in STATUSES}
        for s, n in counts.items():
            totals[s] += n
        summary = ", ".join(f"{n} {s}" for s, n in counts.items() if n)
        sections += [
            f"## `{numpy_name}` → `{lazy_name}`",
            "",
            f"{len(table)} names: {summary}.",
            "",
            "| name | status |",
            "|---|---|",
            *(f"| `{name}` | {s} |" for name, s in table),
            "",
        ]
    overall = ", ".join(f"{n} {s}" for s, n in totals.items() if n)
    return (
        "\n".join(
            [
                "# numpy coverage",
                "",
                "Every public name of numpy's top level and of the numpy submodules",
                "`lazygraph.numpy` mirrors, with how `lazygraph.numpy` provides it.",
                f"Generated on {date} with numpy {np.__version__} by",
                "`docs/gen_numpy_coverage.py`, which reads the namespace (run it again",
                "after adding a name; a test fails while this page is stale).",
                "",
                f"- **{LAZY}**: recorded into the graph; **{LAZY_DIFFERENTIABLE}**: and",
                "  `lazygraph.gradient.grad` builds the gradient of `sum(real(f(x)))` for a",
                "  float64 input `x` of shape (4,) or (3, 3), called as `f(x)`, `f(x, x)` or",
                "  `f(x, 2)`. A lazy function that the probe cannot call so is listed as lazy.",
                f"- **{EAGER}**: lazygraph's function reads its input's values when `f(x)` is",
                "  called (it may still record the rest of its work).",
                f"- **{FALLBACK}**: computes its lazy arguments and runs numpy's function;",
                "  numeric results come back as lazy arrays. Only array computation warns",
                "  (`LazygraphFallbackWarning`); printing, files and datetimes do not.",
                f"- **{CLASS}**: lazygraph's counterpart of numpy's class (`ndarray` for",
                "  `isinstance` checks, `random.Generator`...).",
                f"- **{NUMPYS}**: numpy's class, dtype, constant or helper, re-exported",
                "  (numpy's constructors and functions take lazy arrays through `__array__`).",
                f"- **{SUBMODULE}**: see its own section where it has one.",
                "",
                f"In all: {overall}.",
                "",
                *sections,
            ]
        ).rstrip("\n")
        + "\n"
    )


def page_date(text: str) -> str | None:
    """The date a page says it was generated on."""
    marker = "Generated on "
    for line in text.splitlines():
        if line.startswith(marker):
            return line[len(marker) :].split(" ", 1)[0]
    return None


def page_numpy_version(text: str) -> str | None:
    """The numpy version a page says it was generated with."""
    for line in text.splitlines():
        if " with numpy " in line:
            return line.split(" with numpy ", 1)[1].split(" ", 1)[0]
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="exit 1 when the page is stale")
    args = parser.parse_args(argv)
    old = PAGE.read_text() if PAGE.exists() else ""
    stale = render(page_date(old)) != old  # (the same page with a new date is not new)
    if args.check or not stale:
        if stale:
            print(f"{PAGE} is stale: run python docs/gen_numpy_coverage.py", file=sys.stderr)
        else:
            print(f"{PAGE} is up to date")
        return int(stale)
    PAGE.write_text(render())
    print(f"wrote {PAGE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
