"""Discrete Fourier transforms with numpy.fft's semantics: one :class:`FFT` Op
computes the complex (``fft``/``ifft``, n-dimensional), real (``rfft``/``irfft``,
n-dimensional) and Hermitian (``hfft``/``ihfft``, one axis) transforms; the
functions below give numpy's signatures (``n``/``s`` padding or truncation,
``axis``/``axes``, ``norm``) by zero-padding or slicing the input first, so the
Op itself always transforms whole axes. Output dtypes are numpy 2's: single
precision stays single (float32 -> complex64), integers and bools compute in
double precision.

Gradients treat a complex cotangent ``w`` of ``z`` as the linear functional
``Re(sum(w * dz))`` (JAX's convention, the one ``matmul``'s ``L_op`` follows):
the vector-Jacobian product of a complex-linear map is its plain transpose. The
DFT matrix is symmetric, so the transpose of ``fft`` is ``fft`` with the same
normalization; a real transform's transpose zero-pads (``rfft``) or weights the
half spectrum (``irfft``: the entries other than the zero and Nyquist
frequencies stand for two conjugate entries, so they count twice). These
transposes are kinds of the same :class:`FFT` Op, closed under transposition,
so a gradient is a single FFT node and gradients of every order are FFTs.
Every transform is linear, so its ``R_op`` is the transform of the tangent.

>>> import numpy as np
>>> import lazygraph.tensor as lt
>>> x = lt.dvector("x")
>>> lt.fft.rfft(x).eval({x: np.array([1.0, 2.0, 3.0, 4.0])})
array([10.+0.j, -2.+2.j, -2.+0.j])
"""

from __future__ import annotations

import functools
import operator
import warnings
from collections.abc import Sequence
from typing import Any, ClassVar

import numpy as np

from lazygraph.graph.basic import Apply, Op, Variable
from lazygraph.tensor.type import TensorType
from lazygraph.tensor.variable import TensorVariable, as_tensor_variable

__all__ = [
    "FFT",
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
]

KINDS = ("fft", "ifft", "rfft", "irfft", "hfft", "ihfft")
NORMS = ("backward", "ortho", "forward")
_SWAP = {"backward": "forward", "ortho": "ortho", "forward": "backward"}


def _lt() -> Any:
    import lazygraph.tensor as lt

    return lt


def normalize_norm(norm: str | None) -> str:
    """``norm`` with ``None`` meaning ``"backward"``; anything else is numpy's ValueError."""
    if norm is None:
        return "backward"
    if norm not in NORMS:
        raise ValueError(f'Invalid norm value {norm}; should be "backward","ortho" or "forward".')
    return norm


@functools.cache
def output_dtype(kind: str, dtype: str) -> str:
    """numpy's output dtype of transform ``kind`` for input ``dtype`` (asked of
    numpy itself on a tiny array, so the rule cannot drift from numpy's)."""
    fn = getattr(np.fft, kind)
    try:
        return str(fn(np.ones(4, dtype=dtype)).dtype)
    except TypeError as exc:
        raise TypeError(
            f"{kind}: input of dtype {dtype} is not supported (numpy.fft.{kind} needs "
            f"{'a real' if kind in ('rfft', 'ihfft') else 'a numeric'} input)"
        ) from exc


def _real_of(dtype: str) -> str:
    return {"complex64": "float32", "complex128": "float64"}.get(dtype, dtype)


def _no_grad() -> Variable:
    from lazygraph.gradient import disconnected_type

    return disconnected_type()


def _is_int(s: Any) -> bool:
    return isinstance(s, (int, np.integer))


def _half(n: Any) -> Any:
    """``n // 2 + 1``, static or symbolic."""
    if _is_int(n):
        return int(n) // 2 + 1
    lt = _lt()
    return lt.add(lt.floor_divide(n, 2), 1)


def _index_along(ndim: int, axis: int, index: Any) -> tuple[Any, ...]:
    return (slice(None),) * axis + (index,)


def _size_of(x: Any, axis: int) -> Any:
    s = x.type.shape[axis]
    return s if s is not None else _lt().shape_i(x, axis)


def resize_axis(x: Any, axis: int, n: int) -> TensorVariable:
    """``x`` truncated or zero-padded at the end of ``axis`` to length ``n``
    (how numpy.fft applies ``n`` and ``s``)."""
    lt = _lt()
    size = x.type.shape[axis]
    if size == n:
        return x  # type: ignore[no-any-return]
    if size is not None:
        if size > n:
            return x[_index_along(x.ndim, axis, slice(None, n))]  # type: ignore[no-any-return]
        widths = [(0, 0)] * x.ndim
        widths[axis] = (0, n - size)
        return lt.pad(x, widths)  # type: ignore[no-any-return]
    head = x[_index_along(x.ndim, axis, slice(None, n))]
    shape = [n if i == axis else _size_of(x, i) for i in range(x.ndim)]
    zeros = lt.zeros(tuple(shape), dtype=x.type.dtype)
    out = lt.set_subtensor(
        zeros[_index_along(x.ndim, axis, slice(None, lt.shape_i(head, axis)))], head
    )
    return lt.specify_shape(out, tuple(n if i == axis else None for i in range(x.ndim)))  # type: ignore[no-any-return]


def _pad_to(x: Any, axis: int, n: Any) -> Any:
    """``x`` zero-padded at the end of ``axis`` to length ``n`` (``n`` >= the size;
    static or symbolic)."""
    if _is_int(n):
        return resize_axis(x, axis, int(n))
    lt = _lt()
    shape = [n if i == axis else _size_of(x, i) for i in range(x.ndim)]
    zeros = lt.zeros(tuple(shape), dtype=x.type.dtype)
    return lt.set_subtensor(zeros[_index_along(x.ndim, axis, slice(None, _size_of(x, axis)))], x)


def hermitian_weights(n: int, dtype: str) -> np.ndarray:
    """How many entries of the full spectrum of length ``n`` each entry of the
    half spectrum (length ``n // 2 + 1``) stands for: 1 for the zero frequency
    (and the Nyquist one when ``n`` is even), 2 for the others."""
    w = np.full(n // 2 + 1, 2.0, dtype=dtype)
    w[0] = 1.0
    if n % 2 == 0:
        w[-1] = 1.0
    return w


#: The transpose of each kind (same axes and normalization): the DFT matrix is
#: symmetric, so fft and ifft are their own; a real transform's transpose is
#: one of the ``*_T`` kinds and back.
TRANSPOSE = {
    "fft": "fft",
    "ifft": "ifft",
    "rfft": "rfft_T",
    "rfft_T": "rfft",
    "ihfft": "ihfft_T",
    "ihfft_T": "ihfft",
    "irfft": "irfft_T",
    "irfft_T": "irfft",
    "hfft": "hfft_T",
    "hfft_T": "hfft",
}
#: Kinds whose last axis goes from the full length n to the half n // 2 + 1 ...
HALVING = ("rfft", "ihfft", "irfft_T", "hfft_T")
#: ... and from the half back to the full length (which ``last_size`` gives).
UNHALVING = ("irfft", "hfft", "rfft_T", "ihfft_T")

#: the transforms numpy has as a 1-d and an n-d function (over one axis the n-d
#: function calls the 1-d one: the same values)
_ONE_AXIS = {"fft": np.fft.fft, "ifft": np.fft.ifft, "rfft": np.fft.rfft}
_N_AXES = {"fft": np.fft.fftn, "ifft": np.fft.ifftn, "rfft": np.fft.rfftn}
#: Kinds with a real result.
REAL_RESULT = ("irfft", "hfft", "rfft_T", "ihfft_T")
#: The numpy function whose dtype rule each kind follows.
_DTYPE_RULE = {"rfft_T": "irfft", "ihfft_T": "irfft", "irfft_T": "rfft", "hfft_T": "rfft"}


def _weighted_half(full: np.ndarray, last: int, n: int) -> np.ndarray:
    """The first ``n // 2 + 1`` entries of ``full`` along ``last``, times the
    Hermitian weights."""
    half = full[_index_along(full.ndim, last, slice(None, n // 2 + 1))]
    w = hermitian_weights(n, "float64").reshape((-1,) + (1,) * (full.ndim - 1 - last))
    return half * w  # type: ignore[no-any-return]


def _zero_padded(x: np.ndarray, last: int, n: int) -> np.ndarray:
    widths = [(0, 0)] * x.ndim
    widths[last] = (0, n - x.shape[last])
    return np.pad(x, widths)


class FFT(Op):
    """A numpy.fft transform of ``kind`` over whole ``axes`` (non-negative ints)
    with normalization ``norm``.

    The numpy transforms: ``"fft"`` / ``"ifft"`` (``fftn`` / ``ifftn``),
    ``"rfft"`` (``rfftn``: the last of ``axes`` goes from ``n`` to
    ``n // 2 + 1``), ``"irfft"`` (``irfftn``: from ``n // 2 + 1`` to
    ``last_size``), ``"hfft"`` / ``"ihfft"`` (one axis, as ``irfft`` / ``rfft``).
    Their transposes, which the gradients are made of, close the family so that
    gradients of every order are FFTs: ``"rfft_T"`` (``Re(fftn(x zero-padded to
    last_size))``), ``"ihfft_T"`` (the same with ``ifftn``), ``"irfft_T"``
    (``ifftn(x)``'s first ``n // 2 + 1`` entries along the last axis times the
    Hermitian weights 1, 2, ..., 2, 1) and ``"hfft_T"`` (the same with ``fftn``).
    ``real_out`` keeps the real part of a complex result (the transpose of a
    transform of real data). ``last_size`` is the full length ``n`` of the last
    axis: required where the input holds the half, checked where it holds the
    full length. Sizes are never padded or truncated otherwise: the functions of
    this module do that first.
    """

    __props__: ClassVar[tuple[str, ...]] = ("kind", "axes", "norm", "last_size", "real_out")

    def __init__(
        self,
        kind: str,
        axes: Sequence[int],
        norm: str = "backward",
        last_size: int | None = None,
        real_out: bool = False,
    ) -> None:
        if kind not in TRANSPOSE:
            raise ValueError(f"FFT: unknown kind {kind!r} (one of {', '.join(TRANSPOSE)})")
        self.kind = kind
        self.axes = tuple(operator.index(a) for a in axes)
        if not self.axes or any(a < 0 for a in self.axes):
            raise ValueError(f"FFT: axes must be non-negative and not empty, got {axes}")
        if kind in ("hfft", "ihfft") and len(self.axes) != 1:
            raise ValueError(f"FFT: {kind} transforms one axis, got axes {axes}")
        if kind not in ("fft", "ifft") and len(set(self.axes)) != len(self.axes):
            raise ValueError(f"{kind}: repeated axes {axes} are not supported")
        self.norm = normalize_norm(norm)
        self.last_size = None if last_size is None else operator.index(last_size)
        if kind in UNHALVING and (self.last_size is None or self.last_size < 1):
            raise ValueError(f"Invalid number of FFT data points ({last_size}) specified.")
        self.real_out = bool(real_out) and kind not in REAL_RESULT

    def _check_sizes(self, size: int | None, shape: Any) -> None:
        """The input's last transformed axis against ``last_size``."""
        last, n = self.axes[-1], self.last_size
        if size is None or n is None:
            return
        want = n // 2 + 1 if self.kind in UNHALVING else n
        if size != want:
            raise ValueError(
                f"{self.kind}: axis {last} of shape {tuple(shape)} has {size} entries; "
                f"a transform of length {n} needs {want}"
            )

    def make_node(self, x: Any) -> Apply:
        x = as_tensor_variable(x)
        if max(self.axes) >= x.ndim:
            raise np.exceptions.AxisError(max(self.axes), x.ndim, self.kind)
        dtype = output_dtype(_DTYPE_RULE.get(self.kind, self.kind), x.type.dtype)
        if self.real_out:
            dtype = _real_of(dtype)
        shape = list(x.type.shape)
        last = self.axes[-1]
        for a in self.axes:
            if shape[a] == 0 and not (self.kind in UNHALVING and a == last):
                raise ValueError(
                    f"{self.kind}: Invalid number of FFT data points (0) specified "
                    f"(axis {a} of shape {tuple(x.type.shape)})."
                )
        self._check_sizes(shape[last], x.type.shape)
        if self.kind in HALVING:
            shape[last] = None if shape[last] is None else shape[last] // 2 + 1
        elif self.kind in UNHALVING:
            shape[last] = self.last_size
        return Apply(self, [x], [TensorType(dtype, tuple(shape))()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        (x,) = inputs
        axes, norm, kind, n = self.axes, self.norm, self.kind, self.last_size
        last = axes[-1]
        self._check_sizes(x.shape[last], x.shape)
        # one axis: numpy's 1-d function (what its n-d function calls per axis,
        # without the n-d bookkeeping: ~10x less per call on a short frame)
        one = len(axes) == 1
        if kind in _ONE_AXIS and one:
            out = _ONE_AXIS[kind](x, axis=last, norm=norm)
        elif kind in _N_AXES:
            out = _N_AXES[kind](x, axes=axes, norm=norm)
        elif kind == "ihfft":
            out = np.fft.ihfft(x, axis=last, norm=norm)
        elif kind == "irfft" and one:
            out = np.fft.irfft(x, n=n, axis=last, norm=norm)
        elif kind == "irfft":
            s = [x.shape[a] for a in axes[:-1]] + [n]
            out = np.fft.irfftn(x, s=s, axes=axes, norm=norm)
        elif kind == "hfft":
            out = np.fft.hfft(x, n=n, axis=last, norm=norm)
        elif kind in ("rfft_T", "ihfft_T"):
            full = _zero_padded(x, last, n)  # type: ignore[arg-type]
            transform = np.fft.fftn if kind == "rfft_T" else np.fft.ifftn
            out = transform(full, axes=axes, norm=norm).real
        else:
            transform = np.fft.ifftn if kind == "irfft_T" else np.fft.fftn
            out = _weighted_half(transform(x, axes=axes, norm=norm), last, x.shape[last])
        if self.real_out:
            out = out.real
        output_storage[0][0] = np.asarray(out, dtype=node.outputs[0].type.dtype)  # type: ignore[attr-defined]

    def infer_shape(self, fgraph: Any, node: Apply, input_shapes: Sequence[Any]) -> list[Any]:
        shape = list(input_shapes[0])
        last = self.axes[-1]
        if self.kind in HALVING:
            shape[last] = _half(shape[last])
        elif self.kind in UNHALVING:
            shape[last] = self.last_size
        return [tuple(shape)]

    def L_op(self, inputs: Sequence[Any], outputs: Sequence[Any], output_grads: Any) -> list[Any]:
        (x,) = inputs
        (g,) = output_grads
        if x.type.numpy_dtype.kind in "biu":
            return [_no_grad()]
        real_x = x.type.numpy_dtype.kind != "c"
        kind = TRANSPOSE[self.kind]
        n = self.last_size
        if kind in UNHALVING and n is None:
            n = x.type.shape[self.axes[-1]]
            if n is None:
                gx = _transpose_unknown_size(self, x, g)
                return [gx if gx.type.dtype == x.type.dtype else _lt().cast(gx, x.type.dtype)]
        gx = FFT(kind, self.axes, self.norm, n, real_out=real_x)(g)
        if gx.type.dtype != x.type.dtype:
            gx = _lt().cast(gx, x.type.dtype)
        return [gx]

    def R_op(self, inputs: Sequence[Any], eval_points: Sequence[Any]) -> list[Any]:
        if eval_points[0] is None:
            return [None]
        return [self(eval_points[0])]


def _transpose_unknown_size(op: FFT, x: Any, g: Any) -> Any:
    """The transpose of ``rfft`` / ``ihfft`` when the input's length is known only
    at run time: zero-pad the cotangent to it, transform, keep the real part
    (a first-order gradient: ``real`` of a complex value has no gradient itself)."""
    lt = _lt()
    last = op.axes[-1]
    full = _pad_to(g, last, _size_of(x, last))
    out = FFT("fft" if op.kind == "rfft" else "ifft", op.axes, op.norm)(full)
    return lt.real(out)


# -- the numpy.fft functions ----------------------------------------------------


def _axis(axis: Any, ndim: int, name: str) -> int:
    a = operator.index(axis)
    if not -ndim <= a < ndim:
        raise np.exceptions.AxisError(a, ndim, name)
    return a % ndim


def _check_n(n: Any, name: str) -> int:
    n = operator.index(n)
    if n < 1:
        raise ValueError(f"{name}: Invalid number of FFT data points ({n}) specified.")
    return n  # type: ignore[no-any-return]


def _one_axis(kind: str, x: Any, n: Any, axis: int, norm: str | None) -> TensorVariable:
    x = as_tensor_variable(x)
    if x.ndim == 0:
        raise np.exceptions.AxisError(axis, 0, kind)
    ax = _axis(axis, x.ndim, kind)
    norm = normalize_norm(norm)
    if kind in ("irfft", "hfft"):
        if n is None:
            m = x.type.shape[ax]
            if m is None:
                raise ValueError(
                    f"{kind}: the output length n is required when axis {axis} has no static size"
                )
            n = 2 * (m - 1)
        n = _check_n(n, kind)
        x = resize_axis(x, ax, n // 2 + 1)
        return FFT(kind, (ax,), norm, n)(x)  # type: ignore[no-any-return]
    if n is not None:
        x = resize_axis(x, ax, _check_n(n, kind))
    return FFT(kind, (ax,), norm)(x)  # type: ignore[no-any-return]


def _cook_axes(
    x: TensorVariable, s: Any, axes: Any, name: str
) -> tuple[TensorVariable, tuple[int, ...], list[int | None]]:
    """numpy's ``_cook_nd_args``: the axes (non-negative) and the sizes (``None``:
    keep the input's; ``-1`` in ``s`` means the same)."""
    if axes is None:
        if s is not None:
            warnings.warn(
                f"{name}: `axes` should not be `None` if `s` is not `None` (deprecated in "
                "NumPy 2.0); pass the axes that `s` gives the sizes of",
                DeprecationWarning,
                stacklevel=4,
            )
        k = x.ndim if s is None else len(s)
        if k > x.ndim:
            raise ValueError(f"{name}: s {tuple(s)} has more entries than x has dims ({x.ndim})")
        axes = tuple(range(x.ndim - k, x.ndim))
    else:
        axes = tuple(operator.index(a) for a in axes)
    if s is not None and len(s) != len(axes):
        raise ValueError("Shape and axes have different lengths.")
    norm_axes = tuple(_axis(a, x.ndim, name) for a in axes)
    sizes: list[int | None] = []
    for i in range(len(norm_axes)):
        si = None if s is None else operator.index(s[i])
        sizes.append(None if si is None or si == -1 else _check_n(si, name))
    return x, norm_axes, sizes


def _nd(kind: str, x: Any, s: Any, axes: Any, norm: str | None) -> TensorVariable:
    x = as_tensor_variable(x)
    x, ax, sizes = _cook_axes(x, s, axes, kind + "n")
    norm = normalize_norm(norm)
    if not ax:
        return x
    if kind == "irfft":
        for a, n in zip(ax[:-1], sizes[:-1], strict=True):
            if n is not None:
                x = resize_axis(x, a, n)
        last = ax[-1]
        n_last = sizes[-1]
        if n_last is None:
            m = x.type.shape[last]
            if m is None:
                raise ValueError(
                    "irfftn: the last output size s[-1] is required when the last axis has "
                    "no static size"
                )
            n_last = _check_n(2 * (m - 1), "irfftn")
        x = resize_axis(x, last, n_last // 2 + 1)
        return FFT("irfft", ax, norm, n_last)(x)  # type: ignore[no-any-return]
    for a, n in zip(ax, sizes, strict=True):
        if n is not None:
            x = resize_axis(x, a, n)
    return FFT(kind, ax, norm)(x)  # type: ignore[no-any-return]


def fft(x: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> TensorVariable:
    """``numpy.fft.fft``: the one-dimensional discrete Fourier transform along
    ``axis``, of ``x`` truncated or zero-padded to ``n``.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> lt.fft.fft(np.array([1.0, 0.0, 0.0, 0.0])).eval()
    array([1.+0.j, 1.+0.j, 1.+0.j, 1.+0.j])
    """
    return _one_axis("fft", x, n, axis, norm)


def ifft(x: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> TensorVariable:
    """``numpy.fft.ifft``: the inverse of :func:`fft`.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> lt.fft.ifft(np.array([4.0, 0.0, 0.0, 0.0])).eval()
    array([1.+0.j, 1.+0.j, 1.+0.j, 1.+0.j])
    """
    return _one_axis("ifft", x, n, axis, norm)


def rfft(x: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> TensorVariable:
    """``numpy.fft.rfft``: the transform of a real input, keeping the ``n // 2 + 1``
    non-negative frequencies.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> lt.fft.rfft(np.array([1.0, 1.0, 1.0])).eval()
    array([3.+0.j, 0.+0.j])
    """
    return _one_axis("rfft", x, n, axis, norm)


def irfft(x: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> TensorVariable:
    """``numpy.fft.irfft``: the real signal of length ``n`` (default
    ``2 * (m - 1)``) whose half spectrum is ``x``.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> lt.fft.irfft(np.array([3.0, 0.0]), n=3).eval()
    array([1., 1., 1.])
    """
    return _one_axis("irfft", x, n, axis, norm)


def hfft(x: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> TensorVariable:
    """``numpy.fft.hfft``: the (real) transform of a signal with Hermitian symmetry,
    given by its first half ``x``.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> lt.fft.hfft(np.array([1.0, 2.0])).eval()
    array([ 3., -1.])
    """
    return _one_axis("hfft", x, n, axis, norm)


def ihfft(x: Any, n: int | None = None, axis: int = -1, norm: str | None = None) -> TensorVariable:
    """``numpy.fft.ihfft``: the inverse of :func:`hfft` for a real input.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> lt.fft.ihfft(np.array([3.0, -1.0])).eval()
    array([1.-0.j, 2.-0.j])
    """
    return _one_axis("ihfft", x, n, axis, norm)


def fftn(
    x: Any,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: str | None = None,
) -> TensorVariable:
    """``numpy.fft.fftn``: the transform over ``axes`` (default: the last
    ``len(s)``, or all), each truncated or zero-padded to ``s``.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> lt.fft.fftn(np.ones((2, 2))).eval()
    array([[4.+0.j, 0.+0.j],
           [0.+0.j, 0.+0.j]])
    """
    return _nd("fft", x, s, axes, norm)


def ifftn(
    x: Any,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: str | None = None,
) -> TensorVariable:
    """``numpy.fft.ifftn``: the inverse of :func:`fftn`.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> lt.fft.ifftn(np.array([[4.0, 0.0], [0.0, 0.0]])).eval()
    array([[1.+0.j, 1.+0.j],
           [1.+0.j, 1.+0.j]])
    """
    return _nd("ifft", x, s, axes, norm)


def rfftn(
    x: Any,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: str | None = None,
) -> TensorVariable:
    """``numpy.fft.rfftn``: :func:`fftn` of a real input, keeping the
    non-negative frequencies of the last axis.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> lt.fft.rfftn(np.ones((2, 2))).eval()
    array([[4.+0.j, 0.+0.j],
           [0.+0.j, 0.+0.j]])
    """
    return _nd("rfft", x, s, axes, norm)


def irfftn(
    x: Any,
    s: Sequence[int] | None = None,
    axes: Sequence[int] | None = None,
    norm: str | None = None,
) -> TensorVariable:
    """``numpy.fft.irfftn``: the inverse of :func:`rfftn`; ``s[-1]`` (default
    ``2 * (m - 1)``) is the real output's last size.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> lt.fft.irfftn(np.array([[4.0, 0.0], [0.0, 0.0]])).eval()
    array([[1., 1.],
           [1., 1.]])
    """
    return _nd("irfft", x, s, axes, norm)


def fft2(
    x: Any, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm: str | None = None
) -> TensorVariable:
    """``numpy.fft.fft2``: :func:`fftn` over the last two axes.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> lt.fft.fft2(np.ones((1, 2))).eval()
    array([[2.+0.j, 0.+0.j]])
    """
    return _nd("fft", x, s, axes, norm)


def ifft2(
    x: Any, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm: str | None = None
) -> TensorVariable:
    """``numpy.fft.ifft2``: :func:`ifftn` over the last two axes.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> lt.fft.ifft2(np.array([[2.0, 0.0]])).eval()
    array([[1.+0.j, 1.+0.j]])
    """
    return _nd("ifft", x, s, axes, norm)


def rfft2(
    x: Any, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm: str | None = None
) -> TensorVariable:
    """``numpy.fft.rfft2``: :func:`rfftn` over the last two axes.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> lt.fft.rfft2(np.ones((1, 2))).eval()
    array([[2.+0.j, 0.+0.j]])
    """
    return _nd("rfft", x, s, axes, norm)


def irfft2(
    x: Any, s: Sequence[int] | None = None, axes: Sequence[int] = (-2, -1), norm: str | None = None
) -> TensorVariable:
    """``numpy.fft.irfft2``: :func:`irfftn` over the last two axes.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> lt.fft.irfft2(np.array([[2.0, 0.0]])).eval()
    array([[1., 1.]])
    """
    return _nd("irfft", x, s, axes, norm)


# -- frequencies and shifts -------------------------------------------------------


def fftfreq(n: int, d: float = 1.0, *, dtype: Any = None) -> TensorVariable:
    """``numpy.fft.fftfreq``: the sample frequencies ``[0, 1, ..., -1] / (d * n)``
    of an ``n``-point transform (a constant: ``n`` and ``d`` are Python numbers).

    >>> import lazygraph.tensor as lt
    >>> lt.fft.fftfreq(4).eval()
    array([ 0.  ,  0.25, -0.5 , -0.25])
    """
    out = np.fft.fftfreq(operator.index(n), d)
    return as_tensor_variable(out if dtype is None else out.astype(dtype))


def rfftfreq(n: int, d: float = 1.0, *, dtype: Any = None) -> TensorVariable:
    """``numpy.fft.rfftfreq``: the non-negative sample frequencies of an
    ``n``-point :func:`rfft`.

    >>> import lazygraph.tensor as lt
    >>> lt.fft.rfftfreq(4).eval()
    array([0.  , 0.25, 0.5 ])
    """
    out = np.fft.rfftfreq(operator.index(n), d)
    return as_tensor_variable(out if dtype is None else out.astype(dtype))


def _shift(x: Any, axes: Any, inverse: bool, name: str) -> TensorVariable:
    lt = _lt()
    x = as_tensor_variable(x)
    if axes is None:
        ax: tuple[int, ...] = tuple(range(x.ndim))
    elif isinstance(axes, (int, np.integer)):
        ax = (_axis(axes, x.ndim, name),)
    else:
        ax = tuple(_axis(a, x.ndim, name) for a in axes)
    if not ax:
        return x
    out = x
    for a in ax:
        size = _size_of(x, a)
        if _is_int(size):
            shift: Any = -(size // 2) if inverse else size // 2
        else:
            half = lt.floor_divide(size, 2)
            shift = lt.negative(half) if inverse else half
        out = lt.roll(out, shift, axis=a)
    return out  # type: ignore[no-any-return]


def fftshift(x: Any, axes: int | Sequence[int] | None = None) -> TensorVariable:
    """``numpy.fft.fftshift``: the zero frequency moved to the centre of ``axes``
    (default all).

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> lt.fft.fftshift(np.array([0, 1, 2, -2, -1])).eval()
    array([-2, -1,  0,  1,  2])
    """
    return _shift(x, axes, False, "fftshift")


def ifftshift(x: Any, axes: int | Sequence[int] | None = None) -> TensorVariable:
    """``numpy.fft.ifftshift``: the inverse of :func:`fftshift`.

    >>> import numpy as np
    >>> import lazygraph.tensor as lt
    >>> lt.fft.ifftshift(np.array([-2, -1, 0, 1, 2])).eval()
    array([ 0,  1,  2, -2, -1])
    """
    return _shift(x, axes, True, "ifftshift")
