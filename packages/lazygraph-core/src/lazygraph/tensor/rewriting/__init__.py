"""Tensor rewrites, registered into ``lazygraph.rewriting.db.optdb`` on import.

One module per pipeline stage: ``constant_folding`` and ``canonicalize``
(stage ``canonicalize``), ``stabilize``, ``specialize``, ``fusion`` and
``inplace``. ``lazygraph.compile.function.rewrite_graph`` imports this package
before it queries ``optdb``.
"""

from lazygraph.tensor.rewriting import (  # noqa: F401 (each registers its rewrites)
    canonicalize,
    canonicalize_shape,
    constant_folding,
    fusion,
    inplace,
    specialize,
    stabilize,
)

# isort: split
# (registered after the stages' own rewrites: the resolved order lists it last)
from lazygraph.tensor.control import rewriting as _control  # noqa: F401
