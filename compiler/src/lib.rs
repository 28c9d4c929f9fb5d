//! hclvm front end: lexer, parser, arena AST, static analysis, lowering to bytecode.
