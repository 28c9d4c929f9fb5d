b "x
y" {
}
