"""Numba lowerings of the control-flow Ops: ``Scan`` as a ``for`` loop,
``While`` as a ``while`` loop, ``IfElse`` as an ``if``, each compiled into one
kernel: no Python runs per step.

Each inner graph is rewritten as the numba backend rewrites a graph
(:data:`_MODE`); its nodes become code of the loop's kernel in one of two forms:

- an *into* form, for the nodes a step spends its time in (``Elemwise``, and
  ``MatMul`` of float or complex matrices and vectors, a BLAS call): a function
  of the loop's module, inlined by Numba, that writes its result into a buffer
  the loop allocates at the first step and reuses while the shape stays the
  same, so a step allocates nothing;
- otherwise the node's ordinary kernel
  (:func:`~lazygraph.backends.numba.dispatch.kernel_module_source`, loaded
  through the disk cache), called as a graph function calls it.

A buffer holds one step's value; a value that outlives its step (a carry) is
the buffer itself when it is the only carry in it (the node then alternates
between two buffers, so the carry it read is not the one it writes), else a
copy. A node of a scan's body that reads only non-sequences and constants runs
once, before the first step. A sequence's row ``t`` is a view of row ``t`` (a
fresh 0-d array for a vector's element), the stacked outputs ``ys`` are
allocated before the first step (from their rows' static shape, else from the
first step's), and the final carries are copies (they never alias an input).
Small constants of the inner graph are written into the source; larger values
are inputs of the node already (:func:`~lazygraph.tensor.control.inner.closure`).
An inner node without a kernel makes the whole loop :class:`Unsupported`: it
then runs through its ``perform``. Errors are the python backend's: a negative
length, a sequence with the wrong number of rows or a carry whose shape changes
is a ``ValueError``, an index out of range inside the body an ``IndexError``;
the messages with numbers are built by helpers compiled once per machine (disk
cache), not in every loop kernel (string formatting is a second of Numba
compile time).

>>> import numpy as np
>>> import lazygraph
>>> import lazygraph.tensor as lt
>>> from lazygraph.compile.mode import Mode
>>> xs = lt.dvector("xs")
>>> total, ys = lazygraph.scan(lambda c, x: (c + x, c * x), lt.constant(0.0), xs)
>>> lazygraph.function([xs], ys, mode=Mode(backend="numba"))(np.arange(1.0, 4.0))
array([0., 2., 9.])
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence

import numpy as np
from numba import njit
from numba.core import config as numba_config

from lazygraph.backends.numba import cache as disk
from lazygraph.backends.numba.cache import helper_options
from lazygraph.backends.numba.dispatch import JIT, Unsupported, kernel_module_source, numba_funcify
from lazygraph.backends.numba.elemwise import (
    broadcast_prologue,
    operand_reads,
    scalar_body,
    versioned,
)
from lazygraph.backends.numba.scalar import CodegenUnsupported
from lazygraph.backends.numba.subtensor import int_text
from lazygraph.compile.function import rewrite_graph
from lazygraph.compile.mode import Mode
from lazygraph.graph.basic import Apply, Constant, Variable
from lazygraph.graph.fg import FunctionGraph
from lazygraph.tensor.blas import MatMul
from lazygraph.tensor.control import IfElse, InnerGraph, Scan, While
from lazygraph.tensor.elemwise import Elemwise
from lazygraph.tensor.rewriting.inplace import FRESH_BUFFER_OPS

__all__ = ["scan_length_error", "scan_rows_error"]

#: the rewrites an inner graph gets: the numba backend's own
_MODE = Mode(backend="numba")
#: constants of at most this many bytes are written into the kernel's source
#: (the inner graph's own are small, see ``INLINE_CONSTANT_SIZE``; a rewrite may
#: make a larger one); a larger one makes the loop :class:`Unsupported`
MAX_LITERAL_BYTES = 1 << 16
_IMPORTS = (
    "from lazygraph.backends.numba.blas import blas_operand\n"
    "from lazygraph.backends.numba.cache import loaded_module\n"
    "from lazygraph.backends.numba.control import scan_length_error, scan_rows_error\n"
)
#: the decorator of an into form: Numba inlines it into the loop's kernel (its
#: IR, before typing), so the loop is one function for LLVM and one compile
_INTO_JIT = '@njit(inline="always", error_model="numpy", no_cfunc_wrapper=True)'
_OPTS = helper_options(__file__)  # cached under the cache directory, not in the package


@njit(**_OPTS)
def scan_length_error(n):  # type: ignore[no-untyped-def]
    """Raises the python backend's error for a negative number of steps."""
    raise ValueError("scan: length must be non-negative, got " + int_text(n))


@njit(**_OPTS)
def scan_rows_error(j, rows, n):  # type: ignore[no-untyped-def]
    """Raises the python backend's error for a sequence of the wrong length."""
    raise ValueError(
        "scan: sequence "
        + int_text(j)
        + " has "
        + int_text(rows)
        + " rows for "
        + int_text(n)
        + " steps"
    )


def _np_dtype(dtype: str) -> str:
    return "np.bool_" if dtype == "bool" else f"np.{dtype}"


def _shape_text(dims: Sequence[str]) -> str:
    return "(" + "".join(f"{d}, " for d in dims) + ")"


def _elemwise_into(node: Apply, name: str) -> str:
    """The into form of an ``Elemwise`` node: the serial kernel's loops (see
    :mod:`.elemwise`), writing each output that is not in place into the
    buffer passed after the inputs (a new array when its shape is not the
    broadcast shape)."""
    op: Elemwise = node.op  # type: ignore[assignment]
    ndim = node.outputs[0].type.ndim  # type: ignore[attr-defined]
    in_ndims = [v.type.ndim for v in node.inputs]  # type: ignore[attr-defined]
    in_dtypes = [v.type.dtype for v in node.inputs]  # type: ignore[attr-defined]
    out_dtypes = [o.type.dtype for o in node.outputs]  # type: ignore[attr-defined]
    inplace = dict(op.inplace_pattern)
    fresh = [j for j in range(len(out_dtypes)) if j not in inplace]
    params = [f"x{i}" for i in range(len(in_ndims))] + [f"o{j}" for j in fresh]
    lines = [_INTO_JIT, f"def {name}({', '.join(params)}):"]
    lines += broadcast_prologue(node, ndim, str(op))
    shape = _shape_text([f"d{k}" for k in range(ndim)])
    for j, dtype in enumerate(out_dtypes):
        if j in inplace:
            lines.append(f"    o{j} = x{inplace[j]}")
        elif ndim:
            lines += [
                f"    if o{j}.shape != {shape}:",
                f"        o{j} = np.empty({shape}, {_np_dtype(dtype)})",
            ]
    index = ", ".join(f"i{k}" for k in range(ndim)) if ndim else "()"

    def nest(args: list[str]) -> list[str]:
        loops, indent = [], "    "
        for k in range(ndim):
            loops.append(f"{indent}for i{k} in range(d{k}):")
            indent += "    "
        body, results = scalar_body(op.scalar_op, in_dtypes, out_dtypes, args)
        loops += [f"{indent}{b}" for b in body]
        loops += [f"{indent}o{j}[{index}] = {r}" for j, r in enumerate(results)]
        return loops

    # versioned from one array operand (the kernels of elemwise.py, from three):
    # in a loop over small arrays LLVM left the broadcasting reads of a 64x64
    # add scalar (1.1 us against 0.4 us plain, numba 0.68)
    if any(in_ndims) and int(numba_config.OPT) > 0:
        lines += versioned(in_ndims, ndim, nest)
    else:
        lines += nest(operand_reads(in_ndims, ndim))
    lines.append(f"    return {_shape_text([f'o{j}' for j in range(len(out_dtypes))])}")
    return "\n".join(lines) + "\n"


def _matmul_into(node: Apply, name: str) -> str | None:
    """The into form of a product of float or complex matrices and vectors of
    one dtype (``np.dot``: BLAS, as the kernel of :mod:`.blas` calls it), or
    None for other products (batched, integer, mixed dtypes, two vectors)."""
    a, b = node.inputs
    dtype = node.outputs[0].type.dtype  # type: ignore[attr-defined]
    nda, ndb = a.type.ndim, b.type.ndim  # type: ignore[attr-defined]
    if np.dtype(dtype).kind not in "fc" or dtype == "float16" or nda + ndb not in (3, 4):
        return None
    if a.type.dtype != dtype or b.type.dtype != dtype or nda > 2 or ndb > 2:  # type: ignore[attr-defined]
        return None
    dims = (["a1.shape[0]"] if nda == 2 else []) + (["b1.shape[1]"] if ndb == 2 else [])
    shape = _shape_text(dims)
    if nda == ndb == 2 and np.dtype(dtype).kind == "f" and 1 in (a.type.shape[1], b.type.shape[0]):  # type: ignore[attr-defined]
        return _outer_into(dtype, name)
    lines = [
        _INTO_JIT,
        f"def {name}(a, b, o):",
        "    a1 = blas_operand(a)",
        "    b1 = blas_operand(b)",
        f"    if a1.shape[{nda - 1}] != b1.shape[0]:",
        '        raise ValueError("matmul: shapes do not match in the core dimension '
        'or do not broadcast")',
        f"    if o.shape != {shape}:",
        f"        o = np.empty({shape}, {_np_dtype(dtype)})",
        # numba's np.dot rejects empty operands; a product over zero terms is 0
        "    if b1.shape[0] == 0:",
        "        o.fill(0)",
        "    elif o.size:",
        "        np.dot(a1, b1, o)",
        "    return (o,)",
    ]
    return "\n".join(lines) + "\n"


def _outer_into(dtype: str, name: str) -> str:
    """The into form of a product of a column by a row (a gradient's outer
    product): one product per element, no BLAS call (whose set-up costs more
    than the products of a 64x64 result). ``0.0 +`` as BLAS adds the product to
    a zeroed accumulator: the same bits, signs of zeros included."""
    lines = [
        _INTO_JIT,
        f"def {name}(a, b, o):",
        "    if a.shape[1] != b.shape[0]:",
        '        raise ValueError("matmul: shapes do not match in the core dimension '
        'or do not broadcast")',
        "    if o.shape != (a.shape[0], b.shape[1]):",
        f"        o = np.empty((a.shape[0], b.shape[1]), {_np_dtype(dtype)})",
        "    for i in range(a.shape[0]):",  # the types say one term: no sum
        "        ai = a[i, 0]",
        "        for j in range(b.shape[1]):",
        "            o[i, j] = 0.0 + ai * b[0, j]",
        "    return (o,)",
    ]
    return "\n".join(lines) + "\n"


def _row_store(ndim: int) -> str:
    """A function ``into(row, o)`` copying ``o`` into ``row`` (a row of a
    stacked output), broadcasting ``o``'s axes of size 1 as numpy's assignment
    does. An explicit loop: Numba's slice assignment formats its error message
    at run time, and compiling that formatting costs two seconds a process."""
    dims = [f"row.shape[{k}]" for k in range(ndim)]
    bad = " or ".join(f"(o.shape[{k}] != 1 and o.shape[{k}] != {d})" for k, d in enumerate(dims))
    lines = [_INTO_JIT, "def into(row, o):"]
    lines += [f"    b{k} = 0 if o.shape[{k}] == 1 else 1" for k in range(ndim)]
    lines += [
        f"    if {bad}:",
        '        raise ValueError("scan: a step\'s output does not broadcast to its row")',
    ]
    indent = "    "
    for k, d in enumerate(dims):
        lines.append(f"{indent}for i{k} in range({d}):")
        indent += "    "
    reads = ", ".join(f"i{k} * b{k}" for k in range(ndim))
    lines.append(f"{indent}row[{', '.join(f'i{k}' for k in range(ndim))}] = o[{reads}]")
    return "\n".join(lines) + "\n"


def _into_source(node: Apply, name: str) -> str | None:
    """``node``'s into form named ``name``, or None when it has none."""
    if type(node.op) is Elemwise:
        return _elemwise_into(node, name)
    if type(node.op) is MatMul:
        return _matmul_into(node, name)
    return None


class _Lowered:
    """An inner graph rewritten for numba: for each node its into form's
    source (a function named ``into``) or its kernel's module source
    (:meth:`load` loads those, so a generated loop can name them)."""

    def __init__(self, inner: InnerGraph) -> None:
        fgraph = FunctionGraph(inner.inputs, inner.outputs, clone=True)
        rewrite_graph(fgraph, _MODE)
        self.fgraph = fgraph
        self.nodes = fgraph.toposort()
        self.into: list[str | None] = []
        self.sources: list[str | None] = []
        for node in self.nodes:
            try:
                into = _into_source(node, "into")
                self.into.append(into)
                self.sources.append(None if into is not None else kernel_module_source(node))
            except (Unsupported, CodegenUnsupported) as exc:
                raise Unsupported(f"a loop or branch body holds {node.op}: {exc}") from None
        self.keys = [None if s is None else disk.source_hash(s) for s in self.sources]
        inputs = set(fgraph.inputs)
        self.constants = [
            v for v in fgraph.variables if isinstance(v, Constant) and v not in inputs
        ]
        for c in self.constants:
            _literal(c)  # raises Unsupported now rather than when generating
        # values some node overwrites (an inplace node's destroyed input): never
        # computed once for all steps
        self.destroyed = {
            node.inputs[i]
            for node in self.nodes
            for ins in node.op.destroy_map.values()
            for i in ins
        }

    def load(self) -> None:
        for source in self.sources:
            if source is not None:
                disk.load_source(source)


#: inner graph -> its rewritten, lowered form; equal inner graphs share one
_LOWERED: weakref.WeakKeyDictionary[InnerGraph, _Lowered] = weakref.WeakKeyDictionary()


def _lowered(inner: InnerGraph) -> _Lowered:
    lowered = _LOWERED.get(inner)
    if lowered is None:
        lowered = _LOWERED[inner] = _Lowered(inner)
    lowered.load()
    return lowered


def _literal(c: Constant) -> str:
    """``c``'s value as a Python expression of the module (its exact bytes)."""
    value = np.asarray(c.data)
    if value.dtype.kind not in "biufc" or value.nbytes > MAX_LITERAL_BYTES:
        raise Unsupported(f"a loop or branch body holds the constant {c} ({value.dtype})")
    dtype = value.dtype.newbyteorder("<").str if value.dtype.itemsize > 1 else value.dtype.str
    data = np.array(value, dtype=dtype, order="C").tobytes().hex()
    return f'np.frombuffer(bytes.fromhex("{data}"), "{dtype}").reshape({value.shape!r})'


class _Writer:
    """The source of one generated loop kernel: module-level lines (kernel
    look-ups, into forms, constants) and the kernel's body, with fresh local
    names."""

    def __init__(self) -> None:
        self.module: list[str] = []
        self.body: list[str] = []
        self._kernels: dict[str, str] = {}
        self._intos: dict[str, str] = {}
        self._counter = 0

    def name(self, prefix: str) -> str:
        self._counter += 1
        return f"{prefix}{self._counter}"

    def line(self, indent: int, text: str) -> None:
        self.body.append("    " * indent + text)

    def kernel(self, key: str) -> str:
        if key not in self._kernels:
            self._kernels[key] = f"k{len(self._kernels)}"
            self.module.append(f'{self._kernels[key]} = loaded_module("{key}").kernel')
        return self._kernels[key]

    def into(self, source: str) -> str:
        """The module-level name of an into form (``source`` defines ``into``)."""
        if source not in self._intos:
            name = self._intos[source] = f"into{len(self._intos)}"
            self.module += ["", "", source.replace("def into(", f"def {name}(", 1)]
        return self._intos[source]

    def constants(self, lowered: _Lowered) -> dict[Variable, str]:
        """Local names of ``lowered``'s constants, copied at the kernel's entry
        (a module-level array is a read-only constant to Numba; the copies type
        as the kernels' other inputs do)."""
        names = {}
        for c in lowered.constants:
            name = self.name("c")
            self.module.append(f"_{name} = {_literal(c)}")
            self.line(1, f"{name} = _{name}.copy()")
            names[c] = name
        return names

    def source(self, params: Sequence[str]) -> str:
        lines = [_IMPORTS, *self.module, "", "", JIT, f"def kernel({', '.join(params)}):"]
        return "\n".join([*lines, *self.body]) + "\n"


#: what a value may share memory with: the index of a node of the step whose
#: buffer it may view, or ("carry", i) for the carry entering the step
_Alias = int | tuple[str, int]


class _Step:
    """An inner graph as code run once per step of a loop (or once, in a
    branch): which nodes run before the loop (:attr:`hoisted`: they read only
    values that are the same at every step), the buffers of the into forms,
    and what each value may share memory with (:meth:`alias`), which decides
    how a carry leaves its step (see the module docstring).

    ``aliases``: for each inner input, what it may share memory with;
    ``invariant``: the inner inputs that are the same at every step (None:
    nothing is hoisted)."""

    def __init__(
        self,
        lowered: _Lowered,
        aliases: Sequence[frozenset[_Alias]],
        invariant: Sequence[Variable] | None = None,
    ) -> None:
        self.lowered = lowered
        self._alias: dict[Variable, frozenset[_Alias]] = dict(
            zip(lowered.fgraph.inputs, aliases, strict=True)
        )
        same = set(invariant or ()) | set(lowered.constants)
        self.hoisted: set[int] = set()
        for k, node in enumerate(lowered.nodes):
            if (
                invariant is not None
                and all(v in same for v in node.inputs)
                and not any(o in lowered.destroyed for o in node.outputs)
            ):
                self.hoisted.add(k)
                same.update(node.outputs)
        for k, node in enumerate(lowered.nodes):
            ins = [self.alias(v) for v in node.inputs]
            views = {**node.op.destroy_map, **node.op.view_map}
            for j, out in enumerate(node.outputs):
                if k in self.hoisted:
                    shared: frozenset[_Alias] = frozenset()  # never written again
                elif j in views:
                    shared = frozenset().union(*(ins[i] for i in views[j]))
                elif lowered.into[k] is not None:
                    shared = frozenset([k])
                elif isinstance(node.op, FRESH_BUFFER_OPS):
                    shared = frozenset()
                else:  # a kernel may return a view of any input
                    shared = frozenset().union(*ins)
                self._alias[out] = shared
        #: nodes whose into form alternates between two buffers, and for each
        #: carry whether it leaves its step as a copy (see :meth:`plan_carries`)
        self.double: set[int] = set()
        self.copies: list[bool] = []

    def alias(self, v: Variable) -> frozenset[_Alias]:
        return self._alias.get(v, frozenset())

    def plan_carries(self, outputs: Sequence[Variable]) -> None:
        """Decides how the carries ``outputs`` leave the step (:attr:`copies`).
        A carry in the buffer of one node of the step, the only carry there,
        stays in it: that node then alternates between two buffers
        (:attr:`double`), so the next step reads it while writing the other. A
        carry sharing memory with another node's buffer, or with a carry
        entering the step that stays in a buffer, is copied; one sharing
        nothing the loop writes (a kernel's new array, a non-sequence) is used
        as it is. Call before :meth:`emit`."""
        owner: dict[int, int] = {}
        for i, v in enumerate(outputs):
            shared = self.alias(v)
            if len(shared) == 1:
                (only,) = shared
                if isinstance(only, int) and only not in owner:
                    owner[only] = i
        self.double = set(owner)
        kept = set(owner.values())
        self.copies = [
            i not in kept and any(isinstance(a, int) or a[1] in kept for a in self.alias(v))
            for i, v in enumerate(outputs)
        ]

    def emit(
        self,
        w: _Writer,
        inputs: Sequence[str],
        constants: dict[Variable, str],
        before: int,
        step: int,
        guard: str | None = None,
    ) -> list[str]:
        """Writes the buffers (and, under ``guard``, the hoisted nodes) at
        indent ``before`` and returns the step's lines (to write at indent
        ``step``, inside the loop) and, through :attr:`names`, the local names
        of the values; call before writing the loop's header."""
        lowered = self.lowered
        names: dict[Variable, str] = dict(constants)
        names.update(zip(lowered.fgraph.inputs, inputs, strict=True))
        self.buffers: dict[int, list[str]] = {}
        for k, node in enumerate(lowered.nodes):
            if lowered.into[k] is None:
                continue
            inplace = dict(getattr(node.op, "inplace_pattern", {}))
            bufs = []
            for j, out in enumerate(node.outputs):
                if j in inplace:
                    continue
                bufs.append(w.name("b"))
                w.line(before, f"{bufs[-1]} = {_empty(out)}")
                if k in self.double:
                    w.line(before, f"{bufs[-1]}_ = {_empty(out)}")
            self.buffers[k] = bufs
        hoisted = [k for k in range(len(lowered.nodes)) if k in self.hoisted]
        if hoisted and guard is not None:
            w.line(before, f"if {guard}:")
            for k in hoisted:
                w.line(before + 1, self._call(w, k, names))
        elif hoisted:
            for k in hoisted:
                w.line(before, self._call(w, k, names))
        lines = [
            "    " * step + self._call(w, k, names)
            for k in range(len(lowered.nodes))
            if k not in self.hoisted
        ]
        self.names = names
        return lines

    def _call(self, w: _Writer, k: int, names: dict[Variable, str]) -> str:
        lowered = self.lowered
        node = lowered.nodes[k]
        args = [names[v] for v in node.inputs]
        into = lowered.into[k]
        if into is None:
            outs = [w.name("v") for _ in node.outputs]
            fn = w.kernel(lowered.keys[k])  # type: ignore[arg-type]
        else:
            fn = w.into(into)
            inplace = dict(getattr(node.op, "inplace_pattern", {}))
            bufs = iter(self.buffers[k])
            outs = [w.name("v") if j in inplace else next(bufs) for j in range(len(node.outputs))]
            args += [o for j, o in enumerate(outs) if j not in inplace]
        names.update(zip(node.outputs, outs, strict=True))
        return f"{', '.join(outs)}, = {fn}({', '.join(args)})"

    def rotate(self) -> list[str]:
        """The statements swapping the buffers of the nodes in :attr:`double`
        (after the carries have been read out of them)."""
        return [f"{b}, {b}_ = {b}_, {b}" for k in sorted(self.double) for b in self.buffers[k]]

    def outputs(self) -> list[str]:
        return [self.names[v] for v in self.lowered.fgraph.outputs]


def _empty(v: Variable) -> str:
    """A placeholder buffer for ``v`` (an into form allocates the real one)."""
    ndim = v.type.ndim  # type: ignore[attr-defined]
    return f"np.empty({_shape_text(['0'] * ndim)}, {_np_dtype(v.type.dtype)})"  # type: ignore[attr-defined]


def _fresh(lowered: _Lowered, k: int) -> bool:
    """Whether inner output ``k`` is surely a new buffer (not a view of an input)."""
    owner = lowered.fgraph.outputs[k].owner
    return owner is not None and isinstance(owner.op, FRESH_BUFFER_OPS)


def _unknown_sizes(v: Variable) -> bool:
    return any(s is None for s in v.type.shape)  # type: ignore[attr-defined]


def _check_shape(w: _Writer, indent: int, who: str, i: int, old: str, new: str) -> None:
    w.line(indent, f"if {new}.shape != {old}.shape:")
    w.line(indent + 1, f'raise ValueError("{who}: the body changed the shape of carry {i}")')


def _leave_step(
    w: _Writer, indent: int, who: str, step: _Step, carries: Sequence[str], outs: Sequence[str]
) -> None:
    """The end of a step: the carries' shape checks, the new carries (copies
    where :meth:`_Step.carries` says), the buffers' swap."""
    fgraph = step.lowered.fgraph
    copies = step.copies
    for i, (h, o) in enumerate(zip(carries, outs, strict=True)):
        if _unknown_sizes(fgraph.inputs[i]):
            _check_shape(w, indent, who, i, h, o)
    if carries:
        new = [f"{o}.copy()" if c else o for o, c in zip(outs, copies, strict=True)]
        w.line(indent, f"{', '.join(carries)}, = {', '.join(new)},")
    for line in step.rotate():
        w.line(indent, line)


@numba_funcify.register(Scan)
def _scan(op: Scan, node: Apply) -> str:
    body = _lowered(op.inner)
    nc, ns, ny = op.n_carry, op.n_seq, op.n_ys
    n_params = len(node.inputs) - 1 - nc - ns
    init = [f"i{k}" for k in range(nc)]
    xs = [f"x{k}" for k in range(ns)]
    params = [f"p{k}" for k in range(n_params)]
    w = _Writer()
    w.line(1, "n = length[()]")
    w.line(1, "if n < 0:")
    w.line(2, "scan_length_error(n)")
    for j, x in enumerate(xs):
        w.line(1, f"if {x}.shape[0] != n:")
        w.line(2, f"scan_rows_error({j}, {x}.shape[0], n)")
    constants = w.constants(body)
    carries = [w.name("h") for _ in range(nc)]
    for h, i in zip(carries, init, strict=True):
        w.line(1, f"{h} = {i}")
    ys = [w.name("ys") for _ in range(ny)]
    rows_known = []
    for k, y in enumerate(ys):
        row = body.fgraph.outputs[nc + k]
        dtype = f"np.{np.dtype(node.outputs[nc + k].type.dtype).name}"  # type: ignore[attr-defined]
        known = not _unknown_sizes(row)
        rows_known.append(known)
        shape = row.type.shape if known else (0,) * row.type.ndim  # type: ignore[attr-defined]
        lead = "n" if known else "0"
        w.line(1, f"{y} = np.empty(({lead}, {''.join(f'{s}, ' for s in shape)}), {dtype})")
    rows = [w.name("r") for _ in xs]
    inner_in = body.fgraph.inputs
    step = _Step(
        body,
        [frozenset([("carry", i)]) for i in range(nc)] + [frozenset()] * (ns + n_params),
        invariant=inner_in[nc + ns :],
    )
    step.plan_carries(body.fgraph.outputs[:nc])
    lines = step.emit(w, [*carries, *rows, *params], constants, 1, 2, guard="n > 0")
    w.line(1, "for s in range(n):")
    w.line(2, "t = n - 1 - s" if op.reverse else "t = s")
    for j, (x, r) in enumerate(zip(xs, rows, strict=True)):
        if node.inputs[1 + nc + j].type.ndim == 1:  # type: ignore[attr-defined]
            w.line(2, f"{r} = np.empty((), {x}.dtype)")
            w.line(2, f"{r}[()] = {x}[t]")
        else:
            w.line(2, f"{r} = {x}[t]")
    w.body += lines
    outs = step.outputs()
    for k, (y, o) in enumerate(zip(ys, outs[nc:], strict=True)):
        if not rows_known[k]:
            w.line(2, "if s == 0:")
            w.line(3, f"{y} = np.empty((n,) + {o}.shape, {y}.dtype)")
        ndim = body.fgraph.outputs[nc + k].type.ndim  # type: ignore[attr-defined]
        w.line(2, f"{w.into(_row_store(ndim))}({y}[t], {o})" if ndim else f"{y}[t] = {o}[()]")
    _leave_step(w, 2, "scan", step, carries, outs[:nc])
    for k, known in enumerate(rows_known):
        if not known:
            w.line(1, "if n == 0:")
            w.line(2, f'raise ValueError("scan: with 0 steps the shape of output {k} is unknown")')
    results = [f"{h}.copy()" for h in carries] + ys
    w.line(1, f"return ({''.join(f'{r}, ' for r in results)})")
    return w.source(["length", *init, *xs, *params])


@numba_funcify.register(While)
def _while(op: While, node: Apply) -> str:
    cond, body = _lowered(op.cond), _lowered(op.body)
    nc = op.n_carry
    init = [f"i{k}" for k in range(nc)]
    params = [f"p{k}" for k in range(len(node.inputs) - nc)]
    w = _Writer()
    constants = {**w.constants(cond), **w.constants(body)}
    carries = [w.name("h") for _ in range(nc)]
    for h, i in zip(carries, init, strict=True):
        w.line(1, f"{h} = {i}")
    aliases = [frozenset([("carry", i)]) for i in range(nc)] + [frozenset()] * len(params)
    test, step = _Step(cond, aliases), _Step(body, aliases)
    step.plan_carries(body.fgraph.outputs)
    test_lines = test.emit(w, [*carries, *params], constants, 1, 2)
    step_lines = step.emit(w, [*carries, *params], constants, 1, 2)
    w.line(1, "steps = 0")
    w.line(1, "while True:")
    if op.max_steps is not None:
        w.line(2, f"if steps >= {op.max_steps}:")
        w.line(3, "break")
    w.body += test_lines
    (pred,) = test.outputs()
    w.line(2, f"if not {pred}[()]:")
    w.line(3, "break")
    w.body += step_lines
    _leave_step(w, 2, "while_loop", step, carries, step.outputs())
    w.line(2, "steps += 1")
    w.line(1, f"return ({''.join(f'{h}.copy(), ' for h in carries)})")
    return w.source([*init, *params])


@numba_funcify.register(IfElse)
def _if_else(op: IfElse, node: Apply) -> str:
    then, other = _lowered(op.then_graph), _lowered(op.else_graph)
    operands = [f"o{k}" for k in range(len(node.inputs) - 1)]
    w = _Writer()
    constants = {**w.constants(then), **w.constants(other)}
    results = [w.name("out") for _ in node.outputs]
    w.line(1, "if pred[()] != 0:")
    _branch(w, then, operands, constants, results)
    w.line(1, "else:")
    _branch(w, other, operands, constants, results)
    w.line(1, f"return ({''.join(f'{r}, ' for r in results)})")
    return w.source(["pred", *operands])


def _branch(
    w: _Writer,
    lowered: _Lowered,
    operands: Sequence[str],
    constants: dict[Variable, str],
    results: Sequence[str],
) -> None:
    branch = _Step(lowered, [frozenset()] * len(operands))
    w.body += branch.emit(w, operands, constants, 2, 2)
    for k, (r, o) in enumerate(zip(results, branch.outputs(), strict=True)):
        # an output that may be an operand (or a view of one) is copied, as
        # the python backend returns no input as an output
        w.line(2, f"{r} = {o}" if _fresh(lowered, k) else f"{r} = {o}.copy()")
