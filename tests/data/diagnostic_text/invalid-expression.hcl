a = !
true
