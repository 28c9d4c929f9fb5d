blah {
