"""Control flow as graph nodes: loops and branches that hold inner graphs.

- :class:`Scan` (:func:`scan_apply`): a loop over a leading axis with carries;
- :class:`While` (:func:`while_apply`): repeat while a condition holds;
- :class:`IfElse` (:func:`cond_apply`): run one of two branches.

Each is one node however many steps it runs: the graph does not grow with the
number of iterations. Their inner graphs (:class:`InnerGraph`) read only
their own inputs: what a body reads from outside becomes an explicit input
(:func:`closure`), so it is computed once, outside the loop. Equal bodies make
equal Ops, so the merge rewrite merges identical loops, and a scan whose body
is another's with fewer per-step outputs reads that one's (the rewrite
``scan_into_longer_twin`` in :mod:`.rewriting`). The functional API in
the JAX style (``scan``, ``while_loop``, ``fori_loop``, ``cond``) is in
:mod:`lazygraph.numpy.transforms`, exported from ``lazygraph``.

>>> import numpy as np
>>> import lazygraph.tensor as lt
>>> c, x = lt.dscalar("c"), lt.dscalar("x")
>>> xs = lt.dvector("xs")
>>> final, ys = scan_apply(xs.shape[0], [lt.constant(1.0)], [xs], [c], [x], [c * x], [c])
>>> final.eval({xs: np.arange(1.0, 5.0)}), ys.eval({xs: np.arange(1.0, 5.0)})
(array(24.), array([1., 1., 2., 6.]))
"""

from lazygraph.tensor.control.ifelse import IfElse, cond_apply
from lazygraph.tensor.control.inner import InnerGraph, closure
from lazygraph.tensor.control.scan import Scan, scan_apply
from lazygraph.tensor.control.while_ import While, while_apply

__all__ = [
    "IfElse",
    "InnerGraph",
    "Scan",
    "While",
    "closure",
    "cond_apply",
    "scan_apply",
    "while_apply",
]
