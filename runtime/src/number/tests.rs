// table tests: filled in below
