"""Programs pickle as source and options."""

import pickle

import hclvm


def shout(s):
    return s.upper() + "!"


def test_programs_survive_pickling():
    program = hclvm.compile_template("Hello ${shout(name)}", filename="hello.tmpl", max_steps=1000, functions={"shout": hclvm.Function(shout, [("s", "string")], "string")})
    again = pickle.loads(pickle.dumps(program))
    assert again.evaluate({"name": "x"}).value == "Hello X!"
    assert again.kind == "template"
    assert repr(again) == repr(program)


def test_a_process_compiles_a_program_once():
    program = hclvm.compile_expression("a + b", declared=["a", "b"])
    data = pickle.dumps(program)
    assert pickle.loads(data) is pickle.loads(data)


def test_unknowns_and_functions_pickle():
    u = pickle.loads(pickle.dumps(hclvm.Unknown("list(string)")))
    assert u == hclvm.Unknown("list(string)")
    f = pickle.loads(pickle.dumps(hclvm.Function(shout, [("s", "string")], "string", pure=True)))
    assert f("a") == "A!"
