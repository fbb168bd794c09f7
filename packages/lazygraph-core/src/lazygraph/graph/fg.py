"""``FunctionGraph``: a graph with fixed inputs and outputs that rewrites act on.

It keeps, for every variable, its ``clients`` (the ``(node, input index)`` pairs
that read it, and ``("output", i)`` for graph outputs), drops nodes that nothing
reads any more, and tells attached :class:`~lazygraph.graph.features.Feature`
objects about every change, so that features such as ``History`` or
``DestroyHandler`` can keep their bookkeeping incremental.

>>> from lazygraph.graph.basic import Apply, Op, Type
>>> class Neg(Op):
...     def make_node(self, x):
...         return Apply(self, [x], [x.type()])
>>> x = Type()("x")
>>> fg = FunctionGraph([x], [Neg()(x)], clone=False)
>>> fg.clients[fg.outputs[0]]
[('output', 0)]
>>> len(fg.apply_nodes)
1
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any, Literal

from lazygraph.graph.basic import Apply, Constant, Variable, gc_paused
from lazygraph.graph.clone import _clone_in_order, clone_get_equiv
from lazygraph.graph.traversal import io_toposort

__all__ = ["ClientList", "FunctionGraph", "InconsistencyError", "MissingInputError"]

#: A client: the node reading a variable and the input position, or ``("output", i)``.
Client = tuple[Apply | Literal["output"], int]


class ClientList(list):  # type: ignore[type-arg]
    """The clients of one variable: a list whose ``remove`` and ``in`` are O(1).

    A variable read by a million nodes must not make each removal scan them all.
    Short lists (the common case) are plain lists: ``append`` stays the C method,
    since a Python-level override cost a call per edge when importing a graph.
    The first ``remove`` or ``in`` on a list longer than a few entries builds a
    position index and switches the list to :class:`_IndexedClientList`, which
    keeps it up to date; ``remove`` then moves the last client into the hole, so
    the order of clients is the order of insertion only up to removals.

    >>> cl = ClientList(("node", i) for i in range(100))
    >>> ("node", 3) in cl, type(cl).__name__
    (True, '_IndexedClientList')
    >>> cl.remove(("node", 3)); ("node", 3) in cl, len(cl)
    (False, 99)
    """

    __slots__ = ("_pos",)
    _INDEX_FROM = 16

    def _indexed(self) -> _IndexedClientList:
        self._pos = {c: i for i, c in enumerate(self)}
        self.__class__ = _IndexedClientList
        return self  # type: ignore[return-value]

    def remove(self, client: Client) -> None:
        if len(self) <= self._INDEX_FROM:
            super().remove(client)
        else:
            self._indexed().remove(client)

    def __contains__(self, client: object) -> bool:
        if len(self) <= self._INDEX_FROM:
            return super().__contains__(client)
        return self._indexed().__contains__(client)


class _IndexedClientList(ClientList):
    """A :class:`ClientList` with a client -> position index (long lists)."""

    __slots__ = ()
    _pos: dict[Client, int]

    def append(self, client: Client) -> None:
        self._pos[client] = len(self)
        list.append(self, client)

    def extend(self, clients: Iterable[Client]) -> None:
        for client in clients:
            self.append(client)

    def remove(self, client: Client) -> None:
        try:
            i = self._pos.pop(client)
        except KeyError:
            raise ValueError(f"{client} is not a client") from None
        last = list.pop(self)
        if i < len(self):
            list.__setitem__(self, i, last)
            self._pos[last] = i

    def __contains__(self, client: object) -> bool:
        return client in self._pos

    def insert(self, index: Any, client: Client) -> None:  # pragma: no cover - unused
        raise TypeError("ClientList keeps no order: use append")


class InconsistencyError(Exception):
    """A change would leave the graph in a state a feature does not accept."""


class MissingInputError(ValueError):
    """An output depends on a variable that is neither an input nor a constant."""


class FunctionGraph:
    """A graph between ``inputs`` and ``outputs`` that can be rewritten in place.

    With ``clone=True`` (the default) the graph is copied first, so rewriting never
    touches the caller's variables. Constants cannot be inputs.
    """

    # (a class default too, for a graph made without __init__: copy, unpickling)
    _order: list[Apply] | None = None

    def __init__(
        self,
        inputs: Sequence[Variable] | None = None,
        outputs: Sequence[Variable] | None = None,
        features: Iterable[Any] | None = None,
        clone: bool = True,
        memo: dict[Any, Any] | None = None,
        copy_inputs: bool = True,
        copy_orphans: bool = True,
    ) -> None:
        if outputs is None:
            raise ValueError("FunctionGraph needs a list of outputs")
        outputs = list(outputs)
        if inputs is None:
            from lazygraph.graph.traversal import graph_inputs

            inputs = [v for v in graph_inputs(outputs) if not isinstance(v, Constant)]
        inputs = list(inputs)
        for i, inp in enumerate(inputs):
            if isinstance(inp, Constant):
                raise TypeError(
                    f"input {i} ({inp}) is a Constant; constants cannot be function inputs"
                )
        self.inputs: list[Variable] = []
        self._input_set: set[Variable] = set()
        self.outputs: list[Variable] = []
        self.apply_nodes: set[Apply] = set()
        self.variables: set[Variable] = set()
        self.clients: dict[Variable, ClientList] = {}
        self._features: list[Any] = []
        # callback name -> the bound methods to call (see execute_callbacks)
        self._callbacks: dict[str, list[Callable[..., Any]]] = {}
        self.update_mapping: dict[int, int] | None = None
        # The last toposort without feature orderings, until the graph changes
        # (see toposort).
        self._order: list[Apply] | None = None

        with gc_paused():
            order = None
            if clone:
                own_memo = memo is None
                memo, order = _clone_in_order(inputs, outputs, copy_inputs, copy_orphans, memo)
                inputs = [memo[v] for v in inputs]
                outputs = [memo[v] for v in outputs]
                if not own_memo:  # pinned replacements: the copy may differ in shape
                    order = None
            for inp in inputs:
                self.add_input(inp, check=False)
            if order is None:
                order = io_toposort(self._input_set, outputs)
            self._import_nodes(order, "init", False)
            for out in outputs:
                self.add_output(out, reason="init")
            self._order = order
        for feature in features or ():
            self.attach_feature(feature)

    # -- variables and clients ------------------------------------------------

    def add_input(self, var: Variable, check: bool = True) -> None:
        """Add a new graph input."""
        if isinstance(var, Constant):
            raise TypeError(f"{var} is a Constant; constants cannot be function inputs")
        if check and var in self._input_set:
            return
        self.inputs.append(var)
        self._input_set.add(var)
        self._setup_var(var)
        self._order = None

    def add_output(
        self, var: Variable, reason: str | None = None, import_missing: bool = False
    ) -> None:
        """Add ``var`` as a new graph output, importing what it needs; features
        hear of it through ``on_add_output(fgraph, var, index, reason)``."""
        self.import_var(var, reason=reason, import_missing=import_missing)
        self.outputs.append(var)
        self._order = None
        index = len(self.outputs) - 1
        self.clients[var].append(("output", index))
        if self._features:
            self.execute_callbacks("on_add_output", var, index, reason)

    def _setup_var(self, var: Variable) -> None:
        if var not in self.clients:
            self.clients[var] = ClientList()
            self.variables.add(var)

    def get_clients(self, var: Variable) -> list[Client]:
        return self.clients[var]

    def add_client(self, var: Variable, client: Client) -> None:
        self.clients[var].append(client)

    def remove_client(self, var: Variable, client: Client, reason: str | None = None) -> None:
        """Forget that ``client`` reads ``var``; prune what is no longer needed.

        Pruning walks up iteratively: a node none of whose outputs is read any
        more is removed, and its inputs lose it as a client in turn.
        """
        all_clients = self.clients
        variables = self.variables
        apply_nodes = self.apply_nodes
        input_set = self._input_set
        prune = self._callbacks_for("on_prune") if self._features else ()
        work = [(var, client)]
        while work:
            v, c = work.pop()
            clients = all_clients[v]
            clients.remove(c)
            if clients or v in input_set:
                continue
            node = v.owner
            if node is None:
                # A constant (or orphan) that nothing reads any more.
                variables.discard(v)
                del all_clients[v]
                continue
            if node not in apply_nodes:
                continue
            outputs = node.outputs
            if len(outputs) > 1:
                read = False
                for o in outputs:
                    if all_clients.get(o):
                        read = True
                        break
                if read:
                    continue
            apply_nodes.remove(node)
            self._order = None
            for o in outputs:
                variables.discard(o)
                all_clients.pop(o, None)
            for fn in prune:
                fn(self, node, reason)
            for i, inp in enumerate(node.inputs):
                work.append((inp, (node, i)))

    # -- importing ------------------------------------------------------------

    def import_var(
        self, var: Variable, reason: str | None = None, import_missing: bool = False
    ) -> None:
        """Make ``var`` (and everything it needs) part of the graph."""
        if var in self.variables:
            return
        if var.owner is not None:
            self.import_node(var.owner, reason=reason, import_missing=import_missing)
            return
        self._import_leaf(var, import_missing)

    def _import_leaf(self, var: Variable, import_missing: bool, dry_run: bool = False) -> None:
        if var in self.variables:
            return
        if isinstance(var, Constant) or import_missing:
            if dry_run:
                return
            if not isinstance(var, Constant):
                self.add_input(var)
                return
            self._setup_var(var)
            return
        raise MissingInputError(
            f"the graph needs {var} (type {var.type}), which is neither an input of the "
            f"FunctionGraph nor a constant; pass it among the inputs"
        )

    def import_node(
        self,
        apply_node: Apply,
        check: bool = True,
        reason: str | None = None,
        import_missing: bool = False,
    ) -> None:
        """Add ``apply_node`` and every node it needs that the graph lacks.

        Nothing is imported if one of them needs an ownerless variable that is
        neither an input nor a constant (``MissingInputError``), unless
        ``import_missing`` makes such variables new inputs.
        """
        if apply_node in self.apply_nodes:
            return
        variables = self.variables
        if all(inp in variables for inp in apply_node.inputs):
            new_nodes = [apply_node]  # the common case in rewrites: one new node
        else:
            # Walk only the new part: the toposort stops at variables already here.
            new_nodes = io_toposort(variables, apply_node.outputs)
        if check and not import_missing:
            for node in new_nodes:
                for inp in node.inputs:
                    if inp.owner is None and inp not in self.variables:
                        self._import_leaf(inp, import_missing=False, dry_run=True)
        self._import_nodes(new_nodes, reason, import_missing)

    def _import_nodes(
        self, nodes: Iterable[Apply], reason: str | None, import_missing: bool
    ) -> None:
        # The inner loop of FunctionGraph(...) and import_node; ``nodes`` is in
        # topological order, so every owned input is already in the graph.
        clients = self.clients
        variables = self.variables
        apply_nodes = self.apply_nodes
        callbacks = self._callbacks_for("on_import") if self._features else ()
        for node in nodes:
            if node in apply_nodes:
                continue
            apply_nodes.add(node)
            self._order = None
            for o in node.outputs:
                if o not in clients:
                    clients[o] = ClientList()
                    variables.add(o)
            for i, inp in enumerate(node.inputs):
                cl = clients.get(inp)
                if cl is None:
                    if inp.owner is not None:  # pragma: no cover - toposort imports owners first
                        self.import_node(inp.owner, reason=reason, import_missing=import_missing)
                    else:
                        self._import_leaf(inp, import_missing)
                    cl = clients[inp]
                cl.append((node, i))
            for fn in callbacks:
                fn(self, node, reason)

    def _import_one(self, node: Apply, reason: str | None, import_missing: bool) -> None:
        self._import_nodes((node,), reason, import_missing)

    # -- changing the graph ---------------------------------------------------

    def change_node_input(
        self,
        node: Apply | Literal["output"],
        i: int,
        new_var: Variable,
        reason: str | None = None,
        import_missing: bool = False,
        check: bool = True,
    ) -> None:
        """Make input ``i`` of ``node`` (or graph output ``i`` when ``node`` is
        ``"output"``) read ``new_var`` instead. Types must be equal when ``check``."""
        is_output = isinstance(node, str)
        if is_output:
            if node != "output":
                raise ValueError(f"node must be an Apply node or 'output', got {node!r}")
            old = self.outputs[i]
        else:
            assert isinstance(node, Apply)
            old = node.inputs[i]
        if check and old.type != new_var.type:
            where = f"output {i}" if is_output else f"input {i} of {node.op}"  # type: ignore[union-attr]
            raise TypeError(f"{where}: cannot replace a {old.type} by a {new_var.type}")
        if old is new_var:
            return
        # Import before touching the graph, so a MissingInputError leaves it intact.
        if new_var not in self.variables:
            self.import_var(new_var, reason=reason, import_missing=import_missing)
        if is_output:
            self.outputs[i] = new_var
        else:
            node.inputs[i] = new_var  # type: ignore[union-attr]
        self._order = None
        self.clients[new_var].append((node, i))
        self.remove_client(old, (node, i), reason=reason)
        if self._features:
            for fn in self._callbacks_for("on_change_input"):
                fn(self, node, i, old, new_var, reason)

    def replace(
        self,
        var: Variable,
        new_var: Variable,
        reason: str | None = None,
        verbose: bool | None = None,
        import_missing: bool = False,
    ) -> None:
        """Make every client of ``var`` read ``new_var`` instead.

        ``new_var`` must have ``var``'s type or convert to it losslessly
        (``var.type.convert_variable``), else ``TypeError``.
        """
        if var not in self.clients:
            return
        if var.type != new_var.type:
            converted = var.type.convert_variable(new_var)
            if converted is None:
                raise TypeError(
                    f"cannot replace {var} of type {var.type} with {new_var} of type "
                    f"{new_var.type} ({reason or 'no reason given'})"
                )
            new_var = converted
        if var is new_var:
            return
        for node, i in list(self.clients[var]):
            self.change_node_input(
                node, i, new_var, reason=reason, import_missing=import_missing, check=False
            )

    def replace_all(self, pairs: Iterable[tuple[Variable, Variable]], **kwargs: Any) -> None:
        """:meth:`replace` for each ``(var, new_var)`` pair, in order."""
        for var, new_var in pairs:
            self.replace(var, new_var, **kwargs)

    # -- features -------------------------------------------------------------

    def attach_feature(self, feature: Any) -> None:
        """Attach ``feature``; its ``on_attach`` may raise ``AlreadyThere`` to decline."""
        from lazygraph.graph.features import AlreadyThere

        if feature in self._features:
            return
        attach = getattr(feature, "on_attach", None)
        if attach is not None:
            try:
                attach(self)
            except AlreadyThere:
                return
        self._features.append(feature)
        self._callbacks.clear()

    def remove_feature(self, feature: Any) -> None:
        try:
            self._features.remove(feature)
        except ValueError:
            return
        self._callbacks.clear()
        detach = getattr(feature, "on_detach", None)
        if detach is not None:
            detach(self)

    @property
    def features(self) -> list[Any]:
        return list(self._features)

    def execute_callbacks(self, name: str, *args: Any) -> None:
        """Call ``feature.<name>(self, *args)`` on every feature that has it."""
        for fn in self._callbacks_for(name):
            fn(self, *args)

    def _callbacks_for(self, name: str) -> list[Callable[..., Any]]:
        # Cached per name until a feature is attached or removed; the no-op
        # defaults a Feature subclass inherits are left out, so a change pays
        # only for the features that listen to it.
        fns = self._callbacks.get(name)
        if fns is None:
            from lazygraph.graph.features import Feature

            noop = getattr(Feature, name, None)
            fns = []
            for feature in self._features:
                fn = getattr(feature, name, None)
                if fn is None or (noop is not None and getattr(fn, "__func__", None) is noop):
                    continue
                fns.append(fn)
            self._callbacks[name] = fns
        return fns

    def collect_callbacks(self, name: str, *args: Any) -> dict[Any, Any]:
        return {f: getattr(f, name)(self, *args) for f in self._features if hasattr(f, name)}

    # -- order and checks -----------------------------------------------------

    def orderings(self) -> dict[Apply, list[Apply]]:
        """Extra ``node -> nodes that must run before it`` constraints from features."""
        result: dict[Apply, list[Apply]] = {}
        for feature in self._features:
            fn = getattr(feature, "orderings", None)
            if fn is None:
                continue
            for node, before in fn(self).items():
                result.setdefault(node, []).extend(before)
        return result

    def toposort(self) -> list[Apply]:
        """The nodes in an order that respects data dependencies and feature orderings.

        Without feature orderings the order is kept until the graph changes (an
        import, a prune, a changed input, a new graph input or output): the
        rewrite pipeline asks for it about ten times per compile, mostly of an
        unchanged graph, and on a 40,000-node chain each walk took 10-15 ms.
        Each call returns a new list.
        """
        if len(self.apply_nodes) < 2:
            return list(self.apply_nodes)
        orderings = self.orderings()
        if orderings:
            return io_toposort(self.inputs, self.outputs, orderings)
        return list(self._data_order())

    def _data_order(self) -> list[Apply]:
        """The toposort by data dependencies alone (feature orderings left out),
        kept until the graph changes; the caller must not change the list."""
        if self._order is None:
            self._order = io_toposort(self._input_set, self.outputs)
        return self._order

    def check_integrity(self) -> None:
        """Raise ``AssertionError`` naming the first inconsistency between the graph
        structure and the bookkeeping (nodes, variables, clients)."""
        with gc_paused():
            self._check_integrity()

    def _check_integrity(self) -> None:
        # One walk from the outputs (stopping at the inputs) finds what the graph
        # should hold; then every piece of bookkeeping is compared with it.
        input_set = self._input_set
        if len(input_set) != len(self.inputs) or not input_set.issuperset(self.inputs):
            raise AssertionError("the input set and the input list disagree (duplicate input?)")
        nodes: set[Apply] = set()
        variables: set[Variable] = set(self.inputs)
        stack = list(self.outputs)
        while stack:
            v = stack.pop()
            if v in variables:
                continue
            variables.add(v)
            node = v.owner
            if node is not None and node not in nodes:
                nodes.add(node)
                variables.update(node.outputs)
                stack.extend(node.inputs)
        if nodes != self.apply_nodes:
            raise AssertionError(
                f"apply_nodes out of date: missing {nodes - self.apply_nodes}, "
                f"extra {self.apply_nodes - nodes}"
            )
        if variables != self.variables:
            raise AssertionError(
                f"variables out of date: missing {variables - self.variables}, "
                f"extra {self.variables - variables}"
            )
        if set(self.clients) != variables:
            raise AssertionError("clients has entries for variables outside the graph")
        n_edges = len(self.outputs)
        for node in nodes:
            for i, inp in enumerate(node.inputs):
                if (node, i) not in self.clients[inp]:  # O(1): ClientList
                    raise AssertionError(f"{inp} lacks client ({node}, {i})")
            n_edges += len(node.inputs)
            for j, o in enumerate(node.outputs):
                if o.owner is not node or o.index != j:
                    raise AssertionError(f"{o} does not point back at {node}")
        n_clients = 0
        for var, clients in self.clients.items():
            if var.owner is None and var not in input_set and not isinstance(var, Constant):
                raise AssertionError(f"{var} is ownerless and not an input")
            n_clients += len(clients)
            for client in clients:
                node, i = client
                if isinstance(node, str):
                    if self.outputs[i] is not var:
                        raise AssertionError(f"{var} claims to be output {i}")
                elif node.inputs[i] is not var:
                    raise AssertionError(f"{var} is not input {i} of its client {node}")
                elif node not in nodes:
                    raise AssertionError(f"client {node} of {var} is not in the graph")
        if n_clients != n_edges:
            raise AssertionError(
                f"{n_clients} client entries for {n_edges} edges (a duplicated client?)"
            )
        for i, out in enumerate(self.outputs):
            if ("output", i) not in self.clients[out]:
                raise AssertionError(f"output {i} ({out}) lacks its ('output', {i}) client")
        self._check_acyclic(nodes)

    def _check_acyclic(self, nodes: set[Apply]) -> None:
        # Kahn's algorithm over the (now verified) clients: a node never freed
        # lies on a cycle, which a replace whose new variable reads the old one
        # would have made.
        pending = {node: sum(inp.owner is not None for inp in node.inputs) for node in nodes}
        ready = [node for node, n in pending.items() if n == 0]
        done = 0
        while ready:
            node = ready.pop()
            done += 1
            for o in node.outputs:
                for client, _ in self.clients[o]:
                    if not isinstance(client, str):
                        pending[client] -= 1
                        if pending[client] == 0:
                            ready.append(client)
        if done != len(nodes):
            stuck = sorted(str(node) for node, n in pending.items() if n > 0)
            raise AssertionError(f"the graph has a cycle through {', '.join(stuck[:5])}")

    def clone_get_equiv(
        self, check_integrity: bool = True, attach_feature: bool = True
    ) -> tuple[FunctionGraph, dict[Any, Any]]:
        """A copy of this graph (and of its features, when they can be cloned) and
        the map old -> new."""
        if check_integrity:
            self.check_integrity()
        with gc_paused():
            equiv = clone_get_equiv(self.inputs, self.outputs)
            fg = FunctionGraph(
                [equiv[i] for i in self.inputs], [equiv[o] for o in self.outputs], clone=False
            )
        if attach_feature:
            for feature in self._features:
                cloner = getattr(feature, "clone", None)
                if cloner is not None:
                    fg.attach_feature(cloner())
        return fg, equiv

    def clone(self, check_integrity: bool = True) -> FunctionGraph:
        return self.clone_get_equiv(check_integrity)[0]

    def __str__(self) -> str:
        from lazygraph.graph.strings import as_string

        return f"FunctionGraph({', '.join(as_string(self.inputs, self.outputs))})"

    def __repr__(self) -> str:
        return str(self)

    def __contains__(self, item: object) -> bool:
        return item in self.variables or item in self.apply_nodes
