#!/usr/bin/env python3
"""Peak memory per source byte: large inputs, an address-space limit, the corpus.

Runs the `hclvm` binary on generated inputs and reports each run's peak
resident memory (the kernel's ru_maxrss for the child) against the size
of its source:

- a body of 1,000,000 attributes (`attr_N = "value N"`, 28.8 MB),
- a string literal of 50 MB,

each with `check` (parse), `eval` (parse, compile, evaluate, write the
JSON) and `eval` under an address-space limit of 1 GiB (RLIMIT_AS, as
`ulimit -v 1048576`), which must succeed. Then every corpus file
(`../shared/corpus`, if present) with `eval`, reporting the peaks, and
for files of 16 KB or more the peak over the process's own baseline (the
peak of evaluating an empty file) per source byte.

    python3 benches/memory.py [HCLVM] [--no-corpus]

Default binary: target/release/hclvm. The targets (issue 16): compiling a
body peaks at no more than 8x its source, evaluating and writing it at no
more than 16x, a string literal at no more than 3x its length.
"""

import os
import resource
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CORPUS = os.path.join(os.path.dirname(ROOT), "shared", "corpus")
ONE_GIB = 1 << 30


def peak_of(cmd, limit_as=None):
    """(exit status, peak resident bytes) of running `cmd`, output discarded."""

    def limit():
        if limit_as is not None:
            resource.setrlimit(resource.RLIMIT_AS, (limit_as, limit_as))

    # stderr to a file, not a pipe: a child that writes more than a pipe
    # holds would wait for a reader while this process waits for it.
    with open(os.devnull, "wb") as null, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, stdout=null, stderr=err, preexec_fn=limit)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        text = err.read(4096).decode("utf-8", "replace")
    return proc.returncode, usage.ru_maxrss * 1024, text


def write_inputs(tmp):
    body = os.path.join(tmp, "million.hcl")
    with open(body, "w") as f:
        for i in range(1_000_000):
            f.write(f'attr_{i} = "value {i}"\n')
    literal = os.path.join(tmp, "literal.hcl")
    with open(literal, "w") as f:
        f.write('s = "' + "x" * 50_000_000 + '"\n')
    empty = os.path.join(tmp, "empty.hcl")
    open(empty, "w").close()
    return [("1,000,000 attributes", body), ("50 MB string literal", literal)], empty


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    hclvm = args[0] if args else os.path.join(ROOT, "target", "release", "hclvm")
    if not os.access(hclvm, os.X_OK):
        sys.exit(f"memory.py: no hclvm at {hclvm} (cargo build --release)")
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        inputs, empty = write_inputs(tmp)
        _, baseline, _ = peak_of([hclvm, "eval", empty])
        print(f"baseline (eval of an empty file): {baseline / 1e6:.1f} MB")
        print("(peak resident memory; the ratio is of the peak over the baseline to the source size)")
        print(f"{'input':<22} {'size':>9} {'check':>17} {'eval':>17} {'eval, 1 GiB AS':>17}")
        for name, path in inputs:
            size = os.path.getsize(path)
            cells = []
            for cmd, limit in (("check", None), ("eval", None), ("eval", ONE_GIB)):
                code, peak, err = peak_of([hclvm, cmd, path], limit)
                if code != 0:
                    failed = True
                    cells.append(f"exit {code}")
                    print(f"  {cmd} {name}: {err.strip()[:200]}", file=sys.stderr)
                else:
                    cells.append(f"{peak / 1e6:.0f} MB {(peak - baseline) / size:.1f}x")
            print(f"{name:<22} {size / 1e6:>7.1f}MB {cells[0]:>17} {cells[1]:>17} {cells[2]:>17}")
        if "--no-corpus" not in sys.argv and os.path.isdir(CORPUS):
            files = []
            for d, _, names in os.walk(CORPUS):
                files += [os.path.join(d, n) for n in names if n.endswith((".hcl", ".tf", ".tfvars", ".nomad", ".pkr.hcl", ".tmpl", ".tftpl", ".tpl"))]
            peaks, ratios = [], []
            for path in sorted(files):
                size = os.path.getsize(path)
                if size == 0:
                    continue
                _, peak, _ = peak_of([hclvm, "eval", path])
                peaks.append((peak, path))
                # Small files measure the baseline's noise, not themselves.
                if size >= 16 << 10:
                    ratios.append((max(peak - baseline, 0) / size, path))
            if peaks:
                peaks.sort()
                print(
                    f"corpus: {len(peaks)} files, eval peak: median {statistics.median(p for p, _ in peaks) / 1e6:.1f} MB, "
                    f"max {peaks[-1][0] / 1e6:.1f} MB ({os.path.relpath(peaks[-1][1], CORPUS)})"
                )
            if ratios:
                ratios.sort()
                print(
                    f"corpus files of 16 KB or more: {len(ratios)}, eval peak over baseline per source byte: "
                    f"median {statistics.median(r for r, _ in ratios):.1f}x, "
                    f"max {ratios[-1][0]:.1f}x ({os.path.relpath(ratios[-1][1], CORPUS)})"
                )
        elif "--no-corpus" not in sys.argv:
            print(f"corpus: skipped ({CORPUS} is absent)")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
