"""Lowering of ``FFT``: a kernel that calls numpy's own ``numpy.fft`` (the Op's
``perform``) from an ``objmode`` block (see
:func:`lazygraph.backends.numba.linalg.objmode_source`), so a graph with an FFT
stays one compiled function and the results are numpy's bit for bit.

Numba has no ``np.fft``. A compiled radix-2/Bluestein transform would sum in
another order than pocketfft (numpy's), so its results would differ from
numpy's in the last bits, and it would need compiled code per kind, dtype and
ndim (each real/Hermitian kind and its transpose included), against one small
``objmode`` kernel. The ``objmode`` transition costs about 20 µs a call
(measured for ``inv``; see :mod:`lazygraph.backends.numba.linalg`).

>>> import lazygraph.tensor as lt
>>> node = lt.fft.fft(lt.tensor("complex128", (None,))).owner
>>> "objmode" in numba_funcify(node.op, node)
True
"""

from __future__ import annotations

from lazygraph.backends.numba.dispatch import numba_funcify
from lazygraph.backends.numba.linalg import objmode_source
from lazygraph.graph.basic import Apply
from lazygraph.tensor.fft import FFT

__all__: list[str] = []


@numba_funcify.register(FFT)
def _funcify_fft(op: FFT, node: Apply) -> str:
    return objmode_source(op, node)
