"""hclvm: a fast, exact engine for HCL, the HashiCorp Configuration Language.

Compile a configuration body, a template or an expression once, then
evaluate it as often as you like::

    import hclvm

    policy = hclvm.compile_expression('user.role == "admin" || contains(user.groups, "ops")')
    policy.evaluate({"user": {"role": "dev", "groups": ["ops"]}}).value   # True

Results are hashicorp/hcl v2.20.0's (with go-cty v1.13.0): the same values,
the same diagnostics. Values convert between Python and HCL as follows.

* In: ``None`` null, ``bool``, ``int``/``float``/``decimal.Decimal`` numbers
  (exact: an int's digits, a float's shortest repr, a Decimal's text),
  ``str``, ``list``/``tuple`` (a tuple), ``dict`` with string keys (an
  object), ``set``/``frozenset`` (a set), :class:`Unknown` (an unknown
  value of a type). Anything else raises ``TypeError`` naming where it is,
  e.g. ``variables["request"]["when"]``.
* Out: null ``None``, ``bool``, whole numbers ``int``, other numbers
  ``decimal.Decimal`` (``numbers="float"`` for floats), ``str``, lists and
  tuples ``list``, maps and objects ``dict``, sets ``frozenset`` (a ``list``
  when an element is a list or dict), unknowns :class:`Unknown`.

Programs pickle as their source and options, so Dask, Ray or Spark can ship
them to workers; a worker compiles a given program once.
"""

import collections
import pickle

from ._hclvm import (
    Diagnostic,
    Evaluation,
    Function,
    Program,
    Unknown,
    __version__,
)
from . import _hclvm

__all__ = [
    "CompileError",
    "Diagnostic",
    "Evaluation",
    "EvaluationError",
    "Function",
    "HclError",
    "Program",
    "Unknown",
    "__version__",
    "compile_body",
    "compile_expression",
    "compile_template",
    "render",
]


class HclError(Exception):
    """An error hclvm reports with diagnostics.

    ``diagnostics`` is the list of :class:`Diagnostic`; ``rendered`` is their
    text as hcl's diagnostic writer prints it (source lines and markers)."""

    def __init__(self, message, diagnostics=(), rendered=""):
        super().__init__(message)
        self.diagnostics = list(diagnostics)
        self.rendered = rendered


class CompileError(HclError):
    """The source has syntax errors (raised by ``compile_*``)."""


class EvaluationError(HclError):
    """An evaluation reported errors (raised by ``Evaluation.check()``)."""


def compile_body(src, *, filename=None, declared=None, functions=None, max_steps=None, max_size=None):
    """Compiles a configuration body (attributes and blocks) into a :class:`Program`.

    ``declared``: the variable names the host supplies, or a dict of names to
    type constraints. Raises :class:`CompileError`."""
    return _hclvm.program_from_state("body", src, filename, declared, functions, max_steps, max_size)


def compile_template(src, *, filename=None, declared=None, functions=None, max_steps=None, max_size=None):
    """Compiles a standalone template (such as a ``.tftpl`` file); see :func:`compile_body`."""
    return _hclvm.program_from_state("template", src, filename, declared, functions, max_steps, max_size)


def compile_expression(src, *, filename=None, declared=None, functions=None, max_steps=None, max_size=None):
    """Compiles one expression; see :func:`compile_body`."""
    return _hclvm.program_from_state("expression", src, filename, declared, functions, max_steps, max_size)


def render(template_src, variables=None, *, filename=None):
    """Renders a standalone template with ``variables`` and returns the text.

    Raises :class:`CompileError` or :class:`EvaluationError`."""
    return compile_template(template_src, filename=filename).evaluate(variables).check().value


# Programs unpickled in this process, by their pickled state: a worker that
# receives the same program with every task compiles it once.
_PROGRAMS = collections.OrderedDict()
_PROGRAMS_KEPT = 128


def _rebuild_program(kind, src, filename, declared, functions, max_steps, max_size):
    """Unpickles a :class:`Program`: compiled once per process and state."""
    key = pickle.dumps((kind, src, filename, declared, functions, max_steps, max_size))
    program = _PROGRAMS.get(key)
    if program is None:
        program = _hclvm.program_from_state(kind, src, filename, declared, functions, max_steps, max_size)
        _PROGRAMS[key] = program
        while len(_PROGRAMS) > _PROGRAMS_KEPT:
            _PROGRAMS.popitem(last=False)
    else:
        _PROGRAMS.move_to_end(key)
    return program


def _function_from(args, kwargs):
    """Unpickles a :class:`Function`."""
    return Function(*args, **kwargs)
