block "invalid ${not_allowed_here} foo" {}
