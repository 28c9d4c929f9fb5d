"""Rendering on a dask.distributed LocalCluster equals rendering here."""

import pytest

import hclvm

distributed = pytest.importorskip("distributed")

TEMPLATE = """server ${name} {
%{ for u in upstreams ~}
  upstream ${u.host}:${u.port}%{ if u.backup } backup%{ endif };
%{ endfor ~}
  tls ${tls ? "on" : "off"};
}
"""


def site(i):
    return {"name": f"site-{i}", "tls": i % 2 == 0, "upstreams": [{"host": f"10.0.{i % 256}.{j}", "port": 8000 + j, "backup": j == 2} for j in range(3)]}


def render_part(program, start, stop):
    return [e.check().value for e in program.evaluate_many([site(i) for i in range(start, stop)], jobs=1)]


def test_local_cluster_renders_like_one_process():
    program = hclvm.compile_template(TEMPLATE)
    n, part = 20_000, 2_500
    want = [e.value for e in program.evaluate_many([site(i) for i in range(n)])]
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        with distributed.Client(cluster) as client:
            futures = [client.submit(render_part, program, s, min(s + part, n)) for s in range(0, n, part)]
            got = [text for chunk in client.gather(futures) for text in chunk]
    assert got == want
