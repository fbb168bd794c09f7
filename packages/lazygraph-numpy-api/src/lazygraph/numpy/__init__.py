"""lazygraph.numpy: the array API namespace that records numpy code into a graph.

``import lazygraph.numpy as np`` in existing numpy code: every operation builds
graph, and anything that needs a value computes it.

>>> import lazygraph.numpy as lnp
>>> lnp.__array_api_version__
'2024.12'
"""

from lazygraph.numpy import (
    _array,
    _bits,
    _calculus,
    _compute,
    _convert,
    _creation,
    _distributed,
    _dtypes,
    _editing,
    _elementwise,
    _elementwise_complex,
    _elementwise_parts,
    _elementwise_unary,
    _errors,
    _fallback,
    _functional,
    _index_tricks,
    _indexing,
    _info,
    _interop,
    _joining,
    _layout,
    _linear_algebra,
    _manipulation,
    _mutation,
    _poly1d,
    _polynomial,
    _searching,
    _set,
    _signal,
    _sorting,
    _statistical,
    _statistical_histogram,
    _statistical_nan,
    _statistical_order,
    _ufunc_object,
    _utility,
    _windows,
)
from lazygraph.numpy import emath as emath
from lazygraph.numpy import fft as fft
from lazygraph.numpy import linalg as linalg
from lazygraph.numpy import random as random
from lazygraph.numpy._array import *  # noqa: F403
from lazygraph.numpy._bits import *  # noqa: F403
from lazygraph.numpy._calculus import *  # noqa: F403
from lazygraph.numpy._compute import *  # noqa: F403
from lazygraph.numpy._convert import *  # noqa: F403
from lazygraph.numpy._creation import *  # noqa: F403
from lazygraph.numpy._distributed import *  # noqa: F403
from lazygraph.numpy._dtypes import *  # noqa: F403
from lazygraph.numpy._editing import *  # noqa: F403
from lazygraph.numpy._elementwise import *  # noqa: F403
from lazygraph.numpy._elementwise_complex import *  # noqa: F403
from lazygraph.numpy._elementwise_parts import *  # noqa: F403
from lazygraph.numpy._elementwise_unary import *  # noqa: F403
from lazygraph.numpy._fallback import *  # noqa: F403
from lazygraph.numpy._functional import *  # noqa: F403
from lazygraph.numpy._index_tricks import *  # noqa: F403
from lazygraph.numpy._indexing import *  # noqa: F403
from lazygraph.numpy._info import *  # noqa: F403
from lazygraph.numpy._interop import *  # noqa: F403
from lazygraph.numpy._joining import *  # noqa: F403
from lazygraph.numpy._layout import *  # noqa: F403
from lazygraph.numpy._linear_algebra import *  # noqa: F403
from lazygraph.numpy._manipulation import *  # noqa: F403
from lazygraph.numpy._mutation import *  # noqa: F403
from lazygraph.numpy._poly1d import *  # noqa: F403
from lazygraph.numpy._polynomial import *  # noqa: F403
from lazygraph.numpy._searching import *  # noqa: F403
from lazygraph.numpy._set import *  # noqa: F403
from lazygraph.numpy._signal import *  # noqa: F403
from lazygraph.numpy._sorting import *  # noqa: F403
from lazygraph.numpy._statistical import *  # noqa: F403
from lazygraph.numpy._statistical_histogram import *  # noqa: F403
from lazygraph.numpy._statistical_nan import *  # noqa: F403
from lazygraph.numpy._statistical_order import *  # noqa: F403
from lazygraph.numpy._ufunc_object import *  # noqa: F403
from lazygraph.numpy._utility import *  # noqa: F403
from lazygraph.numpy._windows import *  # noqa: F403

__array_api_version__ = "2024.12"


def _installed_version() -> str:
    """The installed lazygraph-numpy-api's version; ``"0+unknown"`` (a valid
    version below every release) from a source tree put on sys.path by hand."""
    from importlib import metadata

    try:
        return metadata.version("lazygraph-numpy-api")
    except metadata.PackageNotFoundError:
        return "0+unknown"


#: the installed lazygraph-numpy-api's version ("0+unknown" from a bare source tree)
__version__: str = _installed_version()

__all__ = sorted(
    {
        "emath",
        "fft",
        "linalg",
        "random",
        *_array.__all__,
        *_bits.__all__,
        *_calculus.__all__,
        *_compute.__all__,
        *_convert.__all__,
        *_creation.__all__,
        *_distributed.__all__,
        *_dtypes.__all__,
        *_editing.__all__,
        *_elementwise.__all__,
        *_elementwise_complex.__all__,
        *_elementwise_parts.__all__,
        *_elementwise_unary.__all__,
        *_fallback.__all__,
        *_functional.__all__,
        *_index_tricks.__all__,
        *_indexing.__all__,
        *_info.__all__,
        *_interop.__all__,
        *_joining.__all__,
        *_layout.__all__,
        *_linear_algebra.__all__,
        *_manipulation.__all__,
        *_mutation.__all__,
        *_poly1d.__all__,
        *_polynomial.__all__,
        *_searching.__all__,
        *_set.__all__,
        *_signal.__all__,
        *_sorting.__all__,
        *_statistical.__all__,
        *_statistical_histogram.__all__,
        *_statistical_nan.__all__,
        *_statistical_order.__all__,
        *_ufunc_object.__all__,
        *_utility.__all__,
        *_windows.__all__,
    }
)

# Every public function names itself (and the user's line) in the errors it raises.
_errors.name_public_errors(globals(), __all__)
_errors.name_method_errors(_array.Array)
# (lazy arrays are operands no other array library claims: see _foreign)
_errors._ARRAYISH.add(_array.Array)
# Every function named after a numpy ufunc becomes one, with numpy's methods.
_ufunc_object.make_ufuncs(globals())
