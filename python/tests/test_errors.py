"""Errors carry hcl's wording and source positions."""

import pytest

import hclvm


def test_compile_errors_carry_positions():
    with pytest.raises(hclvm.CompileError) as info:
        hclvm.compile_body("a = 1\nb = \n", filename="main.hcl")
    err = info.value
    assert isinstance(err, hclvm.HclError)
    d = err.diagnostics[0]
    assert d.severity == "error"
    assert d.summary == "Invalid expression"
    assert d.filename == "main.hcl"
    assert d.start == (2, 5, 10)
    assert str(err).startswith("main.hcl:2,5-")
    assert "on main.hcl line 2" in err.rendered


def test_evaluation_errors_carry_positions():
    program = hclvm.compile_expression("1 + x", filename="calc.hcl")
    out = program.evaluate({"x": "y"})
    assert out.has_errors
    d = out.diagnostics[0]
    assert (d.summary, d.start[:2], d.end[:2]) == ("Invalid operand", (1, 5), (1, 6))
    assert str(d).startswith("calc.hcl:1,5-6: Invalid operand; ")
    assert out.render_diagnostics().startswith("Error: Invalid operand")
    with pytest.raises(hclvm.EvaluationError) as info:
        out.check()
    assert info.value.diagnostics[0].summary == "Invalid operand"
    assert isinstance(out.value, hclvm.Unknown)


def test_unknown_variables_suggest_names():
    out = hclvm.compile_expression("reqest.id").evaluate({"request": {"id": 1}})
    assert out.diagnostics[0].detail == 'There is no variable named "reqest". Did you mean "request"?'


def test_limits():
    program = hclvm.compile_expression("[for i in range(1000) : [for j in range(1000) : i * j]]", max_steps=10_000)
    assert program.evaluate().diagnostics[0].summary == "Evaluation limit exceeded"
    program = hclvm.compile_expression('join("", [for i in range(1000) : "0123456789"])', max_size=1000)
    assert program.evaluate().has_errors


def test_declared_names():
    program = hclvm.compile_expression("nmae", declared=["name"])
    out = program.evaluate({"name": "x"})
    assert out.diagnostics[0].detail == 'There is no variable named "nmae". Did you mean "name"?'
    assert program.variable_names == ["name"]


def test_variables_must_be_a_dict():
    with pytest.raises(TypeError, match="dict"):
        hclvm.compile_expression("1").evaluate([1])


def test_declared_types_convert_validate_and_reject():
    request = 'object({user=string, amount=number, tags=optional(list(string), [])})'
    policy = hclvm.compile_expression("request.amount * 2 > 100 && length(request.tags) == 0", declared={"request": request})
    assert policy.variable_names == ["request"]
    # Given values get the defaults and are converted to the type.
    assert policy.evaluate({"request": {"user": "ann", "amount": "60"}}).value is True
    # A value that does not fit is an error before anything is evaluated.
    out = policy.evaluate({"request": {"user": "ann", "amount": "lots"}})
    assert [d.summary for d in out.diagnostics] == ["Invalid value for variable"]
    assert "a number is required" in out.diagnostics[0].detail
    assert out.diagnostics[0].start is None
    with pytest.raises(hclvm.EvaluationError):
        out.check()
    # Without inputs, the declared variable is an unknown of its type.
    assert policy.validate() == []
    typo = hclvm.compile_expression("request.ammount > uper(1)", declared={"request": request})
    assert [(d.summary, d.start[:2]) for d in typo.validate()] == [
        ("Unsupported attribute", (1, 8)),
        ("Call to unknown function", (1, 19)),
    ]
    # Pickled programs keep their declarations.
    import pickle

    again = pickle.loads(pickle.dumps(policy))
    assert again.evaluate({"request": {"user": "bo", "amount": 10, "tags": ["x"]}}).value is False


def test_invalid_type_constraints_are_compile_errors():
    with pytest.raises(hclvm.CompileError) as info:
        hclvm.compile_expression("x", declared={"x": "lisst(string)"})
    assert info.value.diagnostics[0].summary == "Invalid type specification"
