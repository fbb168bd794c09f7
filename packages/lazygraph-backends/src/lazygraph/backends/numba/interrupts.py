"""Ctrl-C during a Numba compile is held until the compile ends.

Numba's compiler is not safe to interrupt: a ``KeyboardInterrupt`` raised
between two of its bytecodes can end one of the generators its typing context
reads its registries from, and every later compile in the process then fails
with ``RuntimeError: generator raised StopIteration``. A user who presses
Ctrl-C while a kernel compiles (the moment they are most likely to) would have
to restart Python.

So while the calling thread holds Numba's compiler lock, the Python-level
handler of every signal that has one (``SIGINT``'s ``default_int_handler``, a
test's ``SIGALRM`` handler) is replaced by one that only records the signal;
when the outermost hold of the lock is released the handlers are put back and
each recorded signal's handler is run there, so the ``KeyboardInterrupt``
reaches the user a moment later, with Numba's state whole. Python runs signal
handlers on the main thread only, so compiles on other threads need nothing and
are left alone: the background worker's, and those of our generated kernels,
which compile on a thread of their own while the caller waits, so Ctrl-C reaches
that caller at once (see :mod:`.compiling`). The lock is also held while a
kernel's code is loaded from the disk cache, so that is covered too. The hold
begins as the main thread asks for the lock: if the background worker holds it,
Ctrl-C waits for the end of that compile as well.

The hook is a Numba event listener on ``numba:compiler_lock``, installed once
by :func:`install` (the linker calls it on import).

>>> import numba
>>> install()
>>> numba.njit(lambda x: x + 1)(41)
42
"""

from __future__ import annotations

import signal
import threading
from types import FrameType
from typing import Any

__all__ = ["install"]

_installed = False
#: signal number -> the handler we replaced, while the main thread compiles
_saved: dict[int, Any] = {}
#: signals that arrived while held, in arrival order
_held: list[int] = []


def _hold(signum: int, frame: FrameType | None) -> None:
    _held.append(signum)


def _on_main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


def _swap_handlers() -> None:
    """Replace each Python-level handler by :func:`_hold`. Idempotent: a swap
    cut short by a signal is finished by the next call."""
    for signum in signal.valid_signals():
        try:
            handler = signal.getsignal(signum)
        except (OSError, ValueError):  # pragma: no cover - platform specific
            continue
        if callable(handler) and handler is not _hold:
            _saved[signum] = signal.signal(signum, _hold)


def _restore_and_deliver() -> None:
    """Put the replaced handlers back, then run the handler of each signal that
    arrived meanwhile (its exception, usually ``KeyboardInterrupt``, leaves
    from here: after Numba released its lock)."""
    for signum, handler in list(_saved.items()):
        signal.signal(signum, handler)
        del _saved[signum]
    arrived = list(dict.fromkeys(_held))
    _held.clear()
    first: BaseException | None = None
    for signum in arrived:
        handler = signal.getsignal(signum)
        if not callable(handler):
            continue
        try:
            handler(signum, None)
        except BaseException as exc:
            first = first or exc
    if first is not None:
        raise first


def install() -> None:
    """Register the listener with Numba's event system (once per process)."""
    global _installed
    if _installed:
        return
    from numba.core import event
    from numba.core.compiler_lock import global_compiler_lock

    class _HoldSignals(event.Listener):  # type: ignore[misc]
        def on_start(self, evt: Any) -> None:
            if _on_main_thread() and not global_compiler_lock.is_locked():
                try:
                    _swap_handlers()
                except BaseException:
                    # A handler not yet swapped raised: the lock will not be
                    # taken, so no end event would put the others back.
                    _restore_and_deliver()
                    raise

        def on_end(self, evt: Any) -> None:
            # The end event follows the release: not owned any more means the
            # outermost hold ended.
            if (_saved or _held) and _on_main_thread() and not global_compiler_lock.is_locked():
                _restore_and_deliver()

    event.register("numba:compiler_lock", _HoldSignals())
    _installed = True
