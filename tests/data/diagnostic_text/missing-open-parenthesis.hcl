locals {
  arn = provider::aws::arn_parse
}
