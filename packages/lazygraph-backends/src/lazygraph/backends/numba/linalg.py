"""Lowerings of the linalg ops (``Inv``, ``Solve``, ``Det``, ``Adjugate``, ``SlogDet``,
``Pinv``, ``Lstsq``, ``Cholesky``, ``Eigh``, ``Eig``, ``SVD``, ``QR``): kernels that call numpy's
own ``numpy.linalg`` (the Op's ``perform``) from an ``objmode`` block, so the
graph stays one compiled function and the results are numpy's bit for bit.

Why not Numba's ``np.linalg``: measured on this project's machines, each of its
functions costs 1-5 s of LLVM compile per dtype (``solve`` and ``lstsq`` more),
against about 0.6 s for an ``objmode`` kernel, and it differs from numpy where
numpy's semantics matter: a NaN or inf entry raises ``LinAlgError`` (numpy
computes), ``qr`` has no ``complete``/``r`` modes, ``eigh`` no ``UPLO``, ``svd``
no ``compute_uv=False``, and its LAPACK (scipy's) may pick other signs for
eigen- and singular vectors than numpy's. The price is the ``objmode``
transition, about 20 µs a call, small against LAPACK on all but tiny matrices.

Errors are numpy's: ``LinAlgError`` for a singular or not positive definite
matrix, with the op's name put in front of numpy's message.

:func:`objmode_source` is shared with :mod:`lazygraph.backends.numba.fft`.

>>> import lazygraph.tensor as lt
>>> node = lt.linalg.inv(lt.tensor("float64", (None, None))).owner
>>> "objmode" in numba_funcify(node.op, node)
True
"""

from __future__ import annotations

import ast
import functools
import importlib
from types import SimpleNamespace
from typing import Any

import numpy as np

from lazygraph.backends.numba.dispatch import numba_funcify
from lazygraph.graph.basic import Apply, Op
from lazygraph.tensor.linalg.decomp import QR, SVD, Cholesky, Eig, Eigh
from lazygraph.tensor.linalg.solve import Adjugate, Det, Inv, Lstsq, Pinv, SlogDet, Solve

__all__ = ["OBJMODE_JIT", "objmode_source", "run_perform"]

#: The decorator of ``objmode`` kernels: as :data:`~.dispatch.JIT` without
#: ``nogil`` (object mode holds the GIL; Numba warns when asked otherwise).
OBJMODE_JIT = '@njit(cache=True, error_model="numpy", no_cfunc_wrapper=True)'


def _props(op: Op) -> tuple[tuple[str, Any], ...]:
    return tuple((name, getattr(op, name)) for name in op.__props__)


def objmode_source(op: Op, node: Apply) -> str:
    """The source of a kernel computing ``node`` with its Op's ``perform`` inside
    an ``objmode`` block (see :func:`run_perform`). Depends on the Op's class and
    props and the outputs' dtypes and ndims only.

    The module also defines ``interpreted``, the same call without Numba: run
    node by node (see :class:`~lazygraph.backends.numba.linker.Kernel`), a
    compiled kernel would only wrap it, so only a graph function calling the
    kernel compiles it (0.1-0.6 s per dtype and rank saved everywhere else)."""
    cls = type(op)
    path = f"{cls.__module__}:{cls.__qualname__}"
    for _, value in _props(op):
        if _literal(value) != value:
            raise ValueError(f"{cls.__name__}: prop {value!r} has no literal form")
    dtypes = tuple(str(o.type.dtype) for o in node.outputs)  # type: ignore[attr-defined]
    ins = [f"x{k}" for k in range(len(node.inputs))]
    outs = [f"o{k}" for k in range(len(node.outputs))]
    lines = [
        "from numba import from_dtype, objmode, types",
        "from lazygraph.backends.numba.linalg import run_perform",
        "",
    ]
    for k, o in enumerate(node.outputs):
        ndim = o.type.ndim  # type: ignore[attr-defined]
        lines.append(f'_T{k} = types.Array(from_dtype(np.dtype("{dtypes[k]}")), {ndim}, "C")')
    annotations = ", ".join(f"{o}=_T{k}" for k, o in enumerate(outs))
    call = f"run_perform({path!r}, {_props(op)!r}, {dtypes!r}, {', '.join(ins)})"
    lines += [
        "",
        "",
        OBJMODE_JIT,
        f"def kernel({', '.join(ins)}):",
        f"    with objmode({annotations}):",
        f"        {''.join(o + ', ' for o in outs)}= {call}",
        f"    return ({''.join(o + ', ' for o in outs)})",
        "",
        "",
        f"def interpreted({', '.join(ins)}):",
        f"    return {call}",
    ]
    return "\n".join(lines) + "\n"


def _literal(value: Any) -> Any:
    # The kernel source spells props as literals: their repr must round-trip.
    try:
        return ast.literal_eval(repr(value))
    except ValueError:
        return _NO_LITERAL


_NO_LITERAL = object()


@functools.cache
def _op(path: str, props: tuple[tuple[str, Any], ...]) -> Op:
    module, name = path.split(":")
    cls = getattr(importlib.import_module(module), name)
    return cls(**dict(props))  # type: ignore[no-any-return]


@functools.cache
def _node(dtypes: tuple[str, ...]) -> Any:
    # ``perform`` reads only the outputs' dtypes from its node.
    outs = [SimpleNamespace(type=SimpleNamespace(dtype=d)) for d in dtypes]
    return SimpleNamespace(outputs=outs)


def run_perform(
    path: str, props: tuple[tuple[str, Any], ...], dtypes: tuple[str, ...], *inputs: Any
) -> tuple[np.ndarray, ...]:
    """Run the ``perform`` of the Op ``path`` (``module:class``) built from
    ``props`` on ``inputs`` (called from compiled code in object mode); the
    results are C-contiguous arrays of ``dtypes``. A ``LinAlgError`` gets the
    Op's name in front of its message.

    >>> run_perform("lazygraph.tensor.linalg.solve:Det", (), ("float64",), np.eye(2) * 3)
    (array(9.),)
    """
    op = _op(path, props)
    cells: list[list[Any]] = [[None] for _ in dtypes]
    try:
        op.perform(_node(dtypes), inputs, cells)  # type: ignore[arg-type]
    except np.linalg.LinAlgError as exc:
        raise np.linalg.LinAlgError(f"{type(op).__name__}: {exc}") from None
    return tuple(_contiguous(c[0], d) for c, d in zip(cells, dtypes, strict=True))


def _contiguous(value: Any, dtype: str) -> np.ndarray:
    out = np.asarray(value, dtype=dtype)
    if out.ndim and not out.flags.c_contiguous:
        out = np.ascontiguousarray(out)
    return out


def _funcify_objmode(op: Op, node: Apply) -> str:
    return objmode_source(op, node)


for _cls in (Inv, Solve, Det, Adjugate, SlogDet, Pinv, Lstsq, Cholesky, Eigh, Eig, SVD, QR):
    numba_funcify.register(_cls)(_funcify_objmode)
