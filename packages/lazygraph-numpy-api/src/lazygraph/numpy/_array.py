"""The lazy :class:`Array`: a node of a lazygraph graph that behaves like a
``numpy.ndarray``.

Operators and methods only build graph (through the namespace functions of
``lazygraph.numpy``); anything that needs a value computes it (see
``docs/drop-in.md`` for the exact list). Mutation rebinds: ``a[i] = v`` and
``a += v`` point ``a`` at a new functional node, and a view (``b = a[0]``,
``a.T``, ``a.reshape(...)``) remembers its base and how it was derived, so
writing through either one is seen by the other, as in numpy.

>>> import numpy as np
>>> import lazygraph.numpy as lnp
>>> a = lnp.asarray(np.zeros((2, 3)))
>>> b = a[0]
>>> b[:] = 1.0
>>> a
array([[1., 1., 1.],
       [0., 0., 0.]])
>>> print(a.T)
[[1. 0.]
 [1. 0.]
 [1. 0.]]
"""

from __future__ import annotations

import math
import operator
import weakref
from collections.abc import Iterator
from typing import Any

import lazygraph.tensor as lt
import numpy as np
from lazygraph.compile.devices import devices, load_devices
from lazygraph.configuration import config
from lazygraph.numpy import _printing, _views
from lazygraph.numpy._array_methods import ArrayLayout, ArrayMethods
from lazygraph.numpy._array_operators import (
    _PLAIN_OPERANDS,
    ArrayOperators,
    _elementwise_complex,
    _ns,
)
from lazygraph.numpy._eager import known, known_value, set_item, view_of_owned
from lazygraph.numpy._expressions import has_expression
from lazygraph.numpy._sizes import _bound
from lazygraph.tensor.variable import TensorVariable

__all__ = ["Array"]

_SUPPORTED_API_VERSIONS = ("2021.12", "2022.12", "2023.12", "2024.12")

# variable -> the live Array it is the current variable of, for variables still
# to be computed (with an owner); weak, so dead Arrays drop out. A computation
# passing through a live Array pins it, and one that computes a value another
# pending array reads hands it that value (see _compute).
_LIVE: weakref.WeakValueDictionary[TensorVariable, Array] = weakref.WeakValueDictionary()


def _is_element_index(key: Any, ndim: int) -> bool:
    """Whether ``key`` is one integer per axis (numpy then returns a scalar)."""
    if type(key) is tuple:
        if len(key) != ndim:
            return False
        # a plain loop: this runs on every index of a known value
        for k in key:  # noqa: SIM110
            if type(k) is not int and not isinstance(k, np.integer):
                return False
        return True
    return ndim == 1 and (type(key) is int or isinstance(key, np.integer))


def _element_of(var: TensorVariable, key: Any) -> Any:
    """``value[key]`` of a graph input with a bound value (a computed array, or
    data from numpy): numpy's scalar, as numpy returns for one integer per axis.
    Reading an element of a known value builds and compiles no graph, and the
    element takes part in later arithmetic at numpy's speed. None when ``var``
    has no value."""
    value = _bound().get(var)
    if value is None:
        return None
    return value[key]  # numpy's IndexError out of range


def _derived(view: _views.View, base: TensorVariable) -> TensorVariable:
    """The variable of ``view`` of ``base``: bound at once to numpy's view of
    ``base``'s value where it is known (see :func:`_value_view`), else
    ``view.forward(base)``, a node."""
    taken = _value_view(view, base)
    return view.forward(base) if taken is None else taken


def _value_view(view: _views.View, base: TensorVariable) -> TensorVariable | None:
    """A new graph input bound to numpy's ``view`` of ``base``'s value, when
    ``base`` is a known value (read-only: nothing writes it any more) and
    lazygraph.numpy computes small known values at once; None otherwise. A
    view of a computed array (``A[i]``, ``A.T``, ``x.reshape(n, 1)``) then costs
    a numpy view, not a node and its evaluation; the Array still keeps its base
    and view, so later writes to either are seen by the other."""
    if config.eager_max_elements <= 0 or base.owner is not None:
        return None
    value = known_value(base)
    if value is None:
        return None
    if has_expression(base):
        return None  # ``log(exp(x).T)``: a rule reads through the view (a node)
    try:
        taken = view.strided(value)
    except IndexError:
        return None  # the graph's getitem raises numpy's error, naming the op
    if type(taken) is not np.ndarray:
        return None
    convert = _convert_module()
    return convert.bind_value(taken, convert.type_of(base.type.dtype, taken.shape))


def _convert_module() -> Any:
    """lazygraph.numpy._convert (which imports this module)."""
    global _CONVERT
    if _CONVERT is None:
        from lazygraph.numpy import _convert

        _CONVERT = _convert
    return _CONVERT


_CONVERT: Any = None


class Array(ArrayOperators, ArrayMethods, ArrayLayout):
    """A lazy n-dimensional array: a node of a lazygraph graph.

    ``dtype`` is a ``numpy.dtype``; ``shape`` holds an int for every size, as in
    numpy (a size that depends on the data is computed when asked for; the
    ``repr`` shows ``None`` for it and computes nothing).

    >>> import numpy as np
    >>> import lazygraph.numpy as lnp
    >>> x = lnp.asarray(np.arange(6.0).reshape(2, 3))
    >>> y = (x * 2 + 1).T
    >>> y.shape, y.dtype
    ((3, 2), dtype('float64'))
    >>> y.compute()
    array([[ 1.,  7.],
           [ 3.,  9.],
           [ 5., 11.]])
    """

    __slots__ = (
        "__weakref__",
        "_base",
        "_base_version",
        "_cur",
        "_in_own",
        "_known",
        "_nd0",
        "_own",
        "_sizes",
        "_version",
        "_view",
    )

    # numpy defers to our reflected operators (and __array_ufunc__) for mixed operands.
    __array_priority__ = 100.0

    def __init__(self, var: TensorVariable) -> None:
        self._cur = var
        self._base: Array | None = None
        self._view: _views.View | None = None
        self._base_version = 0
        self._version = 0
        # The bound value of ``_cur`` when this array made it (a copy written by
        # item assignment) and nothing has read ``_var`` since: no other array,
        # graph or hand-out can see that buffer, so the next item assignment
        # writes into it instead of copying (see _eager.set_item).
        self._own: np.ndarray | None = None
        # a view whose value is a read-only view into its base's ``_own`` buffer
        # (see _eager.view_of_owned); reading ``_var`` ends the base's ownership
        self._in_own = False
        # the bound value of ``_cur``, once an element read looked it up
        self._known: np.ndarray | None = None
        # (variable, its sizes) once a size unknown when the graph was built
        # was computed (see concrete_shape)
        self._sizes: tuple[TensorVariable, tuple[int, ...]] | None = None
        # a 0-d array made as an array (``array(1.0)``, ``zeros(())``, a copy),
        # not a computed 0-d result, which numpy hands out as an immutable
        # scalar (see ``_inplace``)
        self._nd0 = False
        if var.owner is not None:
            _LIVE[var] = self

    # -- the variable, kept in step with the base of a view -------------------

    @property
    def _var(self) -> TensorVariable:
        # whoever asks for the variable may keep it, or a view of its value
        self._own = None
        self._in_own = False  # (reading the base's, below, ends its ownership)
        base = self._base
        if base is not None:
            bvar = base._var  # brings the base itself up to date first
            if self._base_version != base._version:
                self._rebind(_derived(self._view, bvar))  # type: ignore[arg-type]
                self._base_version = base._version
                self._version += 1
        return self._cur

    def __lazygraph_variable__(self) -> TensorVariable:
        return self._var

    def _assign(self, new: TensorVariable) -> None:
        """Rebind this array to ``new`` (same dtype and shape), writing through to
        the base if this is a view."""
        new = known(_views.keep_type(new, self._cur.type))
        base = self._base
        if base is not None:
            bvar = base._var
            self._var  # noqa: B018 (bring this view up to date with its base)
            base._assign(self._view.write(bvar, new))  # type: ignore[union-attr]
            self._base_version = base._version
        self._rebind(new)
        self._version += 1

    def _rebind(self, new: TensorVariable) -> None:
        # Keep the registry of live arrays to current variables only: an old key
        # would keep its whole graph (and any pinned value) alive.
        self._own = None
        self._in_own = False
        self._known = None
        self._sizes = None
        old = self._cur
        if _LIVE.get(old) is self:
            del _LIVE[old]
        self._cur = new
        if new.owner is not None:
            _LIVE[new] = self

    def _pin(self, pinned: TensorVariable, var: TensorVariable) -> None:
        """Replace the variable ``var``, if still current, by the equal-valued bound
        input ``pinned`` (after a computation)."""
        if self._cur is var:
            self._rebind(pinned)

    @classmethod
    def _view_of(cls, base: Array, view: _views.View, var: TensorVariable | None = None) -> Array:
        """A view of ``base`` (``var``: its variable, when already derived)."""
        out = cls(_derived(view, base._var) if var is None else var)
        out._base = base
        out._view = view
        out._base_version = base._version
        return out

    # -- static facts ---------------------------------------------------------

    @property
    def dtype(self) -> np.dtype[Any]:
        """The element type, a ``numpy.dtype``."""
        return self._cur.type.numpy_dtype

    @property
    def _static_shape(self) -> tuple[int | None, ...]:
        """The shape known when the graph was built: ``None`` for a size that
        depends on the data. Never computes (for lazygraph's own code)."""
        return self._cur.type.shape  # type: ignore[no-any-return]

    @property
    def ndim(self) -> int:
        """The number of dimensions."""
        return self._cur.type.ndim

    @property
    def size(self) -> int:
        """The number of elements (computing a size that depends on the data, as
        :attr:`shape` does)."""
        shape = self.shape
        if None in shape:
            return None  # type: ignore[return-value]  (a placeholder being traced)
        return math.prod(shape)

    @property
    def itemsize(self) -> int:
        return self.dtype.itemsize

    @property
    def nbytes(self) -> int:
        size = self.size
        return None if size is None else size * self.dtype.itemsize  # type: ignore[return-value]

    @property
    def device(self) -> Any:
        """Where the value lives: ``"cpu"`` (numpy arrays on the host), or, with a
        backend that has devices (jax), where this array or the arrays it is
        computed from were moved by :meth:`to_device`, as ``jax.Array.device``
        says it (a ``jax.Device``; a ``Sharding`` across several devices).
        Placed differently but combinable (two shardings over the same devices),
        the result's layout is the backend's: it is computed to find out."""
        placed = _placed_devices(self)
        if not placed:
            return "cpu"
        where = devices.common(placed, "device")
        if any(p != where for p in placed):
            found = devices.placement(self._value())
            return "cpu" if found is None else found[0]
        return where

    @property
    def T(self) -> Array:
        """The transpose (all axes reversed), a view."""
        return self.transpose()

    @property
    def mT(self) -> Array:
        """The last two axes swapped (a stack of matrices transposed), a view."""
        if self.ndim < 2:
            raise ValueError(
                "matrix transpose with ndim < 2 is undefined "
                f"(got an array of shape {self._static_shape})"
            )
        return self.swapaxes(-1, -2)

    @property
    def real(self) -> Array:
        """The real part (writes through it are not supported for complex arrays)."""
        if self.dtype.kind != "c":
            return Array._view_of(self, _views.Identity())
        return Array._view_of(self, _views.ReadOnly(_elementwise_complex().real, "real"))

    @property
    def imag(self) -> Array:
        """The imaginary part (read-only)."""
        return Array._view_of(self, _views.ReadOnly(_elementwise_complex().imag, "imag"))

    @property
    def flat(self) -> Array:
        """The elements in C order as a 1-d view (``a.flat[i] = v`` writes to ``a``)."""
        return Array._view_of(self, _views.Reshape((-1,)))

    def __array_namespace__(self, /, *, api_version: str | None = None) -> Any:
        """``lazygraph.numpy`` (array API versions 2021.12 to 2024.12)."""
        if api_version is not None and api_version not in _SUPPORTED_API_VERSIONS:
            raise ValueError(
                f"lazygraph.numpy does not support array API version {api_version!r}; "
                f"supported: {', '.join(_SUPPORTED_API_VERSIONS)}"
            )
        return _ns()

    def to_device(self, device: Any, /, *, stream: Any = None) -> Array:
        """This array on ``device``: ``"cpu"`` (the host), or with the jax backend a
        ``jax.Device`` (or ``"gpu"`` / ``"tpu"``, that platform's first device) or
        a ``jax.sharding.Sharding`` (the value laid out across its devices).

        Moving to a jax device computes the value now and uploads it once
        (``jax.device_put``); what is computed from the result runs there (on
        that device, or sharded) and stays there (see the jax backend's docs).
        ``compute()`` still returns numpy; ``jax.numpy.asarray(x)`` gives the
        ``jax.Array`` without a copy.

        >>> import numpy as np
        >>> import lazygraph.numpy as lnp
        >>> x = lnp.asarray(np.ones(3))
        >>> x.to_device("cpu") is x
        True
        """
        current = self.device
        if device is current or device == current:
            return self
        if isinstance(device, str) and device == "cpu":
            return Array(_bind_host_copy(self._value()))
        try:
            # the configured backend's device support, loaded now if need be
            # (the backend keeps a first import of jax off numpy's random stream)
            support = load_devices(config.backend)
        except ValueError:
            raise ValueError(
                f"to_device: unsupported device {device!r}; with the {config.backend!r} "
                "backend lazygraph.numpy has only 'cpu' (jax devices need "
                "lazygraph.config.backend = 'jax')"
            ) from None
        target = support.as_device(device, "to_device")
        if target == current:
            return self
        value = _bind_host_copy(self._value())
        support.place(_bound_value(value), target)
        return Array(value)

    def __jax_array__(self) -> Any:
        """The value as a ``jax.Array`` (``jax.numpy.asarray(x)`` calls this): the
        device copy, without a transfer, when the array is on a jax device (see
        :meth:`to_device`), else an upload to jax's default device."""
        import jax

        value = self._value()
        found = devices.placement(value)
        if found is not None:
            return found[1]
        with jax.enable_x64(True):
            return jax.device_put(value)

    # -- conversion and copies -------------------------------------------------

    def astype(
        self,
        dtype: Any,
        order: str = "K",
        casting: str = "unsafe",
        subok: bool = True,
        copy: bool = True,
        *,
        device: Any = None,
    ) -> Array:
        """This array converted to ``dtype`` (numpy's ``ndarray.astype``: unsafe
        casting unless ``casting`` says otherwise; ``order`` has no effect)."""
        from lazygraph.tensor.type import normalize_dtype

        if device is not None:
            self.to_device(device)
        target = np.dtype(normalize_dtype(dtype))
        if not np.can_cast(self.dtype, target, casting):
            raise TypeError(
                f"Cannot cast array data from {self.dtype!r} to {target!r} "
                f"according to the rule {casting!r}"
            )
        if target == self.dtype and not copy:
            return self
        new = Array(self._var if target == self.dtype else lt.cast(self._var, target.name))
        new._nd0 = self._nd0 or self._base is not None  # (a scalar's stays a scalar)
        return new

    def copy(self, order: str = "K") -> Array:
        """An independent array with the same value (writes to it are not seen here)."""
        new = Array(self._var)
        new._nd0 = new._cur.type.ndim == 0
        return new

    def __copy__(self) -> Array:
        return self.copy()

    def __deepcopy__(self, memo: Any) -> Array:
        return self.copy()

    def __reduce__(self) -> Any:
        from lazygraph.numpy._convert import asarray

        return (asarray, (self.compute(),))

    # -- computing ---------------------------------------------------------------

    def compute(self) -> np.ndarray:
        """The value, as a new ``numpy.ndarray`` (compiles and runs the graph)."""
        from lazygraph.numpy._compute import compute_one

        return compute_one(self)

    def _value(self) -> np.ndarray:
        """The value, for reading only (this array is pinned to it: see _compute)."""
        var = self._var
        if var.owner is None:  # data, or a computed array: its value is at hand
            value = _bound().get(var)
            if value is not None:
                return value
        from lazygraph.numpy._compute import compute_private

        return compute_private(self)

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        value = self.compute()
        if dtype is not None and np.dtype(dtype) != value.dtype:
            if copy is False:
                raise ValueError("__array__: copy=False but converting the dtype needs a copy")
            value = value.astype(dtype)
        return value

    def __dlpack__(
        self,
        *,
        stream: Any = None,
        max_version: tuple[int, int] | None = None,
        dl_device: tuple[int, int] | None = None,
        copy: bool | None = None,
    ) -> Any:
        """The value as a DLPack capsule (the array API's and numpy's
        ``__dlpack__``, with numpy's keywords and errors): computed now, into a
        new array that only the consumer holds.

        >>> import numpy as np
        >>> import lazygraph.numpy as lnp
        >>> np.from_dlpack(lnp.arange(3) * 2)
        array([0, 2, 4])
        """
        return self.compute().__dlpack__(
            stream=stream, max_version=max_version, dl_device=dl_device, copy=copy
        )

    def __dlpack_device__(self) -> tuple[int, int]:
        """Where :meth:`__dlpack__` puts the value: ``(1, 0)``, the host (kDLCPU,
        device 0), where the computed value is."""
        return (1, 0)

    def __bool__(self) -> bool:
        return bool(self._value())

    def __int__(self) -> int:
        return int(self._value())

    def __float__(self) -> float:
        return float(self._value())

    def __complex__(self) -> complex:
        return complex(self._value())

    def __index__(self) -> int:
        if self.dtype.kind not in "iu" or self.ndim != 0:
            raise TypeError("only integer scalar arrays can be converted to a scalar index")
        return operator.index(self._value())

    def __len__(self) -> int:
        if self.ndim == 0:
            raise TypeError("len() of unsized object")
        n = self.shape[0]
        if n is None:
            return len(self._value())
        return n

    def __iter__(self) -> Iterator[Any]:
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        if self.ndim == 1:
            # numpy yields scalars (values, not views): compute once.
            yield from self._value()
            return
        for i in range(len(self)):
            yield self[i]

    def __contains__(self, value: Any) -> bool:
        return bool((self == value).any())

    def tolist(self) -> Any:
        """The value as nested Python lists of Python scalars."""
        return self._value().tolist()

    def tobytes(self, order: str = "C") -> bytes:
        """The raw bytes of the value (``numpy.ndarray.tobytes``)."""
        return self._value().tobytes(order=order)

    def item(self, *args: Any) -> Any:
        """One element as a Python scalar (``numpy.ndarray.item``)."""
        return self._value().item(*args)

    def __str__(self) -> str:
        return str(self._value())

    def __format__(self, format_spec: str) -> str:
        return format(self._value(), format_spec)

    def __repr__(self) -> str:
        return _printing.array_repr(self)  # numpy's (computed), see _printing

    def __hash__(self) -> int:
        return _printing.array_hash(self)  # a computed 0-d result's: its scalar's

    # -- numpy interop -------------------------------------------------------------

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        from lazygraph.numpy._interop import array_ufunc

        return array_ufunc(ufunc, method, inputs, kwargs)

    def __array_function__(self, func: Any, types: Any, args: Any, kwargs: Any) -> Any:
        from lazygraph.numpy._interop import array_function

        return array_function(func, types, args, kwargs)

    # -- indexing ------------------------------------------------------------------

    def __getitem__(self, key: Any) -> Any:
        # an element of a known value: numpy's scalar (a read that keeps _own);
        # not with eager_max_elements=0 (a traced function, or every node
        # through the backend), where it is a node of the graph
        eager = config.eager_max_elements > 0
        if self._base is None and eager:
            value = self._known
            if value is None and self._cur.owner is None:
                value = _bound().get(self._cur)
                # _known only for a value without an expression: the lanes read
                # _known as the operand itself, where a rule would read the
                # expression (log(e) of a computed e = exp(x) is x)
                if value is not None and not has_expression(self._cur):
                    self._known = value
            if value is not None and _is_element_index(key, value.ndim):
                return value[key]  # numpy's IndexError out of range
        if eager and self._own is not None and _views.is_basic_key(key):
            # a part of an array owning its buffer: a view into it, so that
            # ``y[k:] += v`` writes there (see _eager.view_of_owned)
            part = view_of_owned(self, key)
            if part is not None:
                return part
        var = self._var
        if eager and var.owner is None and _is_element_index(key, var.ndim):
            scalar = _element_of(var, key)
            if scalar is not None:
                return scalar
        if eager and var.owner is None and _views.is_basic_key(key):
            # a view of a known value: numpy's view of it, no node
            basic = _views.BasicIndex(key)
            taken = _value_view(basic, var)
            if taken is not None:
                return Array._view_of(self, basic, taken)

        out = lt.getitem(var, _views.dynamic_index(var, _views.unwrap_index(key)))
        view = _views.index_view(out)
        if view is None or (out.ndim == 0 and not _views.has_ellipsis(key)):
            # Advanced indexing copies; a full integer index gives numpy a scalar.
            return Array(known(out))
        result = Array(known(out))
        result._base = self
        result._view = view
        result._base_version = self._version
        return result

    def __setitem__(self, key: Any, value: Any) -> None:
        if set_item(self, key, value):  # a known array: assigned at once
            return
        var = self._var
        key = _views.dynamic_index(var, _views.unwrap_index(key))
        self._assign(_views.set_item(var, key, value))

    # -- view-making methods ---------------------------------------------------------

    def transpose(self, *axes: Any) -> Array:
        """The axes permuted (reversed when none are given), a view."""
        if len(axes) == 1 and (axes[0] is None or not isinstance(axes[0], (int, np.integer))):
            axes = () if axes[0] is None else tuple(axes[0])
        return Array._view_of(self, _views.Transpose.make(self.ndim, axes or None))

    def swapaxes(self, axis1: int, axis2: int) -> Array:
        """Two axes exchanged, a view."""
        axes = list(range(self.ndim))
        a1, a2 = _views.normalize_axis(axis1, self.ndim), _views.normalize_axis(axis2, self.ndim)
        axes[a1], axes[a2] = axes[a2], axes[a1]
        return Array._view_of(self, _views.Transpose.make(self.ndim, axes))

    def reshape(self, *shape: Any, order: str | None = "C", copy: bool | None = None) -> Array:
        """The same elements in a new shape: a view where numpy makes one.
        ``order="F"`` reads and writes in column-major order; ``"A"`` as ``"F"`` for
        an array numpy holds Fortran-contiguous (a transpose, following the views)."""
        if len(shape) == 1 and not isinstance(shape[0], (int, np.integer)):
            only = shape[0]
            if isinstance(only, (Array, np.ndarray)):  # a size, or sizes (a lazy one computed)
                from lazygraph.numpy._creation import shape_argument

                only = shape_argument(only)
            if only is None:
                shape = ()
            elif isinstance(only, (int, np.integer)):
                shape = (only,)
            else:
                shape = tuple(only)
        order = self._memory_order(order, "reshape")
        if order == "F":
            # numpy's F-order reshape is the C-order reshape of the reversed axes:
            # as views, so it is a view exactly where numpy's is
            flipped = self.transpose().reshape(*reversed(shape), copy=copy)
            return flipped.transpose()
        view = _views.Reshape.make(self, tuple(shape))
        if copy or not _views.reshape_is_view(self, view):
            if copy is False:
                raise ValueError("Unable to avoid creating a copy while reshaping.")
            return Array(view.forward(self._var))
        return Array._view_of(self, view)

    def ravel(self, order: str | None = "C") -> Array:
        """The elements as a 1-d array (a view where numpy makes one); ``order``:
        ``"C"``, ``"F"``, ``"A"`` (``"F"`` for a Fortran-contiguous array) or ``"K"``
        (the order in memory, as numpy's strides for this chain of views have it)."""
        order = _views.order_argument(order, "ravel")
        if order == "K":
            axes = self._axes_in_memory_order()
            if axes != tuple(range(self.ndim)):
                return self.transpose(axes).reshape(-1)
            order = "C"
        return self.reshape(-1, order=self._memory_order(order, "ravel"))

    def flatten(self, order: str | None = "C") -> Array:
        """The elements as a new 1-d array (always a copy); ``order`` as for
        :meth:`ravel`."""
        return self.ravel(order=order).copy()

    def _memory_order(self, order: str | None, fn: str) -> str:
        """``"C"`` or ``"F"`` for numpy's ``order`` argument to ``fn``."""
        order = _views.order_argument(order, fn)
        if order is None:
            return "C"
        if order == "K":
            if fn == "reshape":
                raise ValueError("order 'K' is not permitted for reshaping")
            return "C"
        if order == "A":
            fake = _views.strides_model(self)
            fortran = fake is not None and fake.flags.f_contiguous
            return "F" if fortran and not fake.flags.c_contiguous else "C"  # type: ignore[union-attr]
        return order

    def _axes_in_memory_order(self) -> tuple[int, ...]:
        """numpy's ``K`` order: the axes by decreasing stride magnitude (ties keep
        their order); the identity for a C- or F-contiguous array's own orders."""
        fake = _views.strides_model(self)
        if fake is None or fake.flags.c_contiguous:
            return tuple(range(self.ndim))
        if fake.flags.f_contiguous:
            return tuple(reversed(range(self.ndim)))
        strides = [abs(st) for st in fake.strides]
        return tuple(sorted(range(self.ndim), key=lambda k: -strides[k]))

    def squeeze(self, axis: Any = None) -> Array:
        """Size-1 axes removed, a view (a copy when sizes are unknown)."""
        static = self._static_shape
        if None in static:
            return _ns().squeeze(self, axis=axis)  # type: ignore[no-any-return]
        shape = _views.squeezed_shape(static, axis)
        return Array._view_of(self, _views.Reshape.make(self, shape))

    def __round__(self, ndigits: int | None = None) -> Array:
        return _ns().round(self, ndigits or 0)  # type: ignore[no-any-return]

    def diagonal(self, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Array:
        """The diagonal (a read-only view, as in numpy)."""
        return Array._view_of(
            self,
            _views.ReadOnly(
                lambda v: _ns().diagonal(v, offset=offset, axis1=axis1, axis2=axis2), "diagonal"
            ),
        )

    def fill(self, value: Any) -> None:
        """Set every element to ``value``, in place."""
        self[...] = value

    def sort(self, axis: int = -1, kind: Any = None, order: Any = None) -> None:
        """Sort in place along ``axis``."""
        self[...] = _ns().sort(self, axis=axis)


def _placed_devices(arr: Array) -> list[Any]:
    """The devices the bound values ``arr`` is computed from were moved to."""
    if not devices.placed:  # nothing was ever moved
        return []
    from lazygraph.graph.traversal import graph_inputs
    from lazygraph.numpy._convert import _BOUND

    found = []
    for v in graph_inputs([arr._var]):
        hit = devices.placement(_BOUND.get(v))
        if hit is not None:
            found.append(hit[0])
    return found


def _bind_host_copy(value: np.ndarray) -> TensorVariable:
    """A new graph input holding a read-only copy of ``value``."""
    from lazygraph.numpy._convert import bind

    copy = value.copy()
    copy.setflags(write=False)
    return bind(copy, copy=False)


def _bound_value(var: TensorVariable) -> np.ndarray:
    from lazygraph.numpy._convert import bound_value

    return bound_value(var)


_PLAIN_OPERANDS.add(Array)
