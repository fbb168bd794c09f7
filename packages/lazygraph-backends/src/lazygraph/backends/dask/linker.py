"""Turn a rewritten ``FunctionGraph`` into a function building and computing a
dask.array graph.

A call walks the nodes in toposort order. Numpy inputs become dask arrays
chunked by ``config.dask_chunk_size`` (:func:`as_dask`); each node's lowering
(:mod:`.dispatch`) turns its input values into dask arrays; a node whose inputs
are all numpy values (constants, shapes) runs its ``perform`` at once. The
outputs are computed together with one ``dask.compute`` on the current
scheduler, so work they share runs once.

A node with no lowering, or one its lowering declines (:class:`Unsupported`),
runs its ``perform`` in one task on whole arrays (every chunk of each input
gathered into one), with a :class:`DaskFallbackWarning` naming the Op once per
Op and reason; ``config.on_unsupported = "raise"`` raises ``NotImplementedError``
instead. Its outputs' sizes come from the Op's ``infer_shape`` where that gives
plain numbers (checked when the task runs), so later nodes need not compute it
to learn them. Never a silent wrong answer: an elementwise node, whose ``perform`` is
exact on chunks, runs it chunk by chunk instead (:mod:`.elemwise`).
"""

from __future__ import annotations

import contextvars
import math
import os
import threading
import warnings
from collections.abc import Sequence
from typing import Any

import dask
import dask.array as da
import numpy as np

from lazygraph.backends.dask.blocks import detached, node_perform
from lazygraph.backends.dask.dispatch import DaskFallbackWarning, Unsupported, lowering_for
from lazygraph.compile.backends import op_label
from lazygraph.configuration import config
from lazygraph.graph.basic import Apply, Variable
from lazygraph.graph.fg import FunctionGraph

__all__ = ["ChunkedSize", "as_dask", "compile_graph", "known_shape", "to_dask"]


def auto_chunks(shape: tuple[int, ...], dtype: Any) -> tuple[tuple[int, ...], ...]:
    """dask's ``"auto"`` chunks for an array of ``shape`` and ``dtype``, at most
    ``config.dask_chunk_size`` bytes each.

    >>> from lazygraph import config
    >>> with config.change(dask_chunk_size=800):
    ...     auto_chunks((250,), "float64")
    ((100, 100, 50),)
    """
    if not shape:
        return ()
    if 0 in shape:  # an empty array: one (empty) chunk
        return tuple((s,) for s in shape)
    return da.core.normalize_chunks(  # type: ignore[no-any-return]
        "auto", shape, limit=int(config.dask_chunk_size), dtype=np.dtype(dtype)
    )


def as_dask(value: Any) -> Any:
    """``value`` as a dask array: a dask array as it is, anything else as a numpy
    array cut into :func:`auto_chunks`. An array held in a file mapped into
    memory (``np.load(path, mmap_mode="r")``, ``np.memmap``, or a view of one)
    is read from the file chunk by chunk where each task runs
    (:class:`MappedFile`): no process reads it whole, and no chunk's data goes
    into the graph (where a ``distributed`` scheduler would receive every byte)."""
    if isinstance(value, da.Array):
        return value
    arr = np.asarray(value)
    chunks = auto_chunks(arr.shape, arr.dtype)
    mapped = MappedFile.of(arr)
    if mapped is not None:
        return mapped.read(chunks)
    # name=False: a random name, instead of hashing every byte of the data
    return da.from_array(arr, chunks=chunks, name=False)


class MappedFile:
    """An array stored in a file, by its location (file, byte offset, shape,
    dtype, strides): it pickles as these few numbers, and slicing it maps the
    file and reads just the slice (a copy, so the mapping is not kept).

    >>> import tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "x.npy")
    >>> np.save(path, np.arange(12.0).reshape(3, 4))
    >>> view = np.load(path, mmap_mode="r")[::2, 1:]
    >>> mapped = MappedFile.of(view)
    >>> mapped.shape, mapped[1:, :2]
    ((2, 3), array([[ 9., 10.]]))
    >>> MappedFile.of(np.zeros(3)) is None  # not held in a file
    True
    """

    def __init__(
        self,
        filename: str,
        offset: int,
        shape: tuple[int, ...],
        dtype: Any,
        strides: tuple[int, ...],
    ) -> None:
        self.filename = filename
        self.offset = offset
        self.shape = shape
        self.dtype = np.dtype(dtype)
        self.strides = strides
        self.ndim = len(shape)

    @classmethod
    def of(cls, arr: np.ndarray) -> MappedFile | None:
        """Where ``arr``'s data lies in a file, if it is a view of a ``np.memmap``
        (mapped from a named file), else None."""
        import mmap

        base: Any = arr
        source = None
        while base is not None and not isinstance(base, mmap.mmap):
            if isinstance(base, np.memmap) and isinstance(base.filename, (str, os.PathLike)):
                source = base
            base = getattr(base, "base", None)
        if source is None or base is None or arr.dtype.hasobject:
            return None
        # np.memmap maps from the allocation boundary at or before its offset
        start = source.offset - source.offset % mmap.ALLOCATIONGRANULARITY
        mapped_at = np.frombuffer(base, dtype=np.uint8).__array_interface__["data"][0]
        where = arr.__array_interface__["data"][0] - mapped_at
        return cls(os.fspath(source.filename), start + where, arr.shape, arr.dtype, arr.strides)

    def read(self, chunks: tuple[tuple[int, ...], ...]) -> Any:
        """A dask array of these ``chunks``, each task reading its own from the file."""
        meta = np.empty((0,) * self.ndim, self.dtype)
        return da.from_array(self, chunks=chunks, name=False, inline_array=True, meta=meta)

    def __getitem__(self, index: Any) -> np.ndarray:
        data = np.memmap(self.filename, dtype=np.uint8, mode="r")
        view = np.ndarray(
            self.shape, self.dtype, buffer=data, offset=self.offset, strides=self.strides
        )
        return np.array(view[index])

    def __repr__(self) -> str:
        return f"MappedFile({self.filename!r}, shape={self.shape}, dtype={self.dtype})"


def to_dask(value: Any) -> Any:
    """``value`` as a dask array of one chunk when it is a numpy value (a constant
    or a shape): dask rechunks it to meet the arrays it is combined with."""
    if isinstance(value, da.Array):
        return value
    arr = np.asarray(value)
    return da.from_array(arr, chunks=arr.shape or (), name=False)


#: the arrays of the current call whose chunk sizes :func:`known_shape` computed,
#: by dask name (each is computed once per call, however many nodes read it)
_sized: contextvars.ContextVar[dict[str, Any] | None] = contextvars.ContextVar(
    "lazygraph_dask_sized", default=None
)


def known_shape(x: Any) -> Any:
    """``x`` with its chunk sizes known: after a boolean mask, ``nonzero`` or a
    fallback whose output shape depends on the data they are unknown (NaN)
    until computed, which this does (computing ``x``'s chunks once per call)
    when a later operation needs them."""
    if not (isinstance(x, da.Array) and any(math.isnan(s) for s in x.shape)):
        return x
    sized = _sized.get()
    if sized is not None and x.name in sized:
        return sized[x.name]
    known = x.copy()  # (compute_chunk_sizes sets them on the array it is given)
    known.compute_chunk_sizes()
    if sized is not None:
        sized[x.name] = known
    return known


_warned: set[str] = set()
_warned_lock = threading.Lock()


def _fallback(node: Apply, values: Sequence[Any], why: str) -> list[Any]:
    """``node``'s ``perform`` in one task on whole arrays (see the module docstring)."""
    if config.on_unsupported == "raise":
        raise NotImplementedError(f"dask backend: cannot lower {node.op}: {why}")
    label = f"{op_label(node.op)} ({why})"
    with _warned_lock:
        first = label not in _warned
        _warned.add(label)
    if first:
        warnings.warn(
            f"dask backend: no lowering for {label}; running its python perform "
            "on one chunk holding each whole input",
            DaskFallbackWarning,
            stacklevel=4,
        )
    shapes = _output_shapes(node, values)
    task = dask.delayed(checked_perform, pure=True)(detached(node), shapes, *values)
    outs = []
    for k, (out, shape) in enumerate(zip(node.outputs, shapes, strict=True)):
        shape = tuple(np.nan if s is None else s for s in shape)
        outs.append(da.from_delayed(task[k], shape=shape, dtype=out.type.dtype))  # type: ignore[attr-defined]
    return outs


def _output_shapes(node: Apply, values: Sequence[Any]) -> list[tuple[int | None, ...]]:
    """The output shapes of ``node`` on ``values`` as far as they are known before
    computing: the Op's ``infer_shape`` on the inputs' shapes where it gives
    plain sizes, else the outputs' static shapes (None: known when computed).
    Known sizes let later nodes go on without computing this one first."""
    static = [tuple(out.type.shape) for out in node.outputs]  # type: ignore[attr-defined]
    in_shapes = [tuple(np.shape(v)) for v in values]
    if any(isinstance(s, float) and math.isnan(s) for shape in in_shapes for s in shape):
        return static
    try:
        inferred = node.op.infer_shape(None, node, in_shapes)
    except Exception:  # an Op without infer_shape, or one that needs the graph
        return static
    shapes = []
    for fixed, shape in zip(static, inferred, strict=True):
        sizes = tuple(int(s) if isinstance(s, (int, np.integer)) else None for s in shape)
        shapes.append(sizes if None not in sizes else fixed)
    return shapes


def checked_perform(
    node: Apply, shapes: Sequence[tuple[int | None, ...]], *values: Any
) -> list[Any]:
    """:func:`~lazygraph.backends.dask.blocks.node_perform`, checking the outputs
    against the sizes the dask arrays were given (:func:`_output_shapes`)."""
    outs = node_perform(node, *values)
    for out, shape in zip(outs, shapes, strict=True):
        if any(s is not None and s != n for s, n in zip(shape, np.shape(out), strict=True)):
            raise ValueError(
                f"{node.op}: the result has shape {np.shape(out)}, its infer_shape said {shape}"
            )
    return outs


class ChunkedSize(np.ndarray):
    """A size read from a dask array (``Shape_i``, an entry of ``Shape``), with
    the chunks of the axis it was read from: an array allocated in that size
    (``Alloc``, the gradient of a sum or mean) is chunked as that axis, so it
    meets the arrays of that shape without a rechunk (the logistic-regression
    gradient step had two, 64 tasks moving a full-length vector). Any value
    computed from it is a plain size (``chunks`` None).

    >>> n = ChunkedSize.of(6, (4, 2))
    >>> int(n), n.chunks, (n * 2).chunks
    (6, (4, 2), None)
    """

    chunks: tuple[int, ...] | None = None

    @classmethod
    def of(cls, size: int, chunks: tuple[int, ...]) -> ChunkedSize:
        out = np.asarray(size, dtype=np.int64).view(cls)
        out.chunks = tuple(chunks)
        return out


def _run_node(node: Apply, values: list[Any]) -> list[Any]:
    lowering = lowering_for(node)
    lazy = any(isinstance(v, da.Array) for v in values)
    if not lazy and (lowering is None or not lowering.creates):
        return node_perform(node, *values)  # shapes and constants: at once
    if lowering is None:
        return _fallback(node, values, f"no dask lowering for {type(node.op).__name__}")
    try:
        outs = lowering.lower(node, values)
    except Unsupported as exc:
        return _fallback(node, values, str(exc))
    typed = []
    for value, var in zip(outs, node.outputs, strict=True):
        dtype = np.dtype(var.type.dtype)  # type: ignore[attr-defined]
        if isinstance(value, da.Array):
            typed.append(value if value.dtype == dtype else value.astype(dtype))
        elif isinstance(value, ChunkedSize) and value.dtype == dtype:
            typed.append(value)  # keeps the chunks it was read with
        else:
            typed.append(np.asarray(value, dtype=dtype))
    return typed


def _value(env: dict[Variable, Any], v: Variable) -> Any:
    """``v``'s value in this call: computed, or a constant's data."""
    if v in env:
        return env[v]
    return v.data  # type: ignore[attr-defined]


class _Program:
    """The compiled function: builds the dask graph of a call, then computes it
    (or, with ``dask_arrays``, returns it)."""

    def __init__(self, fgraph: FunctionGraph, dask_arrays: bool) -> None:
        self.inputs = list(fgraph.inputs)
        self.outputs = list(fgraph.outputs)
        self.nodes = fgraph.toposort()
        self.dask_arrays = dask_arrays

    def lazy_outputs(self, *args: Any) -> list[Any]:
        """The outputs of a call with ``args``: dask arrays, or numpy values where
        an output depends on no input."""
        env: dict[Variable, Any] = {}
        # an input read from a file: each node reading it gets chunks of its own,
        # read in its tasks, instead of one set every reader shares, which dask
        # would hold in memory until the last reader ran (the whole array, for
        # a mean and then deviations from it)
        files: dict[Variable, tuple[MappedFile, Any]] = {}
        for v, a in zip(self.inputs, args, strict=True):
            env[v] = as_dask(a)
            mapped = None if isinstance(a, da.Array) else MappedFile.of(np.asarray(a))
            if mapped is not None:
                files[v] = (mapped, env[v].chunks)
        token = _sized.set({})
        try:
            for node in self.nodes:
                values = [
                    files[v][0].read(files[v][1]) if v in files else _value(env, v)
                    for v in node.inputs
                ]
                env.update(zip(node.outputs, _run_node(node, values), strict=True))
        finally:
            _sized.reset(token)
        return [_value(env, v) for v in self.outputs]

    def __call__(self, *args: Any) -> list[Any]:
        results = self.lazy_outputs(*args)
        if self.dask_arrays:
            return [as_dask(r) for r in results]
        lazy = [k for k, r in enumerate(results) if isinstance(r, da.Array)]
        computed = dask.compute(*[results[k] for k in lazy])
        for k, value in zip(lazy, computed, strict=True):
            results[k] = value
        return [self._owned(r, v, args) for r, v in zip(results, self.outputs, strict=True)]

    @staticmethod
    def _owned(value: Any, var: Variable, args: Sequence[Any]) -> np.ndarray:
        """A result as a writable array of its own: dask may hand back a view of
        an input (a transpose, a slice) or a read-only buffer."""
        arr = np.asarray(value, dtype=var.type.dtype)  # type: ignore[attr-defined]
        shared = var.owner is None or any(
            isinstance(a, np.ndarray) and np.may_share_memory(arr, a) for a in args
        )
        return arr.copy() if shared or not arr.flags.writeable else arr


def compile_graph(fgraph: FunctionGraph, dask_arrays: bool = False) -> _Program:
    """The callable computing ``fgraph`` with dask (see the module docstring)."""
    return _Program(fgraph, dask_arrays)
