"""The graph's building blocks: :class:`Type`, :class:`Variable`, :class:`Constant`,
:class:`Apply` and :class:`Op`.

A graph is bipartite and acyclic: a :class:`Variable` points at the :class:`Apply`
node that computes it through ``owner`` (``None`` for graph inputs and constants);
an :class:`Apply` points at its ``inputs`` and ``outputs``. :class:`Op` and
:class:`Type` are value-like: their equality and hash come from ``__props__``, so
two ``Apply`` nodes with equal ops and identical inputs compute the same thing and
can be merged by a dictionary lookup.

>>> from lazygraph.graph.basic import Apply, Op, Type, Variable
>>> class Double(Type):
...     def filter(self, data, strict=False, allow_downcast=None):
...         return float(data)
>>> class Add(Op):
...     def make_node(self, x, y):
...         return Apply(self, [x, y], [Double()()])
...     def perform(self, node, inputs, output_storage):
...         output_storage[0][0] = inputs[0] + inputs[1]
>>> x, y = Double()("x"), Double()("y")
>>> z = Add()(x, y)
>>> z.owner.inputs == [x, y], z.owner.outputs[0] is z, z.index
(True, True, 0)
"""

from __future__ import annotations

import gc
import itertools
import math
import operator
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

if TYPE_CHECKING:
    from lazygraph.graph.fg import FunctionGraph

__all__ = [
    "Apply",
    "Constant",
    "MetaObject",
    "Op",
    "Scratchpad",
    "Type",
    "Variable",
    "default_constant_key",
    "gc_paused",
]

_variable_ids = itertools.count()


class gc_paused:  # noqa: N801 (used as a function: ``with gc_paused():``)
    """Pause the cyclic garbage collector during a bulk graph operation.

    Variables and Apply nodes point at each other, so every one is tracked by the
    collector, and building or copying a million of them triggers collections that
    rescan the whole (live) graph: about half the time of ``FunctionGraph(...)`` and
    ``clone`` on large graphs. What these operations allocate stays alive, so there
    is nothing for the collector to find; it is re-enabled (if it was on) afterwards.
    (A class, not a generator: it is entered on every ``.compute()``.)
    """

    __slots__ = ("_was_enabled",)

    def __enter__(self) -> None:
        self._was_enabled = gc.isenabled()
        if self._was_enabled:
            gc.disable()

    def __exit__(self, *exc: object) -> None:
        if self._was_enabled:
            gc.enable()


def _float_key(x: float) -> tuple[str, Any]:
    # -0.0 == 0.0 but 1/-0.0 != 1/0.0, and nan != nan though every nan behaves the
    # same: key floats by sign and value, and every nan alike.
    if math.isnan(x):
        return ("nan", None)
    return ("float", (x, math.copysign(1.0, x)))


def default_constant_key(data: Any) -> Any:
    """A hashable merge key for constant data: equal keys mean interchangeable values.

    Distinguishes ``0.0`` from ``-0.0``, treats all NaNs as equal, and keys numpy
    arrays by dtype, shape and bytes (NaNs canonicalised first).

    >>> default_constant_key(0.0) == default_constant_key(-0.0)
    False
    >>> default_constant_key(float("nan")) == default_constant_key(float("nan"))
    True
    >>> default_constant_key(np.array([1.0, 2.0])) == default_constant_key(np.array([1.0, 2.0]))
    True
    """
    if isinstance(data, np.ndarray | np.generic):
        arr = np.asarray(data)
        if arr.dtype.kind in "fc" and np.isnan(arr).any():
            arr = np.where(np.isnan(arr), np.nan, arr).astype(arr.dtype)
        kind = "ndarray" if isinstance(data, np.ndarray) else "scalar"
        return (kind, arr.dtype.str, arr.shape, arr.tobytes())
    if isinstance(data, float):
        return _float_key(data)
    if isinstance(data, complex):
        return ("complex", _float_key(data.real), _float_key(data.imag))
    try:
        hash(data)
    except TypeError:
        return ("repr", type(data).__name__, repr(data))
    return (type(data).__name__, data)


class Scratchpad:
    """A free-form namespace (``variable.tag``, ``apply.tag``) for annotations
    such as test values or the user's call site; never part of equality."""

    def __repr__(self) -> str:
        items = ", ".join(f"{k}={v!r}" for k, v in vars(self).items())
        return f"Scratchpad({items})"


def _props_getter(props: tuple[str, ...]) -> Callable[[Any], tuple[Any, ...]]:
    """A function returning an object's ``props`` attributes as a tuple: one
    ``attrgetter`` call instead of a generator of ``getattr`` s. Equality of ops
    reads the props of both sides; the compile of a 200,000-node chain compared
    ops about 300,000 times (merge, the rewriters' op lookups, the backends'
    kernel keys), and this cut the cost of each ``_props`` by about two thirds."""
    if len(props) == 1:
        get = operator.attrgetter(props[0])
        return lambda obj: (get(obj),)
    return operator.attrgetter(*props)  # type: ignore[return-value]


#: ``__props__`` tuple -> its getter (see ``_props_getter``).
_PROPS_GETTERS: dict[tuple[str, ...], Callable[[Any], tuple[Any, ...]]] = {}


class MetaObject:
    """Gives a class value semantics from its ``__props__`` tuple of attribute names.

    Two instances of the same class with equal props are equal and hash alike;
    ``str`` shows the class name and the props. With ``__props__ = ()`` every
    instance of a class equals every other (the usual case for stateless ops).
    Subclasses that do not declare ``__props__`` fall back to identity.
    """

    __props__: ClassVar[tuple[str, ...] | None] = None

    def _props(self) -> tuple[Any, ...]:
        props = self.__props__
        if not props:
            return ()
        try:
            getter = _PROPS_GETTERS[props]
        except KeyError:
            getter = _PROPS_GETTERS[props] = _props_getter(props)
        except TypeError:  # __props__ given as a list
            return tuple(getattr(self, name) for name in props)
        return getter(self)

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        props = self.__props__
        if props is None or type(self) is not type(other):
            return False
        if not props:
            return True
        return self._props() == other._props()  # type: ignore[attr-defined]

    def __hash__(self) -> int:
        props = self.__props__
        if props is None:
            return object.__hash__(self)
        if not props:
            # Merge hashes (op, inputs) for every node: skip building a props tuple.
            return hash(type(self))
        return hash((type(self), self._props()))

    def __str__(self) -> str:
        if not self.__props__:
            return type(self).__name__
        args = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__props__)
        return f"{type(self).__name__}{{{args}}}"

    def __repr__(self) -> str:
        return str(self)


class Type(MetaObject):
    """The kind of data a :class:`Variable` holds, and how to check and compare it.

    Subclasses implement :meth:`filter`; everything else has a sensible default.
    Calling a type makes a fresh variable of that type: ``dmatrix = TensorType(...);
    x = dmatrix("x")``.
    """

    __props__: ClassVar[tuple[str, ...] | None] = ()

    #: The class of the variables this type makes; subtypes (tensors) override it.
    variable_type: ClassVar[type[Variable]]
    constant_type: ClassVar[type[Constant]]

    def filter(self, data: Any, strict: bool = False, allow_downcast: bool | None = None) -> Any:
        """Return ``data`` converted to this type, or raise ``TypeError``.

        With ``strict=True`` no conversion happens: data not already of the type is
        rejected. ``allow_downcast`` permits lossy conversions (e.g. float64 data into
        a float32 type).
        """
        raise NotImplementedError(f"{type(self).__name__}.filter")

    def is_valid_value(self, data: Any) -> bool:
        """Whether ``data`` is acceptable as a value of this type without conversion."""
        try:
            self.filter(data, strict=True)
        except (TypeError, ValueError):
            return False
        return True

    def values_eq(self, a: Any, b: Any) -> bool:
        """Exact equality of two values of this type."""
        return bool(a == b)

    def values_eq_approx(self, a: Any, b: Any) -> bool:
        """Equality up to rounding; defaults to :meth:`values_eq`."""
        return self.values_eq(a, b)

    def constant_key(self, data: Any) -> Any:
        """A hashable key such that equal keys mean interchangeable constants.

        Used by merge. The default (:func:`default_constant_key`) keeps ``0.0`` and
        ``-0.0`` apart, makes NaNs equal and keys arrays by dtype, shape and bytes.
        """
        return default_constant_key(data)

    def convert_variable(self, var: Variable) -> Variable | None:
        """Return ``var`` as a variable of this type if that is lossless, else ``None``."""
        if var.type == self:
            return var
        return None

    def make_variable(self, name: str | None = None) -> Variable:
        """A new variable of this type with no owner (a graph input)."""
        return self.variable_type(self, None, None, name)

    def make_constant(self, data: Any, name: str | None = None) -> Constant:
        """A constant of this type holding ``data`` (filtered)."""
        return self.constant_type(self, data, name)

    def __call__(self, name: str | None = None) -> Variable:
        return self.make_variable(name)


class Variable:
    """A value in the graph: a graph input (``owner is None``) or output ``index``
    of the :class:`Apply` node ``owner``.

    >>> from lazygraph.graph.basic import Variable, Type
    >>> v = Variable(Type(), name="v")
    >>> v.owner is None, v.index is None, v.name
    (True, True, 'v')
    """

    __slots__ = ("__weakref__", "_auto_name", "_tag", "index", "name", "owner", "type")

    def __init__(
        self,
        type: Type,
        owner: Apply | None = None,
        index: int | None = None,
        name: str | None = None,
    ) -> None:
        if not isinstance(type, Type):
            raise TypeError(f"Variable's type must be a Type instance, got {type!r}")
        if owner is not None:
            if not isinstance(owner, Apply):
                raise TypeError(f"Variable's owner must be an Apply node, got {owner!r}")
            if not isinstance(index, int):
                raise TypeError("a Variable with an owner needs an integer index")
        self.type = type
        self.owner = owner
        self.index = index
        self.name = name
        # Numbered on first use: formatting a string per variable cost ~10% of
        # building a large graph, and most variables are never printed.
        self._auto_name: str | None = None
        self._tag: Scratchpad | None = None

    @property
    def auto_name(self) -> str:
        """A unique ``auto_N`` name, numbered in the order names are first asked for."""
        if self._auto_name is None:
            self._auto_name = f"auto_{next(_variable_ids)}"
        return self._auto_name

    @property
    def tag(self) -> Scratchpad:
        """Free-form annotations (never part of equality)."""
        if self._tag is None:
            self._tag = Scratchpad()
        return self._tag

    def get_parents(self) -> list[Apply]:
        """The node that computes this variable, if any."""
        return [self.owner] if self.owner is not None else []

    def clone(self, name: str | None = None) -> Variable:
        """A new ownerless variable of the same type (and name, unless given)."""
        cp = type(self)(self.type, None, None, self.name if name is None else name)
        if self._tag is not None:
            cp._tag = Scratchpad()
            vars(cp._tag).update(vars(self._tag))
        return cp

    def eval(self, inputs_to_values: dict[Variable, Any] | None = None) -> Any:
        """Compute this variable with the python backend, given values for its inputs.

        The compiled function is cached on the variable, keyed by the set of inputs,
        so evaluating again with new values does not recompile.
        """
        from lazygraph.compile.function import function

        inputs_to_values = inputs_to_values or {}
        keys = tuple(inputs_to_values)
        cache = self.tag.__dict__.setdefault("_eval_cache", {})
        fn = cache.get(keys)
        if fn is None:
            fn = function(list(keys), self)
            cache[keys] = fn
        return fn(*(inputs_to_values[k] for k in keys))

    def __str__(self) -> str:
        if self.name is not None:
            return self.name
        if self.owner is not None:
            op = self.owner.op
            if self.owner.nout == 1 or self.index == op.default_output:
                return f"{op}.out"
            return f"{op}.{self.index}"
        return f"<{self.type}>"

    def __repr__(self) -> str:
        return str(self)


class Constant(Variable):
    """A variable whose value is fixed at build time. Its data is read-only, it
    never has an owner, and it cannot be a function input.

    Constants compare by identity; merge treats constants of equal type and
    :meth:`signature` as the same.
    """

    __slots__ = ("_key", "data")

    def __init__(self, type: Type, data: Any, name: str | None = None) -> None:
        super().__init__(type, None, None, name)
        data = type.filter(data)
        if isinstance(data, np.ndarray) and (data.flags.writeable or data.base is not None):
            # Copy so that later writes to the caller's array (or to the array a
            # read-only view looks into) cannot change the constant.
            data = data.copy()
            data.flags.writeable = False
        self.data = data
        self._key: Any = None

    def signature(self) -> tuple[Type, Any]:
        """(type, value key): equal signatures mean interchangeable constants."""
        if self._key is None:
            self._key = self.type.constant_key(self.data)
        return (self.type, self._key)

    def clone(self, name: str | None = None) -> Constant:
        return type(self)(self.type, self.data, self.name if name is None else name)

    @property
    def value(self) -> Any:
        return self.data

    def __str__(self) -> str:
        if self.name is not None:
            return self.name
        text = str(self.data)
        if len(text) > 20:
            text = text[:10].strip() + " ... " + text[-5:].strip()
        return text


class Apply:
    """One application of an :class:`Op` to input variables, producing outputs.

    Creating an ``Apply`` sets each output's ``owner`` and ``index``; an output
    that already belongs to another node is a ``ValueError``.
    """

    __slots__ = ("__weakref__", "_tag", "inputs", "op", "outputs")

    def __init__(self, op: Op, inputs: Sequence[Variable], outputs: Sequence[Variable]) -> None:
        if not isinstance(op, Op):
            raise TypeError(f"Apply's op must be an Op instance, got {op!r}")
        self.op = op
        self.inputs: list[Variable] = list(inputs)
        self.outputs: list[Variable] = list(outputs)
        self._tag: Scratchpad | None = None
        # Hot path (every node of every graph): no formatting
        # unless something is wrong.
        for inp in self.inputs:
            if not isinstance(inp, Variable):
                i = self.inputs.index(inp)
                raise TypeError(f"input {i} of {op} is not a Variable: {inp!r}")
        for i, out in enumerate(self.outputs):
            if not isinstance(out, Variable):
                raise TypeError(f"output {i} of {op} is not a Variable: {out!r}")
            owner = out.owner
            if owner is None:
                out.owner = self
                out.index = i
            elif owner is not self or out.index != i:
                raise ValueError(f"output {i} of {op} ({out}) is already owned by another node")

    @property
    def tag(self) -> Scratchpad:
        if self._tag is None:
            self._tag = Scratchpad()
        return self._tag

    def default_output(self) -> Variable:
        """The output that ``op(...)`` returns: ``op.default_output``, or the only one."""
        do = self.op.default_output
        if do is not None:
            return self.outputs[do]
        if len(self.outputs) == 1:
            return self.outputs[0]
        raise ValueError(f"{self.op} has {len(self.outputs)} outputs and no default_output")

    @property
    def out(self) -> Variable:
        """Alias of :meth:`default_output`."""
        return self.default_output()

    @property
    def nin(self) -> int:
        return len(self.inputs)

    @property
    def nout(self) -> int:
        return len(self.outputs)

    @property
    def params(self) -> tuple[Any, ...]:
        return self.op._props()

    def get_parents(self) -> list[Variable]:
        return list(self.inputs)

    def clone(self) -> Apply:
        """A new node with the same op and inputs and fresh outputs."""
        cp = Apply(self.op, self.inputs, [o.clone() for o in self.outputs])
        if self._tag is not None:
            cp._tag = Scratchpad()
            vars(cp._tag).update(vars(self._tag))
        return cp

    def clone_with_new_inputs(self, inputs: Sequence[Variable], strict: bool = True) -> Apply:
        """A copy of this node reading ``inputs`` instead.

        With ``strict=True`` each new input must have (or convert losslessly to)
        the old input's type, and the outputs keep their types. Otherwise the op
        builds a new node with ``make_node``, so output types may change.
        """
        if len(inputs) != len(self.inputs):
            raise ValueError(
                f"{self.op} takes {len(self.inputs)} inputs, "
                f"{len(inputs)} given to clone_with_new_inputs"
            )
        if not strict:
            return self.op.make_node(*inputs)
        new_inputs = list(inputs)
        for i, (old, new) in enumerate(zip(self.inputs, new_inputs, strict=True)):
            # ``is`` first: types are usually shared objects, and ``==`` on
            # props costs a method call per input when cloning large graphs.
            if old.type is not new.type and old.type != new.type:
                conv = old.type.convert_variable(new)
                if conv is None:
                    raise TypeError(
                        f"cannot replace input {i} of {self.op}: type {new.type} is not {old.type}"
                    )
                new_inputs[i] = conv
        cp = Apply(self.op, new_inputs, [o.clone() for o in self.outputs])
        if self._tag is not None:
            cp._tag = Scratchpad()
            vars(cp._tag).update(vars(self._tag))
        return cp

    def __str__(self) -> str:
        from lazygraph.graph.strings import op_as_string

        return op_as_string(self.inputs, self)

    def __repr__(self) -> str:
        return str(self)


OutputStorage = list[list[Any]]


#: Attributes an op keeps for itself in one process (see :meth:`Op.__hash__`).
_PROCESS_MEMOS = frozenset({"_hash_memo", "_plan_cache"})


class Op(MetaObject):
    """A function application's recipe: how to build the node, compute its value,
    infer its output shapes and differentiate it.

    Subclasses set ``__props__`` (the attributes that identify the op; it gives
    ``__eq__`` and ``__hash__``) and implement :meth:`make_node` and
    :meth:`perform`. Calling an op builds a node and returns its default output.

    Gradients have one signature each way:

    - ``L_op(inputs, outputs, output_grads)`` returns one gradient per input
      (vector-Jacobian product, reverse mode);
    - ``R_op(inputs, eval_points)`` returns one directional derivative per output
      (Jacobian-vector product, forward mode).
    """

    __props__: ClassVar[tuple[str, ...] | None] = ()

    # An op's props do not change once it is made: its hash is worked out once
    # (the compile cache's key hashes every op of a graph on every lookup). The
    # memo is per process: string hashes differ between processes, so it is
    # never pickled or copied.
    def __hash__(self) -> int:
        memo = self.__dict__.get("_hash_memo")
        if memo is None:
            memo = self.__dict__["_hash_memo"] = MetaObject.__hash__(self)
        return memo  # type: ignore[no-any-return]

    def __getstate__(self) -> dict[str, Any]:
        return {k: v for k, v in self.__dict__.items() if k not in _PROCESS_MEMOS}

    #: Index of the output that ``op(...)`` returns; ``None``: the only output, or all.
    default_output: ClassVar[int | None] = None
    #: ``{output index: [input index]}``: outputs written into that input's buffer.
    destroy_map: dict[int, list[int]] = {}  # noqa: RUF012 (overridden per instance)
    #: ``{output index: [input index]}``: outputs that are views of that input.
    view_map: dict[int, list[int]] = {}  # noqa: RUF012

    def make_node(self, *inputs: Any) -> Apply:
        """Check and convert the inputs and return an :class:`Apply` with new outputs."""
        raise NotImplementedError(f"{type(self).__name__}.make_node")

    def __call__(self, *inputs: Any, **kwargs: Any) -> Any:
        node = self.make_node(*inputs, **kwargs)
        if self.default_output is not None:
            return node.outputs[self.default_output]
        if len(node.outputs) == 1:
            return node.outputs[0]
        return node.outputs

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: OutputStorage) -> None:
        """Compute the outputs (the numpy reference implementation).

        ``output_storage[i][0]`` receives output ``i``; it may hold the previous
        call's value, which the op may reuse when shapes and dtypes match.
        """
        raise NotImplementedError(f"{type(self).__name__} has no perform (python implementation)")

    def infer_shape(
        self, fgraph: FunctionGraph | None, node: Apply, input_shapes: Sequence[Any]
    ) -> list[Any]:
        """Output shapes, as tuples of ints or scalar shape variables."""
        raise NotImplementedError(f"{type(self).__name__}.infer_shape")

    def L_op(
        self,
        inputs: Sequence[Variable],
        outputs: Sequence[Variable],
        output_grads: Sequence[Variable],
    ) -> list[Variable]:
        """Vector-Jacobian product: the gradient of the cost with respect to each input."""
        raise NotImplementedError(f"{type(self).__name__} has no gradient (L_op)")

    def R_op(
        self, inputs: Sequence[Variable], eval_points: Sequence[Variable | None]
    ) -> list[Variable]:
        """Jacobian-vector product: each output's derivative along ``eval_points``."""
        raise NotImplementedError(f"{type(self).__name__} has no forward derivative (R_op)")

    def do_constant_folding(self, fgraph: FunctionGraph | None, node: Apply) -> bool:
        """Whether a node of this op with constant inputs may be computed at compile time."""
        return True

    def connection_pattern(self, node: Apply) -> list[list[bool]]:
        """``[input][output]``: whether each output depends on each input."""
        return [[True] * len(node.outputs) for _ in node.inputs]


# Default classes of the variables a bare Type makes; subclasses override.
Type.variable_type = Variable
Type.constant_type = Constant

# Re-exported name for typing helpers in other modules.
NodeFunction = Callable[[Apply], Any]
