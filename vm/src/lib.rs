//! hclvm instruction set and interpreter.
