"""Elementwise lowerings: the scalar table, ``Composite``, ``Elemwise``,
``DimShuffle`` and ``SumToShape``.

Each scalar table row maps to the ``jax.numpy`` function of its numpy name;
the exceptions below are rows numpy names differently, rows with no jnp
twin, and integer arithmetic where XLA's answer differs from numpy's
(division by zero, ``pow`` overflow, shifts past the bit width).

>>> import numpy as np
>>> from lazygraph.backends.jax.elemwise import scalar_function
>>> from lazygraph.tensor.scalar import scalar_op
>>> f = scalar_function(scalar_op("floor_divide"), ["int8", "int8"], "int8", None)
>>> np.asarray(f(np.array([7, -7], "int8"), np.array([0, 2], "int8")))
array([ 0, -4], dtype=int8)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from lazygraph.backends.jax.dispatch import HOST_BY_DESIGN, Context, Unsupported, register
from lazygraph.graph.basic import Apply, Constant, Variable
from lazygraph.tensor.dimshuffle import DimShuffle
from lazygraph.tensor.elemwise import Elemwise, SumToShape
from lazygraph.tensor.scalar import Composite, ScalarOp

__all__ = ["composite_function", "elemwise_function", "scalar_function"]

Fn = Callable[..., Any]

# numpy name -> jnp function, where the jnp name differs or there is none
_RENAMED: dict[str, Fn] = {
    # numpy's clip: ``x > lo ? x : lo`` then ``t < hi ? t : hi`` (NaN x kept), so a
    # tie between 0.0 and -0.0 gives the bound, where XLA's max/min may not
    "clip": lambda x, lo, hi: _clip(x, lo, hi),
    # numpy's maximum / minimum: NaN from either side, and the second operand on
    # a tie (0.0 vs -0.0), where XLA's max / min may return either zero
    "maximum": lambda a, b: jnp.where(jnp.isnan(a) | (a > b), a, b),
    "minimum": lambda a, b: jnp.where(jnp.isnan(a) | (a < b), a, b),
    "where": jnp.where,
    "copy": lambda x: x,
    "sigmoid": jax.nn.sigmoid,
    "softplus": lambda x: jnp.logaddexp(x, jnp.zeros((), x.dtype)),
    "log_sigmoid": lambda x: -jnp.logaddexp(-x, jnp.zeros((), x.dtype)),
    "erf": jax.scipy.special.erf,
    "erfc": jax.scipy.special.erfc,
    # numpy's spacing of -0.0 is the smallest positive subnormal, as of +0.0
    "spacing": lambda x: jnp.spacing(jnp.where(x == 0, jnp.zeros_like(x), x)),
    # jnp.gcd loops until its operands settle, which |MIN| never does
    "gcd": lambda x, y: _gcd_lcm(x, y, lcm=False),
    "lcm": lambda x, y: _gcd_lcm(x, y, lcm=True),
}


def _gcd_lcm(x: Any, y: Any, lcm: bool) -> Any:
    """numpy's ``gcd`` / ``lcm``: Euclid on ``|x|`` and ``|y|`` as unsigned
    integers (``|MIN|`` is 2**(bits-1)), cast back to the operands' dtype;
    ``lcm`` is ``|x| // gcd * |y|``, wrapping. A fixed number of steps: Euclid
    needs at most about 1.44 * bits of them (Lamé)."""
    dtype = x.dtype
    unsigned = jnp.dtype(f"uint{dtype.itemsize * 8}")
    a = jnp.where(x < 0, -x, x).astype(unsigned) if dtype.kind == "i" else x
    b = jnp.where(y < 0, -y, y).astype(unsigned) if dtype.kind == "i" else y
    a, b = jnp.broadcast_arrays(a, b)
    zero = jnp.zeros((), unsigned)

    def step(_: Any, carry: tuple[Any, Any]) -> tuple[Any, Any]:
        p, q = carry
        nonzero = q != zero
        safe = jnp.where(nonzero, q, jnp.ones((), unsigned))
        return jnp.where(nonzero, q, p), jnp.where(nonzero, p % safe, zero)

    steps = (dtype.itemsize * 8 * 3) // 2 + 2
    g, _ = jax.lax.fori_loop(0, steps, step, (a, b))
    if lcm:
        g = jnp.where(g == zero, zero, a // jnp.where(g == zero, jnp.ones((), unsigned), g) * b)
    return g.astype(dtype)


def _log1mexp(x: Any) -> Any:
    # Mächler: log(-expm1(x)) near 0, log1p(-exp(x)) further out
    near_zero = x > -np.log(2.0)
    return jnp.where(near_zero, jnp.log(-jnp.expm1(x)), jnp.log1p(-jnp.exp(x)))


def _int_divmod(name: str, x: Any, y: Any) -> Any:
    """numpy's integer ``//``, ``%`` and ``fmod``: 0 where ``y == 0``."""
    zero = y == 0
    safe = jnp.where(zero, jnp.ones_like(y), y)
    if x.dtype.kind == "i":
        # MIN // -1 overflows in hardware; numpy wraps to MIN (and MIN % -1 == 0)
        minus_one = safe == -1
        safe = jnp.where(minus_one, jnp.ones_like(y), safe)
    fn = {"floor_divide": jnp.floor_divide, "remainder": jnp.remainder, "fmod": jnp.fmod}[name]
    result = fn(x, safe)
    if x.dtype.kind == "i":
        if name == "floor_divide":
            result = jnp.where(minus_one, -x, result)
        else:
            result = jnp.where(minus_one, jnp.zeros_like(x), result)
    return jnp.where(zero, jnp.zeros_like(result), result)


def _int_power(x: Any, y: Any, ctx: Context | None) -> Any:
    """numpy's integer power: wraps on overflow; a negative exponent raises."""
    bits = np.dtype(y.dtype).itemsize * 8
    x, y = jnp.broadcast_arrays(x, y)  # (an empty result raises nothing, as in numpy)
    if ctx is not None and y.dtype.kind == "i":
        ctx.check(
            jnp.any(y < 0), ValueError, "Integers to negative integer powers are not allowed."
        )
    one = jnp.ones((), y.dtype)

    def square_and_multiply(_: Any, carry: tuple[Any, Any, Any]) -> tuple[Any, Any, Any]:
        result, base, e = carry
        result = jnp.where((e & one) != 0, result * base, result)
        return result, base * base, jax.lax.shift_right_logical(e, one)

    result, _, _ = jax.lax.fori_loop(0, bits, square_and_multiply, (jnp.ones_like(x), x, y))
    return result


def _float_power(x: Any, y: Any, scalar_exponent: bool) -> Any:
    """numpy's float ``power``: C's ``pow``, but ``x*x``, ``1/x`` and ``sqrt(x)`` for
    the exponents 2, -1 and 0.5 where its loop reads the exponent with stride 0
    (``scalar_exponent``: a 0-d exponent in the graph; the linker may have
    broadcast it since)."""
    # XLA's simplifier turns pow by a constant 2, 3, -1 or 0.5 into products and
    # roots whatever the exponent's shape: hide the constant from it
    result = jnp.power(x, jax.lax.optimization_barrier(y))
    if scalar_exponent:
        result = jnp.where(y == 2, x * x, result)
        result = jnp.where(y == -1, 1 / x, result)
        result = jnp.where(y == 0.5, jnp.sqrt(x), result)
    return result


#: complex functions whose XLA results agree with numpy's, special values
#: included (checked on every pair of parts from 0, -0, 1, -2.5, 1e300, inf,
#: -inf, NaN, ...). ``multiply``: where a product overflows, numpy's own answer
#: depends on whether its CPU loop fuses multiply-adds (``inf+nanj`` without FMA,
#: ``inf-infj`` with), and XLA gives the unfused one. The others are in
#: :data:`_COMPLEX_ORDERED` or run on the host (``HOST_BY_DESIGN["complex ..."]``).
_COMPLEX_SAFE = frozenset(
    {
        "add",
        "subtract",
        "multiply",
        "negative",
        "positive",
        "conj",
        "real",
        "imag",
        "equal",
        "not_equal",
        "where",
        "cast",
        "copy",
        "second",
        "isnan",
        "isinf",
        "isfinite",
        "logical_and",
        "logical_or",
        "logical_xor",
        "logical_not",
        "rint",
        "round",  # each part as a float, as numpy: checked with decimals -2..2
    }
)


def _lex(a: Any, b: Any, strict: bool, greater: bool) -> Any:
    """numpy's ordering of complex numbers: by real part, then imaginary part; a
    NaN imaginary part makes the real-part comparison false as well."""
    if not greater:
        a, b = b, a  # a < b is b > a
    ar, ai, br, bi = jnp.real(a), jnp.imag(a), jnp.real(b), jnp.imag(b)
    ordered = ~(jnp.isnan(ai) | jnp.isnan(bi))
    second = (ai > bi) if strict else (ai >= bi)
    return ((ar > br) & ordered) | ((ar == br) & second)


def _has_nan(a: Any) -> Any:
    return jnp.isnan(jnp.real(a)) | jnp.isnan(jnp.imag(a))


#: complex comparisons and extrema, as numpy's loops compute them (the jnp
#: versions compare real parts only, or treat NaN parts differently)
_COMPLEX_ORDERED: dict[str, Fn] = {
    "less": lambda a, b: _lex(a, b, strict=True, greater=False),
    "less_equal": lambda a, b: _lex(a, b, strict=False, greater=False),
    "greater": lambda a, b: _lex(a, b, strict=True, greater=True),
    "greater_equal": lambda a, b: _lex(a, b, strict=False, greater=True),
    # a NaN in either operand propagates (the first one wins)
    "maximum": lambda a, b: jnp.where(_has_nan(a) | _lex(a, b, False, True), a, b),
    "minimum": lambda a, b: jnp.where(_has_nan(a) | _lex(a, b, False, False), a, b),
    # a NaN operand is ignored where the other is a number
    "fmax": lambda a, b: jnp.where(_has_nan(b) | _lex(a, b, False, True), a, b),
    "fmin": lambda a, b: jnp.where(_has_nan(b) | _lex(a, b, False, False), a, b),
}


def _clip(x: Any, lo: Any, hi: Any) -> Any:
    t = jnp.where(jnp.isnan(x) | (x > lo), x, lo)
    return jnp.where(jnp.isnan(t) | (t < hi), t, hi)


def _cast(x: Any, dtype: str) -> Any:
    target = np.dtype(dtype)
    if target.kind == "b":
        return x != 0
    if x.dtype.kind == "c" and target.kind != "c":
        x = jnp.real(x)
    if x.dtype.kind == "f" and target == np.dtype("uint64"):
        # x86's unsigned emulation: values from 2**63 up convert as x - 2**63
        # and get 2**63 added back (wrapping), the rest as int64
        big = x >= 2.0**63  # NaN compares false
        int64 = np.dtype("int64")
        low = _float_to_int(jnp.where(big, 0, x), int64).astype(target)
        high = _float_to_int(jnp.where(big, x - 2.0**63, 0), int64).astype(target)
        return jnp.where(big, high + jnp.asarray(2**63, target), low)
    if x.dtype.kind == "f" and target.kind in "iu":
        return _float_to_int(x, target)
    if x.dtype == np.float32 and target in (np.float64, np.complex128):
        return _widen_float32(x).astype(target)
    if x.dtype.kind == "b" and target.kind in "fc":
        # XLA rewrites ``y * convert(pred)`` to ``select(pred, y, 0)``, losing
        # numpy's ``-0.0 * False == -0.0``; a cast through uint8 keeps the multiply
        return x.astype("uint8").astype(target)
    return x.astype(target)


def _float_divmod(a: Any, b: Any) -> tuple[Any, Any]:
    """numpy's float ``(floor_divide, remainder)`` (``npy_divmod``), signed zeros
    included: jnp gives ``remainder(0.0, -1.0) == 0.0`` where numpy has -0.0."""
    mod = jnp.fmod(a, b)
    div = (a - mod) / b
    fix = (mod != 0) & ((b < 0) != (mod < 0))
    mod = jnp.where(fix, mod + b, jnp.where(mod != 0, mod, jnp.copysign(jnp.zeros_like(mod), b)))
    div = jnp.where(fix, div - 1, div)
    floor = jnp.floor(div)
    floor = jnp.where(div - floor > 0.5, floor + 1, floor)
    floordiv = jnp.where(div != 0, floor, jnp.copysign(jnp.zeros_like(div), a / b))
    by_zero = b == 0
    return jnp.where(by_zero, a / b, floordiv), jnp.where(by_zero, jnp.fmod(a, b), mod)


def _widen_float32(x: Any) -> Any:
    """float32 -> float64 keeping subnormal inputs, which XLA on the CPU reads as
    zero (they are normal numbers in float64): ``mantissa * 2**-149``, exactly."""
    bits = jax.lax.bitcast_convert_type(x, jnp.uint32)
    subnormal = (bits & 0x7F800000) == 0
    mantissa = (bits & 0x007FFFFF).astype(jnp.float64) * 2.0**-149
    tiny = jnp.where(bits >> 31 == 1, -mantissa, mantissa)
    return jnp.where(subnormal, tiny, x.astype(jnp.float64))


def _float_to_int(x: Any, target: np.dtype) -> Any:
    """numpy's float -> int cast on x86: truncate to int32 (targets of up to 16
    bits, and int32) or int64 (the rest), an out-of-range or NaN value becoming that
    type's minimum, then wrap to the target (XLA would saturate instead)."""
    narrow = target.itemsize <= 2 or (target.kind == "i" and target.itemsize == 4)
    via = np.dtype("int32") if narrow else np.dtype("int64")
    info = np.iinfo(via)
    t = jnp.trunc(x)
    bad = ~((t >= float(info.min)) & (t < -float(info.min)))  # NaN compares false
    mid = jnp.where(bad, jnp.asarray(info.min, via), jnp.where(bad, 0, t).astype(via))
    return mid.astype(target)


def _round(x: Any, decimals: int = 0) -> Any:
    if x.dtype.kind in "iu":
        if decimals >= 0:
            return x
        # numpy rounds integers through float64: x / 10**-d, half to even, back
        f = 10.0 ** (-decimals)
        return _cast(jnp.round(x.astype("float64") / f) * f, x.dtype.name)
    if x.dtype.kind == "c":
        return jax.lax.complex(_round_float(x.real, decimals), _round_float(x.imag, decimals))
    return _round_float(x, decimals)


def _round_float(x: Any, decimals: int) -> Any:
    """numpy's rounding of floats: ``rint(x * 10**d) / 10**d`` (``rint(x / 10**-d)
    * 10**-d`` for negative ``d``). The scale goes through an optimization
    barrier: XLA would otherwise fold the division by a constant into a
    multiplication by its reciprocal, which rounds differently in the last bit
    (``jnp.round(1.464209, 6)`` is ``1.4642089999999999``)."""
    if decimals == 0:
        return jnp.rint(x)
    scale = jax.lax.optimization_barrier(jnp.asarray(10.0 ** abs(decimals), x.dtype))
    if decimals > 0:
        return jnp.rint(x * scale) / scale
    return jnp.rint(x / scale) * scale


def _reciprocal(x: Any) -> Any:
    if x.dtype.kind in "iu":
        # numpy's 1 // 0 is the type's minimum for 32/64-bit signed ints, else 0
        wide = x.dtype.kind == "i" and x.dtype.itemsize >= 4
        at_zero = jnp.asarray(np.iinfo(x.dtype).min if wide else 0, x.dtype)
        one = _int_divmod("floor_divide", jnp.ones_like(x), x) * (jnp.abs(x) == 1)
        return jnp.where(x == 0, at_zero, one)
    return jnp.reciprocal(x)


def scalar_function(
    op: ScalarOp,
    in_dtypes: Sequence[str],
    out_dtype: str,
    ctx: Context | None,
    scalar_exponent: bool = False,
) -> Fn:
    """The jax function of table row ``op`` for inputs of ``in_dtypes``: takes and
    returns (broadcasting) arrays; the result has ``out_dtype``. ``scalar_exponent``:
    ``pow``'s exponent is 0-d in the graph (numpy's float loop then has fast paths)."""
    row = op.row
    name = row.name
    params = op.params
    promoted_positions = row.promoted_inputs()
    promoted = np.result_type(*[in_dtypes[i] for i in promoted_positions]).name
    out_kind = np.dtype(out_dtype).kind
    compute = promoted
    if row.cast_inputs and np.dtype(promoted).kind in "biu":
        compute = out_dtype
    elif np.dtype(promoted).kind == "b" and out_kind in "iuf":
        compute = out_dtype  # bool arithmetic numpy does in int8 (square, pow)
    elif name == "divide" and np.dtype(promoted).kind in "biu":
        compute = out_dtype

    if name in ("floor_divide", "remainder", "fmod") and np.dtype(compute).kind in "iu":

        def base(x: Any, y: Any) -> Any:
            return _int_divmod(name, x, y)
    elif name in ("floor_divide", "remainder") and np.dtype(compute).kind == "f":

        def base(x: Any, y: Any) -> Any:
            return _float_divmod(x, y)[0 if name == "floor_divide" else 1]
    elif name == "pow" and np.dtype(compute).kind in "iu":

        def base(x: Any, y: Any) -> Any:
            return _int_power(x, y, ctx)
    elif name == "pow" and np.dtype(compute).kind == "f":

        def base(x: Any, y: Any) -> Any:
            return _float_power(x, y, scalar_exponent)
    elif name == "cast":
        (dtype,) = params

        def base(x: Any) -> Any:
            return _cast(x, dtype)
    elif name == "round":

        def base(x: Any) -> Any:
            return _round(x, *params)
    elif name == "second":

        def base(x: Any, y: Any) -> Any:
            return jnp.broadcast_to(y, jnp.broadcast_shapes(jnp.shape(x), jnp.shape(y)))
    elif name == "reciprocal":
        base = _reciprocal
    elif name == "log1mexp":
        base = _log1mexp
    elif name in _RENAMED:
        fn = _RENAMED[name]

        def base(*xs: Any) -> Any:
            return fn(*xs, *params)
    else:
        jnp_fn = getattr(jnp, row.numpy_name or name, None)
        if jnp_fn is None:
            raise Unsupported(f"no jax function for scalar op {name}")

        def base(*xs: Any) -> Any:
            return jnp_fn(*xs, *params)

    if np.dtype(compute).kind == "c" and name in _COMPLEX_ORDERED:
        base = _COMPLEX_ORDERED[name]
    elif np.dtype(compute).kind == "c" and name not in _COMPLEX_SAFE:
        # XLA's complex special values (inf, NaN, branch cuts) differ from numpy's:
        # by design where HOST_BY_DESIGN says so, else a fallback (a row not yet
        # checked against numpy)
        key = f"complex {name}"
        by_design = key if key in HOST_BY_DESIGN else None
        raise Unsupported(f"complex {name} runs through numpy", by_design)

    casts = [
        compute if i in promoted_positions and np.dtype(d).name != compute else None
        for i, d in enumerate(in_dtypes)
    ]
    out_np = np.dtype(out_dtype)
    kind = np.dtype(compute).kind
    guard_zeros = name in ("add", "subtract") and kind in "fc"
    complex_product = name == "multiply" and kind == "c"

    def run(*xs: Any) -> Any:
        literal = [_has_literal_zero(x) for x in xs] if guard_zeros else None
        by_parts = complex_product and any(map(_is_literal, xs))
        xs = tuple(
            jnp.asarray(x) if c is None else _cast(jnp.asarray(x), c)
            for x, c in zip(xs, casts, strict=True)
        )
        if literal is not None and any(literal):
            if kind == "c":
                result = _complex_sum(name, xs, literal)
            else:
                # XLA's simplifier folds ``x + 0.0`` into ``x``, which is -0.0
                # where numpy's (IEEE's) sum is +0.0: hide the literal from it.
                result = base(*(
                    jax.lax.optimization_barrier(x) if z else x
                    for x, z in zip(xs, literal, strict=True)
                ))  # fmt: skip
        elif by_parts:
            result = _complex_product(*xs)
        else:
            result = base(*xs)
        if result.dtype != out_np:
            result = _cast(result, out_dtype)
        return result

    return run


def _complex_sum(name: str, xs: Sequence[Any], literal: Sequence[bool]) -> Any:
    """A complex sum or difference with a literal zero, by parts: XLA folds
    ``x + 0j`` into ``x`` even with the literal behind an optimization barrier,
    but not a real part's sum with a hidden real literal (-0.0 + 0.0 is +0.0)."""
    parts = [
        (jnp.real(x), jnp.imag(x)) if not z else
        (jax.lax.optimization_barrier(jnp.real(x)), jax.lax.optimization_barrier(jnp.imag(x)))
        for x, z in zip(xs, literal, strict=True)
    ]  # fmt: skip
    (ar, ai), (br, bi) = parts
    if name == "add":
        return jax.lax.complex(ar + br, ai + bi)
    return jax.lax.complex(ar - br, ai - bi)


def _complex_product(a: Any, b: Any) -> Any:
    """numpy's complex product, written out by parts. XLA folds a product with a
    literal ``1+0j`` (even one behind an optimization barrier) into the other
    operand, where numpy's ``(nan+0j) * 1`` is ``nan+nanj`` and ``(inf+0j) * 1``
    is ``inf+nanj``; products of parts it leaves as they are."""
    ar, ai, br, bi = jnp.real(a), jnp.imag(a), jnp.real(b), jnp.imag(b)
    return jax.lax.complex(ar * br - ai * bi, ar * bi + ai * br)


def _is_literal(x: Any) -> bool:
    """Whether ``x`` is a value known while tracing (a graph constant)."""
    return isinstance(x, (np.ndarray, np.generic, float, complex, int))


def _has_literal_zero(x: Any) -> bool:
    """Whether ``x`` is a value known while tracing (a graph constant) holding a zero."""
    if isinstance(x, (np.ndarray, np.generic, float, complex, int)):
        return bool(np.any(np.asarray(x) == 0))
    return False


def composite_function(
    comp: Composite, ctx: Context | None, scalar_inputs: Sequence[bool] = ()
) -> Fn:
    """The jax function of a scalar subgraph, applied to whole arrays; returns
    the list of its outputs. ``scalar_inputs``: which inputs are 0-d in the graph."""
    steps = []
    # 0-d values: constants and 0-d inputs (values computed from them only are
    # 0-d to numpy too, but are not followed here)
    zero_d = {v for v, flag in zip(comp.inputs, scalar_inputs, strict=False) if flag}
    for node in comp.nodes:
        in_dtypes = [v.type.dtype for v in node.inputs]  # type: ignore[attr-defined]
        out_dtypes = [o.type.dtype for o in node.outputs]  # type: ignore[attr-defined]
        if isinstance(node.op, Composite):
            inner = [isinstance(v, Constant) or v in zero_d for v in node.inputs]
            steps.append((node, composite_function(node.op, ctx, inner)))
        else:
            scalar = len(node.inputs) == 2 and (
                isinstance(node.inputs[1], Constant) or node.inputs[1] in zero_d
            )
            fn = scalar_function(node.op, in_dtypes, out_dtypes[0], ctx, scalar)  # type: ignore[arg-type]
            steps.append((node, _listed(fn)))

    def run(*xs: Any) -> list[Any]:
        env: dict[Variable, Any] = dict(zip(comp.inputs, xs, strict=True))
        for node, fn in steps:
            args = [np.asarray(v.data) if isinstance(v, Constant) else env[v] for v in node.inputs]
            env.update(zip(node.outputs, fn(*args), strict=True))
        return [
            jnp.asarray(np.asarray(v.data) if isinstance(v, Constant) else env[v])
            for v in comp.outputs
        ]

    return run


def _listed(fn: Fn) -> Fn:
    def run(*xs: Any) -> list[Any]:
        return [fn(*xs)]

    return run


def elemwise_function(scalar: ScalarOp | Composite, node: Apply, ctx: Context | None) -> Fn:
    """The jax function of ``Elemwise(scalar)`` applied as in ``node``."""
    zero_d = [v.type.ndim == 0 for v in node.inputs]  # type: ignore[attr-defined]
    if isinstance(scalar, Composite):
        return composite_function(scalar, ctx, zero_d)
    in_dtypes = [v.type.dtype for v in node.inputs]  # type: ignore[attr-defined]
    out_dtype = node.outputs[0].type.dtype  # type: ignore[attr-defined]
    scalar_exponent = len(zero_d) == 2 and zero_d[1]
    return _listed(scalar_function(scalar, in_dtypes, out_dtype, ctx, scalar_exponent))


@register(Elemwise)
def _elemwise(op: Elemwise, node: Apply, ctx: Context) -> Fn:
    fn = elemwise_function(op.scalar_op, node, ctx)
    shape = node.outputs[0].type.shape  # type: ignore[attr-defined]

    def run(*xs: Any) -> list[Any]:
        outs = fn(*xs)
        # every output has the broadcast shape, even a constant or an input
        target = jnp.broadcast_shapes(*[jnp.shape(x) for x in xs]) if xs else shape
        return [o if o.shape == target else jnp.broadcast_to(o, target) for o in outs]

    return run


@register(DimShuffle)
def _dimshuffle(op: DimShuffle, node: Apply, ctx: Context) -> Fn:
    def run(x: Any) -> list[Any]:
        if op.drop:
            for d in op.drop:  # sizes are known while tracing; reshape lets (0, 0) -> (0,) pass
                if x.shape[d] != 1:
                    raise ValueError(
                        f"{op}: cannot drop axis {d} of size {x.shape[d]} from shape {x.shape}"
                    )
            x = jnp.reshape(x, tuple(n for i, n in enumerate(x.shape) if i not in op.drop))
        x = jnp.transpose(x, op.shuffle)
        if op.augment:
            x = jnp.expand_dims(x, op.augment)
        return [x]

    return run


@register(SumToShape)
def _sum_to_shape(op: SumToShape, node: Apply, ctx: Context) -> Fn:
    def run(g: Any, x: Any) -> list[Any]:
        lead = g.ndim - x.ndim
        axes = tuple(range(lead)) + tuple(
            lead + i for i, n in enumerate(x.shape) if n == 1 and g.shape[lead + i] != 1
        )
        result = jnp.sum(g, axis=axes, keepdims=True) if axes else g
        return [jnp.reshape(result, x.shape)]

    return run
