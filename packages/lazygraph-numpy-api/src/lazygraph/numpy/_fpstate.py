"""numpy's floating-point error state, honoured: ``errstate``, ``seterr`` and
their warnings, on every backend.

``np.seterr``, ``np.geterr``, ``np.seterrcall`` and ``np.geterrcall`` are
numpy's own: lazygraph reads numpy's state where a value is computed.

- A call computed at once (small known operands) runs numpy's ufunc or the
  Op's ``perform`` with the errors collected, and reports them at once, as
  numpy would (see :mod:`lazygraph.tensor.fperrors`).
- A deferred graph is computed with the errors collected: the numpy calls of
  the python backend's ``perform``, the processor's flags after each numba
  kernel, and where a kernel ran on other threads (jax, numba's multithreaded
  kernels), non-finite values in the results. When something was seen, the
  graph as recorded is run again node by node with numpy (:func:`replay`), and
  each node's errors are reported for that node, at the line that asked for
  the value. So the warnings are numpy's, for the operations the program wrote,
  never for a rewritten form's intermediate (and a stabilised form that does
  not overflow may leave an overflow of the written form unreported).
- :class:`errstate` computes, when its block ends, the arrays the block made
  that are still to be computed, so that they meet the block's state and not
  the one in force when they would otherwise be computed.

>>> import warnings
>>> import numpy
>>> import lazygraph.numpy as lnp
>>> x = lnp.asarray(numpy.zeros(3))
>>> with warnings.catch_warnings(record=True) as caught:
...     warnings.simplefilter("always")
...     y = lnp.log(x)
>>> str(caught[0].message)
'divide by zero encountered in log'
>>> with lnp.errstate(divide="ignore"):
...     y = lnp.log(x)
>>> y.compute()
array([-inf, -inf, -inf])
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from typing import Any

import numpy as np
from lazygraph.graph.basic import Constant, Variable
from lazygraph.graph.traversal import io_toposort
from lazygraph.tensor.fperrors import op_name, quiet, report, watching

__all__ = ["defer_report", "errstate", "replay"]

# values computed at once whose errors wait until the value itself is read:
# an ``exp(x)`` a stabilising rule may read through (``log(sum(exp(x)))``
# overflows in numpy; its rewritten form does not) -> (status bits, name)
_DEFERRED: weakref.WeakKeyDictionary[Variable, tuple[int, str]] = weakref.WeakKeyDictionary()


def defer_report(var: Variable, status: int, name: str) -> None:
    """Report the errors ``status`` of computing ``var`` (for ``name``) when
    ``var``'s value is read (:func:`read`), not when a rule reads its
    expression instead."""
    _DEFERRED[var] = (status, name)


def read(var: Variable) -> None:
    """``var``'s value is read: report the errors deferred for it, once."""
    if not _DEFERRED.data:  # (the common case, cheaply)
        return
    got = _DEFERRED.pop(var, None)
    if got is not None:
        report(*got)


def nonfinite(values: Sequence[Any]) -> bool:
    """Whether a float or complex value in ``values`` holds a NaN or an infinity."""
    for v in values:
        if getattr(v, "dtype", None) is not None and v.dtype.kind in "fc" and v.size:
            with quiet():
                if not np.isfinite(v.sum()):  # (one pass; NaN and inf survive a sum)
                    return True
    return False


def replay(inputs: Sequence[Variable], outputs: Sequence[Variable], bound: Any) -> None:
    """Run the recorded graph from ``inputs`` (values in ``bound``) to
    ``outputs`` node by node with each Op's ``perform``, reporting each node's
    floating-point errors as numpy would for it."""
    values: dict[Variable, Any] = {v: bound[v] for v in inputs}
    for node in io_toposort(list(inputs), list(outputs)):
        ins = [
            v.data if isinstance(v, Constant) else values[v]  # type: ignore[attr-defined]
            for v in node.inputs
        ]
        storage: list[list[Any]] = [[None] for _ in node.outputs]
        with watching() as errors:
            node.op.perform(node, ins, storage)
        for out, cell in zip(node.outputs, storage, strict=True):
            values[out] = cell[0]
        if errors.status:
            report(errors.status, op_name(node.op))


class errstate(np.errstate):  # noqa: N801 (numpy's name)
    """``numpy.errstate``, which also computes, when the block ends, the arrays
    made in it that are still to be computed, under the block's error state.

    >>> import numpy
    >>> import lazygraph.numpy as lnp
    >>> big = lnp.asarray(numpy.zeros(1_000_000))
    >>> with lnp.errstate(divide="ignore"):
    ...     y = 1.0 / big  # a deferred graph, computed as the block ends
    >>> float(y[0])
    inf
    """

    def __enter__(self) -> None:
        from lazygraph.numpy._array import _LIVE

        self._lazygraph_before = set(_LIVE.data)  # type: ignore[attr-defined]
        super().__enter__()

    def __exit__(self, *exc_info: Any) -> None:
        try:
            if exc_info[0] is None:
                self._compute_pending()
        finally:
            super().__exit__(*exc_info)

    def _compute_pending(self) -> None:
        from lazygraph.numpy._array import _LIVE
        from lazygraph.numpy._compute import compute_pending

        before = self._lazygraph_before  # type: ignore[attr-defined]
        pending = []
        for var, ref in list(_LIVE.data.items()):
            if var in before:
                continue
            arr = ref()
            if arr is not None and arr._cur is var and var.owner is not None:
                pending.append(arr)
        if pending:
            compute_pending(pending)
