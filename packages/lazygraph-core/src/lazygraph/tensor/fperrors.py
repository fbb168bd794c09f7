"""numpy's floating-point error handling: calls that ignore errors, and calls
whose errors are reported as numpy reports them.

Two states of numpy's error handling (``np.errstate``), each made once and set
through the context variable numpy's ``errstate`` sets (numpy >= 2.0), which
costs a fraction of building an ``np.errstate`` per call:

- :class:`quiet` / :func:`call_quietly`: errors ignored, for lazygraph's own
  numpy calls (masks, checks, a backend's ``perform``);
- :class:`watching` / :func:`call_watched`: errors *collected* (numpy's
  ``"call"`` mode with a callback that records the status flags), for the calls
  that compute a value the user asked for. Afterwards :func:`report` does what
  the user's own error state says (``np.seterr`` / ``np.errstate``): warn with
  numpy's ``RuntimeWarning`` at the user's line ("divide by zero encountered in
  log"), raise ``FloatingPointError``, call the ``seterrcall`` function, print
  or log.

A ``quiet`` inside a ``watching`` block keeps watching, so an Op's ``perform``
(which ignores errors itself) reports them when a watcher runs it. A compiled
kernel sets the processor's floating-point status flags instead; a backend
running one inside a ``watching`` block hands them over with
:func:`collect_hardware` (numpy's next ufunc call would clear them), and calls
:func:`note_unseen` when a kernel ran on other threads, whose flags no one can
read (the caller then looks at the results instead).

>>> import warnings
>>> import numpy as np
>>> with quiet():
...     np.log(np.zeros(2))
array([-inf, -inf])
>>> call_quietly(np.divide, 1.0, 0.0)
np.float64(inf)
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     _ = call_watched(np.log, np.zeros(2))
>>> str(caught[0].message)
'divide by zero encountered in log'
"""

from __future__ import annotations

import ctypes
import ctypes.util
import platform
import sys
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
from numpy._core.umath import _extobj_contextvar, _make_extobj

__all__ = [
    "call_quietly",
    "call_watched",
    "collect",
    "collect_hardware",
    "discard_hardware",
    "kept_state",
    "note_unseen",
    "op_name",
    "quiet",
    "report",
    "reporting",
    "watched",
    "watching",
]

_get = _extobj_contextvar.get
_set = _extobj_contextvar.set
_reset = _extobj_contextvar.reset

#: numpy's status bits, and the words of its messages, in the order numpy reports
DIVIDE, OVERFLOW, UNDERFLOW, INVALID = 1, 2, 4, 8
_KINDS = (
    ("divide", "divide by zero", DIVIDE),
    ("over", "overflow", OVERFLOW),
    ("under", "underflow", UNDERFLOW),
    ("invalid", "invalid value", INVALID),
)

# [status flags collected while watching, whether a kernel ran where its flags
# could not be read]; one process-wide pair, as the processor's flags are per
# thread and numpy's are per call: only which warnings show can mix between
# threads that watch at once, never a value
_STATE = [0, False]


def _note(kind: str, status: int) -> None:
    _STATE[0] |= status


_IGNORE = _make_extobj(all="ignore")
_WATCH = _make_extobj(all="call", call=_note)


class quiet:  # noqa: N801 (used as np.errstate is: a lower-case context)
    """A context in which numpy ignores floating-point errors (as
    ``np.errstate(all="ignore")``), or inside a :class:`watching` block, keeps
    collecting them; one instance per ``with``."""

    __slots__ = ("_token",)

    def __enter__(self) -> None:
        self._token = None if _get() is _WATCH else _set(_IGNORE)

    def __exit__(self, *exc: object) -> None:
        if self._token is not None:
            _reset(self._token)


class kept_state:  # noqa: N801 (used as np.errstate is: a lower-case context)
    """Puts numpy's error state back as the block found it, should an interrupt
    have cut short a :class:`quiet` or :class:`watching` inside it (a Ctrl-C
    between setting the state and the ``try`` that resets it): the user's
    ``np.log(0)`` would otherwise stop warning for the rest of the session.

    >>> before = np.geterr()
    >>> with kept_state():
    ...     _ = _set(_IGNORE)  # as an interrupted block leaves it
    >>> np.geterr() == before
    True
    """

    __slots__ = ("_found",)

    def __enter__(self) -> None:
        self._found = _get()

    def __exit__(self, *exc: object) -> None:
        if _get() is not self._found:
            _set(self._found)


def call_quietly(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` with numpy's floating-point errors ignored (collected,
    inside a :class:`watching` block)."""
    if _get() is _WATCH:
        return fn(*args)
    token = _set(_IGNORE)
    try:
        return fn(*args)
    finally:
        _reset(token)


# -- the processor's flags ----------------------------------------------------


def _hardware() -> tuple[Callable[[int], int], Callable[[int], int], int, dict[int, int]] | None:
    """(fetestexcept, feclearexcept, the mask of the four flags, flag -> numpy
    bit) from the C library, or None where they cannot be had."""
    machine = platform.machine().lower()
    if machine in ("x86_64", "amd64", "i386", "i686"):
        bits = {0x04: DIVIDE, 0x08: OVERFLOW, 0x10: UNDERFLOW, 0x01: INVALID}
    elif machine in ("aarch64", "arm64"):
        bits = {0x02: DIVIDE, 0x04: OVERFLOW, 0x08: UNDERFLOW, 0x01: INVALID}
    else:  # pragma: no cover - other processors: the results are looked at instead
        return None
    try:
        name = ctypes.util.find_library("m") or ctypes.util.find_library("c")
        lib = ctypes.CDLL(name) if name else ctypes.CDLL(None)
        test, clear = lib.fetestexcept, lib.feclearexcept
    except (OSError, AttributeError):  # pragma: no cover - no C99 fenv (Windows)
        return None
    test.argtypes = clear.argtypes = [ctypes.c_int]
    test.restype = clear.restype = ctypes.c_int
    return test, clear, sum(bits), bits


_HW = _hardware()


def collect_hardware() -> None:
    """Inside a :class:`watching` block, move the floating-point flags a
    compiled kernel set on this thread into the collected status (and clear
    them); elsewhere, nothing. A backend calls this after each kernel."""
    if _get() is not _WATCH:
        return
    if _HW is None:  # pragma: no cover - no flags to read: look at the results
        _STATE[1] = True
        return
    test, clear, mask, bits = _HW
    flags = test(mask)
    if flags:
        clear(mask)
        for flag, bit in bits.items():
            if flags & flag:
                _STATE[0] |= bit


def discard_hardware() -> None:
    """Inside a :class:`watching` block, clear this thread's floating-point
    flags unread: for a backend whose runtime sets them only some of the time
    (XLA computes on its own threads, and sometimes on this one), so that
    what is reported never depends on where it ran."""
    if _HW is not None and _get() is _WATCH:
        _HW[1](_HW[2])


def watched() -> bool:
    """Whether a :class:`watching` block is collecting errors here (a backend
    then calls :func:`collect_hardware` after each kernel)."""
    return _get() is _WATCH


def note_unseen() -> None:
    """Inside a :class:`watching` block, say that a computation ran where its
    floating-point flags cannot be read (other threads, an XLA runtime): the
    watcher then looks at the results for values an error makes."""
    if _get() is _WATCH:
        _STATE[1] = True


# -- watching and reporting -----------------------------------------------------

# the user's error state (numpy's extobj) -> the bits of the kinds it reports
_MASKS: dict[Any, int] = {}


def reporting() -> int:
    """The status bits of the kinds of floating-point error the current state
    (``np.seterr`` / ``np.errstate``) does something for: 0 when it ignores
    them all (numpy's default reports divide, over and invalid: ``"warn"``)."""
    user = _get()
    if user is _WATCH:
        return 0  # (a watcher already collects)
    mask = _MASKS.get(user)
    if mask is None:
        modes = np.geterr()
        mask = sum(bit for key, _, bit in _KINDS if modes[key] != "ignore")
        if len(_MASKS) > 64:
            _MASKS.clear()
        _MASKS[user] = mask
    return mask


class watching:  # noqa: N801 (a context, as np.errstate)
    """Collect the floating-point errors of the numpy calls (and, through
    :func:`collect_hardware`, of the compiled kernels) made in the block;
    afterwards ``status`` holds numpy's status bits and ``unseen`` whether some
    computation's flags could not be read. Blocks nest: an inner one collects
    its own, and the outer one gets them too."""

    __slots__ = ("_saved", "_token", "status", "unseen")

    def __enter__(self) -> watching:
        self._saved = (_STATE[0], _STATE[1])
        _STATE[0] = 0
        _STATE[1] = False
        if _HW is not None:
            _HW[1](_HW[2])  # flags left from before are not this block's
        self._token = _set(_WATCH)
        return self

    def __exit__(self, *exc: object) -> None:
        try:
            collect_hardware()
        finally:  # a Ctrl-C landing in it must not leave numpy watching
            _reset(self._token)
        self.status = _STATE[0]
        self.unseen = _STATE[1]
        _STATE[0] = self._saved[0] | self.status
        _STATE[1] = self._saved[1] or self.unseen


def call_watched(fn: Callable[..., Any], *args: Any, name: str | None = None) -> Any:
    """``fn(*args)``, its floating-point errors reported as numpy would report
    them for ``name`` (default: ``fn.__name__``) under the user's error state."""
    user = _get()
    if user is _WATCH:
        return fn(*args)  # (an enclosing watcher reports)
    mask = reporting()
    if not mask:
        token = _set(_IGNORE)
        try:
            return fn(*args)
        finally:
            _reset(token)
    out, status = collect(fn, *args)
    if status & mask:
        report(status, name or getattr(fn, "__name__", "ufunc"))
    return out


def collect(fn: Callable[..., Any], *args: Any) -> tuple[Any, int]:
    """``fn(*args)`` and the status bits of the floating-point errors its numpy
    calls met (theirs alone: an enclosing :class:`watching` block does not
    see them), for the caller to :func:`report` under a name of its choosing."""
    saved = _STATE[0]
    _STATE[0] = 0
    token = _set(_WATCH)
    try:
        out = fn(*args)
    finally:
        _reset(token)
        status = _STATE[0]
        _STATE[0] = saved
    return out, status


def _user_stacklevel() -> int:
    """The ``stacklevel`` of a warning issued by :func:`report` that points at
    the first frame outside lazygraph (the user's line)."""
    frame = sys._getframe(2)  # report's caller
    level = 2
    while frame is not None:
        module = frame.f_globals.get("__name__") or ""
        if module != "lazygraph" and not module.startswith("lazygraph."):
            break
        frame = frame.f_back  # type: ignore[assignment]
        level += 1
    return level


def report(status: int, name: str) -> None:
    """Do what the user's error state says for the errors in ``status``
    (numpy's bits), as numpy does for a ufunc called ``name``: for each kind,
    in numpy's order, nothing (``"ignore"``), a ``RuntimeWarning`` at the
    user's line (``"warn"``), ``FloatingPointError`` (``"raise"``), the
    ``np.seterrcall`` function (``"call"``) or its ``write`` method (``"log"``),
    or a line on stderr (``"print"``)."""
    modes = np.geterr()
    for key, words, bit in _KINDS:
        if not status & bit:
            continue
        mode = modes[key]
        if mode == "ignore":
            continue
        message = f"{words} encountered in {name}"
        if mode == "warn":
            warnings.warn(message, RuntimeWarning, stacklevel=_user_stacklevel())
        elif mode == "raise":
            raise FloatingPointError(message)
        elif mode == "call":
            np.geterrcall()(words, status)  # type: ignore[misc]
        elif mode == "log":
            np.geterrcall().write(f"Warning: {message}\n")  # type: ignore[union-attr]
        else:  # "print"
            sys.stderr.write(f"Warning: {message}\n")


def op_name(op: Any) -> str:
    """The name numpy's message gives for what ``op`` computes: the ufunc's name
    for an elementwise op (``"log"``, ``"divide"``), ``"reduce"`` for a
    reduction, ``"matmul"`` for a matrix product, else the Op's own name."""
    row = getattr(getattr(op, "scalar_op", None), "row", None)
    if row is not None:
        return str(row.numpy_name)
    kind = type(op).__name__
    if "Reduce" in kind or "CAReduce" in kind:
        return "reduce"
    if kind in ("MatMul", "Dot", "Dot22", "Gemm", "Gemv", "Ger"):
        return "matmul"
    return kind.lower()
