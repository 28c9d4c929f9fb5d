#!/usr/bin/env python3
"""Differential fuzzing of the parser against the reference oracle.

Mutates conformance sources and corpus files, runs every case through the
oracle (`hcl-oracle`) and through `parse_check` (compiler example), and
reports cases where the two disagree on parse failure or on the first
error's line, plus (with --full) any difference in the list of diagnostics
(summary, start and end line/column).

  cargo build --release -p hclvm-compiler --example parse_check
  python3 compiler/tools/diff_fuzz.py --seed 1 --count 3000 [--full]

Cases on which the reference crashes (phase `panic`, e.g. `-a::b`: it
dereferences the missing expression of a malformed function selector) are
skipped; hclvm reports diagnostics there (`compiler::Parse::reference_crash`
tells where the reference crashes, and `hclvm conformance` reports those
cases as the oracle does). Known difference: `parse_check` counts columns
without the token boundaries hcl counts by, so the end column of a range at
invalid UTF-8 or a combining mark can differ.
"""
import argparse, base64, glob, json, os, random, subprocess, sys, tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
ORACLE = os.environ.get("HCL_ORACLE", os.path.join(os.path.dirname(ROOT), "shared/oracle/bin/hcl-oracle"))
CHECK = os.path.join(ROOT, "target/release/examples/parse_check")

FRAGMENTS = [b"{", b"}", b"[", b"]", b"(", b")", b"\"", b"${", b"%{", b"~}", b"\n", b",", b"=", b":", b"?",
             b"...", b".", b"*", b"<<EOT\n", b"<<-EOT\n", b"EOT\n", b"#", b"//", b"/*", b"*/", b"\\", b"$", b"%",
             b"for ", b"if ", b"in ", b"=>", b"-", b"!", b"'", b";", b"\t", b"\r", b"\xff", b"\xc3", b"0.1", b"1e",
             b"a.0.1", b"[*]", b".*", b"%{ endif }", b"%{else}", b"%{ endfor }", b"\"${a}\"", b" ", b"x", b"null",
             b"&&", b"|", b"`", "\u201c".encode(), b"::", b"a::", b"::b(", b"ns::f("]


def seeds(rng):
    out = []
    for f in glob.glob(os.path.join(ROOT, "tests/data/conformance/cases/*.jsonl")):
        for line in open(f):
            try:
                c = json.loads(line)
            except ValueError:
                continue
            if "src" in c and len(c["src"]) < 400:
                out.append((c["mode"], c["src"].encode()))
    files = [f for f in glob.glob(os.path.join(ROOT, "tests/data/corpus/realworld/**/*"), recursive=True)
             if os.path.isfile(f) and os.path.getsize(f) < 1500]
    for f in rng.sample(files, min(400, len(files))):
        out.append(("body", open(f, "rb").read()))
    for f in glob.glob(os.path.join(ROOT, "tests/data/corpus/templates/*")):
        if os.path.getsize(f) < 2000:
            out.append(("template", open(f, "rb").read()))
    return out


def mutate(rng, src):
    s = bytearray(src)
    for _ in range(rng.randint(1, 3)):
        r, p = rng.random(), rng.randint(0, len(s))
        if r < 0.35:
            s[p:p] = rng.choice(FRAGMENTS)
        elif r < 0.6 and s:
            del s[p:min(len(s), p + rng.randint(1, 4))]
        elif r < 0.7:
            del s[p:]
        elif r < 0.85 and len(s) > 2:
            a, b = sorted((p, rng.randint(0, len(s))))
            s[a:a] = s[a:b][:40]
        elif s:
            s[min(p, len(s) - 1)] = rng.randrange(32, 127)
    return bytes(s)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=2000)
    ap.add_argument("--full", action="store_true")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    pool = seeds(rng)
    cases = {}
    lines = []
    for i in range(args.count):
        mode, src = rng.choice(pool)
        m = mutate(rng, src)
        case = {"id": f"f{i}", "mode": mode, "funcs": "none"}
        try:
            case["src"] = m.decode("utf-8")
        except UnicodeDecodeError:
            case["src_base64"] = base64.b64encode(m).decode()
        cases[case["id"]] = case
        lines.append(json.dumps(case))
    data = "\n".join(lines) + "\n"
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        f.write(data)
        path = f.name
    ref = {}
    for line in subprocess.run([ORACLE, "--case-timeout", "5", path], capture_output=True, text=True).stdout.splitlines():
        try:
            r = json.loads(line)
            ref[r["id"]] = r
        except ValueError:
            pass
    ours = {}
    for line in subprocess.run([CHECK], input=data, capture_output=True, text=True).stdout.splitlines():
        o = json.loads(line)
        ours[o["id"]] = o
    os.unlink(path)
    compared = bad = 0
    for cid, r in ref.items():
        o, c = ours.get(cid), cases[cid]
        src = c.get("src", "")
        if o is None or r.get("phase") in ("panic", "timeout", "case"):
            continue
        compared += 1
        ref_failed = (not r["ok"]) and r.get("phase") == "parse"
        problem = None
        if ref_failed != o["failed"]:
            problem = f"reference fails={ref_failed}, ours={o['failed']} ({o['summary']})"
        elif ref_failed:
            subj = r["diags"][0].get("subject")
            if subj and subj["start"]["line"] != o["line"]:
                problem = f"first error line {o['line']}, reference {subj['start']['line']}"
            elif args.full:
                rd = [[d["summary"], [d["subject"]["start"]["line"], d["subject"]["start"]["column"],
                                      d["subject"]["end"]["line"], d["subject"]["end"]["column"]] if d["subject"] else None]
                      for d in r["diags"]]
                if rd != o["diags"]:
                    problem = f"diagnostics differ:\n    ref  {rd[:4]}\n    ours {o['diags'][:4]}"
        if problem:
            bad += 1
            print(f"{cid} ({c['mode']}) {problem}\n    src {repr(c.get('src', c.get('src_base64')))[:200]}")
    print(f"{compared} cases compared, {bad} disagreements")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
