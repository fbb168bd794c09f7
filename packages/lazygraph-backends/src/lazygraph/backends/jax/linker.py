"""Turn a rewritten ``FunctionGraph`` into one ``jax.jit``-compiled function.

The graph's nodes are split into *stages*: a jitted segment, then the nodes
that must run on the host (data-dependent output shapes, no lowering, sizes
not known when tracing), then the next jitted segment, and so on. Most graphs
are a single jitted segment. Each segment is traced once per input shapes and
dtypes (jax's own cache); compiled functions are shared between graphs of the
same structure (:func:`lazygraph.compile.cache.structural_key`).

A host step is by design (an entry of
:data:`~lazygraph.backends.jax.dispatch.HOST_BY_DESIGN`, with its reason) or a
fallback: a node the backend could not lower, which warns once per Op and
reason with :class:`JaxFallbackWarning` (``config.on_unsupported = "raise"``
raises ``NotImplementedError`` instead).

Calls run with 64-bit types enabled (``jax.enable_x64``) and leave the user's
global jax setting alone, so float64 stays float64. Results are numpy arrays
unless ``device_arrays=True`` was asked for.
"""

from __future__ import annotations

import contextlib
import threading
import warnings
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import jax
import numpy as np

from lazygraph.backends.jax import device as _device
from lazygraph.backends.jax.dispatch import HOST_BY_DESIGN, Context, Unsupported, lowering_for
from lazygraph.backends.jax.reduction import sharded_lowering
from lazygraph.compile.backends import op_label
from lazygraph.configuration import config
from lazygraph.graph.basic import Apply, Constant, Variable
from lazygraph.graph.fg import FunctionGraph
from lazygraph.tensor.fperrors import collect, discard_hardware, note_unseen

__all__ = ["JaxFallbackWarning", "compile_graph"]


class JaxFallbackWarning(UserWarning):
    """A node the JAX backend cannot lower runs on the host through its python
    ``perform`` (not a host step by design: see ``HOST_BY_DESIGN``)."""


_warned: set[str] = set()
_warned_lock = threading.Lock()


def _host_step(node: Apply, why: str, by_design: str | None) -> None:
    """Note that ``node`` runs on the host: silently when ``by_design`` names an
    entry of HOST_BY_DESIGN, else a fallback (a warning once per Op and reason,
    or NotImplementedError with ``config.on_unsupported == "raise"``)."""
    if by_design is not None:
        if by_design not in HOST_BY_DESIGN:  # a lowering naming a key nobody listed
            raise KeyError(f"jax backend: {by_design!r} is not an entry of HOST_BY_DESIGN")
        return
    if config.on_unsupported == "raise":
        raise NotImplementedError(f"jax backend: cannot lower {node.op}: {why}")
    label = f"{op_label(node.op)} ({why})"
    with _warned_lock:
        if label in _warned:
            return
        _warned.add(label)
    warnings.warn(
        f"jax backend: no lowering for {label}; running its python perform on the host",
        JaxFallbackWarning,
        stacklevel=5,
    )


#: Nodes whose inputs are all known while tracing and whose outputs hold at
#: most this many elements are computed by their numpy ``perform`` at trace
#: time (shape arithmetic), so later ops see concrete sizes.
FOLD_LIMIT = 256


class _Static:
    """A small numpy value passed to a jitted segment as a static argument."""

    __slots__ = ("key", "value")

    def __init__(self, value: Any) -> None:
        self.value = np.asarray(value)
        self.key = (self.value.dtype.str, self.value.shape, self.value.tobytes())

    def __hash__(self) -> int:
        return hash(self.key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Static) and self.key == other.key


def _small_static_shape(v: Variable) -> bool:
    shape = getattr(v.type, "shape", None)
    if shape is None or any(s is None for s in shape):
        return False
    return int(np.prod(shape, dtype=np.int64)) <= FOLD_LIMIT


def _is_concrete(value: Any) -> bool:
    return isinstance(value, (np.ndarray, np.generic, int, float, bool, complex))


@dataclass
class _Step:
    node: Apply
    fn: Callable[..., Sequence[Any]] | None  # None: host node (perform)
    fold: bool = False  # compute by perform when every input is concrete
    ctx: Context = field(default_factory=Context)


@dataclass
class _Segment:
    steps: list[_Step] = field(default_factory=list)
    inputs: list[Variable] = field(default_factory=list)
    static_inputs: list[Variable] = field(default_factory=list)
    outputs: list[Variable] = field(default_factory=list)
    jitted: Any = None
    #: the keyword arguments ``jitted`` was made with (to make it again)
    jit_kwargs: dict[str, Any] = field(default_factory=dict)
    #: the same segment traced on flattened 1-d inputs padded to a power of two
    #: (pure elementwise segments only), and the segment that traced it: small
    #: calls of any shape share a few compiled programs instead of one XLA
    #: compile per shape, across every program with the same elementwise steps
    flat_jitted: tuple[Any, _Segment] | None = None
    #: positions of outputs that some trace returned without XLA computing them
    #: (a segment input, a constant, a repeat): jax may hand those out as arrays
    #: it shares, so their host values are copied before they are made writable
    forwarded: set[int] = field(default_factory=set)


def _perform(node: Apply, values: Sequence[Any]) -> list[Any]:
    cells: list[list[Any]] = [[None] for _ in node.outputs]
    node.op.perform(node, list(values), cells)
    return [c[0] for c in cells]


def _cast_to(value: Any, var: Variable) -> Any:
    dtype = getattr(var.type, "dtype", None)
    if dtype is None or getattr(value, "dtype", None) == np.dtype(dtype):
        return value
    if _is_concrete(value):
        return np.asarray(value, dtype=dtype)
    return value.astype(dtype)


def _classify(fgraph: FunctionGraph) -> tuple[list[_Step], set[Variable]]:
    """One step per node in toposort order, and the variables known while tracing."""
    static: set[Variable] = {v for v in fgraph.variables if isinstance(v, Constant)}
    steps = []
    for node in fgraph.toposort():
        lowering = lowering_for(node)
        fn = None
        ctx = Context()
        host = lowering.host(node) if lowering is not None and lowering.host else None
        if lowering is None:
            name = type(node.op).__name__
            _host_step(node, "no jax lowering", name if name in HOST_BY_DESIGN else None)
        elif host is not None:
            _host_step(node, host, host)
        elif not all(node.inputs[i] in static for i in lowering.static_inputs(node)):
            _host_step(node, "sizes from data", "sizes from data")
        else:
            try:
                fn = lowering.make(node.op, node, ctx)
            except Unsupported as exc:
                _host_step(node, str(exc), exc.by_design)
        fold = fn is not None and all(_small_static_shape(o) for o in node.outputs)
        # (a loop's perform is a Python loop: it never folds on the host)
        fold = fold and not getattr(node.op, "slow_perform", False)
        if fn is not None and getattr(fn, "static_outputs", False):
            static.update(node.outputs)  # shapes: known while tracing
        elif fold and all(v in static for v in node.inputs):
            static.update(node.outputs)
        steps.append(_Step(node, fn, fold, ctx))
    return steps, static


#: the most nodes one jitted segment holds: XLA's compile time and memory grow
#: faster than linearly with a program's size (one program of a 200,000-node
#: chain took more than the machine's 24 GB), so longer graphs are compiled as
#: several programs that hand values to each other
MAX_SEGMENT_NODES = 2_000


def _stages(steps: list[_Step]) -> tuple[list[list[_Step]], list[list[_Step]]]:
    """Jitted segments and, after each, the host steps that run between it and
    the next: as few segments as the host nodes and :data:`MAX_SEGMENT_NODES`
    allow."""
    produced_by: dict[Variable, tuple[str, int]] = {}
    seg_of: list[int] = []
    sizes: dict[int, int] = {}
    top = 0
    for step in steps:
        stage = 0
        for v in step.node.inputs:
            kind, s = produced_by.get(v, ("input", 0))
            if step.fn is not None:
                stage = max(stage, s + 1 if kind == "host" else s)
            else:
                stage = max(stage, s)
        if step.fn is not None:
            if sizes.get(stage, 0) >= MAX_SEGMENT_NODES:  # full: the last stage, or a new one
                stage = top if sizes.get(top, 0) < MAX_SEGMENT_NODES else top + 1
            sizes[stage] = sizes.get(stage, 0) + 1
        top = max(top, stage)
        seg_of.append(stage)
        kind = "jit" if step.fn is not None else "host"
        for o in step.node.outputs:
            produced_by[o] = (kind, stage)
    n = max(seg_of, default=0) + 1
    jit_steps: list[list[_Step]] = [[] for _ in range(n)]
    host_steps: list[list[_Step]] = [[] for _ in range(n)]
    for step, s in zip(steps, seg_of, strict=True):
        (jit_steps if step.fn is not None else host_steps)[s].append(step)
    return jit_steps, host_steps


def _numpy_error(node: Apply, values: Sequence[Any]) -> None:
    """Raise the error numpy's ``perform`` gives for inputs of these shapes and
    dtypes (jax reports bad shapes as ``TypeError`` while tracing, numpy as
    ``ValueError``); return if it gives none."""
    dummies = []
    for v in values:
        if _is_concrete(v):
            dummies.append(np.asarray(v))
        else:
            dummies.append(np.zeros(np.shape(v), dtype=v.dtype))
    try:
        _perform(node, dummies)
    except TypeError:
        return
    except Exception as exc:
        raise exc from None


def _trace_segment(seg: _Segment, flat: bool = False) -> Callable[..., Any]:
    n_dynamic = len(seg.inputs)

    def run(*args: Any) -> Any:
        env: dict[Variable, Any] = {}
        for v, a in zip(seg.inputs, args[:n_dynamic], strict=True):
            env[v] = a
        for v, a in zip(seg.static_inputs, args[n_dynamic:], strict=True):
            env[v] = a.value
        if flat:  # constants are size 1 here: make them 0-d so they broadcast
            for step in seg.steps:
                for v in step.node.inputs:
                    if isinstance(v, Constant):
                        env[v] = np.asarray(v.data).reshape(())
        for step in seg.steps:
            step.ctx.checks.clear()
        for step in seg.steps:
            node = step.node
            # inputs not in env are constants
            values = [_value(env, v) for v in node.inputs]
            if step.fold and all(map(_is_concrete, values)):
                # (folded while tracing, once: its errors are not this call's)
                outs = collect(_perform, node, values)[0]
            else:
                try:
                    outs = step.fn(*values)  # type: ignore[misc]
                except TypeError:
                    _numpy_error(node, values)
                    raise
            for o, value in zip(node.outputs, outs, strict=True):
                env[o] = _cast_to(value, o)
        results = [_value(env, v) for v in seg.outputs]
        if not flat:
            _note_forwarded(seg, args[:n_dynamic], results)
        # (each step's ctx keeps the checks of this thread's trace: another
        # thread may be tracing the same segment for other shapes)
        flags = [flag for step in seg.steps for flag, _, _ in step.ctx.checks]
        if flags:
            import jax.numpy as jnp

            return results, jnp.stack([jnp.any(f) for f in flags])
        return results, None

    return run


def _note_forwarded(seg: _Segment, args: Sequence[Any], results: Sequence[Any]) -> None:
    """Add to ``seg.forwarded`` the results of this trace that are not new
    values of the traced computation. Traces only add: a result forwarded for
    one input shape is copied for every shape."""
    seen = {id(a) for a in args}
    for k, r in enumerate(results):
        if not isinstance(r, jax.core.Tracer) or id(r) in seen:
            seg.forwarded.add(k)
        seen.add(id(r))


@dataclass
class _Program:
    segments: list[_Segment]
    hosts: list[list[_Step]]
    inputs: list[Variable]
    outputs: list[Variable]
    device_arrays: bool
    writable: bool = True
    #: with ``device_arrays``: where outputs not made by a jitted segment (graph
    #: inputs, constants, host results) go, one sharding (or None) per output
    placement: list[Any] | None = None

    def __call__(self, *args: Any) -> list[Any]:
        device = None
        if _device._placed:  # some value was moved with Array.to_device
            args, device = _device.placed_arguments(args)  # type: ignore[assignment]
        # placed values with a Sharding: jit follows their layouts (no default device)
        sharded = isinstance(device, jax.sharding.Sharding)
        env: dict[Variable, Any] = dict(zip(self.inputs, args, strict=True))
        fresh: set[Variable] = set()  # results XLA made on this call, read by nobody else
        on_device = contextlib.nullcontext()
        if device is not None and not sharded:
            on_device = jax.default_device(device)
        # XLA computes on threads of its own (and sometimes this one): a watcher
        # looks at the results instead of at flags, the same way every call
        note_unseen()
        with jax.enable_x64(True), on_device:
            for seg, hosts in zip(self.segments, self.hosts, strict=True):
                if seg.steps:
                    dyn = [_value(env, v) for v in seg.inputs]
                    results = None
                    if seg.flat_jitted is not None and not (self.device_arrays or sharded):
                        results = _call_flat(seg, dyn)
                    if results is None:  # (the flat path's results are views: not fresh)
                        stat = [_Static(_value(env, v)) for v in seg.static_inputs]
                        results, flags = _call_jitted(seg, False, [*dyn, *stat])
                        if flags is not None:
                            _raise_failed(seg, np.asarray(flags), dyn, stat)
                        fresh.update(o for k, o in enumerate(seg.outputs) if k not in seg.forwarded)
                    env.update(zip(seg.outputs, results, strict=True))
                for step in hosts:
                    values = [np.asarray(_value(env, v)) for v in step.node.inputs]
                    env.update(zip(step.node.outputs, _perform(step.node, values), strict=True))
            out = []
            returned: set[int] = set()
            host: list[np.ndarray] = []
            for k, v in enumerate(self.outputs):
                value = _value(env, v)
                if self.device_arrays:
                    if not isinstance(value, jax.Array):
                        value = jax.device_put(value, self.placement and self.placement[k])
                    out.append(value)
                else:
                    raw = np.asarray(value)
                    if v.owner is None or id(raw) in returned:  # an input, a constant, a repeat
                        arr = raw.copy()
                    elif self.writable and not raw.flags.writeable:
                        arr = _writable(raw, value, own=v in fresh and device is None)
                    else:
                        arr = raw
                    returned.add(id(raw))
                    host.append(raw)  # alive until the end: ids in `returned` stay unique
                    if isinstance(value, jax.Array) and device is not None:
                        _device.place(arr, device, value)  # later computations stay there
                    elif device is not None and not sharded:  # (sharded: a host value stays)
                        _device.place(arr, device)
                    out.append(arr)
        discard_hardware()  # (whatever XLA left on this thread: see note_unseen above)
        return out


def _writable(arr: np.ndarray, value: Any, own: bool) -> np.ndarray:
    """A writable array with ``arr``'s values. ``own``: ``value`` is a result XLA
    made on this call that only this call refers to (not an input or constant
    jax forwarded, not kept on a device placed with ``Array.to_device``). Then
    ``arr``, the host view of it (on the CPU XLA's own buffer, from a GPU a fresh
    host copy), is ours once ``value`` is gone, and is handed out without a copy:
    the copy cost +26% to +47% over ``jax.jit`` on 10M-element results on an
    H100, +23% on the CPU."""
    if own and isinstance(value, jax.Array):
        return _own_host_view(arr)
    return arr.copy()


class _HostView:
    """Owner of the host view of a result nobody else reads: exposes its memory
    writable through the array interface and keeps the view (and so XLA's
    buffer, or jax's host copy of a GPU result) alive."""

    def __init__(self, arr: np.ndarray) -> None:
        self.arr = arr
        interface = dict(arr.__array_interface__)
        interface["data"] = (interface["data"][0], False)  # (address, read-only)
        self.__array_interface__ = interface


def _own_host_view(arr: np.ndarray) -> np.ndarray:
    """``arr`` (a host view nobody else reads) made writable without copying:
    its flag set when it owns its memory, else a writable view of that memory
    (jax wraps its host buffers in objects numpy will not make writable: the
    flag alone left every GPU result copied, +29..35%)."""
    if arr.base is None:
        try:
            arr.flags.writeable = True
            return arr
        except ValueError:
            pass
    out = np.asarray(_HostView(arr))
    return out if out.flags.writeable else arr.copy()


#: calls whose broadcast shape has at most this many elements take the flat path
FLAT_LIMIT = 4096
#: and are padded to at least this many elements: one program serves them all
FLAT_MIN = 64


def _call_flat(seg: _Segment, dyn: list[Any]) -> list[Any] | None:
    """Run a pure elementwise segment on flattened inputs padded to a power of
    two, or None when the call does not qualify (large, or an output smaller than
    the full broadcast shape)."""
    if not dyn:  # constants only: nothing to flatten
        return None
    shapes = [np.shape(a) for a in dyn]
    if sum(int(np.prod(s, dtype=np.int64)) for s in shapes) > len(shapes) * FLAT_LIMIT:
        return None
    shape_of: dict[Variable, tuple[int, ...]] = dict(zip(seg.inputs, shapes, strict=True))
    for step in seg.steps:
        ins = [shape_of[v] if v in shape_of else np.shape(v.data) for v in step.node.inputs]
        try:
            out = np.broadcast_shapes(*ins)
        except ValueError:
            return None
        for o in step.node.outputs:
            shape_of[o] = out
    full = shape_of[seg.outputs[0]] if seg.outputs else ()
    if any(shape_of[o] != full for o in seg.outputs):
        return None
    n = int(np.prod(full, dtype=np.int64))
    if n == 0 or n > FLAT_LIMIT or any(len(s) > len(full) for s in shapes):
        return None  # (no padding value is safe for an empty call: checks would see it)
    size = max(FLAT_MIN, 1 << (n - 1).bit_length())
    flat = []
    for a in dyn:
        try:
            v = np.broadcast_to(np.asarray(a), full).reshape(-1)
        except ValueError:
            return None
        flat.append(np.pad(v, (0, size - n), mode="edge"))  # repeats the last element
    results, flags = _call_jitted(seg, True, flat)
    owner = seg.flat_jitted[1]
    if flags is not None:
        _raise_failed(owner, np.asarray(flags), flat, flat=True)
    out = []
    for r in results:
        r = np.asarray(r)
        if r.ndim == 0:  # an output computed from constants alone
            r = np.broadcast_to(r, (size,))
        out.append(r[:n].reshape(full))
    return out


def _call_jitted(seg: _Segment, flat: bool, args: list[Any]) -> Any:
    """Call the jitted program of ``seg`` (its flat one with ``flat``).

    An interrupt (Ctrl-C, SystemExit) that lands while jax traces or compiles
    can leave an entry of jax's caches half made, and every later call that
    reaches it then fails with jax's ``RecursionError: Recursively calling
    ...``. So a program an interrupt went through is dropped and made again
    from the segment; and a call that meets such an entry anyway (left by an
    interrupt elsewhere: in another segment sharing the flat program, in a
    jitted jax function that traces share) clears jax's caches, makes the
    program again and is retried once.
    """
    for attempt in (0, 1):
        fn = seg.flat_jitted[0] if flat else seg.jitted  # type: ignore[index]
        try:
            return fn(*args)
        except RecursionError as e:
            if attempt or "Recursively calling" not in str(e):
                raise
            jax.clear_caches()
            _remake(seg, flat)
        except BaseException as e:
            if not isinstance(e, Exception):
                _remake(seg, flat)
            raise
    raise AssertionError("unreachable")


def _remake(seg: _Segment, flat: bool) -> None:
    """Trace ``seg``'s jitted (or flat) program anew: a new function, so none of
    jax's caches of the old one are reused."""
    if not flat:
        seg.jitted = jax.jit(_trace_segment(seg), **seg.jit_kwargs)
        return
    old = seg.flat_jitted
    with _flat_lock:
        for key, found in list(_flat_programs.items()):
            if found is old:
                del _flat_programs[key]
    seg.flat_jitted = _shared_flat(seg)


#: flat programs by the dtype-level structure of their segment (see _structure_key)
_flat_programs: OrderedDict[Any, tuple[Any, _Segment]] = OrderedDict()
_FLAT_PROGRAMS_KEPT = 1024
_flat_lock = threading.Lock()


def _shared_flat(seg: _Segment) -> tuple[Any, _Segment]:
    """The flat program of ``seg``: one already made for a segment with the same
    ops, dtypes and constants (static shapes do not matter once flattened), or a
    new one."""
    try:
        key: Any = _structure_key(seg, full=False)
        hash(key)
    except TypeError:
        return jax.jit(_trace_segment(seg, flat=True)), seg
    with _flat_lock:
        found = _flat_programs.get(key)
        if found is None:
            found = _flat_programs[key] = (jax.jit(_trace_segment(seg, flat=True)), seg)
            while len(_flat_programs) > _FLAT_PROGRAMS_KEPT:
                _flat_programs.popitem(last=False)
        else:
            _flat_programs.move_to_end(key)
        return found


def _share_program(seg: _Segment, made: dict[Any, _Segment]) -> None:
    """Give ``seg`` the jitted program of an earlier segment of the same graph
    with the same structure (:func:`_structure_key`), if there is one: a long
    graph is cut into segments of :data:`MAX_SEGMENT_NODES` nodes, and an
    unrolled loop's segments repeat one another, so jax traces and XLA compiles
    each kind of segment once (a 200,000-node chain: 40 programs -> 3)."""
    try:
        key = _structure_key(seg, full=True)
        hash(key)
    except TypeError:
        return
    found = made.setdefault(key, seg)
    if found is not seg:
        seg.jitted = found.jitted
        seg.forwarded = found.forwarded  # what its trace notes, for both


def _structure_key(seg: _Segment, full: bool) -> Any:
    """What a trace of ``seg`` depends on, with its inputs by position: ops,
    wiring and constants' bytes, and the variables' exact types (``full``: the
    segment's own program) or only their dtypes and whether they are 0-d (its
    flat program: static shapes do not matter once flattened, a 0-d input
    does, numpy's float power having fast paths for a 0-d exponent that the
    lowering follows). Raises TypeError for a constant without a byte form."""

    def kind(v: Variable) -> Any:
        t = v.type
        return t if full else (t.dtype, t.ndim == 0)  # type: ignore[attr-defined]

    ids: dict[Variable, Any] = {v: ("in", k, kind(v)) for k, v in enumerate(seg.inputs)}
    for k, v in enumerate(seg.static_inputs):
        ids[v] = ("static", k, kind(v))
    entries = []
    for n, step in enumerate(seg.steps):
        refs = []
        for v in step.node.inputs:
            if v in ids:
                refs.append(ids[v])
                continue
            data = np.asarray(v.data)  # type: ignore[attr-defined]
            if data.dtype.hasobject:
                raise TypeError("a constant of objects")
            shape = data.shape if full else None
            refs.append(("const", data.dtype.str, shape, data.tobytes()))
        outs = tuple(o.type if full else o.type.dtype for o in step.node.outputs)  # type: ignore[attr-defined]
        entries.append((step.node.op, tuple(refs), outs, step.fold if full else None))
        for j, o in enumerate(step.node.outputs):
            ids[o] = ("node", n, j)
    return tuple(entries), tuple(ids[o] for o in seg.outputs)


def _flat_eligible(seg: _Segment) -> bool:
    from lazygraph.tensor.elemwise import Elemwise

    if not seg.steps or seg.static_inputs:
        return False
    for step in seg.steps:
        if not isinstance(step.node.op, Elemwise):
            return False
        for v in step.node.inputs:
            if isinstance(v, Constant) and np.size(v.data) != 1:
                return False
    return True


def _value(env: dict[Variable, Any], v: Variable) -> Any:
    if v in env:
        return env[v]
    return v.data  # type: ignore[attr-defined]


def _raise_failed(
    seg: _Segment,
    flags: np.ndarray,
    dyn: Sequence[Any],
    stat: Sequence[_Static] = (),
    flat: bool = False,
) -> None:
    """Raise the error of the first check a call of ``seg`` (with arguments
    ``dyn`` and ``stat``) found failed, if any.

    The checks a trace records, and their messages ("with size 5"), depend on
    the shapes it was traced for, and a jitted segment has one trace per shape:
    so they are taken from a new trace for this call's arguments (abstract, no
    compile), on this error path only."""
    if not flags.any():
        return
    trace = _trace_segment(seg, flat)
    # (shape and dtype only: a donated argument may be deleted by now)
    avals = [jax.ShapeDtypeStruct(np.shape(a), _dtype(a)) for a in dyn]
    jax.eval_shape(lambda *args: trace(*args, *stat), *avals)
    checks = [(exc, msg) for step in seg.steps for _, exc, msg in step.ctx.checks]
    for flag, (exc_type, message) in zip(flags, checks, strict=True):
        if flag:
            raise exc_type(message)


def _dtype(value: Any) -> Any:
    dtype = getattr(value, "dtype", None)
    return dtype if dtype is not None else np.asarray(value).dtype


def compile_graph(
    fgraph: FunctionGraph,
    in_shardings: Any = None,
    out_shardings: Any = None,
    device_arrays: bool = False,
    donate: bool = False,
    writable: bool = True,
) -> _Program:
    """The callable computing ``fgraph`` on JAX (see the module docstring).

    ``in_shardings`` / ``out_shardings`` are handed to ``jax.jit`` (one entry per
    graph input / output, or one for all); they need the graph to be a single
    jitted segment. ``donate`` lets XLA reuse the buffers of the inputs.
    ``writable=False`` returns XLA's buffers as read-only numpy arrays (no copy).
    """
    with sharded_lowering(in_shardings is not None or out_shardings is not None):
        steps, static = _classify(fgraph)
    jit_steps, host_steps = _stages(steps)
    needed_later: dict[Variable, int] = {}  # last stage that reads a variable
    for s, (js, hs) in enumerate(zip(jit_steps, host_steps, strict=True)):
        for step in js + hs:
            for v in step.node.inputs:
                needed_later[v] = s
    segments = []
    graph_outputs = set(fgraph.outputs)
    same_structure: dict[Any, _Segment] = {}  # see _share_program
    for s, js in enumerate(jit_steps):
        seg = _Segment(steps=js)
        made = {o for step in js for o in step.node.outputs}
        seen: set[Variable] = set()
        for step in js:
            needs = set()
            lowering = lowering_for(step.node)
            if lowering is not None:
                needs = {step.node.inputs[i] for i in lowering.static_inputs(step.node)}
            for v in step.node.inputs:
                if v in made or v in seen or isinstance(v, Constant):
                    continue
                seen.add(v)
                if v in needs or (v in static and v.owner is not None):
                    seg.static_inputs.append(v)
                else:
                    seg.inputs.append(v)
        later_use = {
            v
            for later in range(s, len(jit_steps))
            for step in (jit_steps[later] if later > s else []) + host_steps[later]
            for v in step.node.inputs
        }
        seg.outputs = [o for step in js for o in step.node.outputs if o in later_use]
        seg.outputs += [o for o in fgraph.outputs if o in made and o not in seg.outputs]
        run = _trace_segment(seg)
        if seg.steps:
            kwargs: dict[str, Any] = {}
            n_dyn = len(seg.inputs)
            kwargs["static_argnums"] = tuple(range(n_dyn, n_dyn + len(seg.static_inputs)))
            if in_shardings is not None or out_shardings is not None:
                _check_shardable(fgraph, jit_steps, host_steps, seg)
                if in_shardings is not None:
                    kwargs["in_shardings"] = _per_input(in_shardings, fgraph, seg)
                if out_shardings is not None:
                    kwargs["out_shardings"] = (_per_output(out_shardings, fgraph, seg), None)
            if donate:
                dead = [
                    k
                    for k, v in enumerate(seg.inputs)
                    if v in fgraph.inputs and needed_later.get(v, s) <= s and v not in graph_outputs
                ]
                kwargs["donate_argnums"] = tuple(dead)
            seg.jit_kwargs = kwargs
            seg.jitted = jax.jit(run, **kwargs)
            if set(kwargs) == {"static_argnums"}:
                _share_program(seg, same_structure)
            if not kwargs.get("in_shardings") and not donate and _flat_eligible(seg):
                seg.flat_jitted = _shared_flat(seg)
        segments.append(seg)
    placement = None
    if out_shardings is not None:
        placement = _graph_output_shardings(out_shardings, fgraph)
    return _Program(
        segments,
        host_steps,
        list(fgraph.inputs),
        list(fgraph.outputs),
        device_arrays,
        writable,
        placement,
    )


def _check_shardable(
    fgraph: FunctionGraph, jit_steps: list[Any], host_steps: list[Any], seg: _Segment
) -> None:
    if len(jit_steps) != 1 or any(host_steps) or seg.static_inputs:
        raise ValueError(
            "jax backend: shardings need the whole graph to be one jitted segment; "
            "this graph has nodes that run outside jit (data-dependent shapes)"
        )


def _per_input(shardings: Any, fgraph: FunctionGraph, seg: _Segment) -> Any:
    """One sharding per argument of the jitted segment (the graph inputs it
    uses), from one per graph input or one for all."""
    if isinstance(shardings, (list, tuple)):
        if len(shardings) != len(fgraph.inputs):
            raise ValueError(
                f"jax backend: in_shardings has {len(shardings)} entries for a graph "
                f"of {len(fgraph.inputs)} inputs"
            )
        position = {v: k for k, v in enumerate(fgraph.inputs)}
        return tuple(shardings[position[v]] for v in seg.inputs)
    return tuple(shardings for _ in seg.inputs)


def _per_output(shardings: Any, fgraph: FunctionGraph, seg: _Segment) -> Any:
    """One sharding per output of the jitted segment, from one per graph output
    or one for all."""
    per_graph_output = _graph_output_shardings(shardings, fgraph)
    first = {}
    for k, v in enumerate(fgraph.outputs):
        first.setdefault(v, per_graph_output[k])
    return [first.get(v) for v in seg.outputs]


def _graph_output_shardings(shardings: Any, fgraph: FunctionGraph) -> list[Any]:
    if isinstance(shardings, (list, tuple)):
        if len(shardings) != len(fgraph.outputs):
            raise ValueError(
                f"jax backend: out_shardings has {len(shardings)} entries for a graph "
                f"of {len(fgraph.outputs)} outputs"
            )
        return list(shardings)
    return [shardings for _ in fgraph.outputs]
