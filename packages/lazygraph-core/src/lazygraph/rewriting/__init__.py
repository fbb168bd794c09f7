"""Rewriting graphs: rewriters, navigators, patterns, merge and the rewrite databases.

Theano's names are kept as aliases: ``Optimizer`` (:class:`GraphRewriter`),
``LocalOptimizer`` (:class:`NodeRewriter`), ``TopoOptimizer``
(:class:`WalkingGraphRewriter`), ``EquilibriumOptimizer``, ``SeqOptimizer``,
``PatternSub``, ``OpSub``, ``OpRemove``, ``Query`` and ``local_optimizer``.

>>> from lazygraph.rewriting import optdb, RewriteDatabaseQuery
>>> [r.name for r in optdb.query(RewriteDatabaseQuery(include=["fast_compile"])).rewriters]
['merge1', 'canonicalize']
"""

from lazygraph.rewriting.basic import (
    FromFunctionNodeRewriter,
    GraphRewriter,
    NodeRewriter,
    SequentialGraphRewriter,
    SequentialNodeRewriter,
    apply_node_rewriter,
    node_rewriter,
)
from lazygraph.rewriting.db import (
    AddDestroyHandler,
    EquilibriumDB,
    RewriteDatabase,
    RewriteDatabaseQuery,
    SequenceDB,
    default_pipeline,
    optdb,
)
from lazygraph.rewriting.merge import MergeOptimizer, merge_optimizer
from lazygraph.rewriting.navigators import (
    EquilibriumGraphRewriter,
    OpKeyGraphRewriter,
    WalkingGraphRewriter,
    in2out,
    out2in,
)
from lazygraph.rewriting.patterns import (
    PatternNodeRewriter,
    RemovalNodeRewriter,
    SubstitutionNodeRewriter,
)
from lazygraph.rewriting.trace import RewriteRecord, RewriteWarning, trace_rewrites

# Theano's names.
Optimizer = GraphRewriter
LocalOptimizer = NodeRewriter
TopoOptimizer = WalkingGraphRewriter
EquilibriumOptimizer = EquilibriumGraphRewriter
SeqOptimizer = SequentialGraphRewriter
PatternSub = PatternNodeRewriter
OpSub = SubstitutionNodeRewriter
OpRemove = RemovalNodeRewriter
Query = RewriteDatabaseQuery
local_optimizer = node_rewriter

__all__ = [
    "AddDestroyHandler",
    "EquilibriumDB",
    "EquilibriumGraphRewriter",
    "EquilibriumOptimizer",
    "FromFunctionNodeRewriter",
    "GraphRewriter",
    "LocalOptimizer",
    "MergeOptimizer",
    "NodeRewriter",
    "OpKeyGraphRewriter",
    "OpRemove",
    "OpSub",
    "Optimizer",
    "PatternNodeRewriter",
    "PatternSub",
    "Query",
    "RemovalNodeRewriter",
    "RewriteDatabase",
    "RewriteDatabaseQuery",
    "RewriteRecord",
    "RewriteWarning",
    "SeqOptimizer",
    "SequenceDB",
    "SequentialGraphRewriter",
    "SequentialNodeRewriter",
    "SubstitutionNodeRewriter",
    "TopoOptimizer",
    "WalkingGraphRewriter",
    "apply_node_rewriter",
    "default_pipeline",
    "in2out",
    "local_optimizer",
    "merge_optimizer",
    "node_rewriter",
    "optdb",
    "out2in",
    "trace_rewrites",
]
