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

    def clip(self, *args: Any, **kwargs: Any) -> Any:
        """The values limited to ``[min, max]`` (``numpy.ndarray.clip``)."""
        return _ns().clip(self, *args, **kwargs)

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
