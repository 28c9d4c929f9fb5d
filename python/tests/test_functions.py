"""Host functions written in Python."""

import decimal

import hclvm


def double(n):
    return n * 2


def test_host_functions_are_called_with_converted_arguments():
    functions = {
        "double": hclvm.Function(double, params=[("n", "number")], returns="number", pure=True),
        "greet": hclvm.Function(lambda who, *rest: "hi " + who + "".join(rest), params=[("who", "string")], variadic=("rest", "string"), returns="string"),
    }
    program = hclvm.compile_expression('[double(21), double("2.5"), greet("a", "b", "c")]', functions=functions)
    assert program.evaluate().check().value == [42, decimal.Decimal("5"), "hi abc"]


def test_exceptions_become_diagnostics():
    def boom(x):
        raise ValueError("bad input: " + x)

    program = hclvm.compile_expression('boom("x")', functions={"boom": hclvm.Function(boom, [("x", "string")], "string")})
    out = program.evaluate()
    assert out.has_errors
    d = out.diagnostics[0]
    assert d.summary == "Error in function call"
    assert "ValueError: bad input: x" in d.detail
    assert d.start == (1, 1, 0)


def test_results_convert_to_the_declared_type():
    program = hclvm.compile_expression("f()", functions={"f": hclvm.Function(lambda: 12, [], "string")})
    assert program.evaluate().value == "12"
    program = hclvm.compile_expression("f()", functions={"f": hclvm.Function(lambda: "x", [], "number")})
    out = program.evaluate()
    assert out.has_errors and "not a number" in out.diagnostics[0].detail


def test_wrong_arguments_are_hcl_errors():
    program = hclvm.compile_expression("double()", functions={"double": hclvm.Function(double, [("n", "number")], "number")})
    assert program.evaluate().diagnostics[0].summary == "Not enough function arguments"


def test_functions_are_called_from_evaluate_many_threads():
    program = hclvm.compile_expression("double(n)", functions={"double": hclvm.Function(double, [("n", "number")], "number")})
    outs = program.evaluate_many([{"n": i} for i in range(200)], jobs=2)
    assert [o.value for o in outs] == [2 * i for i in range(200)]
