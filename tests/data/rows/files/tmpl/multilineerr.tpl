x ${upper(
  1 +
  "a")}
