"""Errors at the namespace boundary name the public function and the user's line.

Every public function of ``lazygraph.numpy`` and of its ``linalg`` and ``fft``
submodules, and every public method of :class:`~lazygraph.numpy.Array`, is
wrapped once, where the namespace is assembled, by :func:`names_errors`
(``random`` passes numpy's own errors through). When a call raises one of numpy's public exception
types (``ValueError``, ``TypeError``, ``IndexError``, ``AxisError``,
``ZeroDivisionError``, ``OverflowError``) and the message does not already
start with the function's name, the message gets the ``"name: "`` prefix; the
exception *type* is never changed, so ``except ValueError`` code written
against numpy keeps working. A note (shown in the traceback) gives the user's
call site: the first frame outside lazygraph.

Only the outermost public call renames an error, so ``linalg.norm`` failing
inside another public function still reads as the function the user called.

>>> import lazygraph.numpy as lnp
>>> try:
...     lnp.sum([[1.0, 2.0], [3.0]])
... except ValueError as exc:
...     print(str(exc)[:50])
sum: setting an array element with a sequence. The
"""

from __future__ import annotations

import functools
import inspect
import sys
from collections.abc import Callable, Iterable, MutableMapping
from typing import Any, TypeVar

import numpy as np
from numpy.exceptions import AxisError

__all__ = ["UnsupportedArgumentsError"]


class UnsupportedArgumentsError(NotImplementedError):
    """A lazygraph.numpy function does not support these arguments (numpy does).

    numpy's own function called on lazy arrays (``__array_function__``,
    ``__array_ufunc__``) then runs in numpy on the computed values; only this
    type does that: any other ``NotImplementedError`` (a bug, an Op without a
    ``perform``) propagates rather than silently running eager numpy."""


F = TypeVar("F", bound=Callable[..., Any])

#: The exception types whose messages are named (numpy's public error types).
NAMED_ERRORS = (ValueError, TypeError, IndexError, ZeroDivisionError, OverflowError)

_numpy_call: Any = None  # (lazygraph.numpy._foreign.numpy_call, set at the first wrap)

#: operand types no other array library claims (see _foreign); Array is added
#: by lazygraph.numpy._array
_ARRAYISH: set[type] = {np.ndarray, float, int, bool, complex, np.float64}


def _outermost(frame: Any) -> bool:
    """Whether the public call whose caller is ``frame`` is the one the user
    made: no other public call encloses it before the stack leaves lazygraph.
    Checked only when an error is raised, so calls cost nothing more."""
    while frame is not None:
        if frame.f_code is _NAMED_CODE:
            return False
        module = frame.f_globals.get("__name__", "")
        if module != "lazygraph" and not module.startswith("lazygraph."):
            return True
        frame = frame.f_back
    return True


def _user_site() -> str | None:
    """``file:line`` of the innermost frame outside lazygraph (the user's call)."""
    frame = sys._getframe(2)
    while frame is not None:
        module = frame.f_globals.get("__name__", "")
        if module != "lazygraph" and not module.startswith("lazygraph."):
            return f"{frame.f_code.co_filename}:{frame.f_lineno}"
        frame = frame.f_back  # type: ignore[assignment]
    return None


def _renamed(exc: BaseException, name: str) -> BaseException:
    """``exc`` (or a copy of its exact type) with the message ``"name: ..."``."""
    message = str(exc)
    short = name.rsplit(".", 1)[-1]
    if message.startswith((f"{name}:", f"{short}:", f"{short}(")):
        return exc
    if isinstance(exc, AxisError):
        if exc.axis is not None and exc.ndim is not None:
            prefix = exc._msg if getattr(exc, "_msg", None) else None  # type: ignore[attr-defined]
            renamed = AxisError(exc.axis, exc.ndim, f"{name}: {prefix}" if prefix else name)
        else:
            renamed = AxisError(f"{name}: {message}")
        if type(renamed) is type(exc):
            return renamed
        return exc
    new_message = f"{name}: {message}"
    if len(exc.args) <= 1:
        old_args = exc.args
        exc.args = (new_message,)
        if str(exc) == new_message:
            return exc
        exc.args = old_args
    try:
        renamed = type(exc)(new_message)
    except Exception:
        return exc
    return renamed if str(renamed) == new_message else exc


def names_errors(func: F, name: str | None = None, numpy_function: bool = True) -> F:
    """``func`` with its errors named ``name`` (default: ``func.__name__``).

    >>> def f(x):
    ...     raise ValueError("bad x")
    >>> try:
    ...     names_errors(f, "linalg.f")(1)
    ... except ValueError as exc:
    ...     print(exc)
    linalg.f: bad x
    """
    if getattr(func, "__lazygraph_names_errors__", False):
        return func
    public = name or func.__name__
    from lazygraph.numpy._foreign import deferring_function, numpy_call

    global _numpy_call
    _numpy_call = numpy_call

    # (``numpy_function``: ``func`` stands for numpy's function named ``public``,
    # not for a method of that name)
    # a ufunc, or a function numpy lets an argument's own method answer: numpy's
    # function when an argument's type has its own meaning (see _foreign)
    defers = deferring_function(public) if numpy_function else None
    # numpy's names for arguments this function takes by position only or names
    # otherwise (the array API's ``x`` of ``linalg.inv``, numpy's ``a``): read
    # from the signatures at the first call with keywords, not at import
    renames: list[Any] = [] if numpy_function else [None]

    @functools.wraps(func)
    def named(*args: Any, **kwargs: Any) -> Any:
        if kwargs:
            if not renames:
                renames.append(_numpy_keywords(func, public))
            if renames[0] is not None and not renames[0].keys().isdisjoint(kwargs):
                args, kwargs = _by_position(args, kwargs, renames[0], public)
        try:
            if args:  # known operands: the signature's recorded plan (_replay)
                got = _replay_call(func, args, kwargs)
                if got is not _MISS:
                    return got
            if defers is not None:
                for arg in args:
                    if type(arg) not in _ARRAYISH:  # (the common operands: no look)
                        numpy_function = defers(args, kwargs)
                        if numpy_function is not None and _outermost(sys._getframe(1)):
                            return _numpy_call(numpy_function, *args, **kwargs)
                        break
            return func(*args, **kwargs)
        except NAMED_ERRORS as exc:
            if not _outermost(sys._getframe(1)):
                raise
            renamed = _renamed(exc, public)
            site = _user_site()
            if site is not None:
                renamed.add_note(f"(lazygraph.numpy.{public} called at {site})")
            if renamed is exc:
                raise
            raise renamed.with_traceback(exc.__traceback__) from exc.__cause__

    named.__lazygraph_names_errors__ = True  # type: ignore[attr-defined]
    return named  # type: ignore[return-value]


def _numpy_keywords(func: Callable[..., Any], public: str) -> dict[str, int] | None:
    """``{numpy's name: position}`` for the leading parameters numpy's function
    ``public`` takes by keyword too where ``func`` takes them by position only
    or under another name; None when there are none."""
    numpy_function: Any = np
    for part in public.split("."):
        numpy_function = getattr(numpy_function, part, None)
    if not callable(numpy_function) or isinstance(numpy_function, (np.ufunc, type)):
        return None
    try:
        theirs = list(inspect.signature(numpy_function).parameters.values())
        ours = inspect.signature(func).parameters
    except (TypeError, ValueError):
        return None
    positional = [p for p in ours.values() if p.kind in (_POSITIONAL_ONLY, _POSITIONAL)]
    renames = {}
    for k, p in enumerate(theirs[: len(positional)]):
        if p.kind is not _POSITIONAL:
            break
        mine = positional[k]
        elsewhere = p.name not in ours or ours[p.name].kind is _POSITIONAL_ONLY
        if (mine.kind is _POSITIONAL_ONLY or mine.name != p.name) and elsewhere:
            renames[p.name] = k
    return renames or None


_POSITIONAL_ONLY = inspect.Parameter.POSITIONAL_ONLY
_POSITIONAL = inspect.Parameter.POSITIONAL_OR_KEYWORD


def _by_position(
    args: tuple[Any, ...], kwargs: dict[str, Any], renames: dict[str, int], public: str
) -> tuple[tuple[Any, ...], dict[str, Any]]:
    """The call with the arguments given under numpy's names moved to their
    positions (``linalg.solve(a=A, b=B)`` is ``solve(A, B)``)."""
    kwargs = dict(kwargs)
    placed = list(args)
    for name, position in sorted(renames.items(), key=lambda item: item[1]):
        if name not in kwargs:
            continue
        if position < len(placed):
            raise TypeError(f"{public}() got multiple values for argument {name!r}")
        if position > len(placed):
            break  # an earlier argument is missing: the call's own TypeError
        placed.append(kwargs.pop(name))
    return tuple(placed), kwargs


def _replay_call(func: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """lazygraph.numpy._replay.call, imported at the first call (it imports the
    namespace's modules, which import this one)."""
    global _replay_call, _MISS
    from lazygraph.numpy import _replay

    _replay_call, _MISS = _replay.call, _replay.MISS
    return _replay.call(func, args, kwargs)


_MISS: Any = object()

#: The code of every wrapper :func:`names_errors` makes (they share one body).
_NAMED_CODE = names_errors(lambda: None, "_").__code__


#: original function -> its wrapper, so that aliases (``abs`` / ``absolute``) and
#: re-exports (``linalg.matmul`` / ``matmul``) stay one and the same object.
_WRAPPED: dict[Callable[..., Any], Callable[..., Any]] = {}


def name_public_errors(
    namespace: MutableMapping[str, Any], names: Iterable[str], prefix: str = ""
) -> None:
    """Wrap, in ``namespace`` (a module's globals), every lazygraph function listed
    in ``names`` with :func:`names_errors`. A function is named by its own
    ``__name__`` (the canonical one of its aliases), with ``prefix`` when it is
    defined in that module (``linalg.inv``, but ``matmul`` for the re-export)."""
    for attr in names:
        value = namespace.get(attr)
        if not inspect.isfunction(value) or getattr(value, "__lazygraph_names_errors__", False):
            continue
        if not value.__module__.startswith("lazygraph."):
            continue  # numpy's own helpers re-exported as they are (printoptions)
        wrapped = _WRAPPED.get(value)
        if wrapped is None:
            local = value.__module__ == namespace.get("__name__")
            name = (prefix if local else "") + value.__name__
            wrapped = _WRAPPED[value] = names_errors(value, name)
        namespace[attr] = wrapped


def name_method_errors(cls: type) -> None:
    """Wrap, on ``cls`` and its bases from lazygraph.numpy, every public method
    (plain functions, not properties or dunders) with :func:`names_errors`, so
    ``x.transpose(0, 0)`` names ``transpose`` as ``lazygraph.numpy.transpose``
    would."""
    for klass in cls.__mro__:
        if not klass.__module__.startswith("lazygraph.numpy"):
            continue
        for attr, value in list(vars(klass).items()):
            if not attr.startswith("_") and inspect.isfunction(value):
                setattr(klass, attr, names_errors(value, attr, numpy_function=False))
