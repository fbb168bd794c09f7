"""How an :class:`~lazygraph.numpy.Array` view is derived from its base, and how
a write to the view is written back into the base.

A view keeps its base :class:`Array` and a :class:`View`: ``forward(base)``
re-derives the view's variable from the base's current variable, and
``write(base, new)`` gives the base's new variable once the view's value has
become ``new``. Writes are functional (``set_subtensor``, ``transpose``,
``reshape`` of the new value), so aliasing costs nothing until computed.

Tracked views: basic indexing (ints, slices, ``None``, ``...``), ``.T``,
``transpose``, ``swapaxes``, ``mT``, ``reshape`` / ``ravel`` / ``squeeze`` where
numpy returns a view, and ``real`` of a real array. ``diagonal`` and ``imag``
(and ``real`` of a complex array) are read-only views.

>>> import lazygraph.tensor as lt
>>> x = lt.tensor("float64", (2, 3), "x")
>>> t = Transpose.make(2, None)
>>> t.forward(x).type
TensorType(float64, shape=(3, 2))
>>> t.write(x, t.forward(x)).type
TensorType(float64, shape=(2, 3))
"""

from __future__ import annotations

import contextlib
import weakref
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

import lazygraph.tensor as lt
import numpy as np
from lazygraph.graph.basic import Constant, Variable
from lazygraph.tensor.indexing import numpy_index
from lazygraph.tensor.subtensor import IncSubtensor, Subtensor
from lazygraph.tensor.type import TensorType
from lazygraph.tensor.variable import TensorVariable

if TYPE_CHECKING:
    from lazygraph.numpy._array import Array

__all__: list[str] = []


def _unwrap(x: Any) -> Any:
    if hasattr(x, "__lazygraph_variable__"):
        return x.__lazygraph_variable__()
    return x


class View:
    """A derivation of a view from its base."""

    def forward(self, base: TensorVariable) -> TensorVariable:
        raise NotImplementedError

    def write(self, base: TensorVariable, new: TensorVariable) -> TensorVariable:
        raise NotImplementedError

    def strided(self, fake: np.ndarray) -> np.ndarray | None:
        """The same derivation applied to a numpy array (for numpy's strides), or
        ``None`` where it cannot be reproduced."""
        return None


class Identity(View):
    def forward(self, base: TensorVariable) -> TensorVariable:
        return base

    def write(self, base: TensorVariable, new: TensorVariable) -> TensorVariable:
        return new

    def strided(self, fake: np.ndarray) -> np.ndarray | None:
        return fake


class Index(View):
    """Basic indexing ``base[idx]`` (a :class:`Subtensor`); written back with
    ``set_subtensor``."""

    def __init__(self, entries: tuple[Any, ...], inputs: Sequence[TensorVariable]) -> None:
        self.entries = entries
        self.inputs = list(inputs)

    def forward(self, base: TensorVariable) -> TensorVariable:
        return Subtensor(self.entries)(base, *self.inputs)  # type: ignore[no-any-return]

    def write(self, base: TensorVariable, new: TensorVariable) -> TensorVariable:
        return IncSubtensor(self.entries, set_instead_of_inc=True)(base, new, *self.inputs)  # type: ignore[no-any-return]

    def strided(self, fake: np.ndarray) -> np.ndarray | None:
        from lazygraph.numpy._convert import bound_value, is_bound

        if not all(is_bound(v) for v in self.inputs):
            return None
        values = [bound_value(v) for v in self.inputs]
        return fake[numpy_index(self.entries, values, basic=True)]


class Transpose(View):
    def __init__(self, axes: tuple[int, ...]) -> None:
        self.axes = axes
        # (a permutation's inverse, in Python: numpy's argsort of a few axes
        # costs more than the rest of a transpose of a known value)
        self.inverse = tuple(sorted(range(len(axes)), key=axes.__getitem__))

    @classmethod
    def make(cls, ndim: int, axes: Sequence[Any] | None) -> View:
        if axes is None:
            perm = tuple(reversed(range(ndim)))
        else:
            perm = tuple(normalize_axis(a, ndim) for a in axes)
            if len(perm) != ndim or sorted(perm) != list(range(ndim)):
                raise ValueError("axes don't match array")
        if perm == tuple(range(ndim)):
            return Identity()
        return cls(perm)

    def forward(self, base: TensorVariable) -> TensorVariable:
        return lt.transpose(base, self.axes)

    def write(self, base: TensorVariable, new: TensorVariable) -> TensorVariable:
        return lt.transpose(new, self.inverse)

    def strided(self, fake: np.ndarray) -> np.ndarray | None:
        return fake.transpose(self.axes)


class Reshape(View):
    def __init__(self, shape: tuple[int, ...]) -> None:
        self.shape = shape

    @classmethod
    def make(cls, arr: Array, shape: tuple[Any, ...]) -> Reshape:
        return cls(tuple(int(_unwrap_int(s)) for s in shape))

    def forward(self, base: TensorVariable) -> TensorVariable:
        return lt.reshape(base, self.shape)

    def write(self, base: TensorVariable, new: TensorVariable) -> TensorVariable:
        shape = base.type.shape
        target = shape if None not in shape else lt.shape(base)
        return lt.reshape(new, target)

    def strided(self, fake: np.ndarray) -> np.ndarray | None:
        try:
            return fake.reshape(self.shape, copy=False)
        except ValueError:
            return None


class ReadOnly(View):
    """A view numpy makes read-only (``diagonal``), or one whose writes
    lazygraph cannot express (``real`` / ``imag`` of a complex array)."""

    def __init__(self, fn: Callable[[Any], Any], name: str) -> None:
        self.fn = fn
        self.name = name

    def forward(self, base: TensorVariable) -> TensorVariable:
        return _unwrap(self.fn(base))  # type: ignore[no-any-return]

    def write(self, base: TensorVariable, new: TensorVariable) -> TensorVariable:
        if self.name == "diagonal":
            raise ValueError("assignment destination is read-only")
        raise NotImplementedError(
            f"writing through .{self.name} of a complex array is not supported by lazygraph; "
            f"build the new array instead (e.g. x = new_real + 1j * x.imag)"
        )


def _unwrap_int(s: Any) -> int:
    import operator

    return operator.index(s)


_ORDERS = {"C": "C", "F": "F", "A": "A", "K": "K", "c": "C", "f": "F", "a": "A", "k": "K"}


def order_argument(order: Any, name: str) -> str | None:
    """numpy's ``order`` argument (``"C"``, ``"F"``, ``"A"``, ``"K"``, in either
    case, or None) as its upper-case letter, or numpy's ``ValueError``.

    >>> order_argument("f", "ravel"), order_argument(None, "ravel")
    ('F', None)
    """
    if order is None:
        return None
    if not isinstance(order, str):
        raise TypeError(f"{name}: order must be str, not {type(order).__name__}")
    got = _ORDERS.get(order)
    if got is None:
        raise ValueError(f"{name}: order must be one of 'C', 'F', 'A', or 'K' (got {order!r})")
    return got


def normalize_axis(axis: Any, ndim: int) -> int:
    """``axis`` in ``range(ndim)`` (negative from the end), or numpy's AxisError."""
    import operator

    a = operator.index(axis)
    if not -ndim <= a < ndim:
        raise np.exceptions.AxisError(a, ndim)
    return a % ndim if ndim else a


def squeezed_shape(shape: tuple[int | None, ...], axis: Any) -> tuple[int, ...]:
    """The shape after ``squeeze(axis)``, with numpy's errors."""
    ndim = len(shape)
    if axis is None:
        return tuple(s for s in shape if s != 1)  # type: ignore[misc]
    axes = axis if isinstance(axis, (tuple, list)) else (axis,)
    norm = {normalize_axis(a, ndim) for a in axes}
    for a in norm:
        if shape[a] is not None and shape[a] != 1:
            raise ValueError("cannot select an axis to squeeze out which has size not equal to one")
    return tuple(s for i, s in enumerate(shape) if i not in norm)  # type: ignore[misc]


def strides_model(arr: Array) -> np.ndarray | None:
    """A zero-memory numpy array with ``arr``'s shape and numpy's strides for it
    (following its chain of views from a C-contiguous base), or ``None``."""
    chain: list[View] = []
    node = arr
    while node._base is not None:
        chain.append(node._view)  # type: ignore[arg-type]
        node = node._base
    shape = node._static_shape  # (a model of the layout: never computes a size)
    if None in shape:
        return None
    fake = np.lib.stride_tricks.as_strided(
        np.zeros(1, dtype=np.uint8), shape, _c_strides(shape), writeable=False
    )
    for view in reversed(chain):
        fake = view.strided(fake)  # type: ignore[assignment]
        if fake is None:
            return None
    return fake


def _c_strides(shape: Sequence[int]) -> tuple[int, ...]:
    strides = []
    step = 1
    for s in reversed(shape):
        strides.append(step)
        step *= max(int(s), 1)
    return tuple(reversed(strides))


def reshape_is_view(arr: Array, view: Reshape) -> bool:
    """Whether numpy's ``reshape`` would return a view for ``arr`` (when unsure: yes)."""
    fake = strides_model(arr)
    if fake is None:
        return True
    try:
        fake.reshape(view.shape, copy=False)
    except ValueError:
        return False
    return True


class BasicIndex(View):
    """Basic indexing ``base[key]`` with numpy's own key (integers, slices of
    integers, ``None``, ``...``), taken on a known value without a node; its
    graph (for a base that changes) is ``getitem`` of the same key."""

    def __init__(self, key: Any) -> None:
        self.key = key

    def forward(self, base: TensorVariable) -> TensorVariable:
        return lt.getitem(base, self.key)  # type: ignore[no-any-return]

    def write(self, base: TensorVariable, new: TensorVariable) -> TensorVariable:
        return lt.set_subtensor(lt.getitem(base, self.key), new)  # type: ignore[no-any-return]

    def strided(self, fake: np.ndarray) -> np.ndarray | None:
        return fake[self.key]  # type: ignore[no-any-return]


def is_basic_key(key: Any) -> bool:
    """Whether ``key`` is a basic index of constant parts (numpy's integers,
    slices of them, ``None``, ``...``): numpy returns a view for it."""
    parts = key if type(key) is tuple else (key,)
    for k in parts:
        t = type(k)
        if t is int or (t is slice and _constant_slice(k)) or k is None or k is Ellipsis:
            continue
        if isinstance(k, np.integer):
            continue
        return False
    return True


def _constant_slice(s: slice) -> bool:
    for part in (s.start, s.stop, s.step):
        if part is not None and type(part) is not int and not isinstance(part, np.integer):
            return False
    return True


def index_view(out: TensorVariable) -> View | None:
    """The view that ``out`` (a result of ``getitem``) is, or ``None`` for a copy."""
    owner = out.owner
    if owner is not None and isinstance(owner.op, Subtensor):
        return Index(owner.op.idx_list, owner.inputs[1:])
    return None


#: set while a user's function is traced (jit, grad, the loop bodies): its
#: integer indices stay constants of the traced graph
_TRACING: ContextVar[bool] = ContextVar("lazygraph_numpy_tracing", default=False)

#: whether a variable's graph reads only bound inputs and constants
_COMPUTABLE: weakref.WeakKeyDictionary[Variable, bool] = weakref.WeakKeyDictionary()

#: the bound int64 input standing for each integer position (see dynamic_index)
_POSITIONS: dict[int, TensorVariable] = {}
_MAX_POSITIONS = 4096


@contextlib.contextmanager
def tracing() -> Iterator[None]:
    """While a user's function is traced: integer indices stay constants."""
    token = _TRACING.set(True)
    try:
        yield
    finally:
        _TRACING.reset(token)


def _position(k: int) -> TensorVariable:
    var = _POSITIONS.get(k)
    if var is None:
        from lazygraph.numpy._convert import bind

        if len(_POSITIONS) >= _MAX_POSITIONS:
            _POSITIONS.clear()
        var = _POSITIONS[k] = bind(np.asarray(k, dtype=np.int64))
    return var


def _computable(var: Variable) -> bool:
    """Whether ``var``'s graph reads only bound inputs and constants (no
    placeholder of a function being built), remembered per variable."""
    known = _COMPUTABLE.get(var)
    if known is not None:
        return known
    from lazygraph.numpy._convert import is_bound

    stack = [var]
    while stack:
        v = stack[-1]
        if v in _COMPUTABLE:
            stack.pop()
            continue
        owner = v.owner
        if owner is None:
            _COMPUTABLE[v] = isinstance(v, Constant) or is_bound(v)
            stack.pop()
            continue
        todo = [i for i in owner.inputs if i not in _COMPUTABLE]
        if todo:
            stack.extend(todo)
            continue
        _COMPUTABLE[v] = all(_COMPUTABLE[i] for i in owner.inputs)
        stack.pop()
    return _COMPUTABLE[var]


def dynamic_index(var: TensorVariable, key: Any) -> Any:
    """``key`` with each Python integer that picks one position of an axis
    replaced by a graph input holding the position (numpy's ``IndexError``
    first, for a position out of range).

    A graph that indexes with ``t`` is then the same graph for every ``t``: a
    loop that reads ``u[t]`` and writes ``u[t + 1]`` between computations
    compiles once, not once per step (JAX's eager indexing passes positions as
    arguments for the same reason). Inside a traced function the positions
    stay constants, as they do in a graph with placeholders (one built for
    ``lazygraph.function``), and so do the bounds of slices, which decide a
    result's shape.

    >>> from lazygraph.numpy._convert import bind, bound_value
    >>> x = bind(np.zeros((4, 3)))
    >>> key = dynamic_index(x, (-1, slice(None)))
    >>> int(bound_value(key[0])), key[1]
    (3, slice(None, None, None))
    >>> import lazygraph.tensor as lt
    >>> dynamic_index(lt.tensor("float64", (4, 3), "x"), (-1, slice(None)))
    (-1, slice(None, None, None))
    """
    if _TRACING.get():
        return key
    parts = key if type(key) is tuple else (key,)
    if not any(type(k) is int or isinstance(k, np.integer) for k in parts):
        return key
    if not is_basic_key(parts) or any(isinstance(k, np.bool_) for k in parts):
        return key
    if not _computable(var):  # (a graph for lazygraph.function, jacobian, ...)
        return key
    shape = var.type.shape  # type: ignore[attr-defined]
    real = sum(k is not None and k is not Ellipsis for k in parts)
    if real > len(shape):
        return key  # (numpy's "too many indices" from the parser)
    out: list[Any] = []
    axis = 0
    for k in parts:
        if k is Ellipsis:
            axis += len(shape) - real
        elif k is not None:
            if type(k) is not slice:
                size = shape[axis]
                k = int(k)
                if size is not None and -size <= k < size:
                    k = _position(k % size)
            axis += 1
        out.append(k)
    return tuple(out) if type(key) is tuple else out[0]


def has_ellipsis(key: Any) -> bool:
    """Whether an index holds ``...`` (then a 0-d result is a view, not a scalar)."""
    return key is Ellipsis or (isinstance(key, tuple) and any(k is Ellipsis for k in key))


def unwrap_index(key: Any) -> Any:
    """An index with lazy arrays replaced by their variables."""
    if isinstance(key, tuple):
        return tuple(_unwrap(k) for k in key)
    return _unwrap(key)


def _update_value(value: Any) -> Any:
    from lazygraph.numpy._convert import as_variable

    if isinstance(value, (list, tuple)):
        from lazygraph.numpy._convert import _holds_lazy

        if not _holds_lazy(value):
            return value  # numpy converts it straight to the target dtype
    return as_variable(value)


def set_item(var: TensorVariable, key: Any, value: Any) -> TensorVariable:
    """``var`` with ``var[key] = value`` (numpy's assignment rules)."""
    target = lt.getitem(var, key)
    return lt.set_subtensor(target, _update_value(value))


def keep_type(new: TensorVariable, old: TensorType) -> TensorVariable:
    """``new`` with at least ``old``'s static shape (a rebind must not lose it)."""
    if new.type == old:
        return new
    if new.type.dtype != old.dtype:
        new = lt.cast(new, old.dtype)
    merged = tuple(
        o if o is not None else n for o, n in zip(old.shape, new.type.shape, strict=True)
    )
    if merged != new.type.shape:
        new = lt.specify_shape(new, merged)
    return new


def inplace_result(arr: Array, result: Any, ufunc: str, other: Any = None) -> TensorVariable:
    """The value ``arr`` takes after ``arr <op>= other`` gave ``result``: numpy's
    same-kind casting back to ``arr``'s dtype and no broadcasting of ``arr``
    (``other`` None: a unary operation, which keeps the shape)."""
    var = _unwrap(result)
    out_dtype, dtype = var.type.numpy_dtype, arr.dtype
    if out_dtype != dtype:
        _check_same_kind(ufunc, out_dtype, dtype)
        var = lt.cast(var, dtype.name)
    shape, got = arr._static_shape, var.type.shape  # (known when the graph is built)
    if len(got) != len(shape) or any(
        a is not None and b is not None and a != b for a, b in zip(shape, got, strict=False)
    ):
        _not_broadcastable(shape, got)
    if (None in shape or None in got) and not _keeps_shape(ufunc, other, len(shape)):
        var = _same_sizes(arr, var)
    return var  # type: ignore[no-any-return]


def _not_broadcastable(shape: Sequence[Any], got: Sequence[Any]) -> None:
    raise ValueError(
        f"non-broadcastable output operand with shape {_fmt(shape)} doesn't match the "
        f"broadcast shape {_fmt(got)}"
    )


def _keeps_shape(ufunc: str, other: Any, ndim: int) -> bool:
    """Whether ``arr <op>= other`` surely has ``arr``'s shape, whatever sizes
    ``arr`` has: ``other`` is absent, a scalar or of size-1 axes no more than
    ``arr``'s (an elementwise ``op``)."""
    if other is None:
        return True
    if ufunc == "matmul":
        return False
    if hasattr(other, "_static_shape"):
        static = other._static_shape
    elif hasattr(other, "__lazygraph_variable__") or isinstance(other, TensorVariable):
        static = _unwrap(other).type.shape
    else:
        static = np.shape(other)
    return len(static) <= ndim and all(s == 1 for s in static)


def _same_sizes(arr: Array, var: TensorVariable) -> TensorVariable:
    """``var`` (the result of ``arr <op>= other``), whose sizes that depend on the
    data may differ from ``arr``'s: numpy's ValueError now where both can be
    computed (numpy raises at the operation), else checked when computed."""
    from lazygraph.numpy._array import Array
    from lazygraph.numpy._sizes import computable, concrete_shape

    old = arr._var
    if computable(old) and computable(var):
        shape, got = concrete_shape(arr), concrete_shape(Array(var))
        if shape != got:
            _not_broadcastable(shape, got)
        return var
    static = arr._static_shape
    sizes = [lt.shape_i(old, k) if s is None else s for k, s in enumerate(static)]
    return lt.specify_shape(var, sizes)  # type: ignore[no-any-return]


def check_output_cast(dtype: np.dtype[Any], ufunc: str, other: Any) -> None:
    """numpy's TypeError, before anything is computed, when ``arr <op>= other``
    (``arr`` of ``dtype``) gives an output of a dtype numpy will not cast back
    to ``dtype`` (same-kind casting), as ``ufunc``'s own loop resolution says;
    nothing when it casts or when ``ufunc`` has no loop for these operands."""
    kind = other.dtype if hasattr(other, "dtype") else type(other)
    try:
        out = getattr(np, ufunc).resolve_dtypes((dtype, kind, None))[-1]
    except Exception:  # no such loop: the caller's own error stands
        return
    _check_same_kind(ufunc, out, dtype)


def _check_same_kind(ufunc: str, out: np.dtype[Any], dtype: np.dtype[Any]) -> None:
    if not np.can_cast(out, dtype, "same_kind"):
        raise TypeError(
            f"Cannot cast ufunc {ufunc!r} output from {out!r} to {dtype!r} "
            "with casting rule 'same_kind'"
        )


def _fmt(shape: Sequence[Any]) -> str:
    return (
        "("
        + ",".join("?" if s is None else str(s) for s in shape)
        + ("," if len(shape) == 1 else "")
        + ")"
    )
