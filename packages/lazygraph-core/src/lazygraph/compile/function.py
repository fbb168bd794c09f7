"""``function(inputs, outputs)``: compile a graph into a Python callable (Theano style).

>>> from lazygraph.graph.basic import Apply, Op, Type
>>> class Double(Type):
...     def filter(self, data, strict=False, allow_downcast=None):
...         return float(data)
>>> class Add(Op):
...     def make_node(self, x, y):
...         return Apply(self, [x, y], [Double()()])
...     def perform(self, node, inputs, output_storage):
...         output_storage[0][0] = inputs[0] + inputs[1]
>>> x, y = Double()("x"), Double()("y")
>>> f = function([x, y], Add()(x, y))
>>> f(1, 2)
3.0
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from lazygraph.compile.backends import get_backend
from lazygraph.compile.mode import Mode, get_mode
from lazygraph.configuration import config
from lazygraph.graph.basic import Variable, gc_paused
from lazygraph.graph.fg import FunctionGraph

__all__ = ["Function", "function", "rewrite_graph"]


def rewrite_graph(fgraph: FunctionGraph, mode: Mode) -> FunctionGraph:
    """Apply ``mode``'s rewrite query from ``optdb`` to ``fgraph`` in place."""
    import lazygraph.tensor.rewriting  # noqa: F401 (registers the tensor rewrites)
    from lazygraph.rewriting.db import optdb

    rewriter = optdb.query(mode.query)
    rewriter.rewrite(fgraph)
    return fgraph


class Function:
    """A compiled graph. Call it with one value per input, in order.

    Values are checked and converted by each input's ``Type.filter`` unless
    ``trust_input`` is set. Returns one value, or a list when compiled with a
    list of outputs.

    One function may be called from several threads at once: every backend
    gives each call its own storage, so calls do not wait for each other
    (only the first call of a compiled backend, which compiles, is made alone).
    """

    def __init__(
        self,
        fgraph: FunctionGraph,
        fn: Callable[..., Sequence[Any]],
        unpack_single: bool,
        backend: str,
        profile: Any = None,
    ) -> None:
        self.fgraph = fgraph
        self.profile = profile  # a ProfileStats when compiled with profile=True
        self.fn = fn
        self.unpack_single = unpack_single
        self.backend = backend
        self.input_types = [v.type for v in fgraph.inputs]
        self.trust_input = False
        # compiled backends (numba, jax) compile their code at the first call,
        # for the input types it brings: that call reports progress too. Threads
        # that call meanwhile wait for it rather than compile the same code again.
        self._first_call = backend != "python"
        self._first_lock = threading.RLock()  # reentrant: an op may call back in

    def __call__(self, *args: Any) -> Any:
        if len(args) != len(self.input_types):
            raise TypeError(
                f"this function takes {len(self.input_types)} inputs "
                f"({', '.join(map(str, self.fgraph.inputs))}), {len(args)} given"
            )
        if not self.trust_input:
            args = tuple(t.filter(a) for t, a in zip(self.input_types, args, strict=True))
        outputs = self._call_first(args) if self._first_call else self.fn(*args)
        if self.unpack_single:
            return outputs[0]
        return list(outputs)

    def _call_first(self, args: tuple[Any, ...]) -> Sequence[Any]:
        from lazygraph.compile.profile import compile_progress

        with self._first_lock:
            if self._first_call:
                with compile_progress(len(self.fgraph.apply_nodes)) as stage:
                    stage(f"compiling for {self.backend} (first call)")
                    outputs = self.fn(*args)
                self._first_call = False
                return outputs
        # another thread's first call compiled it while this one waited
        return self.fn(*args)


def function(
    inputs: Sequence[Variable],
    outputs: Variable | Sequence[Variable],
    mode: Mode | str | None = None,
    rewrite: bool = True,
    profile: bool = False,
    *,
    compile_options: Mapping[str, Any] | None = None,
) -> Function:
    """Compile the graph from ``inputs`` to ``outputs``.

    The graph is copied into a :class:`FunctionGraph`, rewritten with ``mode``'s
    query over ``optdb`` (``rewrite=False`` skips that) and compiled by the
    mode's backend (default ``config.backend``); the rewrite tags the backend
    lists in its ``excluded_tags`` attribute are left out. An output that depends on a
    variable not in ``inputs`` raises ``MissingInputError`` naming it.
    With ``profile=True`` the function's ``profile`` attribute records run times
    per node (see :mod:`lazygraph.compile.profile`). A compile slower than about
    1.5 s prints its stage to standard error (``config.progress``).

    ``compile_options`` are keyword arguments for the backend's ``compile``,
    among the names its ``compile_options`` attribute lists (the jax backend:
    ``in_shardings``, ``out_shardings``, ``device_arrays``, ``donate``);
    another name raises ``ValueError``, as does combining them with
    ``profile=True``.
    """
    # The collector stays off for the whole compile. Copying, rewriting and
    # linking each allocate per node, almost all of it kept; between these
    # stages (each paused on its own) the deferred collections fell due at once,
    # while the backend built its per-node storage, and rescanned the whole heap
    # several times: about a quarter of the time of compiling a 200,000-node
    # chain (3.0 s of 11.3 s for two compiles; 1.0 s with this). The garbage of
    # the rewrites is reclaimed by the first collection after the compile.
    with gc_paused():
        return _compile(inputs, outputs, mode, rewrite, profile, compile_options)


def _compile(
    inputs: Sequence[Variable],
    outputs: Variable | Sequence[Variable],
    mode: Mode | str | None,
    rewrite: bool,
    profile: bool,
    compile_options: Mapping[str, Any] | None,
) -> Function:
    unpack_single = isinstance(outputs, Variable)
    outs = [outputs] if unpack_single else list(outputs)  # type: ignore[list-item]
    fgraph = FunctionGraph(list(inputs), outs, clone=True)
    resolved = get_mode(mode)
    backend_name = resolved.backend or config.backend
    backend = get_backend(backend_name)
    # a backend may skip stages it does its own way (JAX: fusion, inplace)
    excluded = getattr(backend, "excluded_tags", ())
    if excluded:
        resolved = resolved.excluding(*excluded)
    options = dict(compile_options or {})
    if options:
        _check_options(backend, backend_name, options, profile)
    from lazygraph.compile.profile import ProfileStats, compile_progress

    stats = ProfileStats(backend_name) if profile else None
    with compile_progress(len(fgraph.apply_nodes)) as stage:
        if rewrite:
            stage("rewriting")
            rewrite_graph(fgraph, resolved)
        stage("compiling")
        if stats is None:
            from lazygraph.compile.cache import shared_program

            fn = shared_program(
                backend, backend_name, fgraph, options, lambda: backend.compile(fgraph, **options)
            )
        else:
            fn = _profiled(backend, stats)(fgraph)
    return Function(fgraph, fn, unpack_single, backend_name, stats)


def _check_options(backend: Any, name: str, options: Mapping[str, Any], profile: bool) -> None:
    known = getattr(backend, "compile_options", ())
    unknown = sorted(set(options) - set(known))
    if unknown:
        takes = f"takes only {', '.join(known)}" if known else "takes none"
        raise ValueError(
            f"the {name!r} backend has no compile option {', '.join(map(repr, unknown))} ({takes})"
        )
    if profile:
        raise ValueError("profile=True does not take compile_options; profile without them")


def _profiled(backend: Any, stats: Any) -> Callable[[FunctionGraph], Any]:
    from lazygraph.compile.profile import profiled_compile

    return lambda fgraph: profiled_compile(backend, fgraph, stats)
