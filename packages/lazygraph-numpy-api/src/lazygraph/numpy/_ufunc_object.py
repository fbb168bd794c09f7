"""numpy's ufunc objects for the namespace: ``lnp.add`` is a :class:`ufunc`
that records when called and has numpy's methods (``reduce``, ``accumulate``,
``outer``, ``at``, ``reduceat``) and attributes (``nin``, ``nout``, ``nargs``,
``identity``, ``types``, ``signature``).

A call is the namespace function itself (no layer in between: each ufunc's
class calls the function directly). The methods record lazily where the
math allows:

- ``reduce``: the namespace reduction where one exists (``add`` is ``sum``,
  ``maximum`` is ``max``...), otherwise a pairwise tree of the ufunc itself
  for the ufuncs whose reduction does not depend on the order (``bitwise_or``,
  ``gcd``, ``fmax``...); ``initial=`` and ``where=`` take part as numpy's do;
- ``accumulate``: ``cumsum`` / ``cumprod``, otherwise a log-step scan for the
  same order-free ufuncs (``maximum.accumulate`` is a running maximum);
- ``outer``: the ufunc on the operands broadcast against each other;
- ``at``: ``add`` / ``subtract`` as a lazy scatter-add (repeated indices
  accumulate, as numpy's unbuffered ``at`` does);
- ``reduceat``: a reduction per segment, for concrete indices.

What is left (the order-dependent reductions such as ``subtract.reduce``,
``at`` of other ufuncs) computes its arguments and runs numpy's own method,
with the fallback warning of :mod:`lazygraph.numpy._interop`.

>>> import lazygraph.numpy as lnp
>>> lnp.add.reduce([[1, 2], [3, 4]]).compute()
array([4, 6])
>>> lnp.maximum.accumulate([1, 3, 2, 5]).compute()
array([1, 3, 3, 5])
>>> lnp.multiply.outer([1, 2], [1, 10, 100]).compute()
array([[  1,  10, 100],
       [  2,  20, 200]])
>>> c = lnp.zeros(3, dtype=int)
>>> lnp.add.at(c, [0, 0, 2], 1)
>>> c.compute()
array([2, 0, 1])
>>> lnp.add.nin, lnp.add.nout, lnp.add.identity, isinstance(lnp.exp, lnp.ufunc)
(2, 1, 0, True)
"""

from __future__ import annotations

import builtins
import inspect
from collections.abc import Callable
from typing import Any

import lazygraph.tensor as lt
import numpy as np
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import as_variable, asarray
from lazygraph.numpy._ufunc import check_exact_out, single_out, write_out

__all__ = ["frompyfunc", "ufunc", "vectorize"]

_NO_VALUE: Any = np._NoValue  # type: ignore[attr-defined]

#: ufunc -> the namespace reduction that is its ``reduce`` (keywords axis,
#: dtype, keepdims, initial)
_REDUCTIONS = {
    "add": "sum",
    "multiply": "prod",
    "maximum": "max",
    "minimum": "min",
}
#: ufunc -> the namespace function that is its ``accumulate`` (axis, dtype)
_ACCUMULATIONS = {"add": "cumsum", "multiply": "cumprod"}
#: ufuncs whose reduction is the same in any order and grouping, exactly: a
#: pairwise tree (reduce) or a log-step scan (accumulate) of the ufunc gives
#: numpy's sequential answer bit for bit
_ORDER_FREE = frozenset(
    {
        "maximum",
        "minimum",
        "fmax",
        "fmin",
        "logical_and",
        "logical_or",
        "logical_xor",
        "bitwise_and",
        "bitwise_or",
        "bitwise_xor",
        "gcd",
    }
)
#: the ufuncs numpy reduces over several axes at once (the others refuse)
_REORDERABLE = frozenset(_ORDER_FREE | {"add", "multiply"})
#: what lazygraph has no dtype for: numpy loops over these are left out of ``types``
_UNSUPPORTED_CHARS = frozenset("egGOMmSUVT")
#: at most this many segments are recorded one reduction each by ``reduceat``
_REDUCEAT_MAX_SEGMENTS = 256


def _write_reduced(name: str, result: Any, out: Any) -> Any:
    """``result`` of a reduce-like method written into ``out``, which must have
    exactly its shape: numpy does not broadcast a reduction into ``out``
    (``add.reduce(ones((4, 3)), axis=0, out=empty((1, 3)))`` is a ValueError)."""
    out = single_out(name, out)
    if out is not None:
        check_exact_out(name, result, out)
    return write_out(name, result, out, casting="unsafe", kind="array")


class ufunc:  # noqa: N801 (numpy's name)
    """A numpy universal function of lazygraph.numpy (``numpy.ufunc``'s
    interface): call it like the function, or use its methods.

    Each ufunc is the only instance of its own subclass, whose ``__call__`` is
    the namespace function, so a call costs what the function costs.
    """

    __name__: str
    __doc__: str | None
    nin: int
    nout: int
    nargs: int
    identity: Any
    signature: str | None
    types: list[str]
    ntypes: int
    _np: np.ufunc
    _func: Callable[..., Any]

    def __init__(self, func: Callable[..., Any], numpy_ufunc: np.ufunc) -> None:
        self.__name__ = numpy_ufunc.__name__
        self.__qualname__ = numpy_ufunc.__name__
        self.__doc__ = func.__doc__
        self.__wrapped__ = func
        self._func = func
        self._np = numpy_ufunc
        self.nin, self.nout, self.nargs = numpy_ufunc.nin, numpy_ufunc.nout, numpy_ufunc.nargs
        self.identity = numpy_ufunc.identity
        self.signature = numpy_ufunc.signature
        self.types = [t for t in numpy_ufunc.types if not _UNSUPPORTED_CHARS & set(t)]
        self.ntypes = len(self.types)

    @classmethod
    def of(cls, func: Callable[..., Any], numpy_ufunc: np.ufunc) -> ufunc:
        """The ufunc that calls ``func`` (a namespace function) and has
        ``numpy_ufunc``'s attributes."""
        # A subclass per ufunc: its __call__ is the function itself, no frame added.
        members = {"__call__": staticmethod(func), "__module__": "lazygraph.numpy"}
        kind = type("ufunc", (cls,), members)
        kind.__qualname__ = "ufunc"
        return kind(func, numpy_ufunc)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:  # replaced per ufunc
        return self._func(*args, **kwargs)

    @property
    def __signature__(self) -> inspect.Signature:
        return inspect.signature(self._func)

    def __repr__(self) -> str:
        return f"<ufunc {self.__name__!r}>"

    def __reduce__(self) -> str:
        return self.__name__  # pickled by name, as numpy's ufuncs are

    # -- methods ---------------------------------------------------------------

    def reduce(
        self,
        array: Any,
        axis: Any = 0,
        dtype: Any = None,
        out: Any = None,
        keepdims: bool = False,
        initial: Any = _NO_VALUE,
        where: Any = True,
    ) -> Any:
        """Reduce ``array`` over ``axis`` with this ufunc (``numpy.ufunc.reduce``).

        >>> import lazygraph.numpy as lnp
        >>> lnp.bitwise_or.reduce([1, 2, 8]).compute()
        array(11)
        """
        self._binary("reduce")
        x = asarray(array)
        if dtype is not None:
            x = x.astype(dtype)
        axes = _axes(axis, x.ndim, self.__name__)
        if len(axes) > 1 and self.__name__ not in _REORDERABLE:
            raise ValueError(
                f"reduction operation {self.__name__!r} is not reorderable, so at most one "
                "axis may be specified"
            )
        if self.__name__.startswith("logical_"):
            x = x.astype(bool)
        if initial is None:  # numpy: no identity, so an empty reduction fails
            if 0 in [x.shape[i] for i in axes]:
                raise ValueError(
                    f"zero-size array to reduction operation {self.__name__} which has no identity"
                )
            initial = _NO_VALUE
        if where is not True:
            fill = self.identity if self.identity is not None else initial
            if fill is _NO_VALUE:
                fill = None
            if fill is None:
                raise ValueError(
                    f"reduction operation '{self.__name__}' does not have an identity, so "
                    "to use a where mask one has to specify 'initial'"
                )
            x = _where(where, x, fill)
        name = _REDUCTIONS.get(self.__name__)
        if name is not None:
            given = {} if initial is _NO_VALUE else {"initial": initial}
            result = _namespace(name)(x, axis=axes, keepdims=keepdims, **given)
        elif self.__name__ in ("logical_and", "logical_or") and initial is _NO_VALUE:
            result = _namespace("all" if self.__name__ == "logical_and" else "any")(
                x, axis=axes, keepdims=keepdims
            )
        elif self.__name__ in _ORDER_FREE:
            result = self._tree_reduce(x, axes, keepdims, initial)
        else:
            return self._numpy(
                "reduce", (x,), axis=axis, dtype=dtype, out=out, keepdims=keepdims,
                initial=initial, where=where,
            )  # fmt: skip
        return _write_reduced(f"{self.__name__}.reduce", result, out)

    def accumulate(self, array: Any, axis: int = 0, dtype: Any = None, out: Any = None) -> Any:
        """The running reduction of ``array`` along ``axis`` (``numpy.ufunc.accumulate``).

        >>> import lazygraph.numpy as lnp
        >>> lnp.add.accumulate([1, 2, 3]).compute()
        array([1, 3, 6])
        """
        self._binary("accumulate")
        x = asarray(array)
        if x.ndim == 0:
            raise TypeError(f"{self.__name__}.accumulate: cannot accumulate on a scalar")
        if dtype is not None:
            x = x.astype(dtype)
        (ax,) = _axes(axis, x.ndim, self.__name__)
        if self.__name__.startswith("logical_"):
            x = x.astype(bool)
        name = _ACCUMULATIONS.get(self.__name__)
        if name is not None:
            # numpy's accumulate keeps the operand's dtype (bool adds as int64)
            dtype = self._np.accumulate(np.zeros(1, x.dtype)).dtype
            result = _namespace(name)(x, axis=ax, dtype=dtype)
        elif self.__name__ in _ORDER_FREE:
            result = self._scan(x, ax)
        else:
            return self._numpy("accumulate", (x,), axis=axis, dtype=dtype, out=out)
        return _write_reduced(f"{self.__name__}.accumulate", result, out)

    def outer(self, A: Any, B: Any, /, **kwargs: Any) -> Any:
        """This ufunc on every pair of elements of ``A`` and ``B``: the result has
        shape ``A.shape + B.shape`` (``numpy.ufunc.outer``).

        >>> import lazygraph.numpy as lnp
        >>> lnp.subtract.outer([10, 20], [1, 2]).compute()
        array([[ 9,  8],
               [19, 18]])
        """
        self._binary("outer")
        a, b = asarray(A), asarray(B)
        return self(a[(...,) + (None,) * b.ndim], b, **kwargs)

    def at(self, a: Any, indices: Any, b: Any = None, /) -> None:
        """``a[indices] = ufunc(a[indices], b)``, unbuffered: a repeated index
        applies once per occurrence (``numpy.ufunc.at``). ``a`` is written in place.

        >>> import lazygraph.numpy as lnp
        >>> a = lnp.asarray([1.0, 2.0, 3.0])
        >>> lnp.subtract.at(a, [0, 0], 0.5)
        >>> a.compute()
        array([0., 2., 3.])
        """
        if (b is None) != (self.nin == 1):
            raise ValueError(
                f"{self.__name__}.at: second operand needed for ufunc"
                if b is None
                else f"{self.__name__}.at: second operand provided when ufunc is unary"
            )
        if (
            isinstance(a, Array)
            and self.__name__ in ("add", "subtract")
            and np.result_type(a.dtype, _operand_type(b)) == a.dtype
        ):
            from lazygraph.numpy import _views

            value = as_variable(b)
            if self.__name__ == "subtract":
                value = lt.negative(value)
            target = lt.getitem(a._var, _views.unwrap_index(indices))
            update = lt.inc_subtensor(target, lt.cast(value, a.dtype.name))
            a._assign(update)
            return
        if isinstance(a, Array):
            from lazygraph.numpy._interop import numpy_fallback

            value = np.array(a)  # a private copy: numpy writes into it
            args = (value, indices) if b is None else (value, indices, b)
            numpy_fallback(self._np.at, f"numpy.{self.__name__}.at", args, {})
            a[...] = value
            return
        if not isinstance(a, np.ndarray):
            raise TypeError(f"{self.__name__}.at: first operand must be an array")
        from lazygraph.numpy._interop import compute_arguments

        (indices, b), _ = compute_arguments((indices, b), {})
        if b is None:
            self._np.at(a, indices)
        else:
            self._np.at(a, indices, b)

    def reduceat(
        self, array: Any, indices: Any, axis: int = 0, dtype: Any = None, out: Any = None
    ) -> Any:
        """Reductions over the segments ``indices[i]:indices[i + 1]`` along
        ``axis``; where ``indices[i] >= indices[i + 1]`` the segment is the one
        element ``array[indices[i]]`` (``numpy.ufunc.reduceat``).

        >>> import lazygraph.numpy as lnp
        >>> lnp.add.reduceat(lnp.arange(8), [0, 4, 1, 5]).compute()
        array([ 6,  4, 10, 18])
        """
        self._binary("reduceat")
        x = asarray(array)
        idx = np.asarray(indices)  # segment bounds are structure: concrete
        if idx.ndim != 1 or idx.dtype.kind not in "iu" or idx.size > _REDUCEAT_MAX_SEGMENTS:
            return self._numpy("reduceat", (x, idx), axis=axis, dtype=dtype, out=out)
        if dtype is not None:
            x = x.astype(dtype)
        (ax,) = _axes(axis, x.ndim, self.__name__)
        n = x.shape[ax]
        for i in idx.tolist():
            if not 0 <= i < n:
                raise IndexError(
                    f"{self.__name__}.reduceat: index {i} out-of-bounds in "
                    f"{self.__name__}.reduceat [0, {n})"
                )
        parts = []
        bounds = idx.tolist()
        for k, start in enumerate(bounds):
            stop = bounds[k + 1] if k + 1 < len(bounds) else n
            if stop <= start:
                stop = start + 1
            seg = x[(slice(None),) * ax + (slice(start, stop),)]
            parts.append(self.reduce(seg, axis=ax, keepdims=True, dtype=x.dtype))
        from lazygraph.numpy import concatenate

        if not parts:
            result = x[(slice(None),) * ax + (slice(0, 0),)]
        else:
            result = concatenate(parts, axis=ax)
        return _write_reduced(f"{self.__name__}.reduceat", result, out)

    # -- helpers ---------------------------------------------------------------

    def _binary(self, method: str) -> None:
        if self.signature is not None:
            raise ValueError(
                f"{self.__name__}.{method}: Reduction not defined on ufunc with signature"
            )
        if self.nin != 2 or self.nout != 1:
            raise ValueError(f"{method} only supported for binary functions")

    def _numpy(self, method: str, args: tuple[Any, ...], **kwargs: Any) -> Any:
        from lazygraph.numpy._interop import numpy_fallback

        kwargs = {k: v for k, v in kwargs.items() if v is not _NO_VALUE}
        if kwargs.get("where", True) is True:
            kwargs.pop("where", None)
        return numpy_fallback(
            getattr(self._np, method), f"numpy.{self.__name__}.{method}", args, kwargs
        )

    def _tree_reduce(self, x: Array, axes: tuple[int, ...], keepdims: bool, initial: Any) -> Any:
        """The reduction over ``axes`` as a pairwise tree of this ufunc (exact
        for the order-free ufuncs): the reduced axes flattened into the last."""
        kept = [i for i in range(x.ndim) if i not in axes]
        count = 1
        for i in axes:
            count *= x.shape[i]
        flat = x.transpose(*kept, *axes).reshape(*(x.shape[i] for i in kept), count)
        if initial is not _NO_VALUE:
            first = asarray(initial, dtype=flat.dtype)
            column = _namespace("broadcast_to")(first, (*flat.shape[:-1], 1))
            flat = _namespace("concatenate")([column, flat], axis=-1)
        n = flat.shape[-1]
        if n <= 1:
            self(flat[..., :0], flat[..., :0])  # (numpy's TypeError for a dtype it has no loop for)
        if n == 0:
            if self.identity is None:
                raise ValueError(
                    f"zero-size array to reduction operation {self.__name__} which has no identity"
                )
            identity = np.array(self.identity).astype(flat.dtype)  # -1 is 255 as uint8
            result = _namespace("full")(flat.shape[:-1], identity, dtype=flat.dtype)
        else:
            while n > 1:
                half = n // 2
                paired = self(flat[..., :half], flat[..., half : 2 * half])
                flat = (
                    paired
                    if n % 2 == 0
                    else _namespace("concatenate")([paired, flat[..., 2 * half :]], axis=-1)
                )
                n = half + n % 2
            result = flat[..., 0].astype(x.dtype) if flat.dtype != x.dtype else flat[..., 0]
        if keepdims:
            shape = [1 if i in axes else x.shape[i] for i in range(x.ndim)]
            result = result.reshape(shape)
        return result

    def _scan(self, x: Array, axis: int) -> Array:
        """The running reduction along ``axis`` as a log-step (Hillis-Steele) scan."""
        y = _namespace("moveaxis")(x, axis, -1)
        n, shift = y.shape[-1], 1
        if n <= 1:
            self(y[..., :0], y[..., :0])  # (numpy's TypeError for a dtype it has no loop for)
        while shift < n:
            combined = self(y[..., : n - shift], y[..., shift:]).astype(y.dtype)
            y = _namespace("concatenate")([y[..., :shift], combined], axis=-1)
            shift *= 2
        return _namespace("moveaxis")(y, -1, axis)


def _namespace(name: str) -> Callable[..., Any]:
    import lazygraph.numpy as lnp

    return getattr(lnp, name)  # type: ignore[no-any-return]


def _axes(axis: Any, ndim: int, name: str) -> tuple[int, ...]:
    if axis is None:
        return tuple(range(ndim))
    items = axis if isinstance(axis, tuple) else (axis,)
    out = []
    for a in items:
        a = int(a)
        bound = builtins.max(ndim, 1)
        if not -bound <= a < bound:
            raise np.exceptions.AxisError(a, ndim)
        out.append(a % ndim if ndim else 0)
    if len(set(out)) != len(out):
        raise ValueError(f"{name}: duplicate value in 'axis'")
    return tuple(out) if ndim else ()


def _operand_type(x: Any) -> Any:
    """What numpy's promotion sees of ``x``: a Python scalar as itself (weak),
    otherwise its dtype."""
    if isinstance(x, (bool, int, float, complex)):
        return x
    return x.dtype if isinstance(x, Array) else np.asarray(x).dtype


def _where(mask: Any, x: Array, fill: Any) -> Array:
    import lazygraph.numpy as lnp

    return lnp.where(mask, x, lnp.asarray(fill, dtype=x.dtype))


def make_ufuncs(namespace: dict[str, Any]) -> None:
    """Replace, in ``namespace`` (lazygraph.numpy's globals), every function
    named after a numpy ufunc with that :class:`ufunc` (aliases stay one object)."""
    made: dict[tuple[int, int], ufunc] = {}
    for name, value in list(namespace.items()):
        numpy_ufunc = getattr(np, name, None)
        if not isinstance(numpy_ufunc, np.ufunc) or not callable(value) or isinstance(value, ufunc):
            continue
        key = (id(value), id(numpy_ufunc))
        made_one = made.get(key)
        if made_one is None:
            made_one = made[key] = ufunc.of(value, numpy_ufunc)
        namespace[name] = made_one


class vectorize(np.vectorize):  # noqa: N801 (numpy's name)
    """``numpy.vectorize``: the Python function runs once per element (numpy's
    own loop, on the computed arguments: it may branch on each value), and
    numeric results come back as lazy Arrays.

    >>> import lazygraph.numpy as lnp
    >>> step = lnp.vectorize(lambda x: 1 if x > 0 else 0)
    >>> step(lnp.asarray([-1.0, 2.0])).compute()
    array([0, 1])
    """

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        from lazygraph.numpy._interop import compute_arguments, wrap_result

        args, kwargs = compute_arguments(args, kwargs)
        return wrap_result(super().__call__(*args, **kwargs))


#: ``numpy.frompyfunc`` itself: its ufunc (object dtype) computes lazy
#: arguments through ``Array.__array_ufunc__`` and returns numpy's object arrays.
frompyfunc = np.frompyfunc
