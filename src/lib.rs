//! hclvm: a fast, exact engine for HCL, the HashiCorp Configuration Language
//! (native syntax v2).

pub use compiler;
pub use runtime;
pub use vm;
