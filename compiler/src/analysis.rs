pub fn variables() {}
