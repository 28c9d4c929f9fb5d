//! hclvm front end: lexer, parser, arena AST, static analysis, lowering to bytecode.

pub mod ast;
pub mod intern;

pub use intern::{Interner, Symbol};
