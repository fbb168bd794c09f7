"""numpy's ``ndarray`` methods that are namespace functions in disguise:
``x.sum(axis=0)`` is ``lazygraph.numpy.sum(x, axis=0)``, with the same
arguments numpy's method takes (they match numpy's function after ``a``).

Kept apart from :mod:`lazygraph.numpy._array` (the object's own machinery:
views, mutation, materialization) so that each file stays one family.

>>> import numpy as np
>>> import lazygraph.numpy as lnp
>>> x = lnp.asarray(np.array([[1.0, 2.0], [3.0, 4.0]]))
>>> x.sum(axis=0).compute(), x.argmax().compute()
(array([4., 6.]), array(3))
"""

from __future__ import annotations

from typing import Any

from lazygraph.numpy._sizes import concrete_shape

__all__: list[str] = []


def _ns() -> Any:
    import lazygraph.numpy as lnp

    return lnp


class ArrayMethods:
    """numpy's reduction, search and arithmetic methods, as namespace calls."""

    __slots__ = ()

    def all(self, *args: Any, **kwargs: Any) -> Any:
        """Whether every element (along ``axis``) is true (``numpy.ndarray.all``)."""
        return _ns().all(self, *args, **kwargs)

    def any(self, *args: Any, **kwargs: Any) -> Any:
        """Whether some element (along ``axis``) is true (``numpy.ndarray.any``)."""
        return _ns().any(self, *args, **kwargs)

    def argmax(self, *args: Any, **kwargs: Any) -> Any:
        """The index of the largest element (along ``axis``) (``numpy.ndarray.argmax``)."""
        return _ns().argmax(self, *args, **kwargs)

    def argmin(self, *args: Any, **kwargs: Any) -> Any:
        """The index of the smallest element (along ``axis``) (``numpy.ndarray.argmin``)."""
        return _ns().argmin(self, *args, **kwargs)

    def argsort(self, *args: Any, **kwargs: Any) -> Any:
        """The indices that sort the array (along ``axis``) (``numpy.ndarray.argsort``)."""
        return _ns().argsort(self, *args, **kwargs)

    def clip(self, min: Any = None, max: Any = None, out: Any = None, **kwargs: Any) -> Any:
        """The values limited to ``[min, max]`` (``numpy.ndarray.clip``: the
        bounds are ``min`` and ``max``, positional or named, as in the array API)."""
        for name in ("a_min", "a_max"):  # (the function's names, not the method's)
            if name in kwargs:
                raise TypeError(f"clip() got an unexpected keyword argument {name!r}")
        return _ns().clip(self, out=out, min=min, max=max, **kwargs)

    def conj(self, *args: Any, **kwargs: Any) -> Any:
        """The complex conjugate (``numpy.ndarray.conj``)."""
        return _ns().conj(self, *args, **kwargs)

    def conjugate(self, *args: Any, **kwargs: Any) -> Any:
        """The complex conjugate (``numpy.ndarray.conjugate``)."""
        return _ns().conjugate(self, *args, **kwargs)

    def cumprod(self, *args: Any, **kwargs: Any) -> Any:
        """The cumulative product (along ``axis``) (``numpy.ndarray.cumprod``)."""
        return _ns().cumprod(self, *args, **kwargs)

    def cumsum(self, *args: Any, **kwargs: Any) -> Any:
        """The cumulative sum (along ``axis``) (``numpy.ndarray.cumsum``)."""
        return _ns().cumsum(self, *args, **kwargs)

    def dot(self, *args: Any, **kwargs: Any) -> Any:
        """The dot product with ``b`` (``numpy.ndarray.dot``)."""
        return _ns().dot(self, *args, **kwargs)

    def max(self, *args: Any, **kwargs: Any) -> Any:
        """The largest element (along ``axis``) (``numpy.ndarray.max``)."""
        return _ns().max(self, *args, **kwargs)

    def mean(self, *args: Any, **kwargs: Any) -> Any:
        """The arithmetic mean (along ``axis``) (``numpy.ndarray.mean``)."""
        return _ns().mean(self, *args, **kwargs)

    def min(self, *args: Any, **kwargs: Any) -> Any:
        """The smallest element (along ``axis``) (``numpy.ndarray.min``)."""
        return _ns().min(self, *args, **kwargs)

    def nonzero(self, *args: Any, **kwargs: Any) -> Any:
        """The indices of the non-zero elements, per dimension (``numpy.ndarray.nonzero``)."""
        return _ns().nonzero(self, *args, **kwargs)

    def prod(self, *args: Any, **kwargs: Any) -> Any:
        """The product of the elements (along ``axis``) (``numpy.ndarray.prod``)."""
        return _ns().prod(self, *args, **kwargs)

    def repeat(self, *args: Any, **kwargs: Any) -> Any:
        """Each element repeated (along ``axis``) (``numpy.ndarray.repeat``)."""
        return _ns().repeat(self, *args, **kwargs)

    def round(self, *args: Any, **kwargs: Any) -> Any:
        """The values rounded to ``decimals`` decimals (``numpy.ndarray.round``)."""
        return _ns().round(self, *args, **kwargs)

    def searchsorted(self, *args: Any, **kwargs: Any) -> Any:
        """Where ``v`` would be inserted to keep order (``numpy.ndarray.searchsorted``)."""
        return _ns().searchsorted(self, *args, **kwargs)

    def std(self, *args: Any, **kwargs: Any) -> Any:
        """The standard deviation (along ``axis``) (``numpy.ndarray.std``)."""
        return _ns().std(self, *args, **kwargs)

    def sum(self, *args: Any, **kwargs: Any) -> Any:
        """The sum of the elements (along ``axis``) (``numpy.ndarray.sum``)."""
        return _ns().sum(self, *args, **kwargs)

    def take(self, *args: Any, **kwargs: Any) -> Any:
        """The elements at ``indices`` (along ``axis``) (``numpy.ndarray.take``)."""
        return _ns().take(self, *args, **kwargs)

    def trace(self, *args: Any, **kwargs: Any) -> Any:
        """The sum along a diagonal (``numpy.ndarray.trace``)."""
        return _ns().trace(self, *args, **kwargs)

    def var(self, *args: Any, **kwargs: Any) -> Any:
        """The variance (along ``axis``) (``numpy.ndarray.var``)."""
        return _ns().var(self, *args, **kwargs)

    def argpartition(self, *args: Any, **kwargs: Any) -> Any:
        return _ns().argpartition(self, *args, **kwargs)

    def choose(self, *args: Any, **kwargs: Any) -> Any:
        return _ns().choose(self, *args, **kwargs)

    def compress(self, condition: Any, axis: Any = None, out: Any = None) -> Any:
        return _ns().compress(condition, self, axis=axis, out=out)

    def put(self, *args: Any, **kwargs: Any) -> None:
        _ns().put(self, *args, **kwargs)

    def partition(
        self, kth: Any, axis: int = -1, kind: str = "introselect", order: Any = None
    ) -> None:
        """Partition this array in place (``ndarray.partition``): it is rebound."""
        self[...] = _ns().partition(self, kth, axis=axis, kind=kind, order=order)  # type: ignore[index]

    def resize(self, *new_shape: Any, refcheck: bool = True) -> None:
        """Change this array's shape in place, filling new elements with zeros
        (``ndarray.resize``, unlike ``numpy.resize``, which repeats the data); a
        view cannot be resized, as in numpy."""
        import operator

        import lazygraph.tensor as lt
        import numpy as np

        if not isinstance(refcheck, (bool, int, np.integer)):
            raise TypeError(f"resize: refcheck must be a boolean, got {type(refcheck).__name__}")
        if self._base is not None:  # type: ignore[attr-defined]
            raise ValueError("cannot resize this array: it does not own its data")
        if new_shape in ((), (None,)):
            return  # (numpy: no new shape, nothing changes)
        if len(new_shape) == 1 and not isinstance(new_shape[0], (int, np.integer)):
            new_shape = tuple(new_shape[0])
        shape = tuple(operator.index(n) for n in new_shape)  # numpy's TypeError for "hi"
        if any(n < 0 for n in shape):
            raise ValueError("negative dimensions not allowed")
        size = int(np.prod(shape, dtype=np.int64))
        flat = _ns().ravel(self)
        have = int(flat.size)
        if size <= have:
            flat = flat[:size]
        else:
            flat = _ns().concatenate([flat, _ns().zeros(size - have, dtype=self.dtype)])  # type: ignore[attr-defined]
        self._rebind(lt.reshape(flat._var, shape))  # type: ignore[attr-defined]

    def byteswap(self, inplace: bool = False) -> Any:
        """The bytes of each element swapped (``ndarray.byteswap``), on the
        computed value; ``inplace=True`` rebinds this array."""
        import numpy as np

        swapped = np.asarray(self).byteswap()
        if not inplace:
            return _ns().asarray(swapped)
        self[...] = swapped  # type: ignore[index]
        return self

    @property
    def strides(self) -> tuple[int, ...]:
        """numpy's strides for this array (its chain of views from a C-ordered
        base); those of a C-ordered copy where sizes depend on the data."""
        from lazygraph.numpy import _views

        fake = _views.strides_model(self)  # type: ignore[arg-type]
        item = self.dtype.itemsize  # type: ignore[attr-defined]
        if fake is None:
            return tuple(np_strides(self.shape, item))  # type: ignore[attr-defined]
        return tuple(int(st) * item for st in fake.strides)

    @property
    def data(self) -> memoryview:
        """The computed value's buffer (``ndarray.data``)."""
        import numpy as np

        return np.asarray(self).data

    @property
    def ctypes(self) -> Any:
        """The computed value's ctypes interface (``ndarray.ctypes``)."""
        import numpy as np

        return np.array(self).ctypes

    def tofile(self, *args: Any, **kwargs: Any) -> None:
        import numpy as np

        np.asarray(self).tofile(*args, **kwargs)

    def dump(self, file: Any) -> None:
        import numpy as np

        np.asarray(self).dump(file)

    def dumps(self) -> bytes:
        import numpy as np

        return np.asarray(self).dumps()

    def getfield(self, dtype: Any, offset: int = 0) -> Any:
        import numpy as np

        return _ns().asarray(np.asarray(self).getfield(dtype, offset))

    def setfield(self, val: Any, dtype: Any, offset: int = 0) -> None:
        import numpy as np

        value = np.array(self)
        value.setfield(np.asarray(val), dtype, offset)
        self[...] = value  # type: ignore[index]

    def setflags(self, write: Any = None, align: Any = None, uic: Any = None) -> None:
        """``ndarray.setflags``: a lazy array is always writeable (writes rebind
        it), so ``write=False`` is refused rather than silently ignored."""
        if write is not None and not write:
            from lazygraph.numpy._errors import UnsupportedArgumentsError

            raise UnsupportedArgumentsError(
                "setflags: a lazy array cannot be made read-only (writes rebind it); "
                "compute it (numpy.asarray) and set the flag on the numpy array"
            )


def np_strides(shape: Any, item: int) -> list[int]:
    """C-order strides of ``shape`` for elements of ``item`` bytes."""
    out, step = [], item
    for n in reversed(tuple(shape)):
        out.append(step)
        step *= max(int(n), 1)
    return out[::-1]


#: numpy's flag keys (and their one-letter forms) -> ArrayFlags attributes
_FLAG_KEYS = {
    "C_CONTIGUOUS": "c_contiguous",
    "C": "c_contiguous",
    "CONTIGUOUS": "c_contiguous",
    "F_CONTIGUOUS": "f_contiguous",
    "F": "f_contiguous",
    "FORTRAN": "f_contiguous",
    "OWNDATA": "owndata",
    "O": "owndata",
    "WRITEABLE": "writeable",
    "W": "writeable",
    "ALIGNED": "aligned",
    "A": "aligned",
}


class ArrayFlags:
    """numpy's ``ndarray.flags`` for a lazy array: the memory layout numpy would
    give it (views follow their base, as numpy's strides do), by attribute or by
    numpy's key (``x.flags.c_contiguous``, ``x.flags["C_CONTIGUOUS"]``). A lazy
    array is always writeable: writes rebind it.

    >>> import lazygraph.numpy as lnp
    >>> x = lnp.zeros((2, 3))
    >>> x.flags.c_contiguous, x.T.flags.f_contiguous, x.T.flags.owndata
    (True, True, False)
    """

    __slots__ = ("aligned", "c_contiguous", "f_contiguous", "owndata", "writeable")

    def __init__(self, c: bool, f: bool, owndata: bool) -> None:
        self.c_contiguous, self.f_contiguous, self.owndata = c, f, owndata
        self.writeable, self.aligned = True, True

    @property
    def contiguous(self) -> bool:
        return self.c_contiguous

    @property
    def fortran(self) -> bool:
        return self.f_contiguous and not self.c_contiguous

    @property
    def writebackifcopy(self) -> bool:
        return False

    def __getitem__(self, key: str) -> bool:
        name = _FLAG_KEYS.get(key.upper()) if isinstance(key, str) else None
        if name is None:
            raise KeyError(f"Unknown flag {key!r}")
        return bool(getattr(self, name))

    def __repr__(self) -> str:
        names = ("C_CONTIGUOUS", "F_CONTIGUOUS", "OWNDATA", "WRITEABLE", "ALIGNED")
        return "\n".join(f"  {n} : {self[n]}" for n in names) + "\n  WRITEBACKIFCOPY : False"


class ArrayLayout:
    """``shape``, ``base``, ``flags`` and ``view()``: what numpy code reads of an
    array's memory, answered from the lazy array's chain of views."""

    __slots__ = ()

    @property
    def shape(self) -> tuple[int, ...]:
        """The size of each dimension, ints as in numpy. A size that depends on the
        data (after a boolean mask, ``nonzero``, ``unique``) is computed when asked
        for, and only it (the count of ``True`` of a mask, not the masked
        elements); see :func:`concrete_shape`. (``None`` only inside a function
        being traced, where there is no value.) Assigning a shape reshapes the
        array in place, where numpy can do that without a copy.

        >>> import numpy as np
        >>> import lazygraph.numpy as lnp
        >>> z = lnp.asarray(np.array([0.2, 0.7, 0.9]))
        >>> z[z > 0.5].shape
        (2,)
        >>> z.shape = (3, 1)
        >>> z.shape
        (3, 1)
        """
        static = self._cur.type.shape  # type: ignore[attr-defined]
        if None not in static:
            return static  # type: ignore[no-any-return]
        return concrete_shape(self)  # type: ignore[arg-type,return-value]

    @shape.setter
    def shape(self, value: Any) -> None:
        _set_shape(self, value)

    @property
    def base(self) -> Any:
        """The array this one is a view of (``None`` for one that owns its data),
        as numpy's ``ndarray.base``."""
        return self._base  # type: ignore[attr-defined]

    @property
    def flags(self) -> ArrayFlags:
        """numpy's layout flags for this array (see :class:`ArrayFlags`)."""
        from lazygraph.numpy import _views

        fake = _views.strides_model(self)  # type: ignore[arg-type]
        owns = self._base is None  # type: ignore[attr-defined]
        if fake is None:
            return ArrayFlags(True, self.ndim <= 1, owns)  # type: ignore[attr-defined]
        return ArrayFlags(bool(fake.flags.c_contiguous), bool(fake.flags.f_contiguous), owns)

    def view(self, dtype: Any = None, type: Any = None) -> Any:
        """A view of this array (``ndarray.view``): writes through it reach this
        array. With a ``dtype`` of another kind the bytes are reinterpreted on
        the computed value (lazygraph has no bit-cast node), which gives a new
        array, not a view (with a :class:`LazygraphFallbackWarning`).

        >>> import lazygraph.numpy as lnp
        >>> a = lnp.zeros(3)
        >>> v = a.view()
        >>> v[0] = 5.0
        >>> a.tolist(), v.base is a
        ([5.0, 0.0, 0.0], True)
        """
        import numpy as np

        if type is not None and not _is_ndarray_type(type):
            raise TypeError("view: type must be a subtype of ndarray")
        if dtype is not None and _is_ndarray_type(dtype):
            dtype, type = None, dtype
        if dtype is None or np.dtype(dtype) == self.dtype:  # type: ignore[attr-defined]
            out = self[...]  # type: ignore[index]
        else:
            from lazygraph.numpy._interop import numpy_fallback

            out = numpy_fallback(
                lambda value: value.view(dtype), "ndarray.view", (self,), {}, " with a dtype"
            )
        if type is not None and not _is_ndarray_type(type, subclass=False):
            return np.asarray(out).view(type)
        return out


def _set_shape(arr: Any, value: Any) -> None:
    """``arr.shape = value``: ``arr`` becomes a reshaping view of its data, as in
    numpy (a shape that would need a copy is numpy's AttributeError).

    The data in the old shape moves to a new hidden array, which takes ``arr``'s
    place among views: ``arr``'s base (if it is a view) and ``arr``'s own views
    now belong to the hidden array, and ``arr`` is a reshape of it, so writes
    through ``arr`` or any of those views reach all of them. The views of
    ``arr`` are found by the garbage collector's referrers (assigning a shape is
    rare; its cost is a scan of the live objects)."""
    import gc

    import numpy as np
    from lazygraph.numpy import _views
    from lazygraph.numpy._array import _LIVE, Array, _derived

    shape = (value,) if isinstance(value, (int, np.integer)) else tuple(value)
    old = tuple(arr.shape)
    # numpy's errors and its -1: the reshape of a stand-in of the old shape
    fake = np.lib.stride_tricks.as_strided(np.zeros(1), shape=old, strides=(0,) * len(old))
    view = _views.Reshape.make(arr, tuple(fake.reshape(shape).shape))
    if not _views.reshape_is_view(arr, view):
        raise AttributeError(
            "Incompatible shape for in-place modification. Use `.reshape()` to make a "
            "copy with the desired shape."
        )
    var = arr._var  # (up to date with its base)
    views = [r for r in gc.get_referrers(arr) if isinstance(r, Array) and r._base is arr]
    if not views and isinstance(arr._view, _views.Reshape):
        # already a reshape of its base, with no views of its own: reshape the base
        # to the new shape instead (a loop setting shapes grows no chain of views)
        base = arr._base
        arr._view, arr._base_version = view, base._version
        arr._rebind(_derived(view, base._var))
        arr._version += 1
        return
    hidden = Array(var)
    hidden._base, hidden._view = arr._base, arr._view
    hidden._base_version, hidden._version, hidden._nd0 = arr._base_version, arr._version, arr._nd0
    for ref in views:
        ref._base = hidden
    if _LIVE.get(var) is arr:
        _LIVE[var] = hidden
    arr._base, arr._view, arr._base_version = hidden, view, hidden._version
    arr._rebind(_derived(view, var))
    arr._version += 1


def _is_ndarray_type(obj: Any, subclass: bool = True) -> bool:
    """Whether ``obj`` is numpy's or this namespace's ``ndarray`` (or, with
    ``subclass``, a subclass of numpy's)."""
    import numpy as np
    from lazygraph.numpy._dtypes import ndarray

    if obj is np.ndarray or obj is ndarray:
        return True
    return subclass and isinstance(obj, type) and issubclass(obj, np.ndarray)
