resource "ctl\u0001\u0007" "nbsp\u00a0" "ls\u2028" "del\u007f" "\u00e9" {
  x = 1 2
}
