"""numpy's file readers and writers, as eager fallbacks.

Reading a file or a buffer is not recorded: the readers run numpy's and hand
back a lazy :class:`~lazygraph.numpy.Array` (bound to what was read) when numpy
gives a plain numeric array, and numpy's object otherwise: structured and
string arrays, ``NpzFile`` (``load`` of an ``.npz``), ``memmap`` (``load`` with
``mmap_mode``), masked arrays (``genfromtxt(usemask=True)``). The writers
compute their lazy arguments (all in one call) and write what numpy writes.
None of them warns: a file is read or written once, so nothing lazy is lost.

>>> import io
>>> import lazygraph.numpy as lnp
>>> buffer = io.StringIO()
>>> lnp.savetxt(buffer, lnp.arange(4.0).reshape(2, 2), fmt="%.1f")
>>> _ = buffer.seek(0)
>>> lnp.loadtxt(buffer).sum().compute()
array(6.)
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
from lazygraph.numpy._fallback import fallback_of, run_numpy
from lazygraph.numpy._interop import compute_arguments

__all__ = [
    "frombuffer",
    "fromfile",
    "fromiter",
    "fromregex",
    "fromstring",
    "genfromtxt",
    "load",
    "loadtxt",
    "save",
    "savetxt",
    "savez",
    "savez_compressed",
]


# -- readers ----------------------------------------------------------------------------


@fallback_of(np.frombuffer)
def frombuffer(buffer: Any, *args: Any, **kwargs: Any) -> Any:
    """``numpy.frombuffer``: a buffer's bytes read as an array (a lazy array
    bound to a copy: later writes to the buffer do not reach it).

    >>> import lazygraph.numpy as lnp
    >>> lnp.frombuffer(b"\\x01\\x02\\x03", dtype="uint8").tolist()
    [1, 2, 3]
    """
    return run_numpy(np.frombuffer, (buffer, *args), kwargs)


@fallback_of(np.fromfile)
def fromfile(file: Any, *args: Any, **kwargs: Any) -> Any:
    """``numpy.fromfile``: an array read from a binary or text file.

    >>> import tempfile, os
    >>> import lazygraph.numpy as lnp
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     path = os.path.join(folder, "x.bin")
    ...     lnp.arange(3.0).compute().tofile(path)
    ...     lnp.fromfile(path).tolist()
    [0.0, 1.0, 2.0]
    """
    return run_numpy(np.fromfile, (file, *args), kwargs)


@fallback_of(np.fromiter)
def fromiter(iter: Any, dtype: Any, count: int = -1, *, like: Any = None) -> Any:
    """``numpy.fromiter``: an array from an iterable, which may yield lazy 0-d
    arrays (they are computed together, in one call, not one by one).

    >>> import lazygraph.numpy as lnp
    >>> x = lnp.arange(4.0)
    >>> lnp.fromiter((x[i] * 2 for i in range(4)), float).tolist()
    [0.0, 2.0, 4.0, 6.0]
    """
    items = list(itertools.islice(iter, count) if count >= 0 else iter)
    (items,), _ = compute_arguments((items,), {})
    kwargs = {} if like is None else {"like": like}
    return run_numpy(np.fromiter, (items, dtype, count), kwargs)


@fallback_of(np.fromregex)
def fromregex(file: Any, regexp: Any, dtype: Any, encoding: str | None = None) -> Any:
    """``numpy.fromregex``: the groups of a regular expression's matches in a
    file, as a structured array (numpy's).

    >>> import io
    >>> import lazygraph.numpy as lnp
    >>> lnp.fromregex(io.StringIO("a=1 b=2"), r"\\w=(\\d)", [("n", "int64")])["n"].tolist()
    [1, 2]
    """
    return run_numpy(np.fromregex, (file, regexp, dtype, encoding), {})


@fallback_of(np.fromstring)
def fromstring(
    string: Any, dtype: Any = float, count: int = -1, *, sep: str = "", like: Any = None
) -> Any:
    """``numpy.fromstring``: a 1-d array from text (``sep`` is required, as in
    numpy, whose binary mode is removed: use :func:`frombuffer`).

    >>> import lazygraph.numpy as lnp
    >>> lnp.fromstring("1, 2, 3", dtype="int64", sep=",").tolist()
    [1, 2, 3]
    """
    kwargs: dict[str, Any] = {"sep": sep} if like is None else {"sep": sep, "like": like}
    return run_numpy(np.fromstring, (string, dtype, count), kwargs)


@fallback_of(np.genfromtxt)
def genfromtxt(fname: Any, *args: Any, **kwargs: Any) -> Any:
    """``numpy.genfromtxt``: a table read from text, missing values filled.

    >>> import io
    >>> import lazygraph.numpy as lnp
    >>> table = lnp.genfromtxt(io.StringIO("1,2\\n3,"), delimiter=",", filling_values=0)
    >>> table.tolist()
    [[1.0, 2.0], [3.0, 0.0]]
    """
    return run_numpy(np.genfromtxt, (fname, *args), kwargs)


@fallback_of(np.loadtxt)
def loadtxt(fname: Any, *args: Any, **kwargs: Any) -> Any:
    """``numpy.loadtxt``: an array read from a text file.

    >>> import io
    >>> import lazygraph.numpy as lnp
    >>> lnp.loadtxt(io.StringIO("1 2\\n3 4"), dtype="int64").tolist()
    [[1, 2], [3, 4]]
    """
    return run_numpy(np.loadtxt, (fname, *args), kwargs)


@fallback_of(np.load)
def load(file: Any, *args: Any, **kwargs: Any) -> Any:
    """``numpy.load``: a lazy array for an ``.npy`` of numbers; numpy's
    ``NpzFile`` for an ``.npz``, numpy's ``memmap`` with ``mmap_mode`` (so the
    file is read as it is used), numpy's array for other dtypes.

    >>> import io
    >>> import lazygraph.numpy as lnp
    >>> buffer = io.BytesIO()
    >>> lnp.save(buffer, lnp.arange(3) + 1)
    >>> _ = buffer.seek(0)
    >>> lnp.load(buffer)
    array([1, 2, 3])
    """
    return run_numpy(np.load, (file, *args), kwargs)


# -- writers ----------------------------------------------------------------------------


@fallback_of(np.save)
def save(file: Any, arr: Any, *args: Any, **kwargs: Any) -> None:
    """``numpy.save`` of the computed array (an ``.npy`` file numpy reads back).

    >>> import io, numpy
    >>> import lazygraph.numpy as lnp
    >>> buffer = io.BytesIO()
    >>> lnp.save(buffer, lnp.ones(2) / 4)
    >>> _ = buffer.seek(0)
    >>> numpy.load(buffer)
    array([0.25, 0.25])
    """
    run_numpy(np.save, (file, arr, *args), kwargs, lazy_result=False)


@fallback_of(np.savetxt)
def savetxt(fname: Any, X: Any, *args: Any, **kwargs: Any) -> None:
    """``numpy.savetxt`` of the computed array.

    >>> import io
    >>> import lazygraph.numpy as lnp
    >>> buffer = io.StringIO()
    >>> lnp.savetxt(buffer, lnp.arange(3), fmt="%d", delimiter=",", newline=";")
    >>> buffer.getvalue()
    '0;1;2;'
    """
    run_numpy(np.savetxt, (fname, X, *args), kwargs, lazy_result=False)


@fallback_of(np.savez)
def savez(file: Any, *args: Any, **kwds: Any) -> None:
    """``numpy.savez`` of the computed arrays (an uncompressed ``.npz``).

    >>> import io, numpy
    >>> import lazygraph.numpy as lnp
    >>> buffer = io.BytesIO()
    >>> lnp.savez(buffer, lnp.zeros(1), b=lnp.ones(2))
    >>> _ = buffer.seek(0)
    >>> sorted(numpy.load(buffer).files)
    ['arr_0', 'b']
    """
    run_numpy(np.savez, (file, *args), kwds, lazy_result=False)


@fallback_of(np.savez_compressed)
def savez_compressed(file: Any, *args: Any, **kwds: Any) -> None:
    """``numpy.savez_compressed`` of the computed arrays (a compressed ``.npz``).

    >>> import io, numpy
    >>> import lazygraph.numpy as lnp
    >>> buffer = io.BytesIO()
    >>> lnp.savez_compressed(buffer, x=lnp.arange(3))
    >>> _ = buffer.seek(0)
    >>> numpy.load(buffer)["x"]
    array([0, 1, 2])
    """
    run_numpy(np.savez_compressed, (file, *args), kwds, lazy_result=False)
