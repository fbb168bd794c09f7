"""Hostile input at the ``lazygraph.numpy`` boundary.

A table of calls with wrong types, ragged lists, object arrays, bad dtypes, bad
axes, impossible shapes and NaN where an integer is needed. Each row is first
tried on numpy itself: rows numpy accepts are dropped, and for the others
lazygraph must raise the same public exception type (``AxisError``,
``IndexError``, ``ValueError``, ``TypeError``...) with a message naming the
function. The lazy result, if any, is forced so that errors found only at
compute time count too.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from numpy.exceptions import AxisError

import lazygraph.numpy as lnp

# The public exception classes numpy's errors are checked against, most specific
# first (AxisError is both a ValueError and an IndexError).
_PUBLIC = (AxisError, IndexError, ZeroDivisionError, OverflowError, ValueError, TypeError)

NAN = float("nan")
M23 = np.arange(6.0).reshape(2, 3)
V3 = np.arange(3.0)
V4 = np.arange(4.0)
I3 = np.arange(3)
RAGGED = [[1.0, 2.0], [3.0]]
OBJECT = np.array([1, "a", None], dtype=object)
NOT_ARRAYS: list[tuple[str, Any]] = [
    ("ragged", RAGGED),
    ("object", OBJECT),
    ("str", "abc"),
    ("none", None),
    ("dict", {"a": 1}),
]

Row = tuple[str, str, Callable[[Any], Any], tuple[str, ...]]
ROWS: list[Row] = []


def row(name: str, kind: str, call: Callable[[Any], Any], *names: str) -> None:
    """Add a row: ``call(module)`` does the bad call with ``module`` numpy or
    lazygraph.numpy; the message must name ``name`` (or one of ``names``)."""
    ROWS.append((name, kind, call, (name, *names)))


# The elementwise functions: every row of the scalar table
# (lazygraph.tensor.scalar.basic.ROWS) of one or two inputs, by its numpy name.
#: Rows not called here as f(x) / f(x1, x2), each with the reason.
ELEMENTWISE_EXCLUDED = {
    "second": "the internal fill of gradients (its numpy_name, broadcast_to, takes a shape: "
    "rows broadcast_to-* below)",
    "clip": "three inputs: the row clip-shape below",
    "where": "three inputs: the row where-shape below",
}


def _elementwise(nin: int) -> list[str]:
    """The numpy names of the rows of ``nin`` inputs (rows numpy lacks, sigmoid or
    erf, have no lazygraph.numpy function and no numpy behaviour to compare)."""
    from lazygraph.tensor.scalar.basic import ROWS as TABLE

    return sorted(
        row.numpy_name
        for name, row in TABLE.items()
        if row.nin == nin
        and row.numpy_name is not None
        and hasattr(np, row.numpy_name)
        and name not in ELEMENTWISE_EXCLUDED
    )


UNARY = _elementwise(1)
for f in UNARY:
    for kind, bad in NOT_ARRAYS:
        row(f, kind, lambda m, f=f, bad=bad: getattr(m, f)(bad))
    row(f, "dtype", lambda m, f=f: getattr(m, f)(V3, dtype="not-a-dtype"))

BINARY = _elementwise(2)
for f in BINARY:
    row(f, "shapes", lambda m, f=f: getattr(m, f)(V3, V4))
    row(f, "shapes2d", lambda m, f=f: getattr(m, f)(M23, np.ones((3, 2))))
    for kind, bad in NOT_ARRAYS[:3]:
        row(f, kind, lambda m, f=f, bad=bad: getattr(m, f)(V3, bad))

REDUCTIONS = [
    "sum", "prod", "mean", "std", "var", "max", "min", "any", "all",
    "argmax", "argmin", "cumsum", "cumprod", "median",
]  # fmt: skip
BAD_AXES: list[tuple[str, Any]] = [
    ("axis5", 5),
    ("axis-3", -3),
    ("axisfloat", 1.5),
    ("axisstr", "a"),
    ("axisdup", (0, 0)),
    ("axisnan", NAN),
]
for f in REDUCTIONS:
    for kind, axis in BAD_AXES:
        row(f, kind, lambda m, f=f, axis=axis: getattr(m, f)(M23, axis=axis))
    row(f, "ragged", lambda m, f=f: getattr(m, f)(RAGGED))

for f in ("zeros", "ones", "empty"):
    row(f, "dtype", lambda m, f=f: getattr(m, f)(3, dtype="not-a-dtype"))
    row(f, "negative", lambda m, f=f: getattr(m, f)(-1))
    row(f, "negative2d", lambda m, f=f: getattr(m, f)((2, -3)))
    row(f, "float", lambda m, f=f: getattr(m, f)(2.5))
    row(f, "nan", lambda m, f=f: getattr(m, f)(NAN))
    row(f, "str", lambda m, f=f: getattr(m, f)("3"))
    row(f, "ragged-shape", lambda m, f=f: getattr(m, f)((2, (3,))))
row("full", "dtype", lambda m: m.full(3, 1.0, dtype="not-a-dtype"))
row("full", "negative", lambda m: m.full(-2, 1.0))
row("full", "nan-shape", lambda m: m.full(NAN, 1.0))
row("full", "nan-int", lambda m: m.full(3, NAN, dtype=np.int64))
row("full", "str-int", lambda m: m.full(3, "x", dtype=np.int64))
row("arange", "nan", lambda m: m.arange(NAN))
row("arange", "inf", lambda m: m.arange(0, math.inf))
row("arange", "zero-step", lambda m: m.arange(0, 5, 0))
row("arange", "str", lambda m: m.arange("5"))
row("arange", "dtype", lambda m: m.arange(5, dtype="not-a-dtype"))
row("linspace", "num-negative", lambda m: m.linspace(0.0, 1.0, num=-1))
row("linspace", "num-float", lambda m: m.linspace(0.0, 1.0, num=2.5))
row("linspace", "num-nan", lambda m: m.linspace(0.0, 1.0, num=NAN))
row("eye", "nan", lambda m: m.eye(NAN))
row("eye", "float", lambda m: m.eye(2.5))
row("eye", "negative", lambda m: m.eye(-2))
row("identity", "float", lambda m: m.identity(2.5))
row("asarray", "ragged", lambda m: m.asarray(RAGGED))
row("asarray", "ragged-deep", lambda m: m.asarray([[[1.0]], [[1.0, 2.0]]]))
row("asarray", "dtype", lambda m: m.asarray([1, 2], dtype="not-a-dtype"))
row("asarray", "nan-int", lambda m: m.asarray(NAN, dtype=np.int64))
row("asarray", "str-float", lambda m: m.asarray(["a", "b"], dtype=np.float64))
row("array", "ragged", lambda m: m.array(RAGGED))
row("array", "nan-int", lambda m: m.array([1.0, NAN], dtype=np.int64))
row("array", "inf-int", lambda m: m.array(math.inf, dtype=np.int64))

MANIP: list[tuple[str, str, Callable[[Any], Any]]] = [
    ("reshape", "size", lambda m: m.reshape(V3, (2, 2))),
    ("reshape", "two-unknown", lambda m: m.reshape(M23, (-1, -1))),
    ("reshape", "float", lambda m: m.reshape(M23, (2.0, 3))),
    ("reshape", "nan", lambda m: m.reshape(M23, (NAN, 3))),
    ("transpose", "axes-len", lambda m: m.transpose(M23, (0,))),
    ("transpose", "axes-dup", lambda m: m.transpose(M23, (0, 0))),
    ("transpose", "axes-range", lambda m: m.transpose(M23, (0, 2))),
    ("swapaxes", "axis", lambda m: m.swapaxes(M23, 0, 2)),
    ("moveaxis", "axis", lambda m: m.moveaxis(M23, 0, 3)),
    ("moveaxis", "dup", lambda m: m.moveaxis(M23, (0, 0), (0, 1))),
    ("expand_dims", "axis", lambda m: m.expand_dims(M23, 4)),
    ("squeeze", "not-one", lambda m: m.squeeze(M23, axis=0)),
    ("squeeze", "axis", lambda m: m.squeeze(M23, axis=3)),
    ("flip", "axis", lambda m: m.flip(M23, axis=2)),
    ("roll", "axis", lambda m: m.roll(M23, 1, axis=2)),
    ("roll", "shift-float", lambda m: m.roll(M23, 1.5)),
    ("concatenate", "ndim", lambda m: m.concatenate([V3, M23])),
    ("concatenate", "shape", lambda m: m.concatenate([M23, np.ones((2, 4))], axis=0)),
    ("concatenate", "axis", lambda m: m.concatenate([V3, V3], axis=1)),
    ("concatenate", "empty", lambda m: m.concatenate([])),
    ("stack", "shape", lambda m: m.stack([V3, V4])),
    ("stack", "axis", lambda m: m.stack([V3, V3], axis=3)),
    ("stack", "empty", lambda m: m.stack([])),
    ("vstack", "shape", lambda m: m.vstack([V3, V4])),
    ("hstack", "shape", lambda m: m.hstack([M23, V3])),
    ("broadcast_to", "shape", lambda m: m.broadcast_to(V3, (4,))),
    ("broadcast_to", "negative", lambda m: m.broadcast_to(V3, (-1, 3))),
    ("broadcast_arrays", "shape", lambda m: m.broadcast_arrays(V3, V4)),
    ("split", "uneven", lambda m: m.split(V3, 2)),
    ("split", "axis", lambda m: m.split(V3, 3, axis=1)),
    ("tile", "float", lambda m: m.tile(V3, 1.5)),
    ("repeat", "negative", lambda m: m.repeat(V3, -1)),
    ("repeat", "shape", lambda m: m.repeat(V3, [1, 2])),
    ("repeat", "float", lambda m: m.repeat(V3, 1.5)),
    ("take", "out-of-bounds", lambda m: m.take(V3, [3])),
    ("take", "negative-oob", lambda m: m.take(V3, [-4])),
    ("take", "float-index", lambda m: m.take(V3, [1.0])),
    ("take", "axis", lambda m: m.take(M23, [0], axis=2)),
    ("take_along_axis", "ndim", lambda m: m.take_along_axis(M23, I3, axis=0)),
    ("diagonal", "axis", lambda m: m.diagonal(M23, axis1=0, axis2=0)),
    ("trace", "ndim", lambda m: m.trace(V3)),
    ("matmul", "core", lambda m: m.matmul(M23, M23)),
    ("matmul", "scalar", lambda m: m.matmul(V3, 2.0)),
    ("matmul", "ragged", lambda m: m.matmul(RAGGED, V3)),
    ("dot", "core", lambda m: m.dot(M23, V4)),
    ("vdot", "size", lambda m: m.vdot(V3, V4)),
    ("inner", "core", lambda m: m.inner(V3, V4)),
    ("outer", "ragged", lambda m: m.outer(RAGGED, V3)),
    ("tensordot", "axes", lambda m: m.tensordot(M23, M23, axes=([0], [1]))),
    ("cross", "dim", lambda m: m.cross(np.ones(4), np.ones(4))),
    ("where", "shape", lambda m: m.where(V3 > 1, V3, V4)),
    ("clip", "shape", lambda m: m.clip(V3, V4, 5.0)),
    ("sort", "axis", lambda m: m.sort(M23, axis=2)),
    ("argsort", "axis", lambda m: m.argsort(M23, axis=-3)),
    ("searchsorted", "ndim", lambda m: m.searchsorted(M23, 1.0)),
    ("searchsorted", "side", lambda m: m.searchsorted(V3, 1.0, side="middle")),
    ("diff", "axis", lambda m: m.diff(M23, axis=2)),
    ("diff", "n-negative", lambda m: m.diff(V3, n=-1)),
    ("cumsum", "dtype", lambda m: m.cumsum(V3, dtype="not-a-dtype")),
    ("sum", "dtype", lambda m: m.sum(V3, dtype="not-a-dtype")),
    ("mean", "dtype", lambda m: m.mean(V3, dtype="not-a-dtype")),
    ("einsum", "subscripts", lambda m: m.einsum("ij,jk->ik", M23, M23)),
    ("einsum", "operands", lambda m: m.einsum("ij,jk->ik", M23)),
    ("pad", "mode", lambda m: m.pad(V3, 1, mode="not-a-mode")),
    ("pad", "negative", lambda m: m.pad(V3, -1)),
    ("unique", "axis", lambda m: m.unique(M23, axis=2)),
    ("argwhere", "ragged", lambda m: m.argwhere(RAGGED)),
    ("nonzero", "ragged", lambda m: m.nonzero(RAGGED)),
    ("isclose", "shape", lambda m: m.isclose(V3, V4)),
    ("allclose", "shape", lambda m: m.allclose(V3, V4)),
    ("array_equal", "ragged", lambda m: m.array_equal(RAGGED, V3)),
    ("trapezoid", "axis", lambda m: m.trapezoid(M23, axis=3)),
    ("interp", "shape", lambda m: m.interp(V3, V3, V4)),
    ("convolve", "empty", lambda m: m.convolve(V3, np.ones(0))),
    ("histogram", "bins", lambda m: m.histogram(V3, bins=-1)),
    ("bincount", "negative", lambda m: m.bincount(np.array([-1, 2]))),
    ("bincount", "float", lambda m: m.bincount(V3)),
    ("bincount", "2d", lambda m: m.bincount(np.ones((2, 2), dtype=np.int64))),
    ("bincount", "minlength", lambda m: m.bincount(I3, minlength=-1)),
    ("bincount", "weights-str", lambda m: m.bincount(I3, weights="abc")),
    ("convolve", "empty-a", lambda m: m.convolve(np.ones(0), V3)),
    ("convolve", "mode", lambda m: m.convolve(V3, V3, mode="middle")),
    ("convolve", "2d", lambda m: m.convolve(M23, V3)),
    ("convolve", "ragged", lambda m: m.convolve(RAGGED, V3)),
    ("correlate", "empty", lambda m: m.correlate(V3, np.ones(0))),
    ("correlate", "mode", lambda m: m.correlate(V3, V3, mode=7)),
    ("correlate", "2d", lambda m: m.correlate(V3, M23)),
    ("histogram", "bins-zero", lambda m: m.histogram(V3, bins=0)),
    ("histogram", "bins-float", lambda m: m.histogram(V3, bins=2.5)),
    ("histogram", "bins-2d", lambda m: m.histogram(V3, bins=M23)),
    ("histogram", "bins-decreasing", lambda m: m.histogram(V3, bins=[3.0, 1.0, 0.0])),
    ("histogram", "bins-estimator", lambda m: m.histogram(V3, bins="not-an-estimator")),
    ("histogram", "range-order", lambda m: m.histogram(V3, range=(3.0, 1.0))),
    ("histogram", "range-inf", lambda m: m.histogram(V3, range=(0.0, math.inf))),
    ("histogram", "range-len", lambda m: m.histogram(V3, range=(1.0,))),
    ("histogram", "nan", lambda m: m.histogram(np.array([1.0, NAN]))),
    ("histogram", "weights-shape", lambda m: m.histogram(V3, weights=V4)),
    ("histogram_bin_edges", "bins", lambda m: m.histogram_bin_edges(V3, bins=-2)),
    ("linalg.inv", "square", lambda m: m.linalg.inv(M23)),
    ("linalg.det", "square", lambda m: m.linalg.det(M23)),
    ("linalg.solve", "shape", lambda m: m.linalg.solve(np.eye(3), V4)),
    ("linalg.cholesky", "square", lambda m: m.linalg.cholesky(M23)),
    ("linalg.norm", "axis", lambda m: m.linalg.norm(M23, axis=3)),
    ("linalg.norm", "ord", lambda m: m.linalg.norm(M23, ord="bad")),
    ("linalg.eigh", "ndim", lambda m: m.linalg.eigh(V3)),
    ("linalg.qr", "ndim", lambda m: m.linalg.qr(V3)),
    ("linalg.svd", "ndim", lambda m: m.linalg.svd(V3)),
    ("fft.fft", "axis", lambda m: m.fft.fft(V3, axis=1)),
    ("fft.fft", "n", lambda m: m.fft.fft(V3, n=0)),
    ("fft.ifft", "n", lambda m: m.fft.ifft(V3, n=-2)),
]
# The same checks through Array methods and through numpy's own functions
# called on a lazy array (``__array_function__``), which must name the function too.
METHODS: list[tuple[str, str, Callable[[Any], Any]]] = [
    ("sum", "method-axis", lambda m: m.asarray(M23).sum(axis=5)),
    ("mean", "method-axis", lambda m: m.asarray(M23).mean(axis=(0, 0))),
    ("cumsum", "method-axis", lambda m: m.asarray(M23).cumsum(axis=(0, 1))),
    ("reshape", "method-size", lambda m: m.asarray(V3).reshape(2, 2)),
    ("transpose", "method-axes", lambda m: m.asarray(M23).transpose(0, 0)),
    ("repeat", "method-negative", lambda m: m.asarray(V3).repeat(-1)),
    ("argmax", "method-axis", lambda m: m.asarray(M23).argmax(axis=2)),
    ("sum", "np-axis", lambda m: np.sum(m.asarray(M23), axis=5)),
    ("concatenate", "np-shape", lambda m: np.concatenate([m.asarray(M23), m.asarray(V3)])),
    ("matmul", "np-core", lambda m: np.matmul(m.asarray(M23), m.asarray(M23))),
    ("take", "np-axis", lambda m: np.take(m.asarray(M23), [0], axis=3)),
    ("linalg.inv", "np-square", lambda m: np.linalg.inv(m.asarray(M23))),
]
MANIP += METHODS

for name, kind, call in MANIP:
    short = name.rsplit(".", 1)[-1]
    row(name, kind, call, short)


def _numpy_error(call: Callable[[Any], Any]) -> type[BaseException] | None:
    """The public exception class numpy raises for ``call``, or ``None``."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            out = call(np)
            if isinstance(out, (list, tuple)):
                [np.asarray(o) for o in out]
        except Exception as exc:
            for cls in _PUBLIC:
                if isinstance(exc, cls):
                    return cls
            # Anything else (AttributeError from an object-dtype loop) is an
            # accident of numpy's implementation, not behaviour to copy.
            return None
    return None


CASES = [(r, err) for r in ROWS if (err := _numpy_error(r[2])) is not None]

# Rows lazygraph gets wrong today, with the reason ("<name>-<kind>": why). Strict:
# a row that starts passing fails as XPASS, so its entry must be removed here and
# the row then guards the fix. Empty: every error names its function through
# lazygraph.numpy._errors.
KNOWN: dict[str, str] = {}


def _force(out: Any) -> None:
    if isinstance(out, (list, tuple)):
        for o in out:
            _force(o)
    elif isinstance(out, lnp.Array):
        np.asarray(out)


def test_every_elementwise_row_is_called() -> None:
    from lazygraph.tensor.scalar.basic import ROWS as TABLE

    called = set(UNARY) | set(BINARY)
    missed = {
        name
        for name, row in TABLE.items()
        if hasattr(np, row.numpy_name or name) and row.numpy_name not in called
    }
    missed -= set(ELEMENTWISE_EXCLUDED)
    assert not missed, f"rows numpy has that no bad call covers: {sorted(missed)}"
    assert set(ELEMENTWISE_EXCLUDED) <= set(TABLE)


def test_table_is_large() -> None:
    # The issue asks for at least 200 bad calls that numpy rejects.
    assert len(CASES) >= 200, len(CASES)


@pytest.mark.parametrize(
    ("case", "np_error"),
    [
        pytest.param(
            r,
            err,
            id=f"{r[0]}-{r[1]}",
            marks=[pytest.mark.xfail(reason=KNOWN[f"{r[0]}-{r[1]}"], strict=True)]
            if f"{r[0]}-{r[1]}" in KNOWN
            else [],
        )
        for r, err in CASES
    ],
)
def test_bad_input(case: Row, np_error: type[BaseException]) -> None:
    name, _kind, call, names = case
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(np_error) as info:
            _force(call(lnp))
    message = str(info.value)
    assert any(n in message for n in names), (
        f"{np_error.__name__} raised, but its message does not name {name!r}: {message!r}"
    )


def test_error_names_the_call_site() -> None:
    """The message starts with the public function's name; a note on the
    exception gives the user's line (the first frame outside lazygraph)."""
    with pytest.raises(ValueError) as info:
        lnp.vstack([V3, V4])  # fails inside concatenate, reported as vstack
    assert str(info.value).startswith("vstack: ")
    notes = getattr(info.value, "__notes__", [])
    assert any(f"{__file__}:" in note and "lazygraph.numpy.vstack" in note for note in notes)
    with pytest.raises(AxisError) as axis_info:  # numpy's own function on a lazy array
        np.sum(lnp.asarray(M23), axis=5)
    assert type(axis_info.value) is AxisError
    assert str(axis_info.value).startswith("sum")
