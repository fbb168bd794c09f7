"""``lazygraph.numpy.random``: numpy.random's API producing exactly numpy's random
streams, as lazy arrays.

Random numbers are data, not graph: every draw runs numpy eagerly (the global
functions use numpy.random's own global state, so ``numpy.random.seed(0)``
seeds them too; :func:`default_rng` wraps a numpy ``Generator``) and the result
becomes a graph input bound to the drawn values, so the compiled function is
reused for the next draw. Python scalar results (``rand()``, ``normal()``)
stay Python scalars, as in numpy.

Lazy arguments that only index (``choice``, ``permutation``, ``shuffle`` of a
lazy array) stay lazy: numpy draws the indices from the same stream it would
use for a numpy array of that length, and the array is indexed lazily.
``shuffle`` of a lazy array rebinds it in place (views see the change). Other
lazy arguments (``loc``, ``p``, ...) are computed first.

Every numpy.random function and Generator / RandomState method is available;
the common ones are defined here and the rest are forwarded to numpy by name.

>>> import numpy as np
>>> import lazygraph.numpy as lnp
>>> np.random.seed(0)
>>> x = lnp.random.rand(3)
>>> x.shape, x.dtype
((3,), dtype('float64'))
>>> np.random.seed(0)
>>> bool((x.compute() == np.random.rand(3)).all())
True
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any

import lazygraph.tensor as lt
import numpy as np
from lazygraph.numpy._array import Array
from lazygraph.numpy._convert import as_variable, wrap

__all__ = [
    "Generator",
    "RandomState",
    "binomial",
    "choice",
    "default_rng",
    "exponential",
    "get_state",
    "normal",
    "permutation",
    "poisson",
    "rand",
    "randint",
    "randn",
    "random",
    "random_sample",
    "seed",
    "set_state",
    "shuffle",
    "standard_normal",
    "uniform",
]


def _as_lazy(result: Any) -> Any:
    """A drawn numpy array (or numpy scalar) as a lazy Array bound to it; Python
    scalars and other results as they are."""
    from lazygraph.numpy._convert import asarray

    if isinstance(result, (np.ndarray, np.generic)) and result.dtype.kind in "biufc":
        return asarray(result, copy=False if isinstance(result, np.ndarray) else None)
    return result


def _computed(args: Any, kwargs: dict[str, Any]) -> tuple[Any, dict[str, Any]]:
    from lazygraph.numpy._interop import compute_arguments

    return compute_arguments(args, kwargs)


def _is_lazy(x: Any) -> bool:
    return isinstance(x, Array)


class _Sampler:
    """What :class:`Generator` and :class:`RandomState` share: each wraps a numpy
    object that draws (a ``numpy.random.Generator``, a ``RandomState``, or the
    ``numpy.random`` module for the global state)."""

    def __init__(self, source: Any) -> None:
        self._source = source

    def _draw(self, name: str, *args: Any, **kwargs: Any) -> Any:
        args, kwargs = _computed(args, kwargs)
        return _as_lazy(getattr(self._source, name)(*args, **kwargs))

    def __getattr__(self, name: str) -> Any:
        # The long tail of distributions: numpy's method, its result wrapped.
        if name.startswith("_"):
            raise AttributeError(name)
        attr = getattr(self._source, name)
        if not callable(attr) or isinstance(attr, type):
            return attr

        @functools.wraps(attr)
        def method(*args: Any, **kwargs: Any) -> Any:
            return self._draw(name, *args, **kwargs)

        return method

    def __dir__(self) -> list[str]:
        return sorted({*super().__dir__(), *dir(self._source)})

    # -- the common distributions -----------------------------------------------------

    def random(self, size: Any = None, *args: Any, **kwargs: Any) -> Any:
        """Floats uniform in [0, 1) (numpy's ``random``)."""
        return self._draw("random", size, *args, **kwargs)

    def uniform(self, low: Any = 0.0, high: Any = 1.0, size: Any = None) -> Any:
        """Floats uniform in [low, high)."""
        return self._draw("uniform", low, high, size)

    def normal(self, loc: Any = 0.0, scale: Any = 1.0, size: Any = None) -> Any:
        """Normal (Gaussian) samples."""
        return self._draw("normal", loc, scale, size)

    def standard_normal(self, size: Any = None, *args: Any, **kwargs: Any) -> Any:
        """Standard normal samples."""
        return self._draw("standard_normal", size, *args, **kwargs)

    def exponential(self, scale: Any = 1.0, size: Any = None) -> Any:
        """Exponential samples."""
        return self._draw("exponential", scale, size)

    def poisson(self, lam: Any = 1.0, size: Any = None) -> Any:
        """Poisson samples."""
        return self._draw("poisson", lam, size)

    def binomial(self, n: Any, p: Any, size: Any = None) -> Any:
        """Binomial samples."""
        return self._draw("binomial", n, p, size)

    # -- sampling from and permuting arrays ---------------------------------------------

    def choice(
        self, a: Any, size: Any = None, replace: bool = True, p: Any = None, **kwargs: Any
    ) -> Any:
        """Random samples from ``a`` (an int ``n`` means ``arange(n)``); a lazy ``a``
        stays lazy: numpy draws the indices, ``a`` is indexed."""
        if not _is_lazy(a):
            return self._draw("choice", a, size, replace, p, **kwargs)
        axis = kwargs.get("axis", 0)
        if a.ndim == 0:
            raise ValueError("a must be 1-dimensional or an integer")
        (p,), kwargs = _computed((p,), kwargs)
        idx = self._source.choice(_length(a, axis), size, replace, p, **kwargs)
        return wrap(lt.take(a._var, as_variable(np.asarray(idx)), axis=axis))

    def permutation(self, x: Any, **kwargs: Any) -> Any:
        """A permuted ``arange(x)`` (int ``x``) or a permuted copy of ``x`` along its
        first axis (``axis`` for a Generator); a lazy ``x`` stays lazy."""
        if not _is_lazy(x):
            return self._draw("permutation", x, **kwargs)
        axis = kwargs.get("axis", 0)
        if x.ndim == 0:
            raise np.exceptions.AxisError(axis, 0, "permutation")
        idx = self._source.permutation(_length(x, axis))
        return wrap(lt.take(x._var, as_variable(idx), axis=axis))

    def shuffle(self, x: Any, **kwargs: Any) -> None:
        """Shuffle ``x`` in place along its first axis (``axis`` for a Generator).
        A lazy ``x`` is rebound to its shuffled value (views of it see the change)."""
        if not _is_lazy(x):
            self._source.shuffle(x, **kwargs)
            return
        axis = kwargs.get("axis", 0)
        if x.ndim == 0:
            raise TypeError("shuffle: a 0-d array cannot be shuffled")
        idx = self._source.permutation(_length(x, axis))
        x[...] = wrap(lt.take(x._var, as_variable(idx), axis=axis))


def _length(x: Array, axis: int) -> int:
    n = x.shape[axis]
    return int(n) if n is not None else int(lt.shape_i(x._var, axis % x.ndim).eval())


class Generator(_Sampler):
    """A numpy ``Generator`` whose draws are lazy arrays bound to numpy's values
    (the same stream as the numpy Generator it wraps).

    >>> import numpy as np
    >>> import lazygraph.numpy as lnp
    >>> rng = lnp.random.default_rng(42)
    >>> bool((rng.normal(size=3).compute() == np.random.default_rng(42).normal(size=3)).all())
    True
    """

    def __init__(self, bit_generator: Any) -> None:
        super().__init__(
            bit_generator
            if isinstance(bit_generator, np.random.Generator)
            else np.random.Generator(bit_generator)
        )

    @property
    def bit_generator(self) -> Any:
        """The numpy bit generator that draws."""
        return self._source.bit_generator

    def integers(
        self,
        low: Any,
        high: Any = None,
        size: Any = None,
        dtype: Any = np.int64,
        endpoint: bool = False,
    ) -> Any:
        """Integers in ``[low, high)`` (``[low, high]`` with ``endpoint``)."""
        return self._draw("integers", low, high, size, dtype, endpoint)

    def spawn(self, n_children: int) -> list[Generator]:
        """``n_children`` independent child generators."""
        return [Generator(g) for g in self._source.spawn(n_children)]

    def __repr__(self) -> str:
        return f"lazygraph.numpy.random.Generator({type(self.bit_generator).__name__})"


class RandomState(_Sampler):
    """numpy's legacy ``RandomState`` (``RandomState(seed)``), drawing lazy arrays.

    >>> import numpy as np
    >>> import lazygraph.numpy as lnp
    >>> a = lnp.random.RandomState(1).randint(0, 10, size=4).compute()
    >>> bool((a == np.random.RandomState(1).randint(0, 10, size=4)).all())
    True
    """

    def __init__(self, seed: Any = None) -> None:
        super().__init__(np.random.RandomState(seed))

    @classmethod
    def _of(cls, source: Any) -> RandomState:
        obj = cls.__new__(cls)
        _Sampler.__init__(obj, source)
        return obj

    def seed(self, seed: Any = None) -> None:
        """Reseed the state."""
        self._source.seed(seed)

    def get_state(self, legacy: bool = True) -> Any:
        """The state (numpy's format)."""
        return self._source.get_state(legacy=legacy)

    def set_state(self, state: Any) -> None:
        """Restore a state from :meth:`get_state`."""
        self._source.set_state(state)

    def rand(self, *shape: int) -> Any:
        """Floats uniform in [0, 1) of the given shape."""
        return self._draw("rand", *shape)

    def randn(self, *shape: int) -> Any:
        """Standard normal samples of the given shape."""
        return self._draw("randn", *shape)

    def randint(self, low: Any, high: Any = None, size: Any = None, dtype: Any = int) -> Any:
        """Integers in ``[low, high)`` (``[0, low)`` without ``high``)."""
        return self._draw("randint", low, high, size, dtype)

    def random_sample(self, size: Any = None) -> Any:
        """Floats uniform in [0, 1)."""
        return self._draw("random_sample", size)


# -- the global state: numpy.random's own ------------------------------------------

_global = RandomState._of(np.random)


def default_rng(seed: Any = None) -> Generator:
    """A :class:`Generator` seeded as ``numpy.random.default_rng(seed)``.

    >>> import lazygraph.numpy as lnp
    >>> lnp.random.default_rng(0).integers(0, 10, size=3).shape
    (3,)
    """
    if isinstance(seed, Generator):
        return seed
    if isinstance(seed, Array):
        seed = seed.compute()
    return Generator(np.random.default_rng(seed))


def seed(seed: Any = None) -> None:
    """Seed numpy's global random state (the one these functions draw from).

    >>> import numpy as np
    >>> import lazygraph.numpy as lnp
    >>> lnp.random.seed(3)
    >>> a = lnp.random.randn(2).compute()
    >>> np.random.seed(3)
    >>> bool((a == np.random.randn(2)).all())
    True
    """
    np.random.seed(seed)


def get_state(legacy: bool = True) -> Any:
    """numpy's global random state.

    >>> import lazygraph.numpy as lnp
    >>> lnp.random.get_state()[0]
    'MT19937'
    """
    return np.random.get_state(legacy=legacy)


def set_state(state: Any) -> None:
    """Restore numpy's global random state.

    >>> import lazygraph.numpy as lnp
    >>> state = lnp.random.get_state()
    >>> a = float(lnp.random.random())
    >>> lnp.random.set_state(state)
    >>> float(lnp.random.random()) == a
    True
    """
    np.random.set_state(state)


def rand(*shape: int) -> Any:
    """Floats uniform in [0, 1) of the given shape (a Python float with no shape).

    >>> import lazygraph.numpy as lnp
    >>> lnp.random.rand(2, 3).shape
    (2, 3)
    """
    return _global.rand(*shape)


def randn(*shape: int) -> Any:
    """Standard normal samples of the given shape.

    >>> import lazygraph.numpy as lnp
    >>> lnp.random.randn(4).dtype
    dtype('float64')
    """
    return _global.randn(*shape)


def random(size: Sequence[int] | int | None = None) -> Any:
    """Floats uniform in [0, 1).

    >>> import lazygraph.numpy as lnp
    >>> lnp.random.random((2,)).shape
    (2,)
    """
    return _global.random_sample(size)


def random_sample(size: Sequence[int] | int | None = None) -> Any:
    """Floats uniform in [0, 1) (the same as :func:`random`).

    >>> import lazygraph.numpy as lnp
    >>> lnp.random.random_sample(3).shape
    (3,)
    """
    return _global.random_sample(size)


def uniform(low: Any = 0.0, high: Any = 1.0, size: Any = None) -> Any:
    """Floats uniform in [low, high).

    >>> import lazygraph.numpy as lnp
    >>> bool((lnp.random.uniform(2.0, 3.0, size=5).compute() >= 2.0).all())
    True
    """
    return _global.uniform(low, high, size)


def normal(loc: Any = 0.0, scale: Any = 1.0, size: Any = None) -> Any:
    """Normal samples with mean ``loc`` and standard deviation ``scale``.

    >>> import lazygraph.numpy as lnp
    >>> lnp.random.normal(0.0, 1.0, size=(2, 2)).shape
    (2, 2)
    """
    return _global.normal(loc, scale, size)


def standard_normal(size: Any = None) -> Any:
    """Standard normal samples.

    >>> import lazygraph.numpy as lnp
    >>> lnp.random.standard_normal(3).shape
    (3,)
    """
    return _global.standard_normal(size)


def exponential(scale: Any = 1.0, size: Any = None) -> Any:
    """Exponential samples.

    >>> import lazygraph.numpy as lnp
    >>> lnp.random.exponential(2.0, size=3).shape
    (3,)
    """
    return _global.exponential(scale, size)


def poisson(lam: Any = 1.0, size: Any = None) -> Any:
    """Poisson samples.

    >>> import lazygraph.numpy as lnp
    >>> lnp.random.poisson(3.0, size=3).dtype
    dtype('int64')
    """
    return _global.poisson(lam, size)


def binomial(n: Any, p: Any, size: Any = None) -> Any:
    """Binomial samples.

    >>> import lazygraph.numpy as lnp
    >>> lnp.random.binomial(10, 0.5, size=2).shape
    (2,)
    """
    return _global.binomial(n, p, size)


def randint(low: Any, high: Any = None, size: Any = None, dtype: Any = int) -> Any:
    """Integers in ``[low, high)`` (``[0, low)`` without ``high``).

    >>> import lazygraph.numpy as lnp
    >>> bool((lnp.random.randint(5, size=10).compute() < 5).all())
    True
    """
    return _global.randint(low, high, size, dtype)


def choice(a: Any, size: Any = None, replace: bool = True, p: Any = None) -> Any:
    """Random samples from ``a`` (an int ``n``: from ``arange(n)``).

    >>> import lazygraph.numpy as lnp
    >>> lnp.random.choice(lnp.arange(10.0), size=3, replace=False).shape
    (3,)
    """
    return _global.choice(a, size, replace, p)


def permutation(x: Any) -> Any:
    """A permuted ``arange(x)`` or a permuted copy of ``x`` along its first axis.

    >>> import lazygraph.numpy as lnp
    >>> sorted(lnp.random.permutation(4).tolist())
    [0, 1, 2, 3]
    """
    return _global.permutation(x)


def shuffle(x: Any) -> None:
    """Shuffle ``x`` in place along its first axis (a lazy array is rebound).

    >>> import lazygraph.numpy as lnp
    >>> x = lnp.arange(5)
    >>> lnp.random.shuffle(x)
    >>> sorted(x.tolist())
    [0, 1, 2, 3, 4]
    """
    _global.shuffle(x)


_FORWARDED: dict[str, Callable[..., Any]] = {}


def __getattr__(name: str) -> Any:
    """The rest of numpy.random: distributions draw from the global state and
    return lazy arrays; classes and other names are numpy's own."""
    if name.startswith("_"):
        raise AttributeError(name)
    attr = getattr(np.random, name)
    if isinstance(attr, type) or not callable(attr):
        return attr
    if name not in _FORWARDED:
        _FORWARDED[name] = getattr(_global, name)
    return _FORWARDED[name]


def __dir__() -> list[str]:
    return sorted({*globals(), *(n for n in dir(np.random) if not n.startswith("_"))})
