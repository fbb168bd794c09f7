"""numpy calls with floating-point errors ignored, cheaply.

Every backend computes without floating-point warnings (a kernel cannot warn),
so ``perform`` and the eager paths call numpy with errors ignored. numpy's
``np.errstate(all="ignore")`` builds its error-state object on every entry
(~3 us, more than a small ufunc call itself); :class:`quiet` sets the same
state, made once, through the context variable numpy's ``errstate`` sets
(numpy >= 2.0), and falls back to ``np.errstate`` where numpy has none.

>>> import numpy as np
>>> with quiet():
...     np.log(np.zeros(2))
array([-inf, -inf])
>>> call_quietly(np.divide, 1.0, 0.0)
np.float64(inf)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = ["call_quietly", "quiet"]

try:  # numpy >= 2.0: the error state is a context variable
    from numpy._core.umath import _extobj_contextvar, _make_extobj

    _IGNORE = _make_extobj(all="ignore")
    _set = _extobj_contextvar.set
    _reset = _extobj_contextvar.reset
except (ImportError, AttributeError, TypeError):  # pragma: no cover - other numpy
    _set = None


if _set is not None:

    class quiet:  # noqa: N801 (used as np.errstate is: a lower-case context)
        """A context in which numpy ignores floating-point errors (as
        ``np.errstate(all="ignore")``); one instance per ``with``."""

        __slots__ = ("_token",)

        def __enter__(self) -> None:
            self._token = _set(_IGNORE)

        def __exit__(self, *exc: object) -> None:
            _reset(self._token)

    def call_quietly(fn: Callable[..., Any], *args: Any) -> Any:
        """``fn(*args)`` with numpy's floating-point errors ignored."""
        token = _set(_IGNORE)
        try:
            return fn(*args)
        finally:
            _reset(token)

else:  # pragma: no cover - numpy without the context variable

    def quiet() -> Any:  # type: ignore[no-redef]
        return np.errstate(all="ignore")

    def call_quietly(fn: Callable[..., Any], *args: Any) -> Any:
        with np.errstate(all="ignore"):
            return fn(*args)
