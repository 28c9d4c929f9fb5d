"""Type stubs of hclvm (see the package docstring for value conversion)."""

from typing import Any, Callable, Iterable, Literal, Mapping, Optional, Sequence, Tuple, Union

__version__: str

Numbers = Literal["decimal", "float"]
Position = Tuple[int, int, int]

class Unknown:
    """An unknown value of a known type (go-cty JSON type syntax in ``type``)."""

    type: str
    def __init__(self, type: str = "dynamic") -> None: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...

class Diagnostic:
    """An error or warning, worded as hcl words it, with its source range."""

    severity: Literal["error", "warning"]
    summary: str
    detail: str
    filename: str
    start: Optional[Position]
    end: Optional[Position]

class Evaluation:
    """The outcome of one evaluation."""

    @property
    def value(self) -> Any: ...
    @property
    def diagnostics(self) -> list[Diagnostic]: ...
    @property
    def has_errors(self) -> bool: ...
    def check(self) -> "Evaluation": ...
    def render_diagnostics(self) -> str: ...

class Function:
    """A Python callable HCL expressions can call."""

    def __init__(
        self,
        callable: Callable[..., Any],
        params: Sequence[Tuple[str, str]],
        returns: str,
        *,
        variadic: Optional[Tuple[str, str]] = None,
        pure: bool = False,
    ) -> None: ...
    def __call__(self, *args: Any) -> Any: ...

class Program:
    """A compiled body, template or expression."""

    @property
    def kind(self) -> Literal["body", "template", "expression"]: ...
    @property
    def variable_names(self) -> list[str]: ...
    def evaluate(self, variables: Optional[Mapping[str, Any]] = None, *, numbers: Numbers = "decimal") -> Evaluation: ...
    def evaluate_many(
        self, variables_list: Iterable[Mapping[str, Any]], *, jobs: Optional[int] = None, numbers: Numbers = "decimal"
    ) -> list[Evaluation]: ...
    def evaluate_jsonl(
        self, lines: Iterable[Union[str, bytes]], *, jobs: Optional[int] = None, numbers: Numbers = "decimal"
    ) -> list[Evaluation]: ...
    def validate(self) -> list[Diagnostic]: ...
    def disassemble(self) -> str: ...

def compile_body(
    src: str,
    *,
    filename: Optional[str] = None,
    declared: Optional[Union[Sequence[str], Mapping[str, str]]] = None,
    functions: Optional[Mapping[str, Function]] = None,
    max_steps: Optional[int] = None,
    max_size: Optional[int] = None,
) -> Program: ...
def compile_template(
    src: str,
    *,
    filename: Optional[str] = None,
    declared: Optional[Union[Sequence[str], Mapping[str, str]]] = None,
    functions: Optional[Mapping[str, Function]] = None,
    max_steps: Optional[int] = None,
    max_size: Optional[int] = None,
) -> Program: ...
def compile_expression(
    src: str,
    *,
    filename: Optional[str] = None,
    declared: Optional[Union[Sequence[str], Mapping[str, str]]] = None,
    functions: Optional[Mapping[str, Function]] = None,
    max_steps: Optional[int] = None,
    max_size: Optional[int] = None,
) -> Program: ...
def render(template_src: str, variables: Optional[Mapping[str, Any]] = None, *, filename: Optional[str] = None) -> str: ...

class HclError(Exception):
    diagnostics: list[Diagnostic]
    rendered: str

class CompileError(HclError): ...
class EvaluationError(HclError): ...
