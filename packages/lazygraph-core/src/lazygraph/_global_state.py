"""Imports that leave the user's process-wide state alone.

lazygraph imports its heavy dependencies (a backend's jax or numba, scipy) on
first use, in the middle of the user's program. Some of them change global
state as they load: ``import jax`` (0.10) draws 5 numbers from numpy's global
random generator, ``import scipy.special`` adds a warnings filter. A user who
seeded ``numpy.random`` would then silently get other numbers after the first
``compute()`` on one backend than on another. Every lazy import of lazygraph
goes through :func:`import_isolated` (or runs inside
:func:`preserved_global_state`), which puts back what the import changed:

- numpy's and Python's global random streams (``numpy.random`` and ``random``),
- the warnings filters,
- numpy's print options and floating-point error handling,
- signal handlers (from the main thread, the only one that may set them),
- thread-count environment variables (``OMP_NUM_THREADS``, ``MKL_NUM_THREADS``...).

Other environment variables a library sets for its own later use (jax sets
``TF_CPP_MIN_LOG_LEVEL`` and ``TPU_SKIP_MDS_QUERY``, read when it starts a
device) are left as the library set them: removing them would change how the
library behaves, not restore the user's state.

>>> import numpy as np
>>> np.random.seed(0)
>>> with preserved_global_state():
...     _ = np.random.rand(5)  # what an import that draws numbers does
>>> float(np.random.rand())  # the user's stream is where it was
0.5488135039273248
"""

from __future__ import annotations

import contextlib
import importlib
import os
import random
import signal
import sys
import threading
import warnings
from collections.abc import Iterator
from types import ModuleType
from typing import Any

import numpy as np

__all__ = ["import_isolated", "preserved_global_state"]

# SIGKILL and SIGSTOP cannot be caught, so nobody can have changed them.
_SIGNALS = tuple(
    s
    for s in signal.valid_signals()
    if s not in {getattr(signal, "SIGKILL", None), getattr(signal, "SIGSTOP", None)}
)


def _is_thread_count_variable(name: str) -> bool:
    # OMP_NUM_THREADS, MKL_NUM_THREADS, OPENBLAS_NUM_THREADS, NUMBA_NUM_THREADS,
    # VECLIB_MAXIMUM_THREADS, NUMEXPR_MAX_THREADS...
    return "THREADS" in name.upper()


def _thread_variables() -> dict[str, str]:
    return {k: v for k, v in os.environ.items() if _is_thread_count_variable(k)}


def _signal_handlers() -> dict[int, Any]:
    handlers = {}
    for signum in _SIGNALS:
        try:
            handlers[signum] = signal.getsignal(signum)
        except (OSError, ValueError):
            continue
    return handlers


@contextlib.contextmanager
def preserved_global_state() -> Iterator[None]:
    """Run the block, then restore the process-wide state listed in the module
    docstring to what it was before the block.

    Meant for imports, which run once: a draw another thread makes from the
    global random streams while the block runs is undone as well.
    """
    numpy_random = np.random.get_state()
    python_random = random.getstate()
    print_options = np.get_printoptions()
    float_errors = np.geterr()
    threads = _thread_variables()
    main_thread = threading.current_thread() is threading.main_thread()
    handlers = _signal_handlers() if main_thread else {}
    # catch_warnings restores warnings.filters (and showwarning) on exit
    with warnings.catch_warnings():
        try:
            yield
        finally:
            np.random.set_state(numpy_random)
            random.setstate(python_random)
            if np.get_printoptions() != print_options:
                np.set_printoptions(**print_options)
            if np.geterr() != float_errors:
                np.seterr(**float_errors)
            for name in _thread_variables().keys() - threads.keys():
                del os.environ[name]
            for name, value in threads.items():
                if os.environ.get(name) != value:
                    os.environ[name] = value
            for signum, handler in handlers.items():
                # None: a handler installed from C, which Python cannot reinstall
                if handler is not None and signal.getsignal(signum) is not handler:
                    signal.signal(signum, handler)


def import_isolated(name: str) -> ModuleType:
    """``importlib.import_module(name)``, in :func:`preserved_global_state`
    when the module is not loaded yet (a loaded module costs a dict lookup)."""
    if name in sys.modules:
        # import_module, not the dict entry: it waits for another thread's
        # import of the module to finish
        return importlib.import_module(name)
    with preserved_global_state():
        return importlib.import_module(name)
