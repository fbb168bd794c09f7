"""Function transforms: :func:`grad`, :func:`value_and_grad`, :func:`jacobian`,
:func:`hessian` and :func:`jit`, exported from ``lazygraph``.

Each takes ordinary code written against :mod:`lazygraph.numpy` and returns a
function of numpy data. On the first call with a new *signature* (the dtype and
shape of every array leaf of the arguments, the structure of the argument
pytrees, and the values of static arguments) the function is traced: it runs
once on fresh graph inputs of those types, the transform builds its graph
(the gradient, the Jacobian...) and the graph is compiled through the
structural compile cache. Later calls with the same signature go straight to
the compiled function and return numpy arrays.

Arguments and results may be numpy arrays, numpy or Python scalars, and
nested tuples, lists and dicts of them. A Python scalar argument is traced as
a 0-d array of numpy's default dtype for it (``float64``, ``int64``, ``bool``,
``complex128``), as if it were ``numpy.float64(x)``: it is not weak in
promotion. Called with lazy arrays, a transformed function stays lazy and
returns lazy arrays, so transforms compose (``grad(grad(f))``,
``jit(grad(f))``).

>>> import numpy as np
>>> import lazygraph
>>> import lazygraph.numpy as lnp
>>> def loss(w, x):
...     return lnp.sum((x @ w) ** 2)
>>> g = lazygraph.grad(loss)
>>> g(np.array([1.0, 2.0]), np.eye(2))
array([2., 4.])
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Sequence
from typing import Any

import lazygraph.tensor as lt
import numpy as np
from lazygraph import gradient
from lazygraph.compile.cache import cached_function
from lazygraph.compile.function import function
from lazygraph.compile.profile import ProfileStats
from lazygraph.configuration import config
from lazygraph.graph.basic import Constant, Variable
from lazygraph.graph.fg import FunctionGraph
from lazygraph.graph.traversal import graph_inputs
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import as_variable, is_bound, wrap
from lazygraph.numpy._distributed import captured_value
from lazygraph.numpy._pytree import LEAF, flatten, num_leaves, unflatten
from lazygraph.numpy._views import tracing

__all__: list[str] = []

_ndarray = np.ndarray
# (class, dtype, shape) of an argument; the class keeps numpy scalars and
# ndarray subclasses off the fast path, which passes arguments on unchecked.
_fast_signature = operator.attrgetter("__class__", "dtype", "shape")
Builder = Callable[[Callable[..., Any], tuple[Any, ...], dict[str, Any]], Any]


def _is_lazy(x: Any) -> bool:
    return isinstance(x, Array | Variable) or hasattr(x, "__lazygraph_variable__")


def _variable_of(x: Any) -> Variable:
    if isinstance(x, Variable):
        return x
    return x.__lazygraph_variable__()


def _leaf_value(x: Any, name: str) -> np.ndarray:
    """An argument leaf as the ndarray the compiled function takes."""
    if type(x) is _ndarray:
        return x
    scalar_or_array = bool | int | float | complex | np.generic | np.ndarray
    if isinstance(x, scalar_or_array) or _is_lazy(x) or hasattr(x, "__array__"):
        arr = np.asarray(x)
    else:
        raise TypeError(
            f"{name}: an argument of type {type(x).__name__} is not an array, a scalar, "
            "or a tuple/list/dict of them; pass it through static_argnums or a closure"
        )
    if arr.dtype.kind not in "biufc":
        raise TypeError(f"{name}: arguments of dtype {arr.dtype} are not supported")
    return arr


def _normalize_argnums(argnums: int | Sequence[int], nargs: int, name: str) -> tuple[int, ...]:
    nums = (argnums,) if isinstance(argnums, int) else tuple(argnums)
    out = []
    for i in nums:
        if not isinstance(i, int) or not -nargs <= i < nargs:
            raise ValueError(
                f"{name}: argnums {argnums!r} out of range for a function called with "
                f"{nargs} positional argument(s)"
            )
        out.append(i % nargs)
    return tuple(out)


class _Compiled:
    """One traced signature: the compiled call (captured values included), how to
    rebuild the result pytree from its list of output values, the compiled graph
    (for :func:`lazygraph.dprint` and friends) and its profile (``profile=True``)."""

    __slots__ = ("call", "fgraph", "profile", "unpack")

    def __init__(
        self,
        call: Callable[..., Sequence[Any]],
        unpack: Callable,
        fgraph: FunctionGraph,
        profile: ProfileStats | None,
    ) -> None:
        self.call = call
        self.unpack = unpack
        self.fgraph = fgraph
        self.profile = profile


def _make_unpack(out_tree: Any, template: list[Any], is_var: list[bool]) -> Callable:
    if out_tree == LEAF and is_var == [True]:
        return operator.itemgetter(0)

    def unpack(values: list[Any]) -> Any:
        it = iter(values)
        leaves = [
            next(it) if v else (c.copy() if isinstance(c, np.ndarray) else c)
            for v, c in zip(is_var, template, strict=True)
        ]
        return unflatten(out_tree, leaves)

    return unpack


class Transformed:
    """A function transformed by :func:`jit`, :func:`grad` and friends.

    Call it like the original function. ``trace_count`` says how many
    signatures have been traced (and compiled) so far. After a call,
    :func:`lazygraph.dprint`, :func:`lazygraph.printing.to_dot` and
    :func:`~lazygraph.printing.to_svg` take it and show the compiled (rewritten)
    graph of the signature called last; with ``profile=True``, ``profile`` is
    that signature's :class:`~lazygraph.compile.profile.ProfileStats`.
    """

    def __init__(
        self,
        fun: Callable[..., Any],
        build: Builder,
        name: str,
        static_argnums: int | Sequence[int] = (),
        mode: Any = None,
        profile: bool = False,
    ) -> None:
        if not callable(fun):
            raise TypeError(f"{name}: expected a callable, got {type(fun).__name__}")
        # Name and docstring only: copying ``fun.__dict__`` would copy another
        # transform's state when transforms are stacked.
        functools.update_wrapper(self, fun, updated=())
        self._fun = fun
        self._build = build
        self._name = name
        if isinstance(static_argnums, int):
            static_argnums = (static_argnums,)
        self._static = tuple(sorted(set(static_argnums)))
        self._mode = mode
        self._entries: dict[Any, _Compiled] = {}
        # (class, dtype, shape) per positional argument -> entry, for calls
        # whose arguments are all plain ndarrays (no kwargs, no static arguments).
        self._fast: dict[tuple[Any, ...], _Compiled] = {}
        # both tables per backend: a function compiled while lazygraph.config.backend
        # was one backend is traced again (once) for another
        self._backend = config.backend
        self._tables = {self._backend: (self._entries, self._fast)}
        self._profile = profile
        # the entry called last: what printing and ``profile`` show
        self._latest: _Compiled | None = None
        self.trace_count = 0

    @property
    def profile(self) -> ProfileStats | None:
        """The per-node profile of the signature called last (``profile=True``:
        one per traced signature, each accumulating over its calls); ``None``
        without ``profile=True`` or before the first call. ``print(f.profile)``
        shows the table, slowest node first."""
        if not self._profile or self._latest is None:
            return None
        return self._latest.profile

    def __lazygraph_fgraph__(self) -> FunctionGraph:
        """The compiled graph of the signature called last: the printing protocol
        (lazygraph.printing looks for this method; core does not know this class)."""
        if self._latest is None:
            raise ValueError(
                f"{self!r} has not been called with array data yet: its graph is traced "
                "and compiled at the first such call (for the arguments' dtypes and "
                "shapes; a call with lazy arrays only builds their graph), so call it "
                "before printing it"
            )
        return self._latest.fgraph

    def __repr__(self) -> str:
        return f"<{self._name} of {getattr(self._fun, '__qualname__', self._fun)!r}>"

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        if config.backend is not self._backend:
            self._use_backend(config.backend)
        if not kwargs:
            try:
                entry = self._fast.get(tuple(map(_fast_signature, args)))
            except AttributeError:  # an argument that is not an array
                entry = None
            if entry is not None:
                self._latest = entry
                return entry.unpack(entry.call(*args))
        return self._call(args, kwargs)

    def _use_backend(self, backend: str) -> None:
        self._backend = backend
        self._entries, self._fast = self._tables.setdefault(backend, ({}, {}))

    def _split(self, args: tuple[Any, ...]) -> tuple[tuple[Any, ...], tuple[Any, ...]]:
        for i in self._static:
            if not -len(args) <= i < len(args):
                raise ValueError(
                    f"{self._name}: static_argnums {self._static} out of range for a call "
                    f"with {len(args)} positional argument(s)"
                )
        static = {i % len(args) for i in self._static}
        dynamic = tuple(a for i, a in enumerate(args) if i not in static)
        statics = tuple(args[i] for i in sorted(static))
        return dynamic, statics

    def _merge(self, nargs: int, dynamic: Sequence[Any], statics: Sequence[Any]) -> tuple:
        static = sorted({i % nargs for i in self._static}) if nargs else []
        dyn, sta = iter(dynamic), iter(statics)
        return tuple(next(sta) if i in static else next(dyn) for i in range(nargs))

    def _call(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        dynamic, statics = self._split(args)
        leaves, treedef = flatten((dynamic, kwargs), is_leaf=_is_lazy)
        if any(_is_lazy(leaf) for leaf in leaves):
            return self._call_lazy(args, kwargs)
        values = [_leaf_value(leaf, self._name) for leaf in leaves]
        try:
            sig = (len(args), treedef, tuple((v.dtype, v.shape) for v in values), statics)
            hash(sig)
        except TypeError as exc:
            raise TypeError(
                f"{self._name}: static arguments must be hashable, got {statics!r}"
            ) from exc
        entry = self._entries.get(sig)
        if entry is None:
            entry = self._trace(args, kwargs, statics, treedef, values)
            self._entries[sig] = entry
            if not kwargs and not self._static and all(type(a) is _ndarray for a in args):
                self._fast[tuple(map(_fast_signature, args))] = entry
        self._latest = entry
        return entry.unpack(entry.call(*values))

    def _trace(
        self,
        args: tuple[Any, ...],
        kwargs: dict[str, Any],
        statics: tuple[Any, ...],
        treedef: Any,
        values: list[np.ndarray],
    ) -> _Compiled:
        in_vars = [
            lt.TensorType(v.dtype, v.shape)(f"{self._name}_in{i}") for i, v in enumerate(values)
        ]
        dynamic, kw = unflatten(treedef, [wrap(v) for v in in_vars])
        try:
            with tracing():
                result = self._build(self._fun, self._merge(len(args), dynamic, statics), kw)
        except ValueError as exc:
            names = [str(v) for v in in_vars]
            if "no value" in str(exc) and any(n in str(exc) for n in names):
                raise TypeError(
                    f"{self._name}: {getattr(self._fun, '__name__', 'the function')} needs "
                    "the value of an argument while it is traced (float(x), if x > 0:, "
                    "x.tolist(), ...); only dtypes and shapes are known then. Pass that "
                    f"argument through static_argnums, or compute it outside ({exc})"
                ) from exc
            raise
        out_leaves, out_tree = flatten(result, is_leaf=_is_lazy)
        outputs: list[Variable] = []
        template: list[Any] = []
        is_var: list[bool] = []
        for leaf in out_leaves:
            if _is_lazy(leaf):
                outputs.append(_variable_of(leaf))
                template.append(None)
                is_var.append(True)
            else:
                template.append(leaf)
                is_var.append(False)
        traced = set(in_vars)
        captured_vars = []
        for v in graph_inputs(outputs):
            if v in traced or isinstance(v, Constant) or v.owner is not None:
                continue
            if not is_bound(v):
                raise ValueError(
                    f"{self._name}: the result of {getattr(self._fun, '__name__', 'f')} "
                    f"depends on {v}, which is neither an argument nor a value it captured"
                )
            captured_vars.append(v)
        call, fgraph, stats = self._compile(
            in_vars, captured_vars, outputs, (treedef, out_tree, is_var)
        )
        self.trace_count += 1
        return _Compiled(call, _make_unpack(out_tree, template, is_var), fgraph, stats)

    def _compile(
        self,
        in_vars: list[Variable],
        captured_vars: list[Variable],
        outputs: list[Variable],
        trees: tuple[Any, Any, list[bool]],
    ) -> tuple[Callable[..., Sequence[Any]], FunctionGraph, ProfileStats | None]:
        """The compiled call of one traced signature, taking the argument leaves'
        values, its compiled graph and its profile (``trees``: the argument and
        result structures, for subclasses)."""
        extra = [captured_value(v, self._mode) for v in captured_vars]
        if self._profile:
            # a profiled function of its own: the structural cache's functions are
            # shared and untimed, and their timings would mix several callers'
            fn = function(in_vars + captured_vars, outputs, mode=self._mode, profile=True)
            inner = fn.fn
            return (lambda *args: inner(*args, *extra)), fn.fgraph, fn.profile
        compiled = cached_function(in_vars + captured_vars, outputs, mode=self._mode)
        return compiled.trusted_callable(extra), compiled.function.fgraph, None

    def _call_lazy(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        """Called with lazy arrays: build the transform's graph on them and
        return lazy results (no compiling), so transforms compose."""
        dynamic, statics = self._split(args)
        leaves, treedef = flatten((dynamic, kwargs), is_leaf=_is_lazy)
        arrays = [
            leaf if isinstance(leaf, Array) else wrap(lt.as_tensor_variable(as_variable(leaf)))
            for leaf in leaves
        ]
        dynamic, kw = unflatten(treedef, arrays)
        # a graph of the arrays' variables: nothing runs at once, which would
        # give a value cut off from them (and a zero gradient)
        with config.change(eager_max_elements=0), tracing():
            result = self._build(self._fun, self._merge(len(args), dynamic, statics), kw)
        out_leaves, out_tree = flatten(result, is_leaf=_is_lazy)
        return unflatten(
            out_tree,
            [
                wrap(_variable_of(leaf)) if isinstance(leaf, Variable) else leaf
                for leaf in out_leaves
            ],
        )


# -- builders -------------------------------------------------------------------


def _build_call(fun: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    return fun(*args, **kwargs)


def _wrt(args: tuple[Any, ...], argnums: int | Sequence[int], name: str) -> tuple[list, Any]:
    """The variables to differentiate with respect to, and their tree."""
    nums = _normalize_argnums(argnums, len(args), name)
    tree = args[nums[0]] if isinstance(argnums, int) else tuple(args[i] for i in nums)
    leaves, wrt_tree = flatten(tree, is_leaf=_is_lazy)
    wrt = []
    for leaf in leaves:
        var = _variable_of(leaf)
        dtype = np.dtype(var.type.dtype)
        if dtype.kind not in "fc":
            raise TypeError(
                f"{name} requires real- or complex-valued inputs (a floating or complex "
                f"dtype), but got {dtype}; cast the argument to a float dtype"
            )
        wrt.append(var)
    return wrt, wrt_tree


def _split_aux(out: Any, has_aux: bool, name: str) -> tuple[Any, Any]:
    if not has_aux:
        return out, None
    if not isinstance(out, tuple | list) or len(out) != 2:
        raise TypeError(
            f"{name} with has_aux=True needs the function to return a pair (output, aux), "
            f"got {type(out).__name__}"
        )
    return out[0], out[1]


def _as_output(x: Any) -> Variable:
    if _is_lazy(x):
        return _variable_of(x)
    return lt.as_tensor_variable(np.asarray(x))


def _scalar_cost(out: Any, name: str) -> Variable:
    cost = _as_output(out)
    if cost.type.ndim != 0:
        raise TypeError(
            f"{name}: gradient only defined for scalar-output functions; the output had "
            f"shape {cost.type.shape}"
        )
    if np.dtype(cost.type.dtype).kind != "f":
        raise TypeError(
            f"{name} requires real-valued outputs (a floating dtype), but got {cost.type.dtype}"
        )
    return cost


def _fit(g: Variable, like: Variable) -> Variable:
    """A gradient in the dtype of the variable it is for (as JAX returns it)."""
    if g.type.dtype != like.type.dtype:
        return lt.cast(g, like.type.dtype)
    return g


def _grads(cost: Variable, wrt: list[Variable]) -> list[Variable]:
    grads = gradient.grad(cost, wrt, disconnected_inputs="ignore")
    return [_fit(g, w) for g, w in zip(grads, wrt, strict=True)]


def _jacobians(y: Variable, wrt: list[Variable], name: str) -> list[Variable]:
    if np.dtype(y.type.dtype).kind != "f":
        raise TypeError(
            f"{name} requires real-valued outputs (a floating dtype), but got {y.type.dtype}"
        )
    jacs = gradient.jacobian(y, wrt, disconnected_inputs="ignore")
    return [_fit(j, w) for j, w in zip(jacs, wrt, strict=True)]


# -- the transforms -------------------------------------------------------------


def jit(
    fun: Callable[..., Any] | None = None,
    *,
    static_argnums: int | Sequence[int] = (),
    mode: Any = None,
    in_shardings: Any = None,
    out_shardings: Any = None,
    profile: bool = False,
) -> Any:
    """``fun`` traced once per signature and compiled; later calls with the same
    dtypes and shapes run the compiled function directly.

    ``static_argnums`` lists positional arguments that are Python values
    (hashable) rather than arrays: each new value traces again. ``mode`` is the
    compile mode (rewrites and backend). Usable as a decorator, with or without
    arguments.

    ``profile=True`` times every node as ``lazygraph.function(..., profile=True)``
    does (see :mod:`lazygraph.compile.profile`): after a call, ``f.profile`` is
    the :class:`~lazygraph.compile.profile.ProfileStats` of the signature called
    last, and ``print(f.profile)`` shows its table. A profiled function compiles
    its own graph instead of sharing the compile cache's. ``lazygraph.dprint(f)``
    prints the compiled graph after a call, profiled or not.

    ``in_shardings`` / ``out_shardings`` (jax backend only, as in ``jax.jit``)
    run the compiled graph across devices: each is one ``jax.sharding.Sharding``
    for every array, or a tuple with one entry per non-static positional
    argument (per element of the returned tuple), an entry being a sharding for
    all of that argument's arrays, ``None`` (let XLA choose), or a tuple / list /
    dict of the argument's own structure. Values the function captures are
    replicated. A sharded function returns ``jax.Array`` results, laid out as
    asked. Other backends raise ``ValueError``.

    >>> import numpy as np
    >>> import lazygraph
    >>> import lazygraph.numpy as lnp
    >>> @lazygraph.jit
    ... def f(x, y):
    ...     return lnp.exp(x) * y + 1.0
    >>> f(np.zeros(3), np.arange(3.0))
    array([1., 2., 3.])
    >>> f(np.ones(3), np.arange(3.0)).round(3)  # same signature: no new trace
    array([1.   , 3.718, 6.437])
    >>> f.trace_count
    1
    """
    if fun is None:
        return functools.partial(
            jit,
            static_argnums=static_argnums,
            mode=mode,
            in_shardings=in_shardings,
            out_shardings=out_shardings,
            profile=profile,
        )
    if in_shardings is None and out_shardings is None:
        return Transformed(fun, _build_call, "jit", static_argnums, mode, profile)
    if profile:
        raise ValueError(
            "jit: profile=True does not combine with in_shardings/out_shardings (a "
            "sharded program runs as one XLA computation); profile it unsharded"
        )
    return _ShardedJit(fun, static_argnums, mode, in_shardings, out_shardings)


class _ShardedJit(Transformed):
    """:func:`jit` with shardings: compiled through the compile cache, as every
    jitted function, with the shardings as the jax backend's compile options;
    returns ``jax.Array`` results."""

    def __init__(
        self,
        fun: Callable[..., Any],
        static_argnums: int | Sequence[int],
        mode: Any,
        in_shardings: Any,
        out_shardings: Any,
    ) -> None:
        super().__init__(fun, _build_call, "jit", static_argnums, mode)
        # fail at decoration time, not at the first call
        _check_sharding_backend(mode, in_shardings, out_shardings)
        self._in_shardings = in_shardings
        self._out_shardings = out_shardings

    def _compile(
        self,
        in_vars: list[Variable],
        captured_vars: list[Variable],
        outputs: list[Variable],
        trees: tuple[Any, Any, list[bool]],
    ) -> tuple[Callable[..., Sequence[Any]], FunctionGraph, ProfileStats | None]:
        # (config.backend may have changed since)
        _check_sharding_backend(self._mode, self._in_shardings, self._out_shardings)
        treedef, out_tree, is_var = trees
        spec = self._in_shardings
        if isinstance(spec, list | tuple):  # one entry per positional argument; kwargs: None
            spec = (tuple(spec), None)
        ins = _spread(spec, treedef, "in_shardings") + [None] * len(captured_vars)
        outs = _spread(self._out_shardings, out_tree, "out_shardings")
        outs = [s for s, v in zip(outs, is_var, strict=True) if v]
        options = {
            "in_shardings": None if self._in_shardings is None else ins,
            "out_shardings": None if self._out_shardings is None else outs,
            "device_arrays": True,
        }
        compiled = cached_function(
            in_vars + captured_vars, outputs, mode=self._mode, compile_options=options
        )
        extra = [captured_value(v, self._mode) for v in captured_vars]
        return compiled.trusted_callable(extra), compiled.function.fgraph, None


def _check_sharding_backend(mode: Any, in_shardings: Any, out_shardings: Any) -> None:
    """``ValueError`` unless the backend ``mode`` compiles with takes the sharding
    options given (its ``compile_options`` list them: the backend protocol,
    :class:`~lazygraph.compile.backends.Backend`; today the jax backend)."""
    from lazygraph.compile.backends import get_backend
    from lazygraph.compile.mode import get_mode

    name = get_mode(mode).backend or config.backend
    unavailable = ""
    try:
        accepted = getattr(get_backend(name), "compile_options", ())
    except ValueError as exc:  # (not installed: it takes nothing either)
        accepted, unavailable = (), f"; {exc}"
    for option, given in (("in_shardings", in_shardings), ("out_shardings", out_shardings)):
        if given is not None and option not in accepted:
            raise ValueError(
                f"jit: the {name!r} backend does not take {option} (shardings need the jax "
                f"backend{unavailable}); pass mode='jax' or set lazygraph.config.backend = 'jax'"
            )


def _spread(spec: Any, treedef: Any, name: str) -> list[Any]:
    """One sharding per leaf of ``treedef``: ``spec`` is a sharding (or None)
    for a whole subtree, or a container of the subtree's own structure."""
    if not isinstance(spec, list | tuple | dict):
        return [spec] * num_leaves(treedef)
    kind = treedef[0] if isinstance(treedef, tuple) else None
    if kind is dict and isinstance(spec, dict) and set(spec) == set(treedef[1]):
        return [
            s
            for k, sub in zip(treedef[1], treedef[2], strict=True)
            for s in _spread(spec[k], sub, name)
        ]
    if kind in (list, tuple) and not isinstance(spec, dict) and len(spec) == len(treedef[1]):
        return [s for c, sub in zip(spec, treedef[1], strict=True) for s in _spread(c, sub, name)]
    raise ValueError(
        f"jit: {name} {spec!r} does not match the structure of the arguments / results "
        f"({unflatten(treedef, ['*'] * num_leaves(treedef))!r})"
    )


def _complex_cost(out: Any, wrt: list[Variable], holomorphic: bool, name: str) -> Variable:
    """The cost of ``grad``/``value_and_grad``: a 0-d float, or with
    ``holomorphic=True`` a 0-d complex of complex arguments (JAX's rules)."""
    if not holomorphic:
        cost = _as_output(out)
        if cost.type.ndim == 0 and np.dtype(cost.type.dtype).kind == "c":
            raise TypeError(
                f"{name} requires real-valued outputs (a floating dtype), but got "
                f"{cost.type.dtype}; for holomorphic differentiation pass holomorphic=True"
            )
        return _scalar_cost(out, name)
    for var in wrt:
        if np.dtype(var.type.dtype).kind != "c":
            raise TypeError(
                f"{name} with holomorphic=True requires inputs with complex dtype, but got "
                f"{var.type.dtype}"
            )
    cost = _as_output(out)
    if cost.type.ndim != 0:
        raise TypeError(
            f"{name}: gradient only defined for scalar-output functions; the output had "
            f"shape {cost.type.shape}"
        )
    if np.dtype(cost.type.dtype).kind != "c":
        raise TypeError(
            f"{name} with holomorphic=True requires outputs with complex dtype, but got "
            f"{cost.type.dtype}"
        )
    return cost


def value_and_grad(
    fun: Callable[..., Any],
    argnums: int | Sequence[int] = 0,
    has_aux: bool = False,
    *,
    holomorphic: bool = False,
    mode: Any = None,
) -> Transformed:
    """A function returning ``(fun(...), grad(fun)(...))``, computed together.

    With ``has_aux=True``, ``fun`` returns ``(value, aux)`` and the result is
    ``((value, aux), gradient)``. ``holomorphic`` as in :func:`grad`.

    >>> import numpy as np
    >>> import lazygraph
    >>> import lazygraph.numpy as lnp
    >>> value, g = lazygraph.value_and_grad(lambda x: lnp.sum(x**3))(np.array([1.0, 2.0]))
    >>> value, g
    (array(9.), array([ 3., 12.]))
    """

    def build(f: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        wrt, wrt_tree = _wrt(args, argnums, "value_and_grad")
        out, aux = _split_aux(f(*args, **kwargs), has_aux, "value_and_grad")
        cost = _complex_cost(out, wrt, holomorphic, "value_and_grad")
        grads = unflatten(wrt_tree, _grads(cost, wrt))
        return ((cost, aux) if has_aux else cost), grads

    return Transformed(fun, build, "value_and_grad", (), mode)


def grad(
    fun: Callable[..., Any],
    argnums: int | Sequence[int] = 0,
    has_aux: bool = False,
    *,
    holomorphic: bool = False,
    mode: Any = None,
) -> Transformed:
    """The gradient of the scalar-valued ``fun`` with respect to argument
    ``argnums`` (an int, or a tuple of ints giving a tuple of gradients).

    The argument may be a pytree; its gradient has the same structure, each
    leaf of its leaf's dtype and shape. ``fun`` must return a 0-d float array
    (with ``has_aux=True``, a pair ``(value, aux)``: the result is then
    ``(gradient, aux)``). Integer or boolean arguments cannot be
    differentiated (``TypeError``).

    Complex numbers follow JAX's convention: for a complex argument
    ``z = x + iy`` the gradient of a real ``fun`` is ``dfun/dx - i dfun/dy``.
    A complex-valued ``fun`` needs ``holomorphic=True`` (and complex
    arguments); its gradient is then the complex derivative ``fun'(z)``.

    >>> import numpy as np
    >>> import lazygraph
    >>> import lazygraph.numpy as lnp
    >>> def loss(params, x):
    ...     return lnp.sum(lnp.tanh(x * params["w"] + params["b"]))
    >>> g = lazygraph.grad(loss)({"w": np.array(0.0), "b": np.array(0.0)}, np.arange(3.0))
    >>> g["w"], g["b"]
    (array(3.), array(3.))
    >>> lazygraph.grad(lambda z: lnp.abs(z) ** 2)(np.array(3 + 4j))
    array(6.-8.j)
    >>> lazygraph.grad(lambda z: z**3, holomorphic=True)(np.array(1 + 1j))
    array(0.+6.j)
    """

    def build(f: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        wrt, wrt_tree = _wrt(args, argnums, "grad")
        out, aux = _split_aux(f(*args, **kwargs), has_aux, "grad")
        cost = _complex_cost(out, wrt, holomorphic, "grad")
        grads = unflatten(wrt_tree, _grads(cost, wrt))
        return (grads, aux) if has_aux else grads

    return Transformed(fun, build, "grad", (), mode)


def jacobian(
    fun: Callable[..., Any],
    argnums: int | Sequence[int] = 0,
    has_aux: bool = False,
    *,
    mode: Any = None,
) -> Transformed:
    """The Jacobian of ``fun`` (reverse mode, like ``jax.jacrev``).

    For an output leaf of shape ``S`` and an argument leaf of shape ``T`` the
    Jacobian leaf has shape ``S + T``; the result nests the argument's structure
    inside the output's. Output shapes must be known when tracing.

    >>> import numpy as np
    >>> import lazygraph
    >>> lazygraph.jacobian(lambda x: x**2)(np.array([1.0, 2.0]))
    array([[2., 0.],
           [0., 4.]])
    """

    def build(f: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        wrt, wrt_tree = _wrt(args, argnums, "jacobian")
        out, aux = _split_aux(f(*args, **kwargs), has_aux, "jacobian")
        out_leaves, out_tree = flatten(out, is_leaf=_is_lazy)
        jacs = [unflatten(wrt_tree, _jacobians(_as_output(y), wrt, "jacobian")) for y in out_leaves]
        result = unflatten(out_tree, jacs)
        return (result, aux) if has_aux else result

    return Transformed(fun, build, "jacobian", (), mode)


def hessian(
    fun: Callable[..., Any],
    argnums: int | Sequence[int] = 0,
    has_aux: bool = False,
    *,
    mode: Any = None,
) -> Transformed:
    """The Hessian of the scalar-valued ``fun``: the Jacobian of its gradient.

    For argument leaves of shapes ``T1`` and ``T2`` the block has shape
    ``T1 + T2``; the result nests the argument's structure in itself.

    >>> import numpy as np
    >>> import lazygraph
    >>> import lazygraph.numpy as lnp
    >>> lazygraph.hessian(lambda x: lnp.sum(x**3))(np.array([1.0, 2.0]))
    array([[ 6.,  0.],
           [ 0., 12.]])
    """

    def build(f: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        wrt, wrt_tree = _wrt(args, argnums, "hessian")
        out, aux = _split_aux(f(*args, **kwargs), has_aux, "hessian")
        cost = _scalar_cost(out, "hessian")
        rows = [unflatten(wrt_tree, _jacobians(g, wrt, "hessian")) for g in _grads(cost, wrt)]
        result = unflatten(wrt_tree, rows)
        return (result, aux) if has_aux else result

    return Transformed(fun, build, "hessian", (), mode)
