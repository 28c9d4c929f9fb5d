value = provider::aws::
  "x"
