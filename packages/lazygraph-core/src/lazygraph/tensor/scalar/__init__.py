"""Scalar ops: the table of elementwise functions that ``Elemwise`` broadcasts.

Each elementwise function is a row of :data:`ROWS` (see
:mod:`lazygraph.tensor.scalar.table`); :class:`ScalarOp` is one row with its
parameters; :class:`Composite` packs a scalar subgraph into one op.

>>> from lazygraph.tensor.scalar import ROWS, ScalarOp
>>> ScalarOp("add") == ScalarOp("add"), ROWS["add"].numpy_name
(True, 'add')
"""

from lazygraph.tensor.scalar import table  # noqa: F401  (fills ROWS)
from lazygraph.tensor.scalar.basic import (
    CATEGORIES,
    ROWS,
    ScalarConstant,
    ScalarOp,
    ScalarRow,
    ScalarType,
    ScalarVariable,
    register_row,
    scalar_op,
)
from lazygraph.tensor.scalar.composite import Composite

__all__ = [
    "CATEGORIES",
    "ROWS",
    "Composite",
    "ScalarConstant",
    "ScalarOp",
    "ScalarRow",
    "ScalarType",
    "ScalarVariable",
    "register_row",
    "scalar_op",
]
