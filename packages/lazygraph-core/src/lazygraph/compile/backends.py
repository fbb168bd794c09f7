"""The backend registry.

A backend is a named object with ``compile(fgraph) -> callable``: the callable
takes the input values in ``fgraph.inputs`` order and returns the list of output
values. It must allow calls from several threads at once, and a call from
inside one of its own calls (the compile cache shares one compiled function
among all its users, with no lock): each call keeps its values in storage of
its own. ``python`` ships with core; other packages register theirs under the
``lazygraph.backends`` entry-point group (``name = "module:attribute"``), loaded
on first lookup so core never imports numba or jax itself.

Loading an entry point, like every lazy import of lazygraph, goes through
:func:`preserved_global_state`: what the backend's imports do to the user's
random streams, warnings filters, print options or signal handlers is undone.
A backend imports its heavy dependencies (numba, jax) the same way, on first
use, with :func:`import_isolated` (both are re-exported here, from
``lazygraph._global_state``, for the backends of other distributions).

Besides ``name`` and ``compile``, a backend may have (see :class:`Backend`):

- ``excluded_tags``: rewrite tags :func:`~lazygraph.compile.function` leaves
  out for it (jax: ``fusion``, ``inplace``);
- ``compile_options``: the names of the keyword options its ``compile``
  takes, which ``function(..., compile_options=...)`` and
  ``cached_function(..., compile_options=...)`` pass on (jax:
  ``in_shardings``, ``out_shardings``, ``device_arrays``, ``donate``);
- ``compile_profiled(fgraph, rows)``: a per-node profiled compile
  (:mod:`lazygraph.compile.profile`);
- ``load_devices()``: import its device support, which registers itself with
  :mod:`lazygraph.compile.devices` (``Array.to_device`` asks for it through
  :func:`lazygraph.compile.devices.load_devices`);
- ``program_key(options)``: opts into core's one program cache
  (:func:`lazygraph.compile.cache.shared_program`);
- ``lowers(node)``: the capability query. None when the backend compiles
  ``node`` itself; else why the node runs through its ``perform`` on the host
  (a design choice or a missing lowering). :func:`lowering_of` asks it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib.metadata import entry_points
from typing import Any, Protocol

from lazygraph._global_state import import_isolated, preserved_global_state
from lazygraph.graph.fg import FunctionGraph

__all__ = [
    "Backend",
    "available_backends",
    "get_backend",
    "import_isolated",
    "lowering_of",
    "op_label",
    "preserved_global_state",
    "register_backend",
]

ENTRY_POINT_GROUP = "lazygraph.backends"


def op_label(op: Any) -> str:
    """How a backend names an Op in its fallback warnings: the class, and the
    scalar op of an elementwise one (``Elemwise{exp}``).

    >>> import lazygraph.tensor as lt
    >>> op_label(lt.exp(lt.dvector()).owner.op)
    'Elemwise{exp}'
    """
    label = type(op).__name__
    scalar = getattr(op, "scalar_op", None)
    if scalar is not None:
        label += f"{{{getattr(scalar, 'name', scalar)}}}"
    return label


class Backend(Protocol):
    """What the registry needs of a backend: a ``name`` and ``compile(fgraph)``
    (the optional members are listed in the module docstring)."""

    name: str

    def compile(self, fgraph: FunctionGraph) -> Callable[..., Sequence[Any]]: ...


_registry: dict[str, Backend] = {}


def register_backend(backend: Backend, name: str | None = None) -> Backend:
    """Make ``backend`` available under ``name`` (default ``backend.name``)."""
    _registry[name or backend.name] = backend
    return backend


def _entry_point_backends() -> dict[str, Any]:
    return {ep.name: ep for ep in entry_points(group=ENTRY_POINT_GROUP)}


def get_backend(name: str) -> Backend:
    """The backend registered as ``name``, loading its entry point if needed.

    Raises ``ValueError`` listing the available backends if there is none, or
    if its package is installed but cannot provide it yet.
    """
    if name not in _registry:
        if name == "python":
            from lazygraph.compile import python_backend  # noqa: F401 (registers itself)
        else:
            ep = _entry_point_backends().get(name)
            if ep is not None:
                with preserved_global_state():
                    backend = ep.load()
                if backend is not None:
                    register_backend(backend, name)
    if name not in _registry:
        raise ValueError(
            f"no lazygraph backend named {name!r}; available: {', '.join(available_backends())}"
        )
    return _registry[name]


def lowering_of(node: Any, backend: str | None = None) -> str | None:
    """How ``backend`` (default ``config.backend``) runs the node ``node``:
    None when it compiles it itself, else the reason it runs through the
    node's ``perform`` (its answer to ``lowers``). The python backend runs
    every node through ``perform``, by design.

    >>> import lazygraph.tensor as lt
    >>> x = lt.dvector("x")
    >>> lowering_of((x + 1).owner, "python")
    'the python backend runs every node through its perform'
    """
    from lazygraph.configuration import config

    name = backend or config.backend
    if name == "python":
        return "the python backend runs every node through its perform"
    found = get_backend(name)
    query = getattr(found, "lowers", None)
    if query is None:
        return None  # a backend that does not say: it compiles what it is given
    return query(node)  # type: ignore[no-any-return]


def available_backends() -> list[str]:
    """Names of the backends that can be used now."""
    names = {"python", *_registry}
    for name, ep in _entry_point_backends().items():
        if name in names:
            continue
        try:
            with preserved_global_state():
                loaded = ep.load()
            if loaded is not None:
                names.add(name)
        except ImportError:
            continue
    return sorted(names)
