#!/usr/bin/env python3
"""Peak memory per source byte: large inputs, an address-space limit, the corpus.

Runs the `hclvm` binary on generated inputs and reports each run's peak
resident memory (the kernel's ru_maxrss for the child) against the size
of its source:

- the issue's body (issue 16): 1,000,000 attributes `kN = N`, one a line,
  N = 0..999999 (16.8 MB); the targets are judged against it first,
- a body of 1,000,000 attributes `attr_N = "value N"` (28.8 MB),
- a string literal of 50 MB,

each with `check` (parse), `eval` (parse, compile, evaluate, write the
JSON) and `eval` under an address-space limit of 1 GiB (RLIMIT_AS, as
`ulimit -v 1048576`), which must succeed. Then other shapes of large
source, against the same ratios but not judged (`--no-shapes` skips
them): a list of 300,000 CIDR strings, a list of 100,000 small objects,
200,000 one-attribute blocks, a tuple of 2,000,000 one-digit numbers, a
list of 1,000,000 one-character strings, and the two that are far over:
an object of 500,000 short attributes and a list of 500,000 objects of
one attribute (a node per key and value to parse, a value, an object
and a type per few bytes of source). Then every corpus file
(`../shared/corpus`, if present) with `eval`, reporting the peaks, and
for files of 16 KB or more the peak over the process's own baseline (the
peak of evaluating a tiny file) per source byte.

    python3 benches/memory.py [HCLVM] [--no-shapes] [--no-corpus]

Default binary: target/release/hclvm. The targets (issue 16), as peak
over the baseline per source byte: compiling a body (`check`) at no more
than 8x its source, evaluating and writing it (`eval`) at no more than
16x, a string literal's `eval` at no more than 3x its length. Each input
gets a verdict against them; the exit status is 1 when one is missed (or
a run fails).
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


# The child's ru_maxrss counts the memory of the process it was forked
# from (this interpreter, with the inputs it wrote) until it executes
# hclvm: measured through GNU time, a small process, where it exists.
TIME = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None


def peak_of(cmd, limit_as=None):
    """(exit status, peak resident bytes, start of stderr) of running `cmd`, output discarded."""

    def limit():
        if limit_as is not None:
            resource.setrlimit(resource.RLIMIT_AS, (limit_as, limit_as))

    if TIME is not None:
        cmd = [TIME, "-f", "maxrss_kib=%M", *cmd]
    # stderr to a file, not a pipe: a child that writes more than a pipe
    # holds would wait for a reader while this process waits for it.
    with open(os.devnull, "wb") as null, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, stdout=null, stderr=err, preexec_fn=limit)
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        text = err.read().decode("utf-8", "replace")
    peak = usage.ru_maxrss * 1024
    if TIME is not None:
        lines = text.rstrip("\n").split("\n")
        if lines and lines[-1].startswith("maxrss_kib="):
            peak = int(lines[-1].split("=", 1)[1]) * 1024
            text = "\n".join(lines[:-1])
    return proc.returncode, peak, text[:4096]


# (name, file name, writer, check target, eval target): targets are peak
# over the baseline per source byte, None where there is none.
def write_k_body(f):
    # The exact input: 16,777,780 bytes.
    f.write("".join(f"k{i} = {i}\n" for i in range(1_000_000)))


def write_attr_body(f):
    for i in range(1_000_000):
        f.write(f'attr_{i} = "value {i}"\n')


def write_literal(f):
    f.write('s = "' + "x" * 50_000_000 + '"\n')


INPUTS = [
    ("1,000,000 x `kN = N`", "k1m.hcl", write_k_body, 8.0, 16.0),
    ("1,000,000 attributes", "million.hcl", write_attr_body, 8.0, 16.0),
    ("50 MB string literal", "literal.hcl", write_literal, None, 3.0),
]


def write_cidrs(f):
    f.write("cidrs = [" + ", ".join(f'"10.{i >> 16}.{(i >> 8) & 255}.{i & 255}/32"' for i in range(300_000)) + "]\n")


def write_objects(f):
    f.write("users = [" + ", ".join(f'{{ name = "u{i}", id = {i} }}' for i in range(100_000)) + "]\n")


def write_blocks(f):
    f.write("".join(f'b "x{i}" {{ a = {i} }}\n' for i in range(200_000)))


def write_digits(f):
    f.write("a = [" + "1," * 2_000_000 + "]\n")


def write_short_strings(f):
    f.write("a = [" + ",".join(f'"{i % 10}"' for i in range(1_000_000)) + "]\n")


def write_wide_object(f):
    f.write("a = {" + ",".join(f"k{i}={i % 10}" for i in range(500_000)) + "}\n")


def write_tiny_objects(f):
    f.write("a = [" + ",".join(f"{{a={i % 10}}}" for i in range(500_000)) + "]\n")


SHAPES = [
    ("300,000 CIDR strings", "cidrs.hcl", write_cidrs, 8.0, 16.0),
    ("100,000 small objects", "objects.hcl", write_objects, 8.0, 16.0),
    ("200,000 blocks", "blocks.hcl", write_blocks, 8.0, 16.0),
    ("2,000,000 digits tuple", "digits.hcl", write_digits, 8.0, 16.0),
    ("1,000,000 strings", "strings.hcl", write_short_strings, 8.0, 16.0),
    ("500,000-key object", "wide.hcl", write_wide_object, 8.0, 16.0),
    ("500,000 tiny objects", "tiny_objects.hcl", write_tiny_objects, 8.0, 16.0),
]


def write_inputs(tmp, specs):
    inputs = []
    for name, file_name, write, check_target, eval_target in specs:
        path = os.path.join(tmp, file_name)
        with open(path, "w") as f:
            write(f)
        inputs.append((name, path, check_target, eval_target))
    return inputs


def measure(hclvm, inputs, baseline, with_limit):
    """Prints a row per input; returns whether any run failed or missed a target."""
    failed = False
    for name, path, check_target, eval_target in inputs:
        size = os.path.getsize(path)
        cells, verdicts = [], []
        runs = [("check", None, check_target), ("eval", None, eval_target)]
        if with_limit:
            runs.append(("eval", ONE_GIB, None))
        for cmd, limit, target in runs:
            code, peak, err = peak_of([hclvm, cmd, path], limit)
            if code != 0:
                failed = True
                cells.append(f"exit {code}")
                print(f"  {cmd} {name}: {err.strip()[:200]}", file=sys.stderr)
                continue
            ratio = (peak - baseline) / size
            cells.append(f"{peak / 1e6:.0f} MB {ratio:.1f}x")
            if target is not None:
                ok = ratio <= target
                failed |= not ok
                verdicts.append(f"{cmd} <= {target:g}x {'ok' if ok else 'MISSED'}")
        print(f"{name:<22} {size / 1e6:>7.1f}MB {'  '.join(f'{c:>17}' for c in cells)}  {', '.join(verdicts)}")
    return failed


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    hclvm = args[0] if args else os.path.join(ROOT, "target", "release", "hclvm")
    if not os.access(hclvm, os.X_OK):
        sys.exit(f"memory.py: no hclvm at {hclvm} (cargo build --release)")
    with tempfile.TemporaryDirectory() as tmp:
        inputs = write_inputs(tmp, INPUTS)
        tiny = os.path.join(tmp, "tiny.hcl")
        with open(tiny, "w") as f:
            f.write("a = 1\n")
        _, baseline, _ = peak_of([hclvm, "eval", tiny])
        print(f"baseline (eval of a tiny file): {baseline / 1e6:.1f} MB")
        print("(peak resident memory; the ratio is of the peak over the baseline to the source size)")
        print(f"{'input':<22} {'size':>9} {'check':>17}  {'eval':>17}  {'eval, 1 GiB AS':>17}  targets")
        failed = measure(hclvm, inputs, baseline, True)
        if "--no-shapes" not in sys.argv:
            for _, path, _, _ in inputs:
                os.remove(path)
            print("other shapes (not judged):")
            measure(hclvm, write_inputs(tmp, SHAPES), baseline, False)
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
