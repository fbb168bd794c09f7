"""``poly1d``: numpy's one-dimensional polynomial class, with lazy coefficients.

The coefficients (highest power first) are a lazy :class:`Array`; evaluation,
arithmetic, ``deriv`` and ``integ`` record graph. As in numpy, a poly1d drops
its leading zero coefficients, so its length is computed when the
coefficients are known only when computed (that one count). ``roots``,
``repr``/``str``, ``==`` and iteration compute the coefficients.

>>> p = poly1d([1, 2, 3])
>>> p(0.5).compute()
array(4.25)
>>> print(p.deriv())
<BLANKLINE>
2 x + 2
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import lazygraph.tensor as lt
import numpy as np
from lazygraph.numpy import _polynomial as _poly
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import wrap
from lazygraph.tensor.variable import TensorVariable

__all__ = ["poly1d"]


def _is_scalar(x: Any) -> bool:
    return bool(np.isscalar(x))


def _nonzero(x: Any) -> Any:
    return lt.not_equal(x, 0) if isinstance(x, TensorVariable) else x != 0


class poly1d:  # noqa: N801 (numpy's name)
    """A one-dimensional polynomial (``numpy.poly1d``): ``poly1d([1, 2, 3])`` is
    ``x**2 + 2 x + 3``; ``poly1d(roots, r=True)`` the monic polynomial with those
    roots; ``variable`` names the variable when printed. Coefficients are lazy.

    >>> p = poly1d([1, -3, 2])
    >>> p.order, p.c.compute()
    (2, array([ 1, -3,  2]))
    >>> (p * p).coeffs.compute()
    array([ 1, -6, 13, -12,  4])
    >>> p
    poly1d([ 1, -3,  2])
    """

    __hash__ = None  # type: ignore[assignment]

    def __init__(self, c_or_r: Any, r: bool = False, variable: str | None = None) -> None:
        if isinstance(c_or_r, poly1d):
            self._variable = c_or_r._variable
            self._coeffs = c_or_r._coeffs
            if variable is not None:
                self._variable = variable
            return
        if isinstance(c_or_r, np.poly1d):
            c_or_r = c_or_r.coeffs
        if r:
            c_or_r = _poly.poly(c_or_r)
        v = _poly.atleast_1d_tensor(c_or_r)
        if v.ndim > 1:
            raise ValueError("Polynomial must be 1d only.")
        lead = _poly.leading_count(v, _nonzero)
        v = lt.getitem(v, slice(lead, None))
        if lt.shape_tuple(v)[0] == 0:
            v = lt.zeros((1,), dtype=v.dtype)
        self._coeffs = wrap(v)
        self._variable = "x" if variable is None else variable

    # -- attributes ----------------------------------------------------------------

    @property
    def coeffs(self) -> Array:
        """The coefficients, highest power first (a lazy array)."""
        return self._coeffs

    @coeffs.setter
    def coeffs(self, value: Any) -> None:
        # allowing this makes p.coeffs *= 2 legal (an in-place update, as numpy)
        if value is not self._coeffs:
            raise AttributeError("Cannot set attribute")

    @property
    def variable(self) -> str:
        """The name of the polynomial's variable."""
        return self._variable

    @property
    def order(self) -> int:
        """The polynomial's order (degree): the number of coefficients less one."""
        return len(self._coeffs) - 1

    @property
    def roots(self) -> Array:
        """The roots (computed: see :func:`lazygraph.numpy.roots`)."""
        return _poly.roots(self._coeffs)

    r = roots
    c = coef = coefficients = coeffs
    o = order

    def __lazygraph_variable__(self) -> TensorVariable:
        return self._coeffs._var

    def __array__(self, t: Any = None, copy: bool | None = None) -> np.ndarray:
        values = self._coeffs.compute()
        if t:
            return np.asarray(values, t)
        return values

    def __repr__(self) -> str:
        return f"poly1d({repr(self._coeffs.compute())[6:-1]})"

    def __str__(self) -> str:
        return str(np.poly1d(self._coeffs.compute(), variable=self._variable))

    def __len__(self) -> int:
        return self.order

    # -- evaluation and arithmetic ---------------------------------------------------

    def __call__(self, val: Any) -> Any:
        if isinstance(val, poly1d):  # composition, as numpy's polyval does it
            y: Any = 0
            for i in range(len(self._coeffs)):
                y = y * val + self._coeffs[i]
            return y
        return _poly.polyval(self._coeffs, val)

    def __neg__(self) -> poly1d:
        return poly1d(-self._coeffs)

    def __pos__(self) -> poly1d:
        return self

    def __mul__(self, other: Any) -> poly1d:
        if _is_scalar(other):
            return poly1d(self._coeffs * other)
        return poly1d(_poly.polymul(self._coeffs, poly1d(other)._coeffs))

    def __rmul__(self, other: Any) -> poly1d:
        if _is_scalar(other):
            return poly1d(other * self._coeffs)
        return poly1d(_poly.polymul(self._coeffs, poly1d(other)._coeffs))

    def __add__(self, other: Any) -> poly1d:
        return poly1d(_poly.polyadd(self._coeffs, poly1d(other)._coeffs))

    def __radd__(self, other: Any) -> poly1d:
        return poly1d(_poly.polyadd(self._coeffs, poly1d(other)._coeffs))

    def __pow__(self, val: Any) -> poly1d:
        if not _is_scalar(val) or int(val) != val or val < 0:
            raise ValueError("Power to non-negative integers only.")
        res: Any = [1]
        for _ in range(val):
            res = _poly.polymul(self._coeffs, res)
        return poly1d(res)

    def __sub__(self, other: Any) -> poly1d:
        return poly1d(_poly.polysub(self._coeffs, poly1d(other)._coeffs))

    def __rsub__(self, other: Any) -> poly1d:
        return poly1d(_poly.polysub(poly1d(other)._coeffs, self._coeffs))

    def __truediv__(self, other: Any) -> Any:
        if _is_scalar(other):
            return poly1d(self._coeffs / other)
        return _poly.polydiv(self, poly1d(other))

    def __rtruediv__(self, other: Any) -> Any:
        if _is_scalar(other):
            return poly1d(other / self._coeffs)
        return _poly.polydiv(poly1d(other), self)

    def __eq__(self, other: object) -> Any:
        if not isinstance(other, poly1d):
            return NotImplemented
        if self._coeffs.shape != other._coeffs.shape:
            return False
        return np.bool_(bool((self._coeffs == other._coeffs).all()))

    def __ne__(self, other: object) -> Any:
        if not isinstance(other, poly1d):
            return NotImplemented
        return not self.__eq__(other)

    # -- coefficients by power -------------------------------------------------------

    def __getitem__(self, val: int) -> Any:
        ind = self.order - val
        if val > self.order or val < 0:
            return self._coeffs.dtype.type(0)
        return self._coeffs[ind]

    def __setitem__(self, key: int, val: Any) -> None:
        ind = self.order - key
        if key < 0:
            raise ValueError("Does not support negative powers.")
        if key > self.order:
            zeros = lt.zeros((key - self.order,), dtype=self._coeffs.dtype)
            self._coeffs = wrap(lt.concatenate([zeros, self._coeffs._var]))
            ind = 0
        self._coeffs[ind] = val

    def __iter__(self) -> Iterator[Any]:
        return iter(self._coeffs)

    def integ(self, m: int = 1, k: Any = 0) -> poly1d:
        """The ``m``-th antiderivative, with integration constants ``k``
        (see :func:`~lazygraph.numpy.polyint`).

        >>> poly1d([3.0, 2.0]).integ().coeffs.compute()
        array([1.5, 2. , 0. ])
        """
        return poly1d(_poly.polyint(self._coeffs, m=m, k=k))

    def deriv(self, m: int = 1) -> poly1d:
        """The ``m``-th derivative (see :func:`~lazygraph.numpy.polyder`).

        >>> poly1d([1, 1, 1]).deriv().coeffs.compute()
        array([2, 1])
        """
        return poly1d(_poly.polyder(self._coeffs, m=m))
