# An example configuration in HCL's native syntax.

service "api" {
  image    = "registry.example.com/api:${version}"
  replicas = max(2, length(regions))
  ports    = [8080, 8443]

  env = {
    LOG_LEVEL = debug ? "debug" : "info"
    REGIONS   = join(",", [for r in regions : upper(r) if r != "test"])
  }

  health_check {
    path     = "/healthz"
    interval = "${interval_seconds}s"
  }
}

service "worker" {
  image    = "registry.example.com/worker:${version}"
  replicas = length(regions) * 2
  queues   = { for i, q in ["high", "low"] : q => i }
}
