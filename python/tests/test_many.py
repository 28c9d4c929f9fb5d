"""evaluate_many and evaluate_jsonl equal a loop of evaluate."""

import json

import hclvm

POLICY = """
allowed = request.user.role == "admin" || contains(request.user.groups, "ops")
message = "user ${request.user.name} may not ${request.action}"
amount  = request.amount * 1.5
"""


def requests(n):
    return [
        {"request": {"user": {"name": f"u{i}", "role": "admin" if i % 3 == 0 else "dev", "groups": ["ops"] if i % 5 == 0 else []}, "action": "read", "amount": i}}
        for i in range(n)
    ]


def test_evaluate_many_equals_a_loop():
    program = hclvm.compile_body(POLICY)
    inputs = requests(500)
    want = [program.evaluate(v).value for v in inputs]
    for jobs in (1, 2, 4):
        assert [e.value for e in program.evaluate_many(inputs, jobs=jobs)] == want


def test_evaluate_jsonl_equals_a_loop():
    program = hclvm.compile_body(POLICY)
    inputs = requests(300)
    lines = [json.dumps(v) for v in inputs]
    want = [program.evaluate(v).value for v in inputs]
    assert [e.value for e in program.evaluate_jsonl(lines, jobs=2)] == want
    assert [e.value for e in program.evaluate_jsonl([l.encode() for l in lines], jobs=1)] == want


def test_bad_lines_fail_alone():
    program = hclvm.compile_expression("x + 1")
    outs = program.evaluate_jsonl(['{"x": 1}', "not json", '{"x": {"type": "number", "value": 2}}'])
    assert outs[0].value == 2
    assert outs[1].has_errors and outs[1].diagnostics[0].summary == "Invalid variables"
    assert outs[2].value == 3


def test_errors_are_per_evaluation():
    program = hclvm.compile_expression("x + 1")
    outs = program.evaluate_many([{"x": 1}, {"x": "no"}, {}])
    assert [o.has_errors for o in outs] == [False, True, True]
    assert outs[2].diagnostics[0].summary == "Unknown variable"


def test_bad_inputs_name_their_position():
    import pytest

    program = hclvm.compile_expression("x")
    with pytest.raises(TypeError, match=r"variables_list\[1\]"):
        program.evaluate_many([{"x": 1}, {"x": object()}])
