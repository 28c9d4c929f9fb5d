//! tostring tonumber tobool tolist toset tomap (cty `stdlib.MakeToFunc`)

use super::{FnError, FunctionDef, Param, Signature};
use crate::convert::{convert, get_conversion_unsafe, mismatch_message};
use crate::strings::go_quote;
use crate::types::Type;
use crate::value::Value;
use std::sync::Arc;

pub fn to_func(name: &str, want: Type) -> FunctionDef {
    let want_t = want.clone();
    let return_type = Arc::new(move |args: &[Value]| -> Result<Type, FnError> {
        let got = args[0].ty();
        if got == want_t {
            return Ok(want_t.clone());
        }
        if get_conversion_unsafe(&got, &want_t).is_none() {
            return Err(match (&got, &want_t) {
                (Type::Tuple(_), Type::Tuple(_)) => {
                    FnError::arg(0, format!("incompatible tuple type for conversion: {}", mismatch_message(&got, &want_t)))
                }
                (Type::Object(_), Type::Object(_)) => {
                    FnError::arg(0, format!("incompatible object type for conversion: {}", mismatch_message(&got, &want_t)))
                }
                _ => FnError::arg(0, format!("cannot convert {} to {}", got.friendly_name(), want_t.friendly_name_for_constraint())),
            });
        }
        Ok(want_t.clone())
    });
    let want_i = want.clone();
    let imp = Arc::new(move |args: &[Value], ret: &Type, _: &mut super::CallCtx| -> Result<Value, FnError> {
        convert(&args[0], ret).map_err(|_| {
            let got = args[0].ty();
            let what = || match &args[0] {
                Value::String(s) => go_quote(s),
                _ => "string".to_string(),
            };
            match (&got, &want_i) {
                (Type::String, Type::Bool) => {
                    FnError::arg(0, format!("cannot convert {} to bool; only the strings \"true\" or \"false\" are allowed", what()))
                }
                (Type::String, Type::Number) => FnError::arg(
                    0,
                    format!("cannot convert {} to number; given string must be a decimal representation of a number", what()),
                ),
                _ => FnError::arg(0, format!("cannot convert {} to {}", got.friendly_name(), want_i.friendly_name_for_constraint())),
            }
        })
    });
    FunctionDef {
        name: name.to_string(),
        signature: Signature { params: vec![Param::new("v", Type::Dynamic).null()], var_param: None, pure: true },
        return_type,
        imp,
        refine: None,
    }
}
