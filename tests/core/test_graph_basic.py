"""Variable, Constant, Apply, Op and Type: the graph's building blocks."""

from __future__ import annotations

import math
import sys

import numpy as np
import pytest

from lazygraph.graph import Apply, Constant, FunctionGraph, Op, Type, Variable
from lazygraph.graph.basic import MetaObject, Scratchpad, default_constant_key
from tests.core.graph_fixtures import (
    Scale,
    SplitOp,
    add,
    dconst,
    double,
    dvar,
    integer,
    mul,
    neg,
)

# -- Variable ------------------------------------------------------------------


def test_variable_fields() -> None:
    x = Variable(double, name="x")
    assert x.owner is None and x.index is None and x.name == "x" and x.type is double
    assert str(x) == "x"
    assert str(Variable(double)) == "<double>"


def test_variable_checks_its_arguments() -> None:
    with pytest.raises(TypeError, match="Type instance"):
        Variable("double")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="Apply node"):
        Variable(double, owner="node")  # type: ignore[arg-type]
    node = add(dvar(), dvar()).owner
    with pytest.raises(TypeError, match="integer index"):
        Variable(double, owner=node, index=None)


def test_auto_names_are_unique() -> None:
    a, b = dvar(), dvar()
    assert a.auto_name != b.auto_name
    assert a.auto_name == a.auto_name and a.auto_name.startswith("auto_")


def test_tag_is_a_scratchpad_and_clone_copies_it() -> None:
    x = dvar("x")
    x.tag.test_value = 3.0
    assert isinstance(x.tag, Scratchpad) and "test_value" in repr(x.tag)
    y = x.clone()
    assert y is not x and y.name == "x" and y.type == x.type and y.owner is None
    assert y.tag.test_value == 3.0 and y.tag is not x.tag
    assert x.clone(name="z").name == "z"


def test_variable_str_of_outputs() -> None:
    z = add(dvar("x"), dvar("y"))
    assert str(z) == "add.out"
    out0, out1 = SplitOp().make_node(dvar()).outputs
    assert str(out0) == "SplitOp.0" and str(out1) == "SplitOp.out"


def test_get_parents() -> None:
    x = dvar()
    z = neg(x)
    assert x.get_parents() == [] and z.get_parents() == [z.owner]
    assert z.owner.get_parents() == [x]


# -- Constant ------------------------------------------------------------------


def test_constant_basics() -> None:
    c = dconst(2)
    assert isinstance(c, Constant) and c.data == 2.0 and c.value == 2.0
    assert c.owner is None and str(c) == "2.0"
    assert str(dconst(1.5, name="half")) == "half"
    c2 = c.clone()
    assert c2 is not c and c2.data == c.data and c2.signature() == c.signature()


def test_constant_data_is_filtered() -> None:
    with pytest.raises(TypeError):
        dconst("not a number")  # type: ignore[arg-type]


class ArrayType(Type):
    __props__ = ()

    def filter(self, data, strict=False, allow_downcast=None):  # type: ignore[no-untyped-def]
        return np.asarray(data)


def test_constant_array_data_is_read_only_and_copied() -> None:
    arr = np.arange(3.0)
    c = Constant(ArrayType(), arr)
    assert not c.data.flags.writeable
    with pytest.raises(ValueError):
        c.data[0] = 5.0
    arr[0] = 7.0  # the caller's array is not the constant's
    assert c.data[0] == 0.0
    # A read-only view of a writeable array is copied too.
    base = np.zeros(3)
    view = base[:]
    view.flags.writeable = False
    c2 = Constant(ArrayType(), view)
    base[0] = 1.0
    assert c2.data[0] == 0.0


def test_long_constant_str_is_shortened() -> None:
    c = Constant(ArrayType(), np.arange(100.0))
    assert " ... " in str(c) and len(str(c)) < 30


def test_constant_as_function_graph_input_raises() -> None:
    c = dconst(1.0)
    with pytest.raises(TypeError, match="Constant"):
        FunctionGraph([c], [add(c, c)])
    x = dvar("x")
    fg2 = FunctionGraph([x], [add(x, c)])
    with pytest.raises(TypeError, match="Constant"):
        fg2.add_input(dconst(3.0))


@pytest.mark.parametrize(
    ("a", "b", "same"),
    [
        (1.0, 1.0, True),
        (0.0, -0.0, False),
        (math.nan, math.nan, True),
        (math.nan, 1.0, False),
        (math.inf, math.inf, True),
        (math.inf, -math.inf, False),
        (2.0, 2, True),
    ],
)
def test_constant_signatures(a: float, b: float, same: bool) -> None:
    assert (dconst(a).signature() == dconst(b).signature()) is same
    assert (hash(dconst(a).signature()) == hash(dconst(b).signature())) or not same


def test_constant_signature_depends_on_type() -> None:
    assert Constant(integer, 1).signature() != dconst(1.0).signature()


def test_default_constant_key_for_arrays() -> None:
    k = default_constant_key
    assert k(np.array([0.0, np.nan])) == k(np.array([0.0, np.nan]))
    assert k(np.array([0.0])) != k(np.array([-0.0]))
    assert k(np.array([1.0])) != k(np.array([1.0], dtype=np.float32))
    assert k(np.array([1.0, 2.0])) != k(np.array([[1.0, 2.0]]))
    assert k(np.float64(0.0)) != k(np.float64(-0.0))
    assert k(complex(0.0, -0.0)) != k(complex(0.0, 0.0))
    assert k([1, 2]) == k([1, 2])  # unhashable: keyed by repr
    assert k("a") == k("a") and k(1) != k("1")


# -- Apply ---------------------------------------------------------------------


def test_apply_sets_owner_and_index() -> None:
    x, y = dvar("x"), dvar("y")
    o0, o1 = double(), double()
    node = Apply(add, [x, y], [o0, o1])
    assert node.inputs == [x, y] and node.outputs == [o0, o1]
    assert (o0.owner, o0.index, o1.owner, o1.index) == (node, 0, node, 1)
    assert node.nin == 2 and node.nout == 2 and node.op is add


def test_apply_rejects_an_output_owned_by_another_node() -> None:
    x = dvar()
    out = neg(x)
    with pytest.raises(ValueError, match="already owned"):
        Apply(neg, [x], [out])


def test_apply_checks_types() -> None:
    with pytest.raises(TypeError, match="Op instance"):
        Apply("add", [], [])  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="input 1"):
        Apply(add, [dvar(), 3.0], [double()])  # type: ignore[list-item]
    with pytest.raises(TypeError, match="output 0"):
        Apply(add, [dvar(), dvar()], ["out"])  # type: ignore[list-item]


def test_default_output_and_out() -> None:
    node = SplitOp().make_node(dvar())
    assert node.default_output() is node.outputs[1] and node.out is node.outputs[1]
    single = neg(dvar()).owner
    assert single.out is single.outputs[0]
    two = Apply(add, [dvar()], [double(), double()])
    with pytest.raises(ValueError, match="no default_output"):
        two.default_output()


def test_apply_clone() -> None:
    x, y = dvar("x"), dvar("y")
    z = add(x, y)
    z.owner.tag.trace = "here"
    cp = z.owner.clone()
    assert cp is not z.owner and cp.op == add and cp.inputs == [x, y]
    assert cp.outputs[0] is not z and cp.outputs[0].owner is cp and cp.tag.trace == "here"


def test_clone_with_new_inputs() -> None:
    x, y, w = dvar("x"), dvar("y"), dvar("w")
    node = add(x, y).owner
    cp = node.clone_with_new_inputs([w, y])
    assert cp.inputs == [w, y] and node.inputs == [x, y] and cp.outputs[0].owner is cp
    with pytest.raises(ValueError, match="takes 2 inputs"):
        node.clone_with_new_inputs([w])


def test_clone_with_new_inputs_strict_rejects_another_type() -> None:
    node = add(dvar(), dvar()).owner
    i = integer("i")
    with pytest.raises(TypeError, match="cannot replace input 0"):
        node.clone_with_new_inputs([i, dvar()], strict=True)
    # strict=False re-runs make_node, which has its own checks.
    with pytest.raises(TypeError, match="needs doubles"):
        node.clone_with_new_inputs([i, dvar()], strict=False)
    loose = node.clone_with_new_inputs([dvar("a"), dvar("b")], strict=False)
    assert str(loose.inputs[0]) == "a"


class LenientDouble(Type):
    """Accepts int variables by conversion (convert_variable)."""

    __props__ = ()

    def filter(self, data, strict=False, allow_downcast=None):  # type: ignore[no-untyped-def]
        return float(data)


def test_clone_with_new_inputs_uses_convert_variable() -> None:
    class Convertible(Type):
        __props__ = ()

        def filter(self, data, strict=False, allow_downcast=None):  # type: ignore[no-untyped-def]
            return float(data)

        def convert_variable(self, var):  # type: ignore[no-untyped-def]
            return self() if var.type == LenientDouble() else None

    t = Convertible()
    node = Apply(add, [t("a")], [t()])
    cp = node.clone_with_new_inputs([LenientDouble()("b")])
    assert cp.inputs[0].type == t


def test_apply_str() -> None:
    x, y = dvar("x"), dvar("y")
    # A node prints with its inputs as leaves (op_as_string(node.inputs, node)).
    assert str(add(x, mul(x, y)).owner) == "add(x, mul.out)"


# -- Op ------------------------------------------------------------------------


def test_op_props_give_eq_and_hash() -> None:
    assert Scale(2.0) == Scale(2.0) and hash(Scale(2.0)) == hash(Scale(2.0))
    assert Scale(2.0) != Scale(3.0)
    assert add == type(add)() and hash(add) == hash(type(add)())
    assert add != mul and add != "add"
    assert str(Scale(2.0)) == "Scale{factor=2.0}" and repr(Scale(2.0)) == str(Scale(2.0))
    assert len({Scale(1.0), Scale(1.0), Scale(2.0)}) == 2


def test_op_without_props_uses_identity() -> None:
    class Opaque(Op):
        __props__ = None

    a, b = Opaque(), Opaque()
    assert a == a and a != b


def test_op_call_returns_default_output() -> None:
    x = dvar()
    z = neg(x)
    assert isinstance(z, Variable) and z.owner.op is neg
    split = SplitOp()(x)
    assert split is split.owner.outputs[1]

    class Two(Op):
        def make_node(self, v):  # type: ignore[no-untyped-def]
            return Apply(self, [v], [double(), double()])

    outs = Two()(x)
    assert isinstance(outs, list) and len(outs) == 2


def test_op_defaults() -> None:
    class Bare(Op):
        pass

    op = Bare()
    node = Apply(op, [dvar()], [double()])
    for call in (
        lambda: op.make_node(),
        lambda: op.perform(node, [1.0], [[None]]),
        lambda: op.infer_shape(None, node, [()]),
        lambda: op.L_op(node.inputs, node.outputs, [dvar()]),
        lambda: op.R_op(node.inputs, [None]),
    ):
        with pytest.raises(NotImplementedError):
            call()
    assert op.do_constant_folding(None, node) is True
    assert op.connection_pattern(node) == [[True]]
    assert op.destroy_map == {} and op.view_map == {}
    assert node.params == ()


def test_perform_computes() -> None:
    node = add(dvar(), dvar()).owner
    storage: list[list[float | None]] = [[None]]
    add.perform(node, [1.0, 2.0], storage)
    assert storage[0][0] == 3.0


# -- Type ----------------------------------------------------------------------


def test_type_filter_and_is_valid_value() -> None:
    assert double.filter(3) == 3.0 and isinstance(double.filter(3), float)
    with pytest.raises(TypeError):
        double.filter(3, strict=True)
    assert double.is_valid_value(3.0) and not double.is_valid_value(3)
    assert not double.is_valid_value("x")
    with pytest.raises(NotImplementedError):
        Type().filter(1)


def test_type_values_eq() -> None:
    assert double.values_eq(1.0, 1.0) and not double.values_eq(1.0, 1.0 + 1e-12)
    assert double.values_eq_approx(1.0, 1.0 + 1e-12)
    assert Type().values_eq_approx(2, 2)


def test_type_make_variable_and_call() -> None:
    v = double.make_variable("v")
    assert isinstance(v, Variable) and v.type is double and v.name == "v" and v.owner is None
    assert double("w").name == "w"
    c = double.make_constant(1, "one")
    assert isinstance(c, Constant) and c.data == 1.0


def test_type_structural_eq() -> None:
    assert double == type(double)() and hash(double) == hash(type(double)())
    assert double != integer
    assert double.convert_variable(dvar()) is not None
    assert double.convert_variable(integer()) is None


def test_metaobject_str_without_props() -> None:
    class Plain(MetaObject):
        __props__ = ()

    assert str(Plain()) == "Plain" and Plain() == Plain()


# -- Variable.eval ---------------------------------------------------------------


def test_eval_compiles_once(monkeypatch: pytest.MonkeyPatch) -> None:
    import lazygraph.compile.function  # noqa: F401 (the module, for sys.modules)

    # lazygraph.compile re-exports ``function``, which shadows the module name.
    function_module = sys.modules["lazygraph.compile.function"]
    real = function_module.function
    calls = []

    def counting(inputs, outputs, mode=None, rewrite=True):  # type: ignore[no-untyped-def]
        calls.append(1)
        return real(inputs, outputs, mode=mode, rewrite=False)

    monkeypatch.setattr(function_module, "function", counting)
    x, y = dvar("x"), dvar("y")
    z = add(x, mul(x, y))
    assert z.eval({x: 2.0, y: 3.0}) == 8.0
    assert z.eval({x: 1.0, y: 1.0}) == 2.0
    assert len(calls) == 1
    assert dconst(4.0).eval() == 4.0


def test_eval_with_the_default_pipeline() -> None:
    x = dvar("x")
    assert neg(add(x, dconst(1.0))).eval({x: 2.0}) == -3.0
