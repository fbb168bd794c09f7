"""Building gradient cases for a ``lazygraph.numpy`` function: which arguments
are differentiated, the numpy function its value is compared with, and every
combination of keyword variants (autograd's ``combo_check`` idea)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
import pytest

import lazygraph.numpy as lnp


def points(seed: int) -> tuple[Callable[..., np.ndarray], Callable[..., np.ndarray]]:
    """``(R, C)`` drawing from their own generator (each test module its own, so
    its points do not depend on which other modules were collected): ``R(*shape)``
    a float64 standard-normal array (0-d for no shape), ``C(*shape)`` a complex128
    one with a smaller imaginary part."""
    rng = np.random.default_rng(seed)

    def real(*shape: int) -> np.ndarray:
        return np.asarray(rng.standard_normal(shape))

    def cplx(*shape: int) -> np.ndarray:
        return np.asarray(rng.standard_normal(shape) + 0.3j * rng.standard_normal(shape))

    return real, cplx


def _resolve(name: str, module: Any) -> Any:
    obj = module
    for part in name.split("."):
        obj = getattr(obj, part)
    return obj


def _is_point(a: Any) -> bool:
    return isinstance(a, (float, complex, np.ndarray)) and np.asarray(a).dtype.kind in "fc"


def _short(a: Any) -> str:
    if isinstance(a, np.ndarray):
        kind = "c" if a.dtype.kind == "c" else ("b" if a.dtype.kind == "b" else "")
        return f"{kind}{'x'.join(map(str, a.shape)) or 'scalar'}"
    if isinstance(a, (list, tuple)) and a and all(isinstance(x, np.ndarray) for x in a):
        return "[" + ",".join(_short(x) for x in a) + "]"
    return repr(a).replace(" ", "")


def call(
    name: str,
    args: Sequence[Any],
    kwargs: dict[str, Any],
    wrt: Sequence[int] | None = None,
) -> tuple[Callable[..., Any], Callable[..., Any], list[Any]]:
    """``(fun, ref, point)``: ``fun(*point)`` is ``lnp.<name>(*args, **kwargs)``
    with the arguments at positions ``wrt`` (default: every float or complex
    array) taken from ``point``; a list/tuple argument of arrays is spread, each
    array differentiated. ``ref`` is numpy's function on the same point."""
    args = list(args)
    if wrt is None:
        wrt = [
            i
            for i, a in enumerate(args)
            if _is_point(a) or (isinstance(a, (list, tuple)) and a and all(map(_is_point, a)))
        ]
    slots: list[tuple[int, int | None]] = []
    point: list[Any] = []
    for i in wrt:
        a = args[i]
        if isinstance(a, (list, tuple)):
            for j, item in enumerate(a):
                slots.append((i, j))
                point.append(np.asarray(item))
        else:
            slots.append((i, None))
            point.append(np.asarray(a))

    def bind(module: Any, xs: Sequence[Any]) -> Any:
        full = list(args)
        for (i, j), x in zip(slots, xs, strict=True):
            if j is None:
                full[i] = x
            else:
                seq = list(full[i])
                seq[j] = x
                full[i] = type(args[i])(seq)
        return _resolve(name, module)(*full, **kwargs)

    return (lambda *xs: bind(lnp, xs)), (lambda *xs: bind(np, xs)), point


def combos(
    name: str, *arg_options: Sequence[Any], wrt: Sequence[int] | None = None, **kw_options: Any
) -> list[Any]:
    """One ``pytest.param(fun, ref, point)`` per combination of the positional
    argument options and keyword options (each a list of values)."""
    params = []
    keys = list(kw_options)
    for args in itertools.product(*arg_options):
        for values in itertools.product(*(kw_options[k] for k in keys)):
            kwargs = dict(zip(keys, values, strict=True))
            fun, ref, point = call(name, args, kwargs, wrt)
            label = ",".join(
                [_short(a) for a in args] + [f"{k}={_short(v)}" for k, v in kwargs.items()]
            )
            params.append(pytest.param(fun, ref, point, id=f"{name}({label})"))
    return params


def custom(label: str, fun: Callable[..., Any], *point: Any, ref: Any = None) -> Any:
    """A hand-written case: ``fun(*point)`` (compared with ``ref(*point)`` if given)."""
    return pytest.param(fun, ref, [np.asarray(p) for p in point], id=label)
