#!/usr/bin/env python3
"""The Python package against the Rust API, on the shared policy workload.

usage: benches/python_bench.py [ROUNDS]   (in a virtualenv with hclvm, dask)
env:   HCLVM_SHARED (default ../shared next to the repository)

Prints, per round (compare ratios within one run; the machines are noisy):
- the Rust API's time per request (`hclvm bench`, variables bound once);
- Python `Program.evaluate(dict)` per request (dicts decoded beforehand);
- `Program.evaluate_jsonl(lines)` per request (JSON decoded in Rust);
- `evaluate_many` throughput with 1 and 2 jobs;
- Dask (LocalCluster, processes) with 1 and 2 workers, evaluate_many per
  partition;
- python-hcl2 parsing the shared corpus's .tf files, if it is installed,
  next to hclvm compiling them.
"""
import json
import os
import subprocess
import sys
import time

import hclvm

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
shared = os.environ.get("HCLVM_SHARED", os.path.join(os.path.dirname(root), "shared"))
bench = os.path.join(shared, "bench", "policy")
rounds = int(sys.argv[1]) if len(sys.argv) > 1 else 3


def rust_ns_per_eval():
    binary = os.path.join(root, "target", "release", "hclvm")
    out = subprocess.run(
        [binary, "bench", "--mode", "body", "--src", os.path.join(bench, "policy.hcl"), "--vars-jsonl", os.path.join(bench, "requests.jsonl"), "--iters", "20000"],
        capture_output=True, text=True, check=True,
    ).stdout
    return json.loads(out)["ns_per_eval"]


def timed(f):
    t = time.perf_counter()
    r = f()
    return time.perf_counter() - t, r


def evaluate_part(program, lines):
    return sum(e.has_errors for e in program.evaluate_jsonl(lines, jobs=1))


def dask_seconds(program, lines, workers):
    from dask.distributed import Client, LocalCluster

    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, Client(cluster) as client:
        program_future = client.scatter(program, broadcast=True)
        parts = [lines[i : i + 1000] for i in range(0, len(lines), 1000)]
        part_futures = client.scatter(parts)
        client.gather([client.submit(evaluate_part, program_future, p, pure=False) for p in part_futures])  # warm up
        t, _ = timed(lambda: client.gather([client.submit(evaluate_part, program_future, p, pure=False) for p in part_futures]))
        return t


def main():
    src = open(os.path.join(bench, "policy.hcl")).read()
    lines = [l for l in open(os.path.join(bench, "requests.jsonl")).read().splitlines() if l.strip()]
    dicts = [json.loads(l) for l in lines]
    program = hclvm.compile_body(src, declared=sorted({k for d in dicts for k in d}))
    n = len(lines)
    for r in range(rounds):
        rust = rust_ns_per_eval()
        t_eval, _ = timed(lambda: [program.evaluate(d) for d in dicts])
        t_jsonl, _ = timed(lambda: program.evaluate_jsonl(lines, jobs=1))
        t_many1, _ = timed(lambda: program.evaluate_many(dicts, jobs=1))
        t_many2, _ = timed(lambda: program.evaluate_many(dicts, jobs=2))
        t_jsonl2, _ = timed(lambda: program.evaluate_jsonl(lines, jobs=2))
        print(f"round {r + 1}: rust {rust / 1000:.2f} us/request | python evaluate {t_eval / n * 1e6:.2f} us | evaluate_jsonl {t_jsonl / n * 1e6:.2f} us"
              f" | evaluate_many jobs1 {n / t_many1:,.0f}/s jobs2 {n / t_many2:,.0f}/s ({t_many1 / t_many2:.2f}x) | evaluate_jsonl jobs2 {n / t_jsonl2:,.0f}/s ({t_jsonl / t_jsonl2:.2f}x)")
    try:
        d1 = dask_seconds(program, lines * 10, 1)
        d2 = dask_seconds(program, lines * 10, 2)
        print(f"dask, {10 * n} requests: 1 worker {10 * n / d1:,.0f}/s, 2 workers {10 * n / d2:,.0f}/s ({d1 / d2:.2f}x)")
    except ImportError:
        print("dask: not installed")
    try:
        import hcl2
    except ImportError:
        print("python-hcl2: not installed")
        return
    corpus = os.path.join(shared, "corpus")
    files = []
    for d, _, names in os.walk(corpus):
        files += [os.path.join(d, f) for f in names if f.endswith(".tf")]
    texts = [open(f, encoding="utf-8", errors="replace").read() for f in files]
    ok = 0
    t_hcl2 = time.perf_counter()
    for text in texts:
        try:
            hcl2.loads(text)
            ok += 1
        except Exception:
            pass
    t_hcl2 = time.perf_counter() - t_hcl2
    t_ours = time.perf_counter()
    for text in texts:
        try:
            hclvm.compile_body(text)
        except hclvm.CompileError:
            pass
    t_ours = time.perf_counter() - t_ours
    mb = sum(len(t) for t in texts) / 1e6
    print(f"corpus: {len(texts)} .tf files, {mb:.1f} MB: python-hcl2 parses {ok} in {t_hcl2:.2f} s ({mb / t_hcl2:.2f} MB/s); hclvm compiles them in {t_ours:.2f} s ({mb / t_ours:.1f} MB/s, {t_hcl2 / t_ours:.0f}x)")


if __name__ == "__main__":
    main()
