"""The JAX/XLA backend: a rewritten graph becomes one ``jax.jit``-compiled function.

``backend`` is the object the ``lazygraph.backends`` entry point names. Importing
this module does not import jax; the first ``compile`` (or ``load_devices``)
does, leaving the user's global state alone
(:func:`lazygraph.compile.backends.import_isolated`). Graphs compiled
for JAX skip lazygraph's own ``fusion`` and ``inplace`` stages (XLA fuses and
manages buffers itself): :attr:`JaxBackend.excluded_tags` tells
``lazygraph.function`` so. ``backend`` is ``None`` where jax is not installed,
which the backend registry reads as "not available".

>>> import numpy as np
>>> import lazygraph, lazygraph.tensor as lt
>>> from lazygraph.compile.mode import Mode
>>> x = lt.dvector("x")
>>> f = lazygraph.function([x], lt.exp(x) * 2.0, mode=Mode(backend="jax"))
>>> f(np.zeros(3))
array([2., 2., 2.])
"""

from __future__ import annotations

import importlib.util
import os
from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

from lazygraph.graph.fg import FunctionGraph

__all__ = ["JaxBackend", "backend"]


_FALSE = ("0", "false", "False", "no", "off")


class JaxBackend:
    """Compiles a ``FunctionGraph`` with JAX (see the module docstring).

    ``lazygraph.function`` shares compiled programs between graphs of the same
    structure and input types (core's program cache, keyed with
    :meth:`program_key`), so a rebuilt graph costs no new trace nor XLA compile.
    """

    name = "jax"
    #: rewrite tags ``lazygraph.function`` leaves out for this backend
    excluded_tags: tuple[str, ...] = ("fusion", "inplace")
    #: the keyword options of :meth:`compile`, which ``lazygraph.function`` and
    #: ``cached_function`` take as ``compile_options``
    compile_options: tuple[str, ...] = ("in_shardings", "out_shardings", "device_arrays", "donate")
    #: how many compiled programs core's program cache keeps, least recently
    #: used dropped
    cache_size = 512
    #: copy results into writable numpy arrays (False: XLA's own buffers,
    #: read-only, no copy; saves a pass over large outputs). The environment
    #: variable ``LAZYGRAPH_JAX_WRITABLE_OUTPUTS=0`` sets it to False.
    writable_outputs = os.environ.get("LAZYGRAPH_JAX_WRITABLE_OUTPUTS", "1") not in _FALSE

    def compile(
        self,
        fgraph: FunctionGraph,
        *,
        in_shardings: Any = None,
        out_shardings: Any = None,
        device_arrays: bool = False,
        donate: bool = False,
    ) -> Callable[..., Sequence[Any]]:
        """A callable taking ``fgraph``'s input values in order and returning the
        list of its outputs (numpy arrays, or jax arrays with ``device_arrays``).

        ``in_shardings`` / ``out_shardings`` (``jax.sharding.Sharding`` objects,
        one per input / output or one for all) run the graph across devices;
        ``donate=True`` lets XLA reuse input buffers the graph no longer needs.

        >>> import numpy as np
        >>> import lazygraph.tensor as lt
        >>> from lazygraph.graph.fg import FunctionGraph
        >>> x = lt.dvector("x")
        >>> fn = backend.compile(FunctionGraph([x], [lt.sum(x * x)]))
        >>> fn(np.arange(3.0))
        [array(5.)]
        """
        from lazygraph.compile.backends import import_isolated

        # the linker imports jax, which draws from numpy's global random
        # stream: the first compile must not shift the user's numbers
        compile_graph = import_isolated("lazygraph.backends.jax.linker").compile_graph
        return compile_graph(  # type: ignore[no-any-return]
            fgraph,
            in_shardings=in_shardings,
            out_shardings=out_shardings,
            device_arrays=device_arrays,
            donate=donate,
            writable=self.writable_outputs,
        )

    def program_key(self, options: Mapping[str, Any]) -> Hashable:
        """What a compiled program depends on besides its graph's structure, so
        that core's one program cache (:func:`lazygraph.compile.cache.shared_program`)
        shares it between graphs of the same structure: the compile options, the
        output copying, and ``config.on_unsupported`` (a program compiled while
        host fallbacks were allowed must not be handed out when they must raise)."""
        from lazygraph.configuration import config

        return (
            config.on_unsupported,
            _hashable(options.get("in_shardings")),
            _hashable(options.get("out_shardings")),
            bool(options.get("device_arrays", False)),
            bool(options.get("donate", False)),
            self.writable_outputs,
        )

    def lowers(self, node: Any) -> str | None:
        """The capability query (see :func:`lazygraph.compile.backends.lowering_of`):
        None when ``node`` runs inside the jitted program, else why it runs on
        the host through its ``perform`` (a ``HOST_BY_DESIGN`` reason, or no
        lowering). Traces nothing."""
        from lazygraph.compile.backends import import_isolated

        dispatch = import_isolated("lazygraph.backends.jax.dispatch")
        lowering = dispatch.lowering_for(node)
        if lowering is None:
            return f"no jax lowering for {type(node.op).__name__}"
        host = lowering.host(node) if lowering.host is not None else None
        if host is not None:
            return f"{host}: {dispatch.HOST_BY_DESIGN[host]}"
        try:
            lowering.make(node.op, node, dispatch.Context())
        except dispatch.Unsupported as exc:
            reason = dispatch.HOST_BY_DESIGN.get(exc.by_design) if exc.by_design else None
            return f"{exc}: {reason}" if reason else str(exc)
        return None

    def load_devices(self) -> None:
        """Import the device support (:mod:`lazygraph.backends.jax.device`), which
        registers itself with :mod:`lazygraph.compile.devices`; may be the first
        import of jax, which must not shift the user's random numbers."""
        from lazygraph.compile.backends import import_isolated

        import_isolated("lazygraph.backends.jax.device")

    def clear_cache(self) -> None:
        """Forget every compiled program of this backend (in core's program cache)."""
        from lazygraph.compile.cache import clear_programs

        clear_programs(self.name)


def _hashable(obj: Any) -> Any:
    if isinstance(obj, (list, tuple)):
        return tuple(_hashable(o) for o in obj)
    return obj


backend: JaxBackend | None = JaxBackend() if importlib.util.find_spec("jax") is not None else None
