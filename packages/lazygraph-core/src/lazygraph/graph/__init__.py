"""The typed computation graph: Variable, Constant, Apply, Op, Type, FunctionGraph,
its features and traversal utilities (the Theano/PyTensor model).

>>> from lazygraph.graph import Apply, FunctionGraph, Op, Type
"""

from lazygraph.graph.basic import Apply, Constant, MetaObject, Op, Scratchpad, Type, Variable
from lazygraph.graph.clone import (
    clone,
    clone_get_equiv,
    clone_replace,
    equal_computations,
    is_same_graph,
)
from lazygraph.graph.destroyhandler import DestroyHandler
from lazygraph.graph.features import (
    AlreadyThere,
    Bookkeeper,
    Feature,
    History,
    NodeFinder,
    ReplaceValidate,
    Validator,
)
from lazygraph.graph.fg import FunctionGraph, InconsistencyError, MissingInputError
from lazygraph.graph.strings import as_string, op_as_string
from lazygraph.graph.traversal import (
    ancestors,
    applys_between,
    general_toposort,
    graph_inputs,
    inputs,
    io_connection_pattern,
    io_toposort,
    is_in_ancestors,
    list_of_nodes,
    ops,
    orphans,
    stack_search,
    variables,
    vars_between,
    view_roots,
    walk,
)

__all__ = [
    "AlreadyThere",
    "Apply",
    "Bookkeeper",
    "Constant",
    "DestroyHandler",
    "Feature",
    "FunctionGraph",
    "History",
    "InconsistencyError",
    "MetaObject",
    "MissingInputError",
    "NodeFinder",
    "Op",
    "ReplaceValidate",
    "Scratchpad",
    "Type",
    "Validator",
    "Variable",
    "ancestors",
    "applys_between",
    "as_string",
    "clone",
    "clone_get_equiv",
    "clone_replace",
    "equal_computations",
    "general_toposort",
    "graph_inputs",
    "inputs",
    "io_connection_pattern",
    "io_toposort",
    "is_in_ancestors",
    "is_same_graph",
    "list_of_nodes",
    "op_as_string",
    "ops",
    "orphans",
    "stack_search",
    "variables",
    "vars_between",
    "view_roots",
    "walk",
]
