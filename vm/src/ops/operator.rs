//! Binary and unary operators. hcl converts each operand to the operator
//! function's parameter type (reporting both operands if both fail), then
//! calls the cty stdlib function, whose call machinery rejects nulls before
//! anything else and answers an unknown of the result type when an operand
//! is unknown, except for the functions that take unknowns: `==`/`!=`
//! (any values) and the comparisons, which can answer from the operands'
//! refinements. Every operator function's result is known not to be null,
//! so an unknown result says so.

use super::{Blame, OpDiag, OpError, OpResult};
use runtime::convert::convert;
use runtime::number::NumberError;
use runtime::{Type, Value};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Mod,
    Eq,
    NotEq,
    Lt,
    Le,
    Gt,
    Ge,
    And,
    /// The last (`BinaryOp::COUNT`).
    Or,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnaryOp {
    /// `-x`
    Neg,
    /// `!x`
    Not,
}

impl BinaryOp {
    /// How many operators there are.
    const COUNT: usize = BinaryOp::Or as usize + 1;

    /// Whether the operator is arithmetic (its result a number).
    #[inline(always)]
    pub fn is_arithmetic(self) -> bool {
        matches!(self, BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::Mod)
    }

    /// The type both operands are converted to (`None`: no conversion).
    fn param_type(self) -> Option<Type> {
        match self {
            BinaryOp::Add | BinaryOp::Sub | BinaryOp::Mul | BinaryOp::Div | BinaryOp::Mod => Some(Type::Number),
            BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge => Some(Type::Number),
            BinaryOp::And | BinaryOp::Or => Some(Type::Bool),
            BinaryOp::Eq | BinaryOp::NotEq => None,
        }
    }

    /// The operation's result type (hcl's `Operation.Type`), also the type
    /// of the unknown that stands for the result after an error.
    pub fn result_type(self) -> Type {
        if self.is_arithmetic() {
            Type::Number
        } else {
            Type::Bool
        }
    }
}

impl UnaryOp {
    pub fn result_type(self) -> Type {
        match self {
            UnaryOp::Neg => Type::Number,
            UnaryOp::Not => Type::Bool,
        }
    }
}

const INVALID_OPERAND: &str = "Invalid operand";
const OPERATION_FAILED: &str = "Operation failed";

fn operation_failed(message: &dyn std::fmt::Display, result_type: Type) -> Box<OpError> {
    OpError::one(OpDiag::new(OPERATION_FAILED, format!("Error during operation: {message}."), Blame::Expr), Value::unknown(result_type))
}

/// Converts an operand to its parameter type, or explains why it can't be.
fn convert_operand(v: &Value, want: &Type, which: &str, operand: u8) -> Result<Value, OpDiag> {
    if v.has_type(want) {
        return Ok(v.clone());
    }
    convert(v, want)
        .map_err(|e| OpDiag::new(INVALID_OPERAND, format!("Unsuitable value for {which} operand: {e}."), Blame::Operand(operand)).in_expr())
}

/// Applies a binary operator to operands whose own evaluation succeeded.
pub fn binary(op: BinaryOp, lhs: &Value, rhs: &Value) -> OpResult {
    binary_checked(op, lhs, rhs, false)
}

/// Applies a binary operator; `operands_failed`: evaluating an operand
/// reported errors. hcl then still reports operands that don't convert,
/// but never calls the operation: the result is an unknown of the result
/// type (an `Err` whose diagnostics may be empty).
pub fn binary_checked(op: BinaryOp, lhs: &Value, rhs: &Value, operands_failed: bool) -> OpResult {
    if !operands_failed {
        if let Some(v) = binary_fast(op, lhs, rhs) {
            return Ok(v);
        }
    }
    let Some(want) = op.param_type() else {
        if operands_failed {
            return Err(Box::new(OpError { diags: Vec::new(), fallback: Value::unknown(Type::Bool) }));
        }
        // `==` and `!=` take any values, unknown and null included.
        let eq = lhs.equals_tri(rhs);
        return Ok(match (op, eq) {
            (_, runtime::Tri::Unknown) => not_null_unknown(Type::Bool),
            (BinaryOp::NotEq, t) => Value::Bool(t == runtime::Tri::False),
            (_, t) => Value::Bool(t == runtime::Tri::True),
        });
    };
    let result_type = op.result_type();
    let l = convert_operand(lhs, &want, "left", 0);
    let r = convert_operand(rhs, &want, "right", 1);
    let (l, r) = match (l, r) {
        (Ok(l), Ok(r)) if !operands_failed => (l, r),
        (l, r) => {
            let diags = [l.err(), r.err()].into_iter().flatten().collect();
            return Err(Box::new(OpError { diags, fallback: Value::unknown(result_type) }));
        }
    };
    if l.is_null() || r.is_null() {
        return Err(operation_failed(&"argument must not be null", result_type));
    }
    if !l.is_known() || !r.is_known() {
        // The comparisons take unknowns and may decide from the operands'
        // ranges; the other operator functions short-circuit.
        let compared = match op {
            BinaryOp::Lt => l.less_than(&r),
            BinaryOp::Gt => l.greater_than(&r),
            BinaryOp::Le => l.less_than_or_equal(&r),
            BinaryOp::Ge => l.greater_than_or_equal(&r),
            _ => return Ok(not_null_unknown(result_type)),
        };
        return compared.map(Value::refine_not_null).map_err(|e| operation_failed(&e, result_type));
    }
    apply_known(op, &l, &r)
}

/// The unknown result of an operator function: never null.
fn not_null_unknown(ty: Type) -> Value {
    Value::unknown(ty).refine_not_null()
}

/// `lhs op rhs` when it succeeds on two known operands of one primitive
/// type that need no conversion (the evaluator's hot path: no allocation,
/// operands by reference); `None` for everything else, errors included:
/// use [`binary`] then.
#[inline(always)]
pub fn binary_fast(op: BinaryOp, lhs: &Value, rhs: &Value) -> Option<Value> {
    if !op.is_arithmetic() {
        return compare_fast(op, lhs, rhs).map(Value::Bool);
    }
    match (lhs, rhs) {
        // (Numbers of high precision go the slow way, which takes the
        // work their arithmetic notes.)
        (Value::Number(a), Value::Number(b)) if !a.is_costly() && !b.is_costly() => apply_known(op, lhs, rhs).ok(),
        _ => None,
    }
}

/// [`binary_fast`] for the operators whose result is a bool (comparisons
/// and logic), giving the bool: the common cases decided inline, strings
/// compared for equality, integers that fit a machine word, bools.
///
/// Comparisons are decided by their operator's [`holds_for`] bits rather
/// than a `match` on the operator: one code path for the six of them,
/// without the jump the match would make (mispredicted when one site
/// serves several operators, as the fast lane's does); only `&&` and `||`
/// and numbers beyond a machine word look at the operator itself.
#[inline(always)]
pub fn compare_fast(op: BinaryOp, lhs: &Value, rhs: &Value) -> Option<bool> {
    use Value::{Bool, Number as Num, String as Str};
    let holds = holds_for(op);
    // Bit `i` of `holds`: whether the comparison holds at ordering `i`.
    let at = |i: u8| (holds >> i) & 1 != 0;
    match (lhs, rhs) {
        // Equality only (`i`: 1 equal, 0 not).
        (Str(a), Str(b)) if holds == EQ || holds == NE => Some(at(u8::from(str_eq(a.as_str(), b.as_str())))),
        (Num(a), Num(b)) => match (a.as_small(), b.as_small()) {
            // `Number::cmp` and `Number::equals` on two small numbers.
            (Some(x), Some(y)) if holds != 0 => Some(at(u8::from(x >= y) + u8::from(x > y))),
            (Some(_), Some(_)) => None,
            _ => compare_fast_numbers(op, lhs, rhs),
        },
        (Bool(a), Bool(b)) => match op {
            BinaryOp::And => Some(*a && *b),
            BinaryOp::Or => Some(*a || *b),
            _ if holds == EQ || holds == NE => Some(at(u8::from(a == b))),
            _ => None,
        },
        _ => None,
    }
}

const EQ: u8 = 0b010;
const NE: u8 = 0b101;

/// The orderings at which comparison `op` holds: bit 0 less, bit 1 equal,
/// bit 2 greater; 0 for the operators that do not compare.
///
/// A table indexed by the operator: written as a `match`, the compiler
/// did not make it one (micro: 793 -> 846 machine instructions per
/// evaluation).
#[inline(always)]
fn holds_for(op: BinaryOp) -> u8 {
    const HOLDS: [u8; BinaryOp::COUNT] = {
        let mut t = [0u8; BinaryOp::COUNT];
        t[BinaryOp::Eq as usize] = EQ;
        t[BinaryOp::NotEq as usize] = NE;
        t[BinaryOp::Lt as usize] = 0b001;
        t[BinaryOp::Le as usize] = 0b011;
        t[BinaryOp::Gt as usize] = 0b100;
        t[BinaryOp::Ge as usize] = 0b110;
        t
    };
    HOLDS[op as usize]
}

/// String equality; short strings (most compared ones: names, enums)
/// byte by byte inline instead of through `memcmp`.
#[inline(always)]
fn str_eq(a: &str, b: &str) -> bool {
    let (a, b) = (a.as_bytes(), b.as_bytes());
    if a.len() != b.len() {
        return false;
    }
    if a.len() <= 8 {
        a.iter().zip(b).all(|(x, y)| x == y)
    } else {
        a == b
    }
}

/// [`compare_fast`] on two numbers that are not both small.
#[inline(never)]
fn compare_fast_numbers(op: BinaryOp, lhs: &Value, rhs: &Value) -> Option<bool> {
    match (op, lhs, rhs) {
        // (So do numbers of high precision, whose comparison notes work.)
        (_, Value::Number(a), Value::Number(b)) if a.is_costly() || b.is_costly() => None,
        // (Numbers compared by their texts go the slow way, which charges
        // the work of writing them.)
        (BinaryOp::Eq | BinaryOp::NotEq, Value::Number(a), Value::Number(b)) => a.equals_by_value(b).map(|eq| eq == (op == BinaryOp::Eq)),
        (BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge, _, _) => match apply_known(op, lhs, rhs) {
            Ok(Value::Bool(b)) => Some(b),
            _ => None,
        },
        _ => None,
    }
}

/// The operator function's body, for known non-null operands of the
/// parameter type.
fn apply_known(op: BinaryOp, l: &Value, r: &Value) -> OpResult {
    match (op, l, r) {
        (BinaryOp::And, Value::Bool(a), Value::Bool(b)) => return Ok(Value::Bool(*a && *b)),
        (BinaryOp::Or, Value::Bool(a), Value::Bool(b)) => return Ok(Value::Bool(*a || *b)),
        _ => {}
    }
    let (Value::Number(a), Value::Number(b)) = (l, r) else {
        return Err(operation_failed(&"a number is required", op.result_type()));
    };
    let n: Result<runtime::Number, NumberError> = match op {
        BinaryOp::Add => a.add(b),
        BinaryOp::Sub => a.sub(b),
        BinaryOp::Mul => a.mul(b),
        BinaryOp::Div => a.div(b),
        BinaryOp::Mod => a.rem(b),
        BinaryOp::Lt => return Ok(Value::Bool(a.cmp(b).is_lt())),
        BinaryOp::Gt => return Ok(Value::Bool(a.cmp(b).is_gt())),
        // cty: less-than, or equal by printed text (so two numbers of
        // different precision that print alike compare both ways).
        BinaryOp::Le => return Ok(Value::Bool(a.ordered_or_equal(b, std::cmp::Ordering::Less))),
        BinaryOp::Ge => return Ok(Value::Bool(a.ordered_or_equal(b, std::cmp::Ordering::Greater))),
        _ => return Err(operation_failed(&"a bool is required", op.result_type())),
    };
    n.map(Value::Number).map_err(|e| operation_failed(&e, op.result_type()))
}

/// Whether an operator diagnostic is an operand's conversion error
/// ("Invalid operand"), which hcl ≥ v2.21 lists before the operands' own
/// diagnostics ([`logical_short_circuit`]).
pub fn is_operand_conversion(d: &OpDiag) -> bool {
    d.summary == INVALID_OPERAND
}

/// Which operand's diagnostics a short-circuit result keeps (hcl's
/// `Operation.ShortCircuit` returns the diagnostics "of the side which was
/// taken" and drops the other side's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Keep {
    Left,
    Right,
}

/// The outcome of `&&` or `||` with hcl ≥ v2.21's short-circuit
/// (`BinaryOpExpr.Value` with `OpLogicalAnd`/`OpLogicalOr.ShortCircuit`,
/// hashicorp/hcl #713 and #719).
#[derive(Debug)]
pub enum Logic {
    /// One operand decides: this value, with that operand's diagnostics
    /// only.
    Decided(Value, Keep),
    /// An operand does not convert to bool: these conversion errors come
    /// first, then both operands' diagnostics; the value is the fallback.
    Invalid(Box<OpError>),
    /// Neither decides: both operands' diagnostics, then this result (an
    /// unknown bool without refinements when an operand reported errors,
    /// else the operator function's result or its failure).
    Applied(OpResult),
}

/// Whether `&&` (`or` false) or `||` (`or` true) is decided by its left
/// operand `lhs` alone, whatever the right operand is, provided that the
/// right operand converts to bool: a known `false` (or `null`, which cty's
/// `False()` counts as false) for `&&`, a known `true` for `||`.
#[inline]
pub fn left_decides(or: bool, lhs: &Value) -> bool {
    match lhs {
        Value::Bool(b) => *b == or,
        _ if !lhs.is_known() => false,
        _ => match convert(lhs, &Type::Bool) {
            Ok(Value::Bool(b)) => b == or,
            Ok(v) => !or && v.is_null(),
            Err(_) => false,
        },
    }
}

/// `lhs && rhs` (`or` false) or `lhs || rhs` (`or` true) as hcl ≥ v2.21
/// evaluates it, both operands evaluated; `lhs_failed` / `rhs_failed`:
/// that operand's evaluation reported errors.
///
/// After converting both operands to bool (a failure is [`Logic::Invalid`]),
/// the first rule that applies decides (`&&` shown; `||` swaps true and
/// false):
/// 1. both unknown: an unknown bool known not to be null with the left
///    operand's diagnostics, unless the left operand failed (then no rule
///    decides, so that both sides' diagnostics are kept);
/// 2. the left operand is known and false (or null): `false`, left's;
/// 3. the right operand is known and false (or null): `false`, right's;
/// 4. the left operand is unknown and the right one true: an unknown
///    known not to be null, left's;
/// 5. the right operand is unknown and the left one true: the same,
///    right's;
///
/// and otherwise [`Logic::Applied`]: `true && true`, `||` of two known
/// operands that are false or null (null fails as in v2.20), or both
/// unknown with the left one failed.
pub fn logical_short_circuit(or: bool, lhs: &Value, rhs: &Value, lhs_failed: bool, rhs_failed: bool) -> Logic {
    let l = convert_operand(lhs, &Type::Bool, "left", 0);
    let r = convert_operand(rhs, &Type::Bool, "right", 1);
    let (l, r) = match (l, r) {
        (Ok(l), Ok(r)) => (l, r),
        (l, r) => {
            let diags = [l.err(), r.err()].into_iter().flatten().collect();
            return Logic::Invalid(Box::new(OpError { diags, fallback: Value::unknown(Type::Bool) }));
        }
    };
    // cty's `True()` of a known bool; `False()` is its negation, so true
    // of null too.
    let is_true = |v: &Value| matches!(v, Value::Bool(true));
    // The value that decides: `true` for `||`, `false` (or null) for `&&`.
    let decides = |v: &Value| if or { is_true(v) } else { !is_true(v) };
    let unknown = || Value::unknown(Type::Bool).refine_not_null();
    let (lk, rk) = (l.is_known(), r.is_known());
    if !lk && !rk {
        if !lhs_failed {
            return Logic::Decided(unknown(), Keep::Left);
        }
    } else if lk && decides(&l) {
        return Logic::Decided(Value::Bool(or), Keep::Left);
    } else if rk && decides(&r) {
        return Logic::Decided(Value::Bool(or), Keep::Right);
    } else if !lk {
        // The right operand is known and does not decide.
        return Logic::Decided(unknown(), Keep::Left);
    } else if !rk {
        return Logic::Decided(unknown(), Keep::Right);
    }
    if lhs_failed || rhs_failed {
        return Logic::Applied(Err(Box::new(OpError { diags: Vec::new(), fallback: Value::unknown(Type::Bool) })));
    }
    let op = if or { BinaryOp::Or } else { BinaryOp::And };
    Logic::Applied(binary_checked(op, &l, &r, false))
}

/// Applies a unary operator to an operand whose evaluation succeeded.
pub fn unary(op: UnaryOp, v: &Value) -> OpResult {
    unary_checked(op, v, false)
}

/// Applies a unary operator; `operand_failed` as in [`binary_checked`].
pub fn unary_checked(op: UnaryOp, v: &Value, operand_failed: bool) -> OpResult {
    if operand_failed {
        let result_type = op.result_type();
        let diags = convert_operand(v, &result_type, "unary", 0).err().into_iter().collect();
        return Err(Box::new(OpError { diags, fallback: Value::unknown(result_type) }));
    }
    match (op, v) {
        (UnaryOp::Neg, Value::Number(n)) => return Ok(Value::Number(n.neg())),
        (UnaryOp::Not, Value::Bool(b)) => return Ok(Value::Bool(!b)),
        _ => {}
    }
    let result_type = op.result_type();
    let v = match convert_operand(v, &result_type, "unary", 0) {
        Ok(v) => v,
        Err(d) => return Err(OpError::one(d, Value::unknown(result_type))),
    };
    if v.is_null() {
        return Err(operation_failed(&"argument must not be null", result_type));
    }
    match (op, &v) {
        (UnaryOp::Neg, Value::Number(n)) => Ok(Value::Number(n.neg())),
        (UnaryOp::Not, Value::Bool(b)) => Ok(Value::Bool(!b)),
        // Unknown of the parameter type (conversion leaves nothing else).
        _ => Ok(not_null_unknown(result_type)),
    }
}
