"""Render one nginx-like template for many sites, on Dask or Ray.

    python examples/python/render_sites.py dask [SITES] [WORKERS]
    python examples/python/render_sites.py ray  [SITES] [WORKERS]
    python examples/python/render_sites.py local [SITES]

The template is compiled once here; the program pickles as its source and
options, and each worker process compiles it once (hclvm keeps the
programs it unpickled), then renders its partitions with
``Program.evaluate_many``, which runs without the GIL. Sites are made on the
workers from their index, so only indexes and results cross the network.

On a real cluster the same code runs unchanged: give ``distributed.Client``
the scheduler's address (``Client("tcp://scheduler:8786")``) instead of a
``LocalCluster``, or ``ray.init(address="auto")`` on a Ray cluster; the
workers need the ``hclvm`` wheel installed. On Spark, the same function fits
``mapPartitions``::

    rdd = spark.sparkContext.range(0, n, numSlices=parts)
    texts = rdd.mapPartitions(lambda idx: (e.value for e in program.evaluate_many([site(i) for i in idx], jobs=1)))
"""

import sys
import time

import hclvm

TEMPLATE = """# generated for ${name}
upstream ${name}_backend {
%{ for u in upstreams ~}
  server ${u.host}:${u.port} weight=${u.weight}%{ if u.backup } backup%{ endif };
%{ endfor ~}
}
server {
  listen ${tls ? 443 : 80}${tls ? " ssl http2" : ""};
  server_name ${join(" ", domains)};
  client_max_body_size ${max_body_mb}m;
}
"""


def site(i):
    return {
        "name": f"site-{i}",
        "tls": i % 3 != 0,
        "domains": [f"site-{i}.example.com", f"www.site-{i}.example.com"],
        "max_body_mb": 16 + i % 48,
        "upstreams": [{"host": f"10.{i % 256}.{j}.1", "port": 8000 + j, "weight": 1 + (i + j) % 5, "backup": j == 2} for j in range(3)],
    }


def render_range(program, start, stop):
    """Renders sites start..stop; returns their total length (not the texts,
    to keep the example's network traffic small)."""
    return sum(len(e.check().value) for e in program.evaluate_many([site(i) for i in range(start, stop)], jobs=1))


def partitions(n, size):
    return [(s, min(s + size, n)) for s in range(0, n, size)]


def run_dask(program, n, workers):
    from dask.distributed import Client, LocalCluster

    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, Client(cluster) as client:
        program_future = client.scatter(program, broadcast=True)
        futures = [client.submit(render_range, program_future, s, e) for s, e in partitions(n, 10_000)]
        return sum(client.gather(futures))


def run_ray(program, n, workers):
    import ray

    ray.init(num_cpus=workers, include_dashboard=False, log_to_driver=False)
    try:
        task = ray.remote(render_range)
        ref = ray.put(program)
        return sum(ray.get([task.remote(ref, s, e) for s, e in partitions(n, 10_000)]))
    finally:
        ray.shutdown()


def main():
    engine = sys.argv[1] if len(sys.argv) > 1 else "local"
    n = int(sys.argv[2]) if len(sys.argv) > 2 else 1_000_000
    workers = int(sys.argv[3]) if len(sys.argv) > 3 else 2
    program = hclvm.compile_template(TEMPLATE, filename="site.tmpl")
    started = time.perf_counter()
    if engine == "dask":
        total = run_dask(program, n, workers)
    elif engine == "ray":
        total = run_ray(program, n, workers)
    else:
        total = render_range(program, 0, n)
    secs = time.perf_counter() - started
    print(f"{engine}: {n} sites, {total} bytes rendered, {secs:.2f} s, {n / secs:,.0f} sites/s")


if __name__ == "__main__":
    main()
