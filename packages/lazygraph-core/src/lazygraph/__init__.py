"""lazygraph: numpy code recorded into a typed graph, rewritten, and compiled.

The user-facing verbs live here; the machinery lives in subpackages:
``lazygraph.graph`` (Variable, Apply, Op, Type, FunctionGraph),
``lazygraph.rewriting`` (rewriters and their databases), ``lazygraph.printing``,
``lazygraph.compile`` (``function`` and backends), and, from the sibling
distributions, ``lazygraph.numpy`` and ``lazygraph.backends``.

Core owns ``function``, ``config`` and ``dprint``. The transforms (``grad``,
``value_and_grad``, ``jacobian``, ``hessian``, ``jit``), ``compute`` and ``persist`` trace
Python functions over ``lazygraph.numpy`` arrays, so they live in the
lazygraph-numpy-api distribution (``lazygraph.numpy.transforms``); this module
offers them by name when that distribution is installed, and otherwise says
which one to install. Names are imported on first use, so ``import lazygraph``
stays cheap.
``lazygraph.__version__`` is the installed lazygraph-core's version.
"""

from __future__ import annotations

import importlib
from typing import Any

# The import package is shared by three distributions (lazygraph-core,
# lazygraph-numpy-api, lazygraph-backends). In editable installs each one puts
# its own ``src`` directory on sys.path; extending __path__ lets
# ``lazygraph.numpy`` and ``lazygraph.backends`` be found next to core. (Written
# this way, not with ``import pkgutil``, so documentation tools see it too.)
__path__ = __import__("pkgutil").extend_path(__path__, __name__)

# public name -> "module:attribute"
_LAZY_ATTRIBUTES: dict[str, str] = {
    "compute": "lazygraph.numpy:compute",
    "cond": "lazygraph.numpy.transforms:cond",
    "config": "lazygraph.configuration:config",
    "dprint": "lazygraph.printing:dprint",
    "fori_loop": "lazygraph.numpy.transforms:fori_loop",
    "function": "lazygraph.compile.function:function",
    "grad": "lazygraph.numpy.transforms:grad",
    "hessian": "lazygraph.numpy.transforms:hessian",
    "hvp": "lazygraph.numpy.transforms:hvp",
    "jacfwd": "lazygraph.numpy.transforms:jacfwd",
    "jacobian": "lazygraph.numpy.transforms:jacobian",
    "jacrev": "lazygraph.numpy.transforms:jacrev",
    "jit": "lazygraph.numpy.transforms:jit",
    "jvp": "lazygraph.numpy.transforms:jvp",
    "linearize": "lazygraph.numpy.transforms:linearize",
    "persist": "lazygraph.numpy:persist",
    "scan": "lazygraph.numpy.transforms:scan",
    "value_and_grad": "lazygraph.numpy.transforms:value_and_grad",
    "vjp": "lazygraph.numpy.transforms:vjp",
    "while_loop": "lazygraph.numpy.transforms:while_loop",
}

__all__ = sorted(_LAZY_ATTRIBUTES)


def _distribution_version(distribution: str) -> str:
    """The installed version of ``distribution``; ``"0+unknown"`` (a valid
    version that sorts below every release) when it is not installed, as when
    running from a source tree put on sys.path by hand."""
    from importlib import metadata

    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "0+unknown"


def __getattr__(name: str) -> Any:
    if name == "__version__":
        # read from the installed metadata on first use (importlib.metadata is
        # not free to import), so it is the version pip installed
        version = _distribution_version("lazygraph-core")
        globals()["__version__"] = version
        return version
    target = _LAZY_ATTRIBUTES.get(name)
    if target is None:
        raise AttributeError(f"module 'lazygraph' has no attribute {name!r}")
    module_name, attr = target.split(":")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name is None or not module_name.startswith(exc.name):
            raise
        raise AttributeError(
            f"lazygraph.{name} traces Python functions over lazygraph.numpy arrays and comes "
            "with the lazygraph-numpy-api distribution, which is not installed "
            "(pip install lazygraph-numpy-api)"
        ) from exc
    value = getattr(module, attr)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_LAZY_ATTRIBUTES) | {"__version__"})
