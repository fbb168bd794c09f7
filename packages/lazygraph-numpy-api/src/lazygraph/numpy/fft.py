"""``lazygraph.numpy.fft``: the array API's fft extension with numpy.fft's
signatures (``n``/``s``, ``axis``/``axes`` and ``norm`` may be given positionally,
as numpy allows; ``norm=None`` is ``"backward"``). Results have numpy 2's dtypes:
float32 input gives complex64, integers and bools compute in double precision.
Every transform is differentiable (see :mod:`lazygraph.tensor.fft`).

>>> import numpy as np
>>> import lazygraph.numpy as lnp
>>> x = lnp.asarray(np.array([1.0, 2.0, 3.0, 4.0]))
>>> lnp.fft.irfft(lnp.fft.rfft(x)).compute()
array([1., 2., 3., 4.])
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import as_variable, wrap
from lazygraph.numpy._errors import name_public_errors
from lazygraph.numpy._ufunc import accepts_out
from lazygraph.tensor import fft as _tfft
from numpy.fft import test as test  # numpy.fft's test runner (numpy's own object)

__all__ = [
    "fft",
    "fft2",
    "fftfreq",
    "fftn",
    "fftshift",
    "hfft",
    "ifft",
    "ifft2",
    "ifftn",
    "ifftshift",
    "ihfft",
    "irfft",
    "irfft2",
    "irfftn",
    "rfft",
    "rfft2",
    "rfftfreq",
    "rfftn",
    "test",
]


@accepts_out(casting="same_kind")
def fft(
    x: Any, /, n: int | None = None, axis: int = -1, norm: str | None = None, out: Any = None
) -> Array:
    """The one-dimensional discrete Fourier transform along ``axis``, of ``x``
    truncated or zero-padded to ``n``.

    >>> import lazygraph.numpy as lnp
    >>> lnp.fft.fft([1.0, 0.0, 0.0]).compute()
    array([1.+0.j, 1.+0.j, 1.+0.j])
    """
    return wrap(_tfft.fft(as_variable(x), n, axis, norm))


@accepts_out(casting="same_kind")
def ifft(
    x: Any, /, n: int | None = None, axis: int = -1, norm: str | None = None, out: Any = None
) -> Array:
    """The inverse of :func:`fft`.

    >>> import lazygraph.numpy as lnp
    >>> lnp.fft.ifft([3.0, 0.0, 0.0]).compute()
    array([1.+0.j, 1.+0.j, 1.+0.j])
    """
    return wrap(_tfft.ifft(as_variable(x), n, axis, norm))


@accepts_out(casting="same_kind")
def rfft(
    x: Any, /, n: int | None = None, axis: int = -1, norm: str | None = None, out: Any = None
) -> Array:
    """The transform of a real ``x``: the ``n // 2 + 1`` non-negative frequencies.

    >>> import lazygraph.numpy as lnp
    >>> lnp.fft.rfft([1.0, 1.0, 1.0, 1.0]).compute()
    array([4.+0.j, 0.+0.j, 0.+0.j])
    """
    return wrap(_tfft.rfft(as_variable(x), n, axis, norm))


@accepts_out(casting="same_kind")
def irfft(
    x: Any, /, n: int | None = None, axis: int = -1, norm: str | None = None, out: Any = None
) -> Array:
    """The real signal of length ``n`` (default ``2 * (m - 1)``) whose half
    spectrum is ``x``.

    >>> import lazygraph.numpy as lnp
    >>> lnp.fft.irfft([4.0, 0.0, 0.0]).compute()
    array([1., 1., 1., 1.])
    """
    return wrap(_tfft.irfft(as_variable(x), n, axis, norm))


@accepts_out(casting="same_kind")
def hfft(
    x: Any, /, n: int | None = None, axis: int = -1, norm: str | None = None, out: Any = None
) -> Array:
    """The real transform of a Hermitian-symmetric signal given by its first half.

    >>> import lazygraph.numpy as lnp
    >>> lnp.fft.hfft([1.0, 2.0]).compute()
    array([ 3., -1.])
    """
    return wrap(_tfft.hfft(as_variable(x), n, axis, norm))


@accepts_out(casting="same_kind")
def ihfft(
    x: Any, /, n: int | None = None, axis: int = -1, norm: str | None = None, out: Any = None
) -> Array:
    """The inverse of :func:`hfft` for a real ``x``.

    >>> import lazygraph.numpy as lnp
    >>> lnp.fft.ihfft([3.0, -1.0]).compute()
    array([1.-0.j, 2.-0.j])
    """
    return wrap(_tfft.ihfft(as_variable(x), n, axis, norm))


@accepts_out(casting="same_kind")
def fftn(
    x: Any,
    /,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: str | None = None,
    out: Any = None,
) -> Array:
    """The transform over ``axes`` (default: the last ``len(s)``, or all), each
    truncated or zero-padded to ``s``.

    >>> import lazygraph.numpy as lnp
    >>> lnp.fft.fftn([[1.0, 1.0], [1.0, 1.0]]).compute()
    array([[4.+0.j, 0.+0.j],
           [0.+0.j, 0.+0.j]])
    """
    return wrap(_tfft.fftn(as_variable(x), s, axes, norm))


@accepts_out(casting="same_kind")
def ifftn(
    x: Any,
    /,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: str | None = None,
    out: Any = None,
) -> Array:
    """The inverse of :func:`fftn`.

    >>> import lazygraph.numpy as lnp
    >>> lnp.fft.ifftn([[4.0, 0.0], [0.0, 0.0]]).compute()
    array([[1.+0.j, 1.+0.j],
           [1.+0.j, 1.+0.j]])
    """
    return wrap(_tfft.ifftn(as_variable(x), s, axes, norm))


@accepts_out(casting="same_kind")
def rfftn(
    x: Any,
    /,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: str | None = None,
    out: Any = None,
) -> Array:
    """:func:`fftn` of a real ``x``, halving the last transformed axis.

    >>> import lazygraph.numpy as lnp
    >>> lnp.fft.rfftn([[1.0, 1.0], [1.0, 1.0]]).compute()
    array([[4.+0.j, 0.+0.j],
           [0.+0.j, 0.+0.j]])
    """
    return wrap(_tfft.rfftn(as_variable(x), s, axes, norm))


@accepts_out(casting="same_kind")
def irfftn(
    x: Any,
    /,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: str | None = None,
    out: Any = None,
) -> Array:
    """The inverse of :func:`rfftn`; ``s[-1]`` (default ``2 * (m - 1)``) is the
    real output's last size.

    >>> import lazygraph.numpy as lnp
    >>> lnp.fft.irfftn([[4.0, 0.0], [0.0, 0.0]]).compute()
    array([[1., 1.],
           [1., 1.]])
    """
    return wrap(_tfft.irfftn(as_variable(x), s, axes, norm))


@accepts_out(casting="same_kind")
def fft2(
    x: Any,
    /,
    s: Sequence[int] | None = None,
    axes: Sequence[int] = (-2, -1),
    norm: str | None = None,
    out: Any = None,
) -> Array:
    """:func:`fftn` over the last two axes.

    >>> import lazygraph.numpy as lnp
    >>> lnp.fft.fft2([[1.0, 1.0]]).compute()
    array([[2.+0.j, 0.+0.j]])
    """
    return wrap(_tfft.fft2(as_variable(x), s, axes, norm))


@accepts_out(casting="same_kind")
def ifft2(
    x: Any,
    /,
    s: Sequence[int] | None = None,
    axes: Sequence[int] = (-2, -1),
    norm: str | None = None,
    out: Any = None,
) -> Array:
    """:func:`ifftn` over the last two axes.

    >>> import lazygraph.numpy as lnp
    >>> lnp.fft.ifft2([[2.0, 0.0]]).compute()
    array([[1.+0.j, 1.+0.j]])
    """
    return wrap(_tfft.ifft2(as_variable(x), s, axes, norm))


@accepts_out(casting="same_kind")
def rfft2(
    x: Any,
    /,
    s: Sequence[int] | None = None,
    axes: Sequence[int] = (-2, -1),
    norm: str | None = None,
    out: Any = None,
) -> Array:
    """:func:`rfftn` over the last two axes.

    >>> import lazygraph.numpy as lnp
    >>> lnp.fft.rfft2([[1.0, 1.0]]).compute()
    array([[2.+0.j, 0.+0.j]])
    """
    return wrap(_tfft.rfft2(as_variable(x), s, axes, norm))


@accepts_out(casting="same_kind")
def irfft2(
    x: Any,
    /,
    s: Sequence[int] | None = None,
    axes: Sequence[int] = (-2, -1),
    norm: str | None = None,
    out: Any = None,
) -> Array:
    """:func:`irfftn` over the last two axes.

    >>> import lazygraph.numpy as lnp
    >>> lnp.fft.irfft2([[2.0, 0.0]]).compute()
    array([[1., 1.]])
    """
    return wrap(_tfft.irfft2(as_variable(x), s, axes, norm))


def _check_device(device: Any, name: str) -> None:
    if device is not None and str(device) != "cpu":
        raise ValueError(f"{name}: unsupported device {device!r}; lazygraph.numpy has only 'cpu'")


def fftfreq(n: int, /, d: float = 1.0, *, dtype: Any = None, device: Any = None) -> Array:
    """The sample frequencies of an ``n``-point transform with spacing ``d``.

    >>> import lazygraph.numpy as lnp
    >>> lnp.fft.fftfreq(4).compute()
    array([ 0.  ,  0.25, -0.5 , -0.25])
    """
    _check_device(device, "fftfreq")
    return wrap(_tfft.fftfreq(n, d, dtype=dtype))


def rfftfreq(n: int, /, d: float = 1.0, *, dtype: Any = None, device: Any = None) -> Array:
    """The non-negative sample frequencies of an ``n``-point :func:`rfft`.

    >>> import lazygraph.numpy as lnp
    >>> lnp.fft.rfftfreq(4).compute()
    array([0.  , 0.25, 0.5 ])
    """
    _check_device(device, "rfftfreq")
    return wrap(_tfft.rfftfreq(n, d, dtype=dtype))


def fftshift(x: Any, /, axes: int | Sequence[int] | None = None) -> Array:
    """``x`` with the zero frequency moved to the centre of ``axes`` (default all).

    >>> import lazygraph.numpy as lnp
    >>> lnp.fft.fftshift(lnp.fft.fftfreq(4)).compute()
    array([-0.5 , -0.25,  0.  ,  0.25])
    """
    return wrap(_tfft.fftshift(as_variable(x), axes))


def ifftshift(x: Any, /, axes: int | Sequence[int] | None = None) -> Array:
    """The inverse of :func:`fftshift`.

    >>> import lazygraph.numpy as lnp
    >>> lnp.fft.ifftshift([-2, -1, 0, 1]).compute()
    array([ 0,  1, -2, -1])
    """
    return wrap(_tfft.ifftshift(as_variable(x), axes))


# Every public function names itself (and the user's line) in the errors it raises.
name_public_errors(globals(), __all__, prefix="fft.")
