a = <<EOT
one
EOT