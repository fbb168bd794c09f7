"""Rewriter base classes: global :class:`GraphRewriter`, local :class:`NodeRewriter`,
the :func:`node_rewriter` decorator and sequences of rewriters.

A graph rewriter takes a whole :class:`~lazygraph.graph.fg.FunctionGraph` and
changes it in place. A node rewriter looks at one :class:`Apply` node and says
what should replace its outputs; a navigator (see
:mod:`lazygraph.rewriting.navigators`) decides which nodes it sees.

>>> from lazygraph.graph.basic import Apply, Op, Type
>>> from lazygraph.graph.fg import FunctionGraph
>>> class Neg(Op):
...     def make_node(self, x):
...         return Apply(self, [x], [x.type()])
>>> neg = Neg()
>>> @node_rewriter([Neg])
... def neg_neg(fgraph, node):
...     \"\"\"neg(neg(x)) -> x\"\"\"
...     inner = node.inputs[0].owner
...     if inner is not None and inner.op == neg:
...         return [inner.inputs[0]]
...     return None
>>> x = Type()("x")
>>> fg = FunctionGraph([x], [neg(neg(x))], clone=False)
>>> from lazygraph.rewriting.navigators import WalkingGraphRewriter
>>> WalkingGraphRewriter(neg_neg).rewrite(fg)
>>> fg.outputs[0] is x
True
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable, Sequence
from typing import IO, Any, TypeAlias

from lazygraph.graph.basic import Apply, Op, Variable, gc_paused
from lazygraph.graph.features import ReplacementDidNotRemoveError, ReplaceValidate
from lazygraph.graph.fg import FunctionGraph, InconsistencyError
from lazygraph.rewriting.trace import report_rewrite, rewrite_failed, rewriter_name

__all__ = [
    "FromFunctionNodeRewriter",
    "GraphRewriter",
    "NodeRewriter",
    "Replacements",
    "SequentialGraphRewriter",
    "SequentialNodeRewriter",
    "TrackMatcher",
    "apply_node_rewriter",
    "apply_replacements",
    "attach_destroy_handler",
    "ensure_replace_validate",
    "gc_paused",
    "node_rewriter",
]

#: What ``NodeRewriter.transform`` returns: nothing to do (falsy), one new variable
#: per output (``None`` leaves that output alone), or ``{old_var: new_var}``.
Replacements: TypeAlias = Sequence[Variable | None] | dict[Any, Any] | bool | None
#: What ``tracks()`` lists: op classes (any instance matches) or op instances (``==``).
Track: TypeAlias = type | Op


class GraphRewriter:
    """A rewrite of a whole graph.

    Subclasses implement :meth:`apply` and, if they need features (such as
    ``ReplaceValidate`` for ``fgraph.replace_validate``), :meth:`add_requirements`.
    :meth:`rewrite` (Theano's ``optimize``) does both.

    >>> class Nothing(GraphRewriter):
    ...     def apply(self, fgraph):
    ...         pass
    >>> Nothing().name
    'Nothing'
    """

    def apply(self, fgraph: FunctionGraph) -> Any:
        """Rewrite ``fgraph`` in place."""
        raise NotImplementedError(f"{type(self).__name__}.apply")

    def add_requirements(self, fgraph: FunctionGraph) -> None:
        """Attach the features :meth:`apply` needs."""

    def rewrite(self, fgraph: FunctionGraph, *args: Any, **kwargs: Any) -> None:
        """:meth:`add_requirements`, then :meth:`apply` (whose counts, if any, are
        dropped: call ``apply`` after ``add_requirements`` to get them)."""
        self.add_requirements(fgraph)
        self.apply(fgraph, *args, **kwargs)

    def optimize(self, fgraph: FunctionGraph, *args: Any, **kwargs: Any) -> None:
        """Theano's name for :meth:`rewrite`."""
        self.rewrite(fgraph, *args, **kwargs)

    @property
    def name(self) -> str:
        """The registered name, else a default (the class name)."""
        return self.__dict__.get("_name") or self.default_name()

    def default_name(self) -> str:
        return type(self).__name__

    @name.setter
    def name(self, value: str | None) -> None:
        self._name = value

    def print_summary(self, stream: IO[str] | None = None, level: int = 0) -> None:
        """Print this rewriter (and what it contains) as an indented listing."""
        print(f"{'    ' * level}{self.name} ({type(self).__name__})", file=stream or sys.stdout)

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class NodeRewriter:
    """A rewrite of one node: :meth:`transform` says what replaces its outputs.

    ``transform(fgraph, node)`` returns a falsy value (nothing to do), a list
    with one new variable per output (``None`` keeps that output), or a dict
    ``{old_variable: new_variable}``. :meth:`tracks` lists the op classes or op
    instances the rewriter can apply to (``None``: any node), which lets
    navigators skip it cheaply.

    >>> class Never(NodeRewriter):
    ...     def transform(self, fgraph, node):
    ...         return False
    >>> Never().tracks() is None
    True
    """

    def transform(self, fgraph: FunctionGraph, node: Apply) -> Replacements:
        raise NotImplementedError(f"{type(self).__name__}.transform")

    def tracks(self) -> Sequence[Track] | None:
        """The op classes / op instances this rewriter applies to; ``None`` for all."""
        return None

    def add_requirements(self, fgraph: FunctionGraph) -> None:
        """Attach the features :meth:`transform` needs."""

    @property
    def name(self) -> str:
        """The registered name, else a default (the class name)."""
        return self.__dict__.get("_name") or self.default_name()

    def default_name(self) -> str:
        return type(self).__name__

    @name.setter
    def name(self, value: str | None) -> None:
        self._name = value

    def print_summary(self, stream: IO[str] | None = None, level: int = 0) -> None:
        print(f"{'    ' * level}{self.name} ({type(self).__name__})", file=stream or sys.stdout)

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class TrackMatcher:
    """Answers "does ``rewriter`` apply to ``op``?" from its :meth:`~NodeRewriter.tracks`,
    with the answer for each distinct op cached.

    >>> from lazygraph.graph.basic import Op
    >>> class A(Op): pass
    >>> class B(Op): pass
    >>> class OnlyA(NodeRewriter):
    ...     def tracks(self):
    ...         return [A]
    >>> m = TrackMatcher([OnlyA()])
    >>> [r.name for r in m.for_op(A())], m.for_op(B())
    (['OnlyA'], [])
    """

    def __init__(self, rewriters: Iterable[NodeRewriter]) -> None:
        self.rewriters = list(rewriters)
        self._tracks = [_normalize_tracks(r.tracks()) for r in self.rewriters]
        self._cache: dict[Any, list[NodeRewriter]] = {}
        # By identity first: hashing an op hashes its props (nested ops too), which
        # dominated a walk over a big graph. The op is kept so its id is not reused.
        self._by_id: dict[int, tuple[Op, list[NodeRewriter]]] = {}

    def for_op(self, op: Op) -> list[NodeRewriter]:
        hit = self._by_id.get(id(op))
        if hit is not None:
            return hit[1]
        try:
            result = self._cache[op]
        except KeyError:
            result = self._compute(op)
            self._cache[op] = result
        except TypeError:  # unhashable op: answer without caching
            return self._compute(op)
        self._by_id[id(op)] = (op, result)
        return result

    def _compute(self, op: Op) -> list[NodeRewriter]:
        result = []
        for rewriter, tracks in zip(self.rewriters, self._tracks, strict=True):
            if tracks is None:
                result.append(rewriter)
                continue
            classes, instances = tracks
            if (classes and isinstance(op, classes)) or any(op == t for t in instances):
                result.append(rewriter)
        return result


def _normalize_tracks(
    tracks: Sequence[Track] | None,
) -> tuple[tuple[type, ...], list[Op]] | None:
    if tracks is None:
        return None
    classes = tuple(t for t in tracks if isinstance(t, type))
    instances = [t for t in tracks if not isinstance(t, type)]
    if not classes and not instances:
        return None  # Theano's convention: an empty list tracks everything
    return classes, instances


def attach_destroy_handler(fgraph: FunctionGraph) -> None:
    """Attach a ``DestroyHandler`` (for inplace rewrites), if that module exists yet."""
    try:
        from lazygraph.graph.destroyhandler import DestroyHandler  # type: ignore[import-not-found]
    except ImportError:
        return
    fgraph.attach_feature(DestroyHandler())


class FromFunctionNodeRewriter(NodeRewriter):
    """A :class:`NodeRewriter` whose ``transform`` is a plain function; made by
    :func:`node_rewriter`."""

    def __init__(
        self,
        fn: Callable[[FunctionGraph, Apply], Replacements],
        tracks: Sequence[Track] | None,
        requirements: Sequence[Callable[[FunctionGraph], None]] = (),
        name: str | None = None,
    ) -> None:
        self.fn = fn
        self._tracks = list(tracks) if tracks is not None else None
        self.requirements = list(requirements)
        self.name = name or getattr(fn, "__name__", None)
        self.__doc__ = fn.__doc__

    def transform(self, fgraph: FunctionGraph, node: Apply) -> Replacements:
        return self.fn(fgraph, node)

    def tracks(self) -> Sequence[Track] | None:
        return self._tracks

    def add_requirements(self, fgraph: FunctionGraph) -> None:
        for requirement in self.requirements:
            requirement(fgraph)

    def __call__(self, fgraph: FunctionGraph, node: Apply) -> Replacements:
        return self.fn(fgraph, node)


def node_rewriter(
    tracks: Sequence[Track] | None,
    inplace: bool = False,
    requirements: Sequence[Callable[[FunctionGraph], None]] = (),
) -> Callable[[Callable[[FunctionGraph, Apply], Replacements]], FromFunctionNodeRewriter]:
    """Decorator making a :class:`NodeRewriter` from ``fn(fgraph, node)``.

    ``tracks`` lists op classes or op instances the function applies to
    (``None``: every node). ``inplace=True`` adds the ``DestroyHandler`` the
    rewrite needs to prove in-place updates safe.

    >>> @node_rewriter(None)
    ... def does_nothing(fgraph, node):
    ...     return None
    >>> does_nothing.name, does_nothing.tracks()
    ('does_nothing', None)
    """
    if tracks is not None and not isinstance(tracks, list | tuple):
        raise TypeError("node_rewriter's tracks must be a list of Op classes or Op instances")
    for t in tracks or ():
        if not (isinstance(t, Op) or (isinstance(t, type) and issubclass(t, Op))):
            raise TypeError(f"node_rewriter tracks {t!r}, which is neither an Op nor an Op class")
    reqs = list(requirements)
    if inplace:
        reqs.append(attach_destroy_handler)

    def decorator(fn: Callable[[FunctionGraph, Apply], Replacements]) -> FromFunctionNodeRewriter:
        return FromFunctionNodeRewriter(fn, tracks, reqs)

    return decorator


class SequentialNodeRewriter(NodeRewriter):
    """Several node rewriters tried in turn on a node; the first that answers wins.

    A member that raises is skipped (see ``config.on_rewrite_error``) and the
    next one tried. Navigators apply the members one by one.

    >>> SequentialNodeRewriter().transform(None, None)
    False
    """

    def __init__(self, *rewriters: NodeRewriter, name: str | None = None) -> None:
        self.rewriters = list(rewriters)
        self._matcher = TrackMatcher(self.rewriters)
        self.name = name
        self.last_rewriter: NodeRewriter | None = None

    def transform(self, fgraph: FunctionGraph, node: Apply) -> Replacements:
        if node is None:
            return False
        for rewriter in self._matcher.for_op(node.op):
            try:
                result = rewriter.transform(fgraph, node)
            except InconsistencyError:
                continue
            except Exception as exc:
                rewrite_failed(rewriter, exc, node)
                continue
            if result:
                self.last_rewriter = rewriter
                return result
        return False

    def tracks(self) -> Sequence[Track] | None:
        tracks: list[Track] = []
        for rewriter in self.rewriters:
            t = rewriter.tracks()
            if not t:
                return None
            tracks.extend(t)
        return tracks

    def add_requirements(self, fgraph: FunctionGraph) -> None:
        for rewriter in self.rewriters:
            rewriter.add_requirements(fgraph)

    def print_summary(self, stream: IO[str] | None = None, level: int = 0) -> None:
        super().print_summary(stream, level)
        for rewriter in self.rewriters:
            rewriter.print_summary(stream, level + 1)


class SequentialGraphRewriter(GraphRewriter):
    """Graph rewriters applied one after the other (Theano's ``SeqOptimizer``).

    A rewriter that raises is skipped with a warning (or the error re-raised,
    per ``config.on_rewrite_error``); the rest still run.

    >>> SequentialGraphRewriter().rewriters
    []
    """

    def __init__(self, *rewriters: GraphRewriter, name: str | None = None) -> None:
        if len(rewriters) == 1 and isinstance(rewriters[0], list | tuple):
            rewriters = tuple(rewriters[0])
        self.rewriters = list(rewriters)
        self.name = name

    def apply(self, fgraph: FunctionGraph) -> None:
        # The collector stays off for the whole sequence: what a rewrite pass
        # allocates is mostly the live graph, and each collection would rescan
        # it (about a fifth of the pipeline's time on a 10k-node graph). Dropped
        # nodes are reclaimed by the next collection after the sequence.
        with gc_paused():
            for rewriter in self.rewriters:
                try:
                    rewriter.rewrite(fgraph)
                except Exception as exc:
                    rewrite_failed(rewriter, exc)

    def print_summary(self, stream: IO[str] | None = None, level: int = 0) -> None:
        super().print_summary(stream, level)
        for rewriter in self.rewriters:
            rewriter.print_summary(stream, level + 1)


def _needs_validation(fgraph: FunctionGraph) -> bool:
    """Whether some feature may veto changes (has a ``validate`` callback)."""
    return any(callable(getattr(f, "validate", None)) for f in fgraph._features)


def apply_node_rewriter(
    fgraph: FunctionGraph,
    rewriter: NodeRewriter,
    node: Apply,
    validate: bool | None = None,
) -> bool:
    """Run ``rewriter`` on ``node`` and apply its answer; return whether the graph changed.

    This is the one place node rewrites take effect: the answer is checked
    (one variable per output, compatible types), applied with
    ``fgraph.replace_all_validate`` when a ``ReplaceValidate`` is attached (a
    rejected change is reverted and skipped), and reported to the trace. A
    rewriter that raises, or answers nonsense, is skipped per
    ``config.on_rewrite_error``.
    """
    try:
        result = rewriter.transform(fgraph, node)
    except InconsistencyError:
        return False
    except Exception as exc:
        rewrite_failed(rewriter, exc, node)
        return False
    if not result:
        return False
    try:
        pairs, remove = _replacement_pairs(node, result)
    except (TypeError, ValueError) as exc:
        rewrite_failed(rewriter, exc, node)
        return False
    if not pairs:
        return False
    name = rewriter_name(getattr(rewriter, "last_rewriter", None) or rewriter)
    if not apply_replacements(fgraph, pairs, name, remove=remove, validate=validate):
        return False
    report_rewrite(name, node, [new for _, new in pairs])
    return True


def apply_replacements(
    fgraph: FunctionGraph,
    pairs: Sequence[tuple[Variable, Variable]],
    reason: str,
    remove: Sequence[Apply] = (),
    validate: bool | None = None,
) -> bool:
    """Make each ``old`` variable's clients read ``new``; False if a feature vetoed it.

    With a ``ReplaceValidate`` attached the change is validated and reverted
    exactly on ``InconsistencyError``; otherwise it is applied directly.
    ``validate=False`` skips validation where the caller knows no feature can object.
    """
    if validate is None:
        validate = hasattr(fgraph, "replace_all_validate")
    try:
        if validate and remove and hasattr(fgraph, "replace_all_validate_remove"):
            fgraph.replace_all_validate_remove(pairs, remove, reason=reason)  # type: ignore[attr-defined]
        elif validate and hasattr(fgraph, "replace_all_validate"):
            fgraph.replace_all_validate(pairs, reason=reason)  # type: ignore[attr-defined]
        else:
            for old, new in pairs:
                fgraph.replace(old, new, reason=reason)
    except (InconsistencyError, ReplacementDidNotRemoveError):  # vetoed, and reverted
        return False
    return True


def _replacement_pairs(
    node: Apply, result: Any
) -> tuple[list[tuple[Variable, Variable]], list[Apply]]:
    """Check a ``transform`` answer and turn it into ``(old, new)`` pairs to replace."""
    remove: list[Apply] = []
    if isinstance(result, dict):
        result = dict(result)
        remove = list(result.pop("remove", ()))
        items = list(result.items())
    elif isinstance(result, list | tuple):
        if len(result) != len(node.outputs):
            raise ValueError(
                f"the rewrite returned {len(result)} replacements for {len(node.outputs)} outputs"
            )
        items = list(zip(node.outputs, result, strict=True))
    else:
        raise TypeError(f"transform must return a list or dict of variables, got {result!r}")
    pairs = []
    for old, new in items:
        if new is None or new is old:
            continue
        if not isinstance(new, Variable) or not isinstance(old, Variable):
            raise TypeError(f"replacement {old!r} -> {new!r} is not between two Variables")
        if old.type != new.type and old.type.convert_variable(new) is None:
            raise TypeError(f"cannot replace {old} of type {old.type} by {new} of type {new.type}")
        pairs.append((old, new))
    return pairs, remove


def ensure_replace_validate(fgraph: FunctionGraph) -> None:
    """Attach a :class:`ReplaceValidate` unless one is there already."""
    if not hasattr(fgraph, "replace_all_validate"):
        fgraph.attach_feature(ReplaceValidate())
