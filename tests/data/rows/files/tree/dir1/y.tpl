content of tree/dir1/y.tpl
