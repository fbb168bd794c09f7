"""Errors that mean a bug are not swallowed: constant folding leaves a node for
run time only when its ``perform`` rejects the values as numpy would, and a
replacement is treated as vetoed only for the veto exceptions themselves."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np
import pytest

import lazygraph.tensor as lt
from lazygraph import config
from lazygraph.graph.basic import Apply, Constant, Op
from lazygraph.graph.features import Feature, ReplacementDidNotRemoveError
from lazygraph.graph.fg import FunctionGraph
from lazygraph.rewriting import RewriteWarning
from lazygraph.rewriting.basic import apply_replacements
from lazygraph.rewriting.navigators import EquilibriumGraphRewriter
from lazygraph.tensor.rewriting.constant_folding import constant_folding


class RaisingPerform(Op):
    """``x -> x``, whose ``perform`` raises ``error``."""

    __props__ = ("error",)

    def __init__(self, error: type[Exception]) -> None:
        self.error = error

    def make_node(self, x: Any) -> Apply:
        x = lt.as_tensor_variable(x)
        return Apply(self, [x], [x.type()])

    def perform(self, node: Apply, inputs: Sequence[Any], output_storage: Any) -> None:
        raise self.error("raised by perform")


def _folded(op: Op) -> FunctionGraph:
    fg = FunctionGraph([], [op(lt.constant(np.arange(3.0)))], clone=False)
    EquilibriumGraphRewriter([constant_folding]).rewrite(fg)
    return fg


@pytest.mark.parametrize("error", [ValueError, IndexError, np.linalg.LinAlgError])
def test_a_node_numpy_would_reject_is_left_for_run_time_quietly(error: type[Exception]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", RewriteWarning)
        fg = _folded(RaisingPerform(error))
    assert not isinstance(fg.outputs[0], Constant)


@pytest.mark.parametrize("error", [KeyError, AttributeError, RuntimeError, NotImplementedError])
def test_a_bug_in_perform_during_folding_surfaces(error: type[Exception]) -> None:
    """Before, every exception read as "cannot fold": a broken Op went unnoticed."""
    warning = pytest.warns(RewriteWarning, match=f"constant_folding.*{error.__name__}")
    with config.change(on_rewrite_error="warn"), warning:
        fg = _folded(RaisingPerform(error))
    assert not isinstance(fg.outputs[0], Constant)  # skipped: the graph is unchanged
    with config.change(on_rewrite_error="raise"), pytest.raises(error, match="raised by perform"):
        _folded(RaisingPerform(error))


def test_an_op_without_perform_is_not_folded_and_not_a_failure() -> None:
    class NoPerform(Op):
        __props__ = ()

        def make_node(self, x: Any) -> Apply:
            x = lt.as_tensor_variable(x)
            return Apply(self, [x], [x.type()])

    with warnings.catch_warnings():
        warnings.simplefilter("error", RewriteWarning)
        fg = _folded(NoPerform())
    assert not isinstance(fg.outputs[0], Constant)


class _Veto(Feature):
    def __init__(self, error: Exception) -> None:
        self.error = error

    def on_change_input(self, *args: Any, **kwargs: Any) -> None:
        raise self.error


def _replace_with_veto(error: Exception) -> bool:
    x = lt.dvector("x")
    y = lt.exp(x)
    fg = FunctionGraph([x], [y * 2.0], clone=False)
    fg.attach_feature(_Veto(error))
    return apply_replacements(fg, [(y, lt.sin(x))], "test", validate=False)


def test_a_replacement_that_did_not_remove_is_a_veto() -> None:
    assert _replace_with_veto(ReplacementDidNotRemoveError("left a node")) is False


def test_an_exception_merely_named_like_the_veto_propagates() -> None:
    """The veto used to be recognised by its class name: any exception called
    ``ReplacementDidNotRemoveError`` was taken for one."""
    impostor = type("ReplacementDidNotRemoveError", (RuntimeError,), {})
    with pytest.raises(RuntimeError):
        _replace_with_veto(impostor("a bug elsewhere"))
