"""Dask arrays as lazy arrays, and :func:`persist`.

With the dask backend selected (``lazygraph.config.backend == "dask"``), a
``dask.array.Array`` given to ``lazygraph.numpy`` (``asarray``, ``array``, an
operand of an operator or a namespace function) stays a dask array: it becomes
a graph input bound to the dask array itself (a
:class:`~lazygraph.numpy._convert.DistributedVariable`; its dtype and shape are
the dask array's, whose unknown chunk sizes are computed first), which the
backend's program takes as it is, with its own chunks. Nothing gathers it:
such a value is never a *known* value, so every operation on it records a node,
and a computation that reads it computes only the arrays asked for (the values
it passes through are not kept: they would be brought to the client). With any
other backend a dask array is gathered into numpy, as ``numpy.asarray`` does.

:func:`persist` computes arrays and keeps the values where the backend keeps
them: on the dask backend, dask arrays persisted on the current scheduler.

dask is imported only where a dask array is met (or persisted on the dask
backend): this module imports without it.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Sequence
from typing import Any

import numpy as np
from lazygraph.configuration import config
from lazygraph.graph.basic import Constant, Variable
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import (
    _DTYPE_NAMES,
    DistributedVariable,
    bind_result,
    type_of,
)
from lazygraph.tensor.type import normalize_dtype

__all__ = ["persist"]


def is_dask_array(x: Any) -> bool:
    """Whether ``x`` is a ``dask.array.Array`` (without importing dask: a dask
    array exists only once ``dask.array`` is imported).

    >>> import numpy as np
    >>> is_dask_array(np.zeros(2))
    False
    """
    da = sys.modules.get("dask.array")
    return da is not None and isinstance(x, da.Array)


def distributed_input(x: Any) -> DistributedVariable | None:
    """A graph input bound to the dask array ``x`` when the dask backend is
    selected; None when ``x`` is no dask array or another backend is (the
    caller then gathers it, as numpy does)."""
    if config.backend != "dask" or not is_dask_array(x):
        return None
    return bind_dask(x)


def bind_dask(x: Any) -> DistributedVariable:
    """A new graph input bound to the dask array ``x`` (of a dtype lazygraph
    supports: converted, lazily, as :func:`~lazygraph.numpy._convert.bind`
    converts numpy data; ``TypeError`` for one it cannot hold)."""
    import dask.array as da

    # a new Array object on the same graph: dask's ``x[k] = v`` rebinds the
    # graph of ``x`` itself, and the bound value must not change with it
    # (numpy data is snapshotted for the same reason)
    value = da.Array(x.dask, x.name, x.chunks, meta=x._meta)
    if any(math.isnan(s) for s in value.shape):
        # (after a boolean mask): lazygraph types need every size
        value.compute_chunk_sizes()
    dtype = np.dtype(value.dtype)
    name = _DTYPE_NAMES.get(dtype)
    if name is None:
        if dtype.kind == "O":
            raise TypeError("cannot convert a dask array of dtype object to a lazygraph array")
        name = normalize_dtype(dtype)  # TypeError for an unsupported dtype
        value = value.astype(name)
    return _bound(value, type_of(name, tuple(int(s) for s in value.shape)))


def _bound(value: Any, ttype: Any) -> DistributedVariable:
    # (``_convert._bound_variable``'s construction, for the subclass)
    var = object.__new__(DistributedVariable)
    var.type = ttype
    var.owner = var.index = None
    var.name = None
    var._auto_name = var._tag = None
    var.bound = value
    return var


def mapped_input(value: np.ndarray, dtype: Any, copy: bool | None) -> DistributedVariable | None:
    """On the dask backend, a graph input bound to ``value`` as it is when it is
    a read-only array mapped from a file (``np.load(path, mmap_mode="r")``, a
    ``np.memmap`` opened with ``mode="r"``, or a view of one), else None (the
    caller binds it as other numpy data: a writable map is copied then).

    Bound so (a :class:`~lazygraph.numpy._convert.DistributedVariable`), the
    eager lanes never read it (a small result of it, such as ``std(x, axis=0)``,
    would otherwise be computed at once, reading the whole file in this
    process), and the dask backend reads it from the file chunk by chunk in
    its tasks.
    """
    if (
        config.backend != "dask"
        or copy
        or value.flags.writeable
        or (dtype is not None and np.dtype(normalize_dtype(dtype)) != value.dtype)
    ):
        return None
    name = _DTYPE_NAMES.get(value.dtype)
    if name is None:
        return None
    return _bound(np.asarray(value), type_of(name, tuple(value.shape)))


def captured_value(var: Variable, mode: Any) -> Any:
    """The value a function compiled with ``mode`` takes for ``var``, a bound
    graph input it captured: the bound value, except that a dask array (bound
    while the dask backend was current) is gathered into numpy for a function
    compiled for another backend, as such a backend gathers a dask array given
    to it (its ``perform`` would otherwise receive the dask array).

    >>> import numpy as np
    >>> from lazygraph.numpy._convert import bind
    >>> captured_value(bind(np.ones(2)), "python")
    array([1., 1.])
    """
    from lazygraph.compile.mode import get_mode
    from lazygraph.numpy._convert import bound_value

    value = bound_value(var)
    elsewhere = (get_mode(mode).backend or config.backend) != "dask"
    if elsewhere and type(var) is DistributedVariable and is_dask_array(value):
        return gathered(value, var.type.numpy_dtype)  # type: ignore[attr-defined]
    return value


def reads_dask(inputs: Sequence[Variable]) -> bool:
    """Whether some of a computation's bound ``inputs`` hold dask arrays."""
    return any(type(v) is DistributedVariable for v in inputs)


def gathered(value: Any, dtype: Any = None) -> np.ndarray:
    """The read-only numpy value of the dask array ``value`` (computed on the
    current scheduler)."""
    out = np.asarray(value.compute(), dtype=dtype)
    if out.flags.writeable:
        out.setflags(write=False)
    return out


def arguments(inputs: Sequence[Variable], args: list[Any]) -> tuple[list[Any], Any]:
    """The arguments of a computation reading dask arrays, and the mapping that
    numpy's floating-point replay reads values from: the dask arrays as they
    are on the dask backend (the replay, on its rare error path, gathers them),
    gathered into numpy for every other backend."""
    if config.backend == "dask":
        return args, _Gathering(dict(zip(inputs, args, strict=True)))
    args = [gathered(a) if is_dask_array(a) else a for a in args]
    return args, dict(zip(inputs, args, strict=True))


class _Gathering:
    """Input -> value, dask arrays gathered when read."""

    __slots__ = ("values",)

    def __init__(self, values: dict[Variable, Any]) -> None:
        self.values = values

    def __getitem__(self, var: Variable) -> Any:
        value = self.values[var]
        return gathered(value) if is_dask_array(value) else value


def persist(*arrays: Any) -> tuple[Any, ...]:
    """Compute several lazy arrays together and keep their values where the
    backend keeps them, as ``dask.persist`` does: returns the arguments, the
    :class:`~lazygraph.numpy.Array` ones now standing for their values.

    On the dask backend the values are dask arrays persisted on the current
    scheduler (a ``distributed.Client`` if one is current: the chunks stay on
    its workers), and each Array is bound to its persisted dask array, so later
    computations start from it without gathering anything. On every other
    backend it is :func:`~lazygraph.numpy.compute` without the copies: each
    Array holds its (numpy) value. Other arguments are returned unchanged.

    >>> import numpy as np
    >>> import lazygraph.numpy as lnp
    >>> x = lnp.asarray(np.arange(4.0))
    >>> y, n = lnp.persist(x * 2, 3)
    >>> y._var.owner is None, n  # y holds its value: no graph left
    (True, 3)
    >>> (y + 1).compute()
    array([1., 3., 5., 7.])
    """
    from lazygraph.numpy._compute import _evaluate

    targets = [a for a in arrays if isinstance(a, Array)]
    if not targets:
        return arrays
    if config.backend == "dask":
        _persist_dask(targets)
        return arrays
    values = _evaluate(targets, hand_out=False)  # (pins the computed ones)
    for arr, value in zip(targets, values, strict=True):
        var = arr._var
        if type(var) is DistributedVariable:  # bound on the dask backend, persisted here
            arr._pin(bind_result(value, var.type), var)
    return arrays


def _persist_dask(targets: Sequence[Array]) -> None:
    """:func:`persist` on the dask backend: one program returning dask arrays
    (``compile_options={"dask_arrays": True}``; a value already bound, numpy or
    dask, is an output of it as well, cut into chunks the backend's way), one
    ``dask.persist``, and each Array bound to its persisted array."""
    import dask

    from lazygraph.compile.cache import cached_function
    from lazygraph.numpy._compute import _collect
    from lazygraph.numpy._convert import _BOUND
    from lazygraph.numpy._eager import values_changed

    outputs: list[Variable] = []
    for arr in targets:
        var = arr._var
        if not isinstance(var, Constant) and var not in outputs:
            outputs.append(var)
    if not outputs:
        return
    inputs, _, _ = _collect(outputs)
    fn = cached_function(inputs, outputs, compile_options={"dask_arrays": True})
    lazy = list(fn.call_trusted(*[_BOUND[v] for v in inputs]))
    for k, var in enumerate(outputs):
        dtype = var.type.numpy_dtype  # type: ignore[attr-defined]
        if lazy[k].dtype != dtype:  # (a backend's scalar result may come back wider)
            lazy[k] = lazy[k].astype(dtype)
    persisted = dask.persist(*lazy)
    bound = {var: bind_dask(value) for var, value in zip(outputs, persisted, strict=True)}
    for arr in targets:
        var = arr._cur
        if var in bound:
            arr._pin(bound[var], var)
    values_changed()  # (as after any computation: see _compute)
