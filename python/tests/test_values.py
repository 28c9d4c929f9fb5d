"""Values cross between Python and HCL exactly."""

import decimal

import pytest

import hclvm


def value(src, variables=None, **kw):
    return hclvm.compile_expression(src).evaluate(variables, **kw).check().value


def test_python_values_round_trip():
    data = {
        "s": "héllo",
        "i": 42,
        "big": 2**100,
        "neg": -7,
        "f": 0.1,
        "d": decimal.Decimal("1.250"),
        "t": True,
        "n": None,
        "l": [1, "a", None],
        "o": {"a": 1, "b": {"c": [True]}},
    }
    for name, v in data.items():
        got = value(name, {name: v})
        if isinstance(v, float):
            assert got == decimal.Decimal(repr(v))
        elif isinstance(v, decimal.Decimal):
            assert got == v
        else:
            assert got == v, name
    assert value("i + 1", {"i": 2**100}) == 2**100 + 1


def test_numbers_are_exact():
    # cty's 512-bit binary float, printed as the reference prints it.
    assert value("1/3") == decimal.Decimal("0." + "3" * 154 + "5")
    assert value("0.1 + 0.2") == decimal.Decimal("0.3")
    assert value("0.1 + 0.2", numbers="float") == 0.30000000000000004 or value("0.1 + 0.2", numbers="float") == 0.3
    # pow is go-cty's float64 math; multiplication is exact.
    assert value("pow(2, 70)") == 1180591620717411300000
    assert value("x * x", {"x": 2**35}) == 2**70
    assert isinstance(value("5 / 2"), decimal.Decimal)
    assert value("1e400") == 10**400
    assert value("x * 2", {"x": decimal.Decimal("12345678901234567890.5")}) == decimal.Decimal("24691357802469135781")
    with pytest.raises(ValueError, match="NaN"):
        value("x", {"x": float("nan")})


def test_infinity():
    assert value("x", {"x": float("inf")}) == decimal.Decimal("Infinity")
    assert value("-x", {"x": float("inf")}, numbers="float") == float("-inf")


def test_collections():
    assert value('toset(["b", "a", "b"])') == frozenset({"a", "b"})
    assert value("x", {"x": {1, 2}}) == frozenset({1, 2})
    # A set of lists has no frozenset: a list in cty's order.
    assert value("toset([[1], [2]])") == [[1], [2]]
    assert value('tomap({a = 1, b = 2})') == {"a": 1, "b": 2}
    assert value("[for k, v in m : k]", {"m": {"z": 1, "a": 2}}) == ["a", "z"]


def test_unknowns():
    u = hclvm.Unknown("string")
    assert u.type == '"string"'
    out = hclvm.compile_expression("upper(x)").evaluate({"x": u})
    assert not out.has_errors
    assert out.value == hclvm.Unknown("string")
    assert value("x == null", {"x": hclvm.Unknown("number")}) == hclvm.Unknown("bool")
    assert hclvm.Unknown("list(number)").type == '["list","number"]'
    assert repr(hclvm.Unknown()) == 'hclvm.Unknown("\\"dynamic\\"")'
    with pytest.raises(ValueError):
        hclvm.Unknown("nope")


def test_unsupported_values_name_their_path():
    import datetime

    with pytest.raises(TypeError, match=r'variables\["request"\]\["when"\] is a datetime'):
        value("request", {"request": {"when": datetime.datetime(2024, 1, 1)}})
    with pytest.raises(TypeError, match=r'variables\["l"\]\[1\] is a bytes'):
        value("l", {"l": [1, b"raw"]})
    with pytest.raises(TypeError, match="keys must be strings"):
        value("m", {"m": {1: "a"}})
    with pytest.raises(TypeError):
        value("x", {"x": object()})


def test_deep_and_cyclic_values_fail_cleanly():
    deep = []
    for _ in range(20000):
        deep = [deep]
    with pytest.raises(ValueError, match="levels deep"):
        value("x", {"x": deep})
    cyclic = []
    cyclic.append(cyclic)
    with pytest.raises(ValueError, match="levels deep"):
        value("x", {"x": cyclic})


def test_bodies_take_the_terraform_json_shape():
    body = hclvm.compile_body('name = "svc"\nport "http" { number = 80 }\n')
    assert body.evaluate().value == {"name": "svc", "port": {"http": [{"number": 80}]}}
    assert body.kind == "body"
    assert hclvm.compile_template("x").kind == "template"
