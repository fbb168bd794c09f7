"""The engines of ``numba_workloads.py``: each workload of issue 6 written once per
engine, and the worker that times them in a process of its own.

This module imports only numpy and the standard library at the top, so it runs
in the PyTensor scratch venv too (which has no lazygraph). An engine is a class
whose methods return a callable for a workload, or ``None`` when the workload
does not apply to it:

- ``numpy``: plain numpy (the oracle, and the hand-written MLP backward);
- ``numexpr``: ``numexpr.evaluate`` on the elementwise parts (reductions in numpy);
- ``lazygraph``: ``lazygraph.jit`` over ``lazygraph.numpy``, numba backend;
- ``jax``: ``jax.jit`` over ``jax.numpy`` on the CPU, float64 enabled;
- ``pytensor_numba`` / ``pytensor_c``: ``pytensor.function`` in mode ``NUMBA``
  and ``FAST_RUN`` (the C backend).
"""

from __future__ import annotations

import os
import resource
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

ENGINES = ("numpy", "numexpr", "lazygraph", "jax", "pytensor_numba", "pytensor_c")
#: the steady-state workloads, in table order
WORKLOADS = (
    "pow",
    "chain",
    "softmax",
    "softmax_naive",
    "logsumexp",
    "logsumexp_naive",
    "expr10",
    "mlp",
)


def median_time(fn: Callable[[], Any], seconds: float = 1.0, repeat: int = 7) -> float:
    """Median seconds per call of ``fn`` over ``repeat`` runs; each run loops
    enough calls to last about ``seconds / repeat`` (one warm-up call first).

    >>> 0 < median_time(lambda: sum(range(100)), seconds=0.01) < 0.01
    True
    """
    fn()
    start = time.perf_counter()
    fn()
    one = max(time.perf_counter() - start, 1e-7)
    number = max(1, int(seconds / repeat / one))
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for _ in range(number):
            fn()
        times.append((time.perf_counter() - start) / number)
    return statistics.median(times)


def inputs(workload: str, scale: int) -> list[np.ndarray]:
    """The arrays a workload is called with (same seed in every process)."""
    rng = np.random.default_rng(0)
    if workload in ("pow", "chain"):
        return [rng.random(10_000_000 // scale)]
    if workload.startswith(("softmax", "logsumexp")):
        return [rng.standard_normal((2000 // scale, 5000))]
    if workload == "expr10":
        return [rng.random(10), rng.random(10) + 1.0]
    if workload == "mlp":
        return mlp_inputs()
    raise ValueError(f"unknown workload {workload!r}")


def mlp_inputs(batch: int = 256) -> list[np.ndarray]:
    rng = np.random.default_rng(0)
    return [
        (rng.standard_normal((784, 512)) * 0.05).astype("float32"),
        (rng.standard_normal((512, 10)) * 0.05).astype("float32"),
        rng.standard_normal((batch, 784)).astype("float32"),
        rng.standard_normal((batch, 10)).astype("float32"),
    ]


def chain_steps(lib: Any, x: Any, n: int) -> Any:
    """An elementwise chain of ``n`` ops on ``x``: ``sin(y)``, ``y * 1.0001``,
    ``y + x`` in turn (as ``rewrite_pipeline.py`` builds it).

    >>> float(chain_steps(np, np.float64(0.5), 3)) == float(np.sin(0.5)) * 1.0001 + 0.5
    True
    """
    y = x
    for i in range(n):
        y = lib.sin(y) if i % 3 == 0 else (y * 1.0001 if i % 3 == 1 else y + x)
    return y


# -- the engines -------------------------------------------------------------------


class NumpyEngine:
    def pow(self) -> Callable[..., Any]:
        return lambda a: a + a**10

    def chain(self) -> Callable[..., Any]:
        return lambda a: np.log1p(np.sin(np.exp(a)))

    def softmax(self) -> Callable[..., Any]:
        def softmax(v: np.ndarray) -> np.ndarray:
            e = np.exp(v - v.max(axis=-1, keepdims=True))
            return e / e.sum(axis=-1, keepdims=True)

        return softmax

    def softmax_naive(self) -> Callable[..., Any]:
        def softmax(v: np.ndarray) -> np.ndarray:
            e = np.exp(v)
            return e / e.sum(axis=-1, keepdims=True)

        return softmax

    def logsumexp(self) -> Callable[..., Any]:
        def lse(v: np.ndarray) -> np.ndarray:
            m = v.max(axis=-1, keepdims=True)
            return np.log(np.exp(v - m).sum(axis=-1)) + m[:, 0]

        return lse

    def logsumexp_naive(self) -> Callable[..., Any]:
        return lambda v: np.log(np.exp(v).sum(axis=-1))

    def expr10(self) -> Callable[..., Any]:
        return lambda a, b: (a * b + 1.0) * (a - b) / 3.0

    def mlp(self) -> Callable[..., Any]:
        def step(w1: Any, w2: Any, xs: Any, ys: Any) -> Any:
            h = np.tanh(xs @ w1)
            out = h @ w2 - ys
            loss = np.mean(out**2)
            go = (2.0 / out.size) * out
            gh = (go @ w2.T) * (1 - h * h)
            return loss, xs.T @ gh, h.T @ go

        return step

    def chain_graph(self, n: int) -> Callable[[], Any] | None:
        return None


class NumexprEngine(NumpyEngine):
    """numexpr for the expression workloads; reductions stay in numpy."""

    def __init__(self) -> None:
        import numexpr

        self.ne = numexpr

    def pow(self) -> Callable[..., Any]:
        return lambda a: self.ne.evaluate("a + a**10")

    def chain(self) -> Callable[..., Any]:
        return lambda a: self.ne.evaluate("log1p(sin(exp(a)))")

    def softmax(self) -> Callable[..., Any]:
        ev = self.ne.evaluate

        def softmax(v: np.ndarray) -> np.ndarray:
            m = v.max(axis=-1, keepdims=True)  # noqa: F841 (read by numexpr)
            e = ev("exp(v - m)")
            s = e.sum(axis=-1, keepdims=True)  # noqa: F841
            return ev("e / s")

        return softmax

    def softmax_naive(self) -> Callable[..., Any]:
        ev = self.ne.evaluate

        def softmax(v: np.ndarray) -> np.ndarray:
            e = ev("exp(v)")
            s = e.sum(axis=-1, keepdims=True)  # noqa: F841
            return ev("e / s")

        return softmax

    def logsumexp(self) -> Callable[..., Any]:
        ev = self.ne.evaluate

        def lse(v: np.ndarray) -> np.ndarray:
            m = v.max(axis=-1, keepdims=True)
            return np.log(ev("exp(v - m)").sum(axis=-1)) + m[:, 0]

        return lse

    def logsumexp_naive(self) -> Callable[..., Any]:
        return lambda v: np.log(self.ne.evaluate("exp(v)").sum(axis=-1))

    def expr10(self) -> Callable[..., Any]:
        return lambda a, b: self.ne.evaluate("(a * b + 1.0) * (a - b) / 3.0")

    def mlp(self) -> None:
        return None


class LazygraphEngine(NumpyEngine):
    """``lazygraph.jit`` over the ``lazygraph.numpy`` spelling, numba backend."""

    def __init__(self) -> None:
        import lazygraph
        import lazygraph.backends.numba  # import numba before any timing
        import lazygraph.numpy as lnp
        from lazygraph.compile.mode import Mode

        self.lazygraph, self.lnp = lazygraph, lnp
        self.mode = Mode(backend="numba")

    def _jit(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        return self.lazygraph.jit(fn, mode=self.mode)

    def pow(self) -> Callable[..., Any]:
        return self._jit(super().pow())

    def chain(self) -> Callable[..., Any]:
        lnp = self.lnp
        return self._jit(lambda a: lnp.log1p(lnp.sin(lnp.exp(a))))

    def softmax(self) -> Callable[..., Any]:
        lnp = self.lnp

        def softmax(v: Any) -> Any:
            e = lnp.exp(v - lnp.max(v, axis=-1, keepdims=True))
            return e / lnp.sum(e, axis=-1, keepdims=True)

        return self._jit(softmax)

    def softmax_naive(self) -> Callable[..., Any]:
        lnp = self.lnp

        def softmax(v: Any) -> Any:
            e = lnp.exp(v)
            return e / lnp.sum(e, axis=-1, keepdims=True)

        return self._jit(softmax)

    def logsumexp(self) -> Callable[..., Any]:
        lnp = self.lnp

        def lse(v: Any) -> Any:
            m = lnp.max(v, axis=-1, keepdims=True)
            return lnp.log(lnp.sum(lnp.exp(v - m), axis=-1)) + m[:, 0]

        return self._jit(lse)

    def logsumexp_naive(self) -> Callable[..., Any]:
        lnp = self.lnp
        return self._jit(lambda v: lnp.log(lnp.sum(lnp.exp(v), axis=-1)))

    def expr10(self) -> Callable[..., Any]:
        return self._jit(super().expr10())

    def mlp(self) -> Callable[..., Any]:
        lnp = self.lnp

        def loss(w1: Any, w2: Any, xs: Any, ys: Any) -> Any:
            return lnp.mean((lnp.tanh(xs @ w1) @ w2 - ys) ** 2)

        return self._jit(self.lazygraph.value_and_grad(loss, argnums=(0, 1)))

    def per_call_paths(self) -> dict[str, Callable[..., Any]]:
        """The 10-element expression through lower-level paths than ``jit``:
        where the per-call time goes."""
        import lazygraph.tensor as lt

        x, y = lt.tensor("float64", (10,)), lt.tensor("float64", (10,))
        f = self.lazygraph.function([x, y], super().expr10()(x, y), mode=self.mode)
        g = self.lazygraph.function([x, y], super().expr10()(x, y), mode=self.mode)
        g.trust_input = True
        return {"lazygraph.function": f, "lazygraph.function, trust_input": g}

    def chain_graph(self, n: int) -> Callable[[], Any]:
        import lazygraph.tensor as lt

        x = lt.tensor("float64", (100,))
        f = self.lazygraph.function([x], chain_steps(lt, x, n), mode=self.mode)
        return lambda: f(np.ones(100))


class JaxEngine(NumpyEngine):
    """``jax.jit`` on the CPU, float64 enabled; results are waited for."""

    def __init__(self) -> None:
        import jax
        import jax.numpy as jnp

        jax.config.update("jax_enable_x64", True)
        jax.config.update("jax_platforms", "cpu")
        cache = os.environ.get("BENCH_JAX_CACHE_DIR")
        if cache:  # the warm-cache first call: XLA's persistent cache
            jax.config.update("jax_compilation_cache_dir", cache)
            jax.config.update("jax_persistent_cache_min_compile_time_secs", 0.0)
            jax.config.update("jax_persistent_cache_min_entry_size_bytes", 0)
        self.jax, self.jnp = jax, jnp

    def _jit(self, fn: Callable[..., Any]) -> Callable[..., Any]:
        jitted = self.jax.jit(fn)
        put = self.jax.device_put

        def call(*args: Any) -> Any:
            return self.jax.block_until_ready(jitted(*args))

        call.prepare = lambda args: [put(a) for a in args]  # type: ignore[attr-defined]
        return call

    def pow(self) -> Callable[..., Any]:
        return self._jit(super().pow())

    def chain(self) -> Callable[..., Any]:
        jnp = self.jnp
        return self._jit(lambda a: jnp.log1p(jnp.sin(jnp.exp(a))))

    def softmax(self) -> Callable[..., Any]:
        jnp = self.jnp

        def softmax(v: Any) -> Any:
            e = jnp.exp(v - jnp.max(v, axis=-1, keepdims=True))
            return e / jnp.sum(e, axis=-1, keepdims=True)

        return self._jit(softmax)

    def softmax_naive(self) -> Callable[..., Any]:
        jnp = self.jnp

        def softmax(v: Any) -> Any:
            e = jnp.exp(v)
            return e / jnp.sum(e, axis=-1, keepdims=True)

        return self._jit(softmax)

    def logsumexp(self) -> Callable[..., Any]:
        jnp = self.jnp

        def lse(v: Any) -> Any:
            m = jnp.max(v, axis=-1, keepdims=True)
            return jnp.log(jnp.sum(jnp.exp(v - m), axis=-1)) + m[:, 0]

        return self._jit(lse)

    def logsumexp_naive(self) -> Callable[..., Any]:
        jnp = self.jnp
        return self._jit(lambda v: jnp.log(jnp.sum(jnp.exp(v), axis=-1)))

    def expr10(self) -> Callable[..., Any]:
        return self._jit(super().expr10())

    def mlp(self) -> Callable[..., Any]:
        jnp = self.jnp

        def loss(w1: Any, w2: Any, xs: Any, ys: Any) -> Any:
            return jnp.mean((jnp.tanh(xs @ w1) @ w2 - ys) ** 2)

        return self._jit(self.jax.value_and_grad(loss, argnums=(0, 1)))

    def chain_graph(self, n: int) -> Callable[[], Any]:
        f = self.jax.jit(lambda x: chain_steps(self.jnp, x, n))
        return lambda: self.jax.block_until_ready(f(np.ones(100)))


class PytensorEngine(NumpyEngine):
    """``pytensor.function`` in one mode (``NUMBA`` or ``FAST_RUN``, the C backend)."""

    def __init__(self, mode: str) -> None:
        sys.setrecursionlimit(1_000_000)  # PyTensor's graph traversals recurse
        import pytensor
        import pytensor.tensor as pt

        if mode == "NUMBA":
            import numba  # noqa: F401 (import before any timing)
        self.pytensor, self.pt, self.mode = pytensor, pt, mode

    def _var(self, a: np.ndarray) -> Any:
        return self.pt.tensor(dtype=str(a.dtype), shape=(None,) * a.ndim)

    def _function(self, build: Callable[..., Any], nargs: int) -> Callable[..., Any]:
        """Compiled on the first call, when the argument types are known."""
        compiled: list[Any] = []

        def call(*args: Any) -> Any:
            if not compiled:
                xs = [self._var(a) for a in args[:nargs]]
                compiled.append(self.pytensor.function(xs, build(*xs), mode=self.mode))
            return compiled[0](*args)

        return call

    def pow(self) -> Callable[..., Any]:
        return self._function(super().pow(), 1)

    def chain(self) -> Callable[..., Any]:
        pt = self.pt
        return self._function(lambda a: pt.log1p(pt.sin(pt.exp(a))), 1)

    def softmax(self) -> Callable[..., Any]:
        pt = self.pt

        def softmax(v: Any) -> Any:
            e = pt.exp(v - pt.max(v, axis=-1, keepdims=True))
            return e / pt.sum(e, axis=-1, keepdims=True)

        return self._function(softmax, 1)

    def softmax_naive(self) -> Callable[..., Any]:
        pt = self.pt

        def softmax(v: Any) -> Any:
            e = pt.exp(v)
            return e / pt.sum(e, axis=-1, keepdims=True)

        return self._function(softmax, 1)

    def logsumexp(self) -> Callable[..., Any]:
        pt = self.pt

        def lse(v: Any) -> Any:
            m = pt.max(v, axis=-1, keepdims=True)
            return pt.log(pt.sum(pt.exp(v - m), axis=-1)) + m[:, 0]

        return self._function(lse, 1)

    def logsumexp_naive(self) -> Callable[..., Any]:
        pt = self.pt
        return self._function(lambda v: pt.log(pt.sum(pt.exp(v), axis=-1)), 1)

    def expr10(self) -> Callable[..., Any]:
        return self._function(super().expr10(), 2)

    def mlp(self) -> Callable[..., Any]:
        pt = self.pytensor.tensor

        def step(w1: Any, w2: Any, xs: Any, ys: Any) -> Any:
            loss = pt.mean((pt.tanh(xs @ w1) @ w2 - ys) ** 2)
            return [loss, *self.pytensor.grad(loss, [w1, w2])]

        return self._function(step, 4)

    def chain_graph(self, n: int) -> Callable[[], Any]:
        x = self.pt.tensor(dtype="float64", shape=(100,))
        f = self.pytensor.function([x], chain_steps(self.pt, x, n), mode=self.mode)
        return lambda: f(np.ones(100))


def make_engine(name: str) -> NumpyEngine:
    if name == "numpy":
        return NumpyEngine()
    if name == "numexpr":
        return NumexprEngine()
    if name == "lazygraph":
        return LazygraphEngine()
    if name == "jax":
        return JaxEngine()
    if name in ("pytensor_numba", "pytensor_c"):
        return PytensorEngine("NUMBA" if name == "pytensor_numba" else "FAST_RUN")
    raise ValueError(f"unknown engine {name!r}; expected one of {ENGINES}")


# -- the worker ----------------------------------------------------------------------


def check(name: str, workload: str, got: Any, args: list[np.ndarray]) -> None:
    """Compare an engine's result with numpy's (a wrong answer is not a time).

    >>> args = inputs("expr10", 1)
    >>> check("numpy", "expr10", NumpyEngine().expr10()(*args), args)
    >>> check("bad", "expr10", args[0], args)
    Traceback (most recent call last):
    AssertionError: bad: expr10 differs from numpy
    """
    want = getattr(NumpyEngine(), workload)()(*args)
    got_list = list(got) if isinstance(got, list | tuple) else [got]
    want_list = list(want) if isinstance(want, tuple) else [want]
    if workload == "mlp":  # (loss, (g1, g2)) from value_and_grad
        got_list = [got_list[0], *got_list[1]] if len(got_list) == 2 else got_list
    rtol = 1e-3 if workload == "mlp" else 1e-9
    for g, w in zip(got_list, want_list, strict=True):
        g = np.asarray(g)
        if g.shape != np.shape(w) or not np.allclose(g, w, rtol=rtol, atol=rtol * 1e-3):
            raise AssertionError(f"{name}: {workload} differs from numpy")


def run_steady(name: str, scale: int, seconds: float) -> dict[str, Any]:
    """Median time of every workload the engine has (``None`` where it has none)."""
    engine = make_engine(name)
    out: dict[str, Any] = {}
    for workload in WORKLOADS:
        fn = getattr(engine, workload)()
        if fn is None:
            out[workload] = None
            continue
        args = inputs(workload, scale)
        try:
            check(name, workload, fn(*args), args)
        except AssertionError:
            out[workload] = "wrong result"  # a time for a wrong answer would mislead
            print(f"  {name}: {workload} differs from numpy", file=sys.stderr, flush=True)
            continue
        except Exception as err:  # one workload failing leaves the others' cells
            out[workload] = f"failed ({type(err).__name__})"
            print(f"  {name}: {workload} failed: {err!r}", file=sys.stderr, flush=True)
            continue
        call_args = fn.prepare(args) if hasattr(fn, "prepare") else args
        per_call = seconds / 4 if workload == "expr10" else seconds
        out[workload] = median_time(lambda fn=fn, a=call_args: fn(*a), per_call)
        print(f"  {name}: {workload} {out[workload]:.3g} s", file=sys.stderr, flush=True)
    if hasattr(engine, "per_call_paths"):
        args = inputs("expr10", scale)
        out["per_call_paths"] = {
            label: median_time(lambda fn=fn: fn(*args), seconds / 4)
            for label, fn in engine.per_call_paths().items()
        }
    return out


def cpu_seconds() -> float:
    """CPU time of this process (all its threads) and of its finished children
    (PyTensor's C compiler runs in a child)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def run_first_call(name: str, background: bool = False) -> dict[str, Any]:
    """Seconds from a fresh MLP step to its first result (build, rewrite,
    compile, run), in a process whose engine is imported but has run nothing.
    ``background``: lazygraph's default, kernels compile on a worker thread
    while the first calls run numpy's perform."""
    engine = make_engine(name)
    if name == "lazygraph":
        from lazygraph import config

        config.numba_background_compile = background
    args = mlp_inputs()
    start, cpu = time.perf_counter(), cpu_seconds()
    fn = engine.mlp()
    if fn is None:
        return {"first_call": None}
    if hasattr(fn, "prepare"):
        args = fn.prepare(args)
    fn(*args)
    return {"first_call": time.perf_counter() - start, "cpu": cpu_seconds() - cpu}


def run_chain(name: str, n: int) -> dict[str, Any]:
    """Seconds to build, compile and first run an ``n``-op elementwise chain."""
    engine = make_engine(name)
    start, cpu = time.perf_counter(), cpu_seconds()
    fn = engine.chain_graph(n)
    if fn is None:
        return {"chain": None}
    fn()
    return {"chain": time.perf_counter() - start, "cpu": cpu_seconds() - cpu}


def run_triad(n: int = 10_000_000) -> dict[str, Any]:
    """Single-thread stream triad ``a = b + s * c`` on ``n`` float64 (one pass,
    compiled with numba when it imports; numpy's two passes otherwise) and the
    bandwidth it implies, counting 24 bytes per element as STREAM does. The
    arrays are far larger than any cache at every ``--quick`` setting."""
    b, c, a = np.ones(n), np.full(n, 2.0), np.empty(n)
    try:
        import numba

        @numba.njit(cache=False)
        def triad(a: np.ndarray, b: np.ndarray, c: np.ndarray) -> None:
            for i in range(a.size):
                a[i] = b[i] + 3.0 * c[i]

        seconds = median_time(lambda: triad(a, b, c), 1.0)
        how = "numba loop"
    except ImportError:

        def two_pass() -> None:
            np.multiply(c, 3.0, out=a)
            np.add(a, b, out=a)

        # numpy's two passes move 5 arrays' worth of bytes; scale to 3
        seconds = median_time(two_pass, 1.0) * 3 / 5
        how = "numpy, two passes"
    return {"triad": seconds, "bandwidth": 24 * n / seconds / 1e9, "how": how, "n": n}
