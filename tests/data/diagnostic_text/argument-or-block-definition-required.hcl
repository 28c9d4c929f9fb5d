<<EOT
hello world
EOT
