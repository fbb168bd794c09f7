"""Conversions between user values and graph variables.

- :func:`as_variable`: an :class:`Array` gives its variable; a Python scalar
  stays a weak Python scalar (the tensor layer promotes it as NEP 50 says);
  numpy data becomes a graph *input* bound to a snapshot of its value (data is
  input, not constant); short Python lists of numbers are literals (constants).
- :func:`wrap`: a tensor variable as an :class:`Array`.
- :func:`bind` / :func:`bound_value`: the value a graph input stands for.
- :func:`asarray`: the array API's ``asarray``.

>>> import numpy as np
>>> from lazygraph.numpy._convert import as_variable, bound_value
>>> v = as_variable(np.arange(3.0))
>>> v.owner is None, v.type
(True, TensorType(float64, shape=(3,)))
>>> bound_value(v)
array([0., 1., 2.])
>>> as_variable(2.5)
2.5
"""

from __future__ import annotations

import gc
from collections.abc import Sequence
from typing import Any

import numpy as np
from lazygraph.graph.basic import Constant, Variable
from lazygraph.numpy._array import Array
from lazygraph.numpy._eager import known
from lazygraph.numpy._printing import is_scalar_result
from lazygraph.numpy._views import order_argument
from lazygraph.tensor.dtypes import array_dtype
from lazygraph.tensor.type import ALL_DTYPES, TensorType, normalize_dtype, tensor_type
from lazygraph.tensor.variable import TensorVariable, as_tensor_variable, constant

__all__ = ["asarray"]

#: Python sequences of at most this many numbers are literals (graph constants);
#: longer ones are data (graph inputs), so new values reuse the compiled function.
LITERAL_SIZE_LIMIT = 64

_DTYPE_NAMES = {np.dtype(d): d for d in ALL_DTYPES}


class BoundVariable(TensorVariable):
    """A graph input holding its value (data from numpy, or a computed result).

    The value lives on the variable, so it lives exactly as long as some graph
    (or Array) still refers to the variable: binding a computed result is an
    object and an attribute, with no registry entry to add and to remove when
    the variable dies (it is made for every small result computed at once).
    A clone is an unbound :class:`TensorVariable` of the same type.
    """

    __slots__ = ("bound",)

    def clone(self, name: str | None = None) -> TensorVariable:
        cp = TensorVariable(self.type, None, None, self.name if name is None else name)
        if self._tag is not None:
            vars(cp.tag).update(vars(self._tag))
        return cp


class DistributedVariable(BoundVariable):
    """A graph input holding a ``dask.array.Array`` (bound on the dask backend by
    :mod:`lazygraph.numpy._distributed`): a value for computations, which pass
    it to the backend as it is, but never a *known* value, so the eager lanes
    (which call numpy on known values at once) record a node for every
    operation on it (``_BoundValues.get``, :func:`known_value`: exact type).
    """

    __slots__ = ()


_NEW = object.__new__


def _bound_variable(ttype: TensorType, arr: np.ndarray, name: str | None = None) -> BoundVariable:
    var = _NEW(BoundVariable)
    var.type = ttype
    var.owner = var.index = None
    var.name = name
    var._auto_name = var._tag = None
    var.bound = arr
    return var


class _BoundValues:
    """The values of the bound graph inputs, as a read-only mapping from variable
    to value (the values live on the :class:`BoundVariable` objects)."""

    __slots__ = ()

    # ``get`` is what the eager lanes read (numpy values they may compute with
    # at once): a DistributedVariable's dask array is not one. ``[]`` and ``in``
    # are what a computation reads: it is one (passed to the backend as is).

    def get(self, var: Any, default: Any = None) -> Any:
        return var.bound if type(var) is BoundVariable else default

    def __getitem__(self, var: Any) -> np.ndarray:
        if type(var) is BoundVariable or type(var) is DistributedVariable:
            return var.bound  # type: ignore[no-any-return]
        raise KeyError(var)

    def __contains__(self, var: Any) -> bool:
        return type(var) is BoundVariable or type(var) is DistributedVariable


#: graph input -> its bound value
_BOUND = _BoundValues()


def live_bound_inputs() -> int:
    """How many bound graph inputs are alive (for tests of what lazygraph keeps)."""
    gc.collect()
    return sum(1 for obj in gc.get_objects() if type(obj) is BoundVariable)


def bind(
    value: Any, dtype: Any = None, copy: bool | None = None, name: str | None = None
) -> TensorVariable:
    """A new graph input holding ``value`` (converted to ``dtype``).

    The input's static shape is the value's shape. ``copy=None`` snapshots a
    writeable array (so later numpy mutation of the caller's buffer does not
    leak into lazy results); ``copy=False`` binds the caller's buffer itself.

    >>> import numpy as np
    >>> x = bind(np.ones((2, 3), dtype=np.float32))
    >>> x.type, bound_value(x).flags.writeable
    (TensorType(float32, shape=(2, 3)), False)
    """
    if type(value) is np.memmap or type(getattr(value, "base", None)) is np.memmap:
        from lazygraph.numpy._distributed import mapped_input  # (dask: read from the file)

        mapped = mapped_input(value, dtype, copy)
        if mapped is not None:
            return mapped
    arr = np.asarray(value, dtype=None if dtype is None else normalize_dtype(dtype))
    if arr.dtype == object:
        raise TypeError(f"cannot convert {type(value).__name__} to a lazygraph array")
    dtype_name = _DTYPE_NAMES.get(arr.dtype)
    if dtype_name is None:
        # Unsupported dtypes (str, float16, ...) raise TypeError; a non-native byte
        # order is converted, so bound values are always exactly their input's type.
        dtype_name = normalize_dtype(arr.dtype)
        arr = arr.astype(dtype_name)
    # (an empty array shares no memory by may_share_memory's count: ``is``)
    shared = isinstance(value, np.ndarray) and (arr is value or np.may_share_memory(arr, value))
    if copy or (copy is None and shared and arr.flags.writeable):
        arr = arr.copy()
        shared = False
    if not shared:
        arr.setflags(write=False)
    return _bound_variable(type_of(dtype_name, arr.shape), arr, name)


def type_of(dtype_name: str, shape: tuple[int, ...]) -> TensorType:
    """The tensor type of a value of this dtype and shape (TensorType's interned
    one: this runs for every result computed at once)."""
    return tensor_type(dtype_name, shape)


def bind_value(arr: np.ndarray, ttype: TensorType) -> TensorVariable:
    """A new graph input of type ``ttype`` holding ``arr``: an array of exactly that
    type that nothing else writes to (a result computed at once; no checks)."""
    return _bound_variable(ttype, arr)


def bind_result(value: Any, ttype: TensorType) -> TensorVariable:
    """A new graph input of ``ttype`` holding a computed ``value`` that nothing
    else writes: without checks when it is an ndarray of ``ttype``'s static shape
    (and dtype), else through :func:`bind` (``copy=False``)."""
    if type(value) is np.ndarray and value.shape == ttype.shape:
        return bind_value(value, ttype)
    return bind(value, copy=False)


def known_array(value: np.ndarray) -> Array:
    """``value`` (a fresh ndarray nothing else holds) as a known :class:`Array`,
    made read-only: what computing a small node at once gives, without the node.

    >>> known_array(np.zeros(2))
    array([0., 0.])
    """
    value.setflags(write=False)
    name = _DTYPE_NAMES.get(value.dtype)  # (str(dtype) costs a microsecond)
    arr = Array(bind_value(value, type_of(str(value.dtype) if name is None else name, value.shape)))
    arr._known = value
    return arr


def bound_value(var: Variable) -> np.ndarray:
    """The value bound to the graph input ``var`` (``KeyError`` if none)."""
    return _BOUND[var]


def is_bound(var: Variable) -> bool:
    """Whether ``var`` is a graph input with a bound value."""
    return var in _BOUND


def _holds_lazy(seq: Any) -> bool:
    if isinstance(seq, (list, tuple)):
        return any(_holds_lazy(v) for v in seq)
    return isinstance(seq, (Array, Variable)) or hasattr(seq, "__lazygraph_variable__")


def _stack_nested(seq: Any, dtype: Any) -> TensorVariable:
    """A nested list holding lazy arrays, stacked as ``numpy.asarray`` would."""
    import lazygraph.tensor as lt

    if not isinstance(seq, (list, tuple)):
        return as_tensor_variable(as_variable(seq))
    if len(seq) == 0:
        return constant(np.asarray(seq, dtype=dtype))
    parts = [_stack_nested(v, dtype) for v in seq]
    dtypes = [p.dtype for p in parts]
    target = normalize_dtype(dtype) if dtype is not None else array_dtype(*dtypes)
    parts = [p if p.dtype == target else lt.cast(p, target) for p in parts]
    return lt.stack(parts)


def is_literal(data: Any, size: int) -> bool:
    """Whether Python data (a list or tuple of ``size`` numbers) is a literal of
    the program, a graph constant: short, and made of Python numbers only. A
    numpy scalar in it is a value the program computed (``[dS, dI]`` of scalars
    read from an array), which changes from call to call: the list is then
    data, a graph input, so new values reuse the compiled function.

    >>> is_literal([1.0, 2.0], 2), is_literal([np.float64(1.0), 2.0], 2)
    (True, False)
    """
    if size > LITERAL_SIZE_LIMIT:
        return False
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, list | tuple):
            stack.extend(item)
        elif isinstance(item, np.generic | np.ndarray):
            return False
    return True


def as_variable(x: Any) -> Any:
    """``x`` as something every ``lazygraph.tensor`` function accepts.

    Arrays and variables pass through; Python ``bool``/``int``/``float``/
    ``complex`` stay weak scalars; numpy arrays and scalars become bound graph
    inputs; lists and tuples of numbers become constants when short (at most
    ``LITERAL_SIZE_LIMIT`` numbers) and bound inputs otherwise; sequences that
    hold lazy arrays are stacked.
    """
    if isinstance(x, Array):
        return x._var
    if isinstance(x, Variable):
        return x
    if isinstance(x, (bool, int, float, complex)) and not isinstance(x, np.generic):
        return x
    if hasattr(x, "__lazygraph_variable__"):
        return x.__lazygraph_variable__()
    if isinstance(x, (np.ndarray, np.generic)):
        return bind(x)
    if isinstance(x, (list, tuple)):
        if _holds_lazy(x):
            return _stack_nested(x, None)
        arr = np.asarray(x)
        if is_literal(x, arr.size):
            return as_tensor_variable(arr)
        return bind(arr)
    if hasattr(x, "__array__") or hasattr(x, "__dlpack__"):
        # a dask array stays one on the dask backend (see _distributed)
        from lazygraph.numpy._distributed import distributed_input

        distributed = distributed_input(x)
        return bind(np.asarray(x)) if distributed is None else distributed
    return as_tensor_variable(x)


def wrap(var: TensorVariable) -> Array:
    """A tensor variable as an :class:`Array`.

    >>> import lazygraph.tensor as lt
    >>> wrap(lt.constant([1, 2]))
    array([1, 2])
    """
    if isinstance(var, Array):
        return var
    if not isinstance(var, TensorVariable):
        var = as_tensor_variable(var)
    return Array(known(var))


def asarray(
    obj: Any,
    /,
    dtype: Any = None,
    order: str | None = None,
    *,
    device: Any = None,
    copy: bool | None = None,
    like: Any = None,
) -> Array:
    """``obj`` as a lazy :class:`Array` (``numpy.asarray`` / the array API's
    ``asarray``; ``order`` is accepted and has no effect: values have no layout).

    numpy data becomes a graph input bound to a snapshot of the data (``copy=False``:
    to the caller's buffer itself, so later writes to it show up in results not
    yet computed); an :class:`Array` is returned as is unless ``dtype`` asks for a
    conversion or ``copy=True``.

    >>> import numpy as np
    >>> import lazygraph.numpy as lnp
    >>> x = lnp.asarray(np.arange(4), dtype="float32")
    >>> x
    array([0., 1., 2., 3.], dtype=float32)
    >>> (x * 2).compute()
    array([0., 2., 4., 6.], dtype=float32)
    """
    _check_device(device, "asarray")
    order_argument(order, "asarray")
    if isinstance(obj, (Array, Variable)) or hasattr(obj, "__lazygraph_variable__"):
        arr = obj if isinstance(obj, Array) else wrap(as_variable(obj))
        if dtype is not None and np.dtype(normalize_dtype(dtype)) != arr.dtype:
            if copy is False:
                raise ValueError("asarray: copy=False but converting the dtype needs a copy")
            return as_ndarray(arr.astype(dtype))
        if copy or is_scalar_result(arr):
            return arr.copy()  # (a 0-d result, numpy's scalar, becomes an array)
        return arr
    if isinstance(obj, (list, tuple)) and _holds_lazy(obj):
        return as_ndarray(wrap(_stack_nested(obj, dtype)))
    if not isinstance(obj, (np.ndarray, np.generic, list, tuple, bool, int, float, complex)):
        # a dask array stays one on the dask backend (see _distributed)
        from lazygraph.numpy._distributed import distributed_input

        distributed = distributed_input(obj)
        if distributed is not None:
            return asarray(wrap(distributed), dtype, copy=copy)
    if copy is False and not isinstance(obj, np.ndarray):
        raise ValueError(f"asarray: copy=False but {type(obj).__name__} must be copied")
    if isinstance(obj, (bool, int, float, complex)) and not isinstance(obj, np.generic):
        # A Python scalar literal: a constant of numpy's default dtype for it.
        if dtype is None:
            return as_ndarray(wrap(constant(obj)))
        return as_ndarray(wrap(constant(np.asarray(obj, dtype=normalize_dtype(dtype)))))
    arr = np.asarray(obj, dtype=None if dtype is None else normalize_dtype(dtype))
    if isinstance(obj, np.ndarray) and copy is False and arr is not obj:
        raise ValueError("asarray: copy=False but converting the dtype needs a copy")
    return as_ndarray(wrap(bind(arr, copy=False if copy is False else (True if copy else None))))


def as_ndarray(arr: Array) -> Array:
    """``arr``, marked as made by an array constructor when it is 0-d: a 0-d
    array, which in-place operators write into, not numpy's immutable scalar
    that a computed 0-d result stands for (see ``Array._inplace``)."""
    if arr._cur.type.ndim == 0:
        arr._nd0 = True
    return arr


def _check_device(device: Any, func: str) -> None:
    if device is not None and device != "cpu" and str(device) != "cpu":
        raise ValueError(f"{func}: unsupported device {device!r}; lazygraph.numpy has only 'cpu'")


def as_variables(xs: Sequence[Any]) -> list[Any]:
    """:func:`as_variable` of each element."""
    return [as_variable(x) for x in xs]


def known_value(var: Any) -> np.ndarray | None:
    """The value of a graph constant or a bound graph input (known at build
    time, so arguments can be checked eagerly), or ``None`` for a computed one."""
    if isinstance(var, Constant):
        return np.asarray(var.data)
    if type(var) is BoundVariable:
        return var.bound  # type: ignore[no-any-return]
    return None


def is_constant(var: Any) -> bool:
    """Whether ``var`` is a graph constant."""
    return isinstance(var, Constant)


def as_tensor(x: Any) -> TensorVariable:
    """``x`` as a tensor variable (Python scalars become constants): for code
    that needs ``.dtype`` / ``.ndim`` of every argument."""
    return as_tensor_variable(as_variable(x))


def as_axis(axis: Any) -> Any:
    """numpy accepts an axis list where the tensor layer takes a tuple."""
    return tuple(axis) if isinstance(axis, list) else axis


def nan_replaced(x: TensorVariable, fill: int) -> TensorVariable:
    """``x`` with NaN replaced by ``fill`` (0 or 1) where its dtype has NaN."""
    import lazygraph.tensor as lt

    if np.dtype(x.dtype).kind not in "fc":
        return x
    filler = lt.zeros((), dtype=x.dtype) if fill == 0 else lt.ones((), dtype=x.dtype)
    return lt.where(lt.isnan(x), filler, x)
