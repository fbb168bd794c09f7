"""The default pipeline's resolved order, rewrite by rewrite, for every named mode.

The expected listings are literals recorded from the pipeline as it was when its
stages were placed by float positions (0, 1, 1.5, 2, 49, 49.3, 49.5, 75, 100), so
that placing them by name had to keep the order exactly. A change of order is a
change of behaviour: update a literal only on purpose.

Each line is ``path  kind``: ``path`` is the stage, then the step or rewrite
inside it (``canonicalize/x_times_1``); a rewrite inside an equilibrium stage is
marked ``node``, ``global`` or ``final``.
"""

from __future__ import annotations

from typing import Any

import pytest

import lazygraph.tensor.rewriting  # noqa: F401 (registers the tensor rewrites)
from lazygraph.compile.mode import FAST_COMPILE, FAST_RUN, NO_REWRITES, Mode
from lazygraph.rewriting import (
    EquilibriumGraphRewriter,
    MergeOptimizer,
    RewriteDatabase,
    RewriteDatabaseQuery,
    SequenceDB,
    SequentialGraphRewriter,
    WalkingGraphRewriter,
    default_pipeline,
    optdb,
)


def _name(rewriter: Any) -> str:
    return getattr(rewriter, "name", None) or type(rewriter).__name__


def resolved(rewriter: Any, path: tuple[str, ...] = ()) -> list[str]:
    """The rewriters ``rewriter`` runs, in order, one line each (see the module doc)."""
    if isinstance(rewriter, SequentialGraphRewriter):
        lines = [] if not path else [f"{'/'.join(path)}  sequence"]
        for r in rewriter.rewriters:
            lines += resolved(r, (*path, _name(r)))
        return lines
    here = "/".join(path)
    if isinstance(rewriter, EquilibriumGraphRewriter):
        return [
            f"{here}  equilibrium",
            *(f"{here}/{_name(r)}  node" for r in rewriter.node_rewriters),
            *(f"{here}/{_name(r)}  global" for r in rewriter.global_rewriters),
            *(f"{here}/{_name(r)}  final" for r in rewriter.final_rewriters),
        ]
    if isinstance(rewriter, WalkingGraphRewriter):
        return [f"{here}  walk({_name(rewriter.node_rewriter)})"]
    return [f"{here}  {type(rewriter).__name__}"]


def all_tags(db: RewriteDatabase) -> set[str]:
    tags: set[str] = set()
    for name in db:
        tags |= db.tags_of(name)
        if isinstance(db[name], RewriteDatabase):
            tags |= all_tags(db[name])  # type: ignore[arg-type]
    return tags


FAST_RUN_ORDER = [
    "merge1  MergeOptimizer",
    "canonicalize  equilibrium",
    "canonicalize/add_chain_int  node",
    "canonicalize/mul_chain_int  node",
    "canonicalize/add_order  node",
    "canonicalize/mul_order  node",
    "canonicalize/x_times_1  node",
    "canonicalize/x_div_1  node",
    "canonicalize/x_plus_0  node",
    "canonicalize/x_minus_0  node",
    "canonicalize/neg_neg  node",
    "canonicalize/log_exp  node",
    "canonicalize/elemwise_lift_dimshuffle  node",
    "canonicalize/remove_gradient_marker  node",
    "canonicalize/dimshuffle_dimshuffle  node",
    "canonicalize/useless_dimshuffle  node",
    "canonicalize/useless_reshape  node",
    "canonicalize/reshape_reshape  node",
    "canonicalize/useless_cast  node",
    "canonicalize/useless_alloc  node",
    "canonicalize/useless_second  node",
    "canonicalize/subtensor_subtensor  node",
    "canonicalize/subtensor_newaxis  node",
    "canonicalize/shape_of_static  node",
    "canonicalize/shape_i_of_static  node",
    "canonicalize/shape_subtensor  node",
    "canonicalize/sum_sum  node",
    "canonicalize/constant_folding  node",
    "canonicalize/scan_into_longer_twin  node",
    "canonicalize/scan_drop_unused_ys  node",
    "canonicalize/scan_hoist_invariants  node",
    "canonicalize/while_hoist_invariants  node",
    "canonicalize/scan_keep_last_y  node",
    "stabilize  equilibrium",
    "stabilize/constant_folding  node",
    "stabilize/log_1_plus_x  node",
    "stabilize/exp_minus_1  node",
    "stabilize/log_sigmoid  node",
    "stabilize/one_minus_sigmoid  node",
    "stabilize/log_1_minus_exp  node",
    "stabilize/log_sum_exp  node",
    "stabilize/softmax  node",
    "stabilize/log_softmax  node",
    "specialize  equilibrium",
    "specialize/pow_specialize  node",
    "specialize/sum_mul_to_matmul  node",
    "specialize/matmul_of_transposes  node",
    "specialize/reduce_of_alloc  node",
    "merge2  MergeOptimizer",
    "fusion  sequence",
    "fusion/elemwise_fusion  FusionOptimizer",
    "add_destroy_handler  AddDestroyHandler",
    "inplace  sequence",
    "inplace/inplace_elemwise  InplaceElemwiseOptimizer",
    "inplace/inplace_setsubtensor  InplaceSetSubtensorOptimizer",
    "merge3  MergeOptimizer",
]
FAST_COMPILE_ORDER = [
    "merge1  MergeOptimizer",
    "canonicalize  equilibrium",
    "canonicalize/add_chain_int  node",
    "canonicalize/mul_chain_int  node",
    "canonicalize/add_order  node",
    "canonicalize/mul_order  node",
    "canonicalize/x_times_1  node",
    "canonicalize/x_div_1  node",
    "canonicalize/x_plus_0  node",
    "canonicalize/x_minus_0  node",
    "canonicalize/neg_neg  node",
    "canonicalize/log_exp  node",
    "canonicalize/elemwise_lift_dimshuffle  node",
    "canonicalize/remove_gradient_marker  node",
    "canonicalize/dimshuffle_dimshuffle  node",
    "canonicalize/useless_dimshuffle  node",
    "canonicalize/useless_reshape  node",
    "canonicalize/reshape_reshape  node",
    "canonicalize/useless_cast  node",
    "canonicalize/useless_alloc  node",
    "canonicalize/useless_second  node",
    "canonicalize/subtensor_subtensor  node",
    "canonicalize/subtensor_newaxis  node",
    "canonicalize/shape_of_static  node",
    "canonicalize/shape_i_of_static  node",
    "canonicalize/shape_subtensor  node",
    "canonicalize/sum_sum  node",
    "canonicalize/constant_folding  node",
    "canonicalize/scan_into_longer_twin  node",
    "canonicalize/scan_drop_unused_ys  node",
    "canonicalize/scan_hoist_invariants  node",
    "canonicalize/while_hoist_invariants  node",
    "canonicalize/scan_keep_last_y  node",
]
EVERYTHING_ORDER = [
    "merge1  MergeOptimizer",
    "canonicalize  equilibrium",
    "canonicalize/add_chain_int  node",
    "canonicalize/mul_chain_int  node",
    "canonicalize/add_chain_float  node",
    "canonicalize/mul_chain_float  node",
    "canonicalize/add_order  node",
    "canonicalize/mul_order  node",
    "canonicalize/x_times_1  node",
    "canonicalize/x_div_1  node",
    "canonicalize/x_plus_0  node",
    "canonicalize/x_plus_0_signed_zero  node",
    "canonicalize/x_minus_0  node",
    "canonicalize/neg_neg  node",
    "canonicalize/x_mul_y_div_y  node",
    "canonicalize/exp_log  node",
    "canonicalize/log_exp  node",
    "canonicalize/elemwise_lift_dimshuffle  node",
    "canonicalize/remove_gradient_marker  node",
    "canonicalize/dimshuffle_dimshuffle  node",
    "canonicalize/useless_dimshuffle  node",
    "canonicalize/useless_reshape  node",
    "canonicalize/reshape_reshape  node",
    "canonicalize/useless_cast  node",
    "canonicalize/useless_alloc  node",
    "canonicalize/useless_second  node",
    "canonicalize/subtensor_subtensor  node",
    "canonicalize/subtensor_newaxis  node",
    "canonicalize/shape_of_static  node",
    "canonicalize/shape_i_of_static  node",
    "canonicalize/shape_subtensor  node",
    "canonicalize/sum_sum  node",
    "canonicalize/constant_folding  node",
    "canonicalize/scan_into_longer_twin  node",
    "canonicalize/scan_drop_unused_ys  node",
    "canonicalize/scan_hoist_invariants  node",
    "canonicalize/while_hoist_invariants  node",
    "canonicalize/scan_keep_last_y  node",
    "stabilize  equilibrium",
    "stabilize/constant_folding  node",
    "stabilize/log_1_plus_x  node",
    "stabilize/exp_minus_1  node",
    "stabilize/log_sigmoid  node",
    "stabilize/one_minus_sigmoid  node",
    "stabilize/log_1_minus_exp  node",
    "stabilize/log_sum_exp  node",
    "stabilize/softmax  node",
    "stabilize/log_softmax  node",
    "specialize  equilibrium",
    "specialize/pow_specialize  node",
    "specialize/pow_half_to_sqrt_unguarded  node",
    "specialize/sum_mul_to_matmul  node",
    "specialize/matmul_of_transposes  node",
    "specialize/matmul_outer_product  node",
    "specialize/reduce_of_alloc  node",
    "merge2  MergeOptimizer",
    "fusion  sequence",
    "fusion/elemwise_fusion  FusionOptimizer",
    "add_destroy_handler  AddDestroyHandler",
    "inplace  sequence",
    "inplace/inplace_elemwise  InplaceElemwiseOptimizer",
    "inplace/inplace_setsubtensor  InplaceSetSubtensorOptimizer",
    "merge3  MergeOptimizer",
]
CUTOFF_1_ORDER = [
    "merge1  MergeOptimizer",
    "canonicalize  equilibrium",
    "canonicalize/add_chain_int  node",
    "canonicalize/mul_chain_int  node",
    "canonicalize/add_order  node",
    "canonicalize/mul_order  node",
    "canonicalize/x_times_1  node",
    "canonicalize/x_div_1  node",
    "canonicalize/x_plus_0  node",
    "canonicalize/x_minus_0  node",
    "canonicalize/neg_neg  node",
    "canonicalize/log_exp  node",
    "canonicalize/elemwise_lift_dimshuffle  node",
    "canonicalize/remove_gradient_marker  node",
    "canonicalize/dimshuffle_dimshuffle  node",
    "canonicalize/useless_dimshuffle  node",
    "canonicalize/useless_reshape  node",
    "canonicalize/reshape_reshape  node",
    "canonicalize/useless_cast  node",
    "canonicalize/useless_alloc  node",
    "canonicalize/useless_second  node",
    "canonicalize/subtensor_subtensor  node",
    "canonicalize/subtensor_newaxis  node",
    "canonicalize/shape_of_static  node",
    "canonicalize/shape_i_of_static  node",
    "canonicalize/shape_subtensor  node",
    "canonicalize/sum_sum  node",
    "canonicalize/constant_folding  node",
    "canonicalize/scan_into_longer_twin  node",
    "canonicalize/scan_drop_unused_ys  node",
    "canonicalize/scan_hoist_invariants  node",
    "canonicalize/while_hoist_invariants  node",
    "canonicalize/scan_keep_last_y  node",
]
CUTOFF_1_5_ORDER = [
    "merge1  MergeOptimizer",
    "canonicalize  equilibrium",
    "canonicalize/add_chain_int  node",
    "canonicalize/mul_chain_int  node",
    "canonicalize/add_order  node",
    "canonicalize/mul_order  node",
    "canonicalize/x_times_1  node",
    "canonicalize/x_div_1  node",
    "canonicalize/x_plus_0  node",
    "canonicalize/x_minus_0  node",
    "canonicalize/neg_neg  node",
    "canonicalize/log_exp  node",
    "canonicalize/elemwise_lift_dimshuffle  node",
    "canonicalize/remove_gradient_marker  node",
    "canonicalize/dimshuffle_dimshuffle  node",
    "canonicalize/useless_dimshuffle  node",
    "canonicalize/useless_reshape  node",
    "canonicalize/reshape_reshape  node",
    "canonicalize/useless_cast  node",
    "canonicalize/useless_alloc  node",
    "canonicalize/useless_second  node",
    "canonicalize/subtensor_subtensor  node",
    "canonicalize/subtensor_newaxis  node",
    "canonicalize/shape_of_static  node",
    "canonicalize/shape_i_of_static  node",
    "canonicalize/shape_subtensor  node",
    "canonicalize/sum_sum  node",
    "canonicalize/constant_folding  node",
    "canonicalize/scan_into_longer_twin  node",
    "canonicalize/scan_drop_unused_ys  node",
    "canonicalize/scan_hoist_invariants  node",
    "canonicalize/while_hoist_invariants  node",
    "canonicalize/scan_keep_last_y  node",
    "stabilize  equilibrium",
    "stabilize/constant_folding  node",
    "stabilize/log_1_plus_x  node",
    "stabilize/exp_minus_1  node",
    "stabilize/log_sigmoid  node",
    "stabilize/one_minus_sigmoid  node",
    "stabilize/log_1_minus_exp  node",
    "stabilize/log_sum_exp  node",
    "stabilize/softmax  node",
    "stabilize/log_softmax  node",
]


MODES = {
    "FAST_RUN": (FAST_RUN.query, FAST_RUN_ORDER),
    "FAST_COMPILE": (FAST_COMPILE.query, FAST_COMPILE_ORDER),
    "NO_REWRITES": (NO_REWRITES.query, []),
    # every registered rewrite, whatever its tags (unsafe_nan, signed_zero, ...)
    "everything": (RewriteDatabaseQuery(include=sorted(all_tags(optdb))), EVERYTHING_ORDER),
    # Theano's position_cutoff, as the canonicalize and stabilize tests use it
    "cutoff 1": (RewriteDatabaseQuery(["fast_run"], position_cutoff=1), CUTOFF_1_ORDER),
    "cutoff 1.5": (RewriteDatabaseQuery(["fast_run"], position_cutoff=1.5), CUTOFF_1_5_ORDER),
    # the same cuts by stage name
    "stop after canonicalize": (
        RewriteDatabaseQuery(["fast_run"], stop_after="canonicalize"),
        CUTOFF_1_ORDER,
    ),
    "stop after stabilize": (
        RewriteDatabaseQuery(["fast_run"], stop_after="stabilize"),
        CUTOFF_1_5_ORDER,
    ),
}


@pytest.mark.parametrize("mode", list(MODES))
def test_resolved_order_of_every_rewrite(mode: str) -> None:
    query, expected = MODES[mode]
    assert resolved(optdb.query(query)) == expected


def test_default_mode_is_fast_run() -> None:
    assert resolved(optdb.query(Mode().query)) == FAST_RUN_ORDER


def _user_pipeline() -> SequenceDB:
    """A fresh pipeline with rewrites registered PyTensor-style, by float position."""
    db = default_pipeline()
    for name, position in [
        ("user_0_5", 0.5),
        ("user_1", 1),
        ("user_1_2", 1.2),
        ("user_2", 2),
        ("user_48", 48),
        ("user_10", 10),
        ("user_49_5", 49.5),
        ("user_50", 50),
        ("user_99", 99),
        ("user_200", 200),
    ]:
        db.register(name, MergeOptimizer(), "fast_run", position=position)
    db.register("user_theano_order", MergeOptimizer(), 49.4, "fast_run")
    db.register("user_last", MergeOptimizer(), "fast_run")
    db["inplace"].register("user_inplace_15", MergeOptimizer(), "fast_run", position=15)  # type: ignore[call-arg]
    db["inplace"].register("user_inplace_5", MergeOptimizer(), "fast_run", position=5)  # type: ignore[call-arg]
    return db


USER_ORDER = [
    "merge1  MergeOptimizer",
    "user_0_5  MergeOptimizer",
    "canonicalize  equilibrium",
    "user_1  MergeOptimizer",
    "user_1_2  MergeOptimizer",
    "stabilize  equilibrium",
    "specialize  equilibrium",
    "user_2  MergeOptimizer",
    "user_10  MergeOptimizer",
    "user_48  MergeOptimizer",
    "merge2  MergeOptimizer",
    "fusion  sequence",
    "user_theano_order  MergeOptimizer",
    "add_destroy_handler  AddDestroyHandler",
    "user_49_5  MergeOptimizer",
    "user_50  MergeOptimizer",
    "inplace  sequence",
    "inplace/user_inplace_5  MergeOptimizer",
    "inplace/user_inplace_15  MergeOptimizer",
    "user_99  MergeOptimizer",
    "merge3  MergeOptimizer",
    "user_200  MergeOptimizer",
    "user_last  MergeOptimizer",
]


def test_rewrites_registered_by_position_keep_their_place() -> None:
    assert resolved(_user_pipeline().query("fast_run")) == USER_ORDER


if __name__ == "__main__":  # prints the listings, to record them
    import pprint

    for mode, (query, _) in MODES.items():
        print(mode)
        pprint.pprint(resolved(optdb.query(query)), width=100)
    print("user")
    pprint.pprint(resolved(_user_pipeline().query("fast_run")), width=100)
