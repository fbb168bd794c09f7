"""Forward mode and the products of derivatives: :func:`jvp`, :func:`linearize`,
:func:`vjp`, :func:`hvp`, :func:`jacfwd` and :func:`jacrev`, exported from
``lazygraph`` with JAX's meanings and signatures.

They trace and compile like :func:`lazygraph.grad` (see
:mod:`lazygraph.numpy._transforms`): one trace per signature, then the compiled
function. :func:`jvp`, :func:`vjp`, :func:`linearize` and :func:`hvp` take the
function and its arguments in one call, so the transform behind them is kept
per function (while the function lives): calling ``jvp(f, ...)`` again with
arguments of the same dtypes and shapes runs the compiled function without
tracing ``f`` again. A new ``lambda`` per call is a new function and traces
again, as in JAX.

Forward mode walks the graph with each op's ``R_op`` (Jacobian-vector
product): :func:`lazygraph.gradient.Rop`. Where the graph between the
arguments and the results holds complex values, it uses ``Rop``'s
``method="lop"`` (the transpose of the vector-Jacobian product, built from the
ops' ``L_op``), which follows the complex convention of reverse mode.

>>> import numpy as np
>>> import lazygraph
>>> import lazygraph.numpy as lnp
>>> out, tangent = lazygraph.jvp(lnp.sin, (np.array([0.0, 1.0]),), (np.array([1.0, 1.0]),))
>>> tangent.round(4)
array([1.    , 0.5403])
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import Any

import lazygraph.tensor as lt
import numpy as np
from lazygraph import gradient
from lazygraph.graph.basic import Variable
from lazygraph.graph.traversal import io_toposort
from lazygraph.numpy._pytree import flatten, unflatten
from lazygraph.numpy._transforms import (
    Transformed,
    _as_output,
    _fit,
    _grads,
    _is_lazy,
    _jacobians,
    _scalar_cost,
    _split_aux,
    _variable_of,
    _wrt,
)

__all__: list[str] = []


# -- the transforms kept per function ---------------------------------------------


class _WeakFun:
    """``fun``, held weakly: the cache of transforms must not keep it alive."""

    def __init__(self, fun: Callable[..., Any]) -> None:
        self.ref = weakref.ref(fun)
        self.__name__ = getattr(fun, "__name__", "f")
        self.__qualname__ = getattr(fun, "__qualname__", self.__name__)
        self.__doc__ = getattr(fun, "__doc__", None)

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        fun = self.ref()
        if fun is None:  # pragma: no cover - the cache entry goes with the function
            raise ReferenceError("the transformed function no longer exists")
        return fun(*args, **kwargs)


_KEPT: weakref.WeakKeyDictionary[Any, dict[Any, Transformed]] = weakref.WeakKeyDictionary()


def _kept(fun: Callable[..., Any], key: Any, make: Callable[[Callable[..., Any]], Any]) -> Any:
    """The transform ``make(fun)`` of kind ``key``, made once per live ``fun``
    (functions that cannot be weakly referenced or hashed get a new one)."""
    if not callable(fun):
        raise TypeError(f"{key[0]}: expected a callable, got {type(fun).__name__}")
    try:
        per_fun = _KEPT.get(fun)
    except TypeError:  # unhashable, or no weak references
        return make(fun)
    if per_fun is None:
        try:
            per_fun = _KEPT[fun] = {}
        except TypeError:
            return make(fun)
    found = per_fun.get(key)
    if found is None:
        found = per_fun[key] = make(_WeakFun(fun))
    return found


# -- helpers ------------------------------------------------------------------------


def _type_of(x: Any) -> tuple[np.dtype[Any], tuple[Any, ...]]:
    if _is_lazy(x):
        var = _variable_of(x)
        return np.dtype(var.type.dtype), tuple(var.type.shape)
    arr = np.asarray(x)
    return arr.dtype, arr.shape


def _check_tuple(primals: Any, tangents: Any, name: str) -> None:
    """JAX's checks of ``jvp``'s arguments: tuples or lists of pytrees of one
    structure, leaf by leaf of equal shapes and dtypes, floating or complex."""
    for what, arg in (("primal", primals), ("tangent", tangents)):
        if not isinstance(arg, tuple | list):
            raise TypeError(
                f"{name}: primal and tangent arguments must be tuples or lists (one entry "
                f"per positional argument of the function); the {what}s are a "
                f"{type(arg).__name__}"
            )
    if len(primals) != len(tangents):
        raise ValueError(
            f"{name}: {len(primals)} primal(s) but {len(tangents)} tangent(s); give one "
            "tangent per primal"
        )
    p_leaves, p_tree = flatten(tuple(primals), is_leaf=_is_lazy)
    t_leaves, t_tree = flatten(tuple(tangents), is_leaf=_is_lazy)
    if p_tree != t_tree:
        raise TypeError(f"{name}: primal and tangent arguments must have the same tree structure")
    for i, (p, t) in enumerate(zip(p_leaves, t_leaves, strict=True)):
        _check_pair(p, t, f"{name}: primal and tangent leaf {i}")


def _check_pair(primal: Any, tangent: Any, what: str) -> None:
    p_dtype, p_shape = _type_of(primal)
    t_dtype, t_shape = _type_of(tangent)
    if p_dtype.kind not in "fc":
        raise TypeError(
            f"{what}: forward mode requires real- or complex-valued primals (a floating or "
            f"complex dtype), but got {p_dtype}; close over integer arguments instead"
        )
    if p_dtype != t_dtype:
        raise TypeError(f"{what} do not match: dtypes must be equal, got {p_dtype} and {t_dtype}")
    if p_shape != t_shape:
        raise ValueError(f"{what} have different shapes: {p_shape} and {t_shape}")


def _has_complex(ws: Sequence[Variable], fs: Sequence[Variable]) -> bool:
    """Whether a complex value lies on the graph from ``ws`` to ``fs``."""
    if any(v.type.numpy_dtype.kind == "c" for v in (*ws, *fs)):  # type: ignore[attr-defined]
        return True
    for node in io_toposort(list(ws), list(fs)):
        for v in node.outputs:
            if getattr(v.type, "dtype", None) and np.dtype(v.type.dtype).kind == "c":  # type: ignore[attr-defined]
                return True
    return False


def _rop(fs: list[Variable], ws: list[Variable], evs: list[Any], method: str | None = None) -> list:
    """``J v`` of every ``fs`` along ``evs`` (zeros where disconnected). ``method``
    decided by the caller, or here: the ops' ``R_op`` on real graphs; ``L_op``
    transposed where complex values take part."""
    if method is None:
        method = "lop" if _has_complex(ws, fs) else "auto"
    return gradient.Rop(  # type: ignore[no-any-return]
        fs, ws, evs, disconnected_outputs="ignore", return_disconnected="zero", method=method
    )


def _leaves_of(tree: Any) -> list[Variable]:
    leaves, _ = flatten(tree, is_leaf=_is_lazy)
    return [_variable_of(leaf) for leaf in leaves]


def _outputs(out: Any, name: str, real_only: bool = False) -> tuple[list[Variable], Any]:
    leaves, tree = flatten(out, is_leaf=_is_lazy)
    outs = [_as_output(leaf) for leaf in leaves]
    if real_only:
        for y in outs:
            if np.dtype(y.type.dtype).kind != "f":
                raise TypeError(
                    f"{name} requires real-valued outputs (a floating dtype), but got "
                    f"{y.type.dtype}"
                )
    return outs, tree


def _columns(fs: list[Variable], w: Variable, name: str) -> list[Variable]:
    """The Jacobian of each of ``fs`` (shape ``S``) with respect to ``w`` (shape
    ``T``), shape ``S + T``: one forward pass per element of ``w``."""
    w_shape = _static_shape(w, name)
    size = int(np.prod(w_shape))
    dtype = w.type.dtype  # type: ignore[attr-defined]
    method = "lop" if _has_complex([w], fs) else "auto"
    cols: list[list[Variable]] = []
    for k in range(size):
        onehot = np.zeros(size, dtype=dtype)
        onehot[k] = 1
        cols.append(_rop(fs, [w], [lt.constant(onehot.reshape(w_shape))], method))
    result = []
    for i, f in enumerate(fs):
        f_shape = _static_shape(f, name)
        if size == 0:
            result.append(lt.zeros(f_shape + w_shape, dtype=f.type.dtype))  # type: ignore[attr-defined]
            continue
        stacked = lt.stack([col[i] for col in cols], axis=-1)
        if len(w_shape) != 1:
            stacked = lt.reshape(stacked, f_shape + w_shape)
        result.append(stacked)
    return result


def _static_shape(v: Variable, name: str) -> tuple[int, ...]:
    shape = v.type.shape  # type: ignore[attr-defined]
    if any(s is None for s in shape):
        raise ValueError(
            f"{name} needs static shapes, but {v} has shape {shape}: the shape depends on "
            "the values, which are unknown while tracing"
        )
    return tuple(int(s) for s in shape)


# -- jvp and linearize --------------------------------------------------------------


def _jvp_transform(
    fun: Callable[..., Any], tangents_only: bool, has_aux: bool = False
) -> Transformed:
    name = "linearize" if tangents_only else "jvp"

    def build(f: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        primals, tangents = args
        out, aux = _split_aux(f(*primals), has_aux, name)
        outs, out_tree = _outputs(out, name)
        tangent_out = _rop(outs, _leaves_of(primals), _leaves_of(tangents))
        tangent_tree = unflatten(out_tree, tangent_out)
        if tangents_only:
            return tangent_tree
        return (out, tangent_tree, aux) if has_aux else (out, tangent_tree)

    return Transformed(fun, build, name)


def jvp(
    fun: Callable[..., Any], primals: Sequence[Any], tangents: Sequence[Any], has_aux: bool = False
) -> tuple:
    """``(fun(*primals), J tangents)``: the value and the Jacobian-vector product
    of ``fun`` at ``primals`` along ``tangents`` (forward mode, as ``jax.jvp``).

    ``primals`` and ``tangents`` are tuples (or lists) with one entry per
    positional argument of ``fun``, each a pytree; a tangent has its primal's
    structure, dtypes and shapes (``TypeError`` / ``ValueError`` otherwise), and
    the result's tangent has the output's structure. Primals must be floating
    or complex (close over integer arguments). With ``has_aux=True``, ``fun``
    returns ``(output, aux)`` and the result is ``(output, tangent, aux)``.

    >>> import numpy as np
    >>> import lazygraph
    >>> import lazygraph.numpy as lnp
    >>> def f(x, y):
    ...     return {"prod": x * y, "sum": lnp.sum(x)}
    >>> out, tangent = lazygraph.jvp(f, (np.array([1.0, 2.0]), 3.0), (np.ones(2), 0.5))
    >>> tangent["prod"], tangent["sum"]
    (array([3.5, 4. ]), array(2.))
    """
    _check_tuple(primals, tangents, "jvp")
    transform = _kept(fun, ("jvp", has_aux), lambda f: _jvp_transform(f, False, has_aux))
    return tuple(transform(tuple(primals), tuple(tangents)))


def linearize(fun: Callable[..., Any], *primals: Any) -> tuple[Any, Callable[..., Any]]:
    """``(fun(*primals), f_jvp)`` where ``f_jvp(*tangents)`` is the Jacobian-vector
    product of ``fun`` at ``primals`` (as ``jax.linearize``).

    ``f_jvp`` takes one tangent per primal, each of its primal's structure,
    dtype and shape. Unlike JAX, which evaluates the linearization once, each
    call runs one compiled graph for the JVP that recomputes what it needs of
    ``fun`` at ``primals`` (compiled at the first call, kept with ``fun``).

    >>> import numpy as np
    >>> import lazygraph
    >>> import lazygraph.numpy as lnp
    >>> out, f_jvp = lazygraph.linearize(lnp.exp, np.array([0.0, 1.0]))
    >>> f_jvp(np.array([1.0, 2.0])).round(4)
    array([1.    , 5.4366])
    """
    fixed = tuple(primals)
    _check_tuple(fixed, fixed, "linearize")
    out = _kept(fun, ("call",), _call_transform)(*fixed)
    transform = _kept(fun, ("linearize",), lambda f: _jvp_transform(f, tangents_only=True))

    def f_jvp(*tangents: Any) -> Any:
        _check_tuple(fixed, tangents, "linearize: f_jvp")
        return transform(fixed, tuple(tangents))

    f_jvp.fun = fun  # type: ignore[attr-defined]  # (the transform holds it weakly)

    return out, f_jvp


def _call_transform(fun: Callable[..., Any]) -> Transformed:
    from lazygraph.numpy._transforms import _build_call

    return Transformed(fun, _build_call, "jit")


# -- vjp ----------------------------------------------------------------------------


def _vjp_transform(fun: Callable[..., Any], has_aux: bool) -> Transformed:
    def build(f: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        primals, cotangents = args
        out, _ = _split_aux(f(*primals), has_aux, "vjp")
        outs, _ = _outputs(out, "vjp")
        wrt = _leaves_of(primals)
        known = {}
        for y, c in zip(outs, _leaves_of(cotangents), strict=True):
            if y.type.numpy_dtype.kind in "fc":  # type: ignore[attr-defined]
                known[y] = c if y not in known else known[y] + c
        if not known:
            grads = [lt.zeros_like(w) for w in wrt]
        else:
            grads = gradient.grad(None, wrt, known_grads=known, disconnected_inputs="ignore")
            grads = [_fit(g, w) for g, w in zip(grads, wrt, strict=True)]
        _, p_tree = flatten(tuple(primals), is_leaf=_is_lazy)
        return unflatten(p_tree, grads)

    return Transformed(fun, build, "vjp")


def vjp(fun: Callable[..., Any], *primals: Any, has_aux: bool = False) -> tuple:
    """``(fun(*primals), vjp_fn)`` where ``vjp_fn(cotangent)`` is the
    vector-Jacobian product: a tuple with one cotangent per primal, each of its
    primal's structure (as ``jax.vjp``). With ``has_aux=True``, ``fun`` returns
    ``(output, aux)`` and the result is ``(output, vjp_fn, aux)``.

    ``cotangent`` has the output's structure, dtypes and shapes. Each call of
    ``vjp_fn`` runs one compiled graph (compiled at its first call, kept with
    ``fun``) that recomputes what the product needs of ``fun`` at ``primals``.

    >>> import numpy as np
    >>> import lazygraph
    >>> import lazygraph.numpy as lnp
    >>> out, vjp_fn = lazygraph.vjp(lambda x, y: x * y, np.array([1.0, 2.0]), np.array([3.0, 4.0]))
    >>> vjp_fn(np.array([1.0, 10.0]))
    (array([ 3., 40.]), array([ 1., 20.]))
    """
    fixed = tuple(primals)
    _check_tuple(fixed, fixed, "vjp")
    result = _kept(fun, ("call",), _call_transform)(*fixed)
    out, aux = _split_aux(result, has_aux, "vjp")
    out_leaves, out_tree = flatten(out, is_leaf=_is_lazy)
    transform = _kept(fun, ("vjp", has_aux), lambda f: _vjp_transform(f, has_aux))

    def vjp_fn(cotangent: Any) -> tuple:
        c_leaves, c_tree = flatten(cotangent, is_leaf=_is_lazy)
        if c_tree != out_tree:
            raise TypeError(
                "vjp: the cotangent must have the structure of the function's output, "
                f"{unflatten(out_tree, ['*'] * len(out_leaves))!r}"
            )
        for i, (y, c) in enumerate(zip(out_leaves, c_leaves, strict=True)):
            y_dtype, y_shape = _type_of(y)
            c_dtype, c_shape = _type_of(c)
            if c_shape != y_shape:
                raise ValueError(
                    f"vjp: cotangent leaf {i} has shape {c_shape}, but the output it is for "
                    f"has shape {y_shape}"
                )
            if y_dtype.kind in "fc" and c_dtype != y_dtype:
                raise TypeError(
                    f"vjp: cotangent leaf {i} has dtype {c_dtype}, but the output it is for "
                    f"has dtype {y_dtype}; they must be equal"
                )
        return tuple(transform(fixed, cotangent))

    vjp_fn.fun = fun  # type: ignore[attr-defined]  # (the transform holds it weakly)

    return (out, vjp_fn, aux) if has_aux else (out, vjp_fn)


# -- hvp ----------------------------------------------------------------------------


def _hvp_transform(fun: Callable[..., Any], argnums: Any) -> Transformed:
    def build(f: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        primals, tangents = args
        wrt, wrt_tree = _wrt(tuple(primals), argnums, "hvp")
        cost = _scalar_cost(f(*primals), "hvp")
        grads = _grads(cost, wrt)
        products = _rop(grads, _leaves_of(primals), _leaves_of(tangents))
        return unflatten(wrt_tree, [_fit(p, w) for p, w in zip(products, wrt, strict=True)])

    return Transformed(fun, build, "hvp")


def hvp(
    fun: Callable[..., Any],
    primals: Sequence[Any],
    tangents: Sequence[Any],
    argnums: int | Sequence[int] = 0,
) -> Any:
    """The Hessian-vector product of the scalar-valued ``fun``:
    ``jvp(grad(fun, argnums), primals, tangents)[1]``, JAX's recipe, computed
    forward-over-reverse (the forward derivative of the gradient's graph) without
    forming the Hessian.

    ``primals`` and ``tangents`` are as in :func:`jvp`; the result has the
    structure of ``grad(fun, argnums)``'s (the primal ``argnums`` names). With
    several primals, every tangent takes part (mixed second derivatives).

    >>> import numpy as np
    >>> import lazygraph
    >>> import lazygraph.numpy as lnp
    >>> x = np.array([1.0, 2.0])
    >>> lazygraph.hvp(lambda x: lnp.sum(x**3), (x,), (np.array([1.0, 0.0]),))
    array([6., 0.])
    """
    _check_tuple(primals, tangents, "hvp")
    key = ("hvp", argnums if isinstance(argnums, int) else tuple(argnums))
    transform = _kept(fun, key, lambda f: _hvp_transform(f, argnums))
    return transform(tuple(primals), tuple(tangents))


# -- Jacobians ----------------------------------------------------------------------


def jacfwd(
    fun: Callable[..., Any],
    argnums: int | Sequence[int] = 0,
    has_aux: bool = False,
    *,
    mode: Any = None,
) -> Transformed:
    """The Jacobian of ``fun`` by forward mode (as ``jax.jacfwd``): one
    Jacobian-vector product per element of the arguments, so it suits functions
    with fewer inputs than outputs (:func:`jacrev` the other way round).

    Shapes and structure as :func:`lazygraph.jacobian`: for an output leaf of
    shape ``S`` and an argument leaf of shape ``T`` the leaf has shape ``S + T``,
    the argument's structure nested in the output's; each leaf in its
    argument's dtype. Output shapes must be known when tracing.

    >>> import numpy as np
    >>> import lazygraph
    >>> import lazygraph.numpy as lnp
    >>> lazygraph.jacfwd(lambda x: lnp.stack([x[0] * x[1], lnp.sin(x[0])]))(np.array([0.0, 2.0]))
    array([[2., 0.],
           [1., 0.]])
    """

    def build(f: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        wrt, wrt_tree = _wrt(args, argnums, "jacfwd")
        for w in wrt:
            if w.type.numpy_dtype.kind != "f":  # type: ignore[attr-defined]
                raise TypeError(
                    "jacfwd requires real-valued inputs (a floating dtype), but got "
                    f"{w.type.dtype}; a Jacobian with respect to complex inputs is "  # type: ignore[attr-defined]
                    "jacrev's or jacobian's"
                )
        out, aux = _split_aux(f(*args, **kwargs), has_aux, "jacfwd")
        outs, out_tree = _outputs(out, "jacfwd", real_only=True)
        per_w = [_columns(outs, w, "jacfwd") for w in wrt]
        blocks = [
            unflatten(wrt_tree, [_fit(per_w[j][i], w) for j, w in enumerate(wrt)])
            for i in range(len(outs))
        ]
        result = unflatten(out_tree, blocks)
        return (result, aux) if has_aux else result

    return Transformed(fun, build, "jacfwd", (), mode)


def jacrev(
    fun: Callable[..., Any],
    argnums: int | Sequence[int] = 0,
    has_aux: bool = False,
    *,
    mode: Any = None,
) -> Transformed:
    """The Jacobian of ``fun`` by reverse mode (as ``jax.jacrev``; the same as
    :func:`lazygraph.jacobian`): one vector-Jacobian product per element of the
    outputs, so it suits functions with fewer outputs than inputs.

    >>> import numpy as np
    >>> import lazygraph
    >>> import lazygraph.numpy as lnp
    >>> lazygraph.jacrev(lambda x: lnp.sum(x**2, keepdims=True))(np.array([1.0, 2.0]))
    array([[2., 4.]])
    """

    def build(f: Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        wrt, wrt_tree = _wrt(args, argnums, "jacrev")
        out, aux = _split_aux(f(*args, **kwargs), has_aux, "jacrev")
        outs, out_tree = _outputs(out, "jacrev")
        jacs = [unflatten(wrt_tree, _jacobians(y, wrt, "jacrev")) for y in outs]
        result = unflatten(out_tree, jacs)
        return (result, aux) if has_aux else result

    return Transformed(fun, build, "jacrev", (), mode)
