# Runs {case, expected} rows (ops_matrix.jsonl, ops_edge.jsonl or random rows
# from gen_ops_random.py) through the hclvm engine CLI and reports rows whose
# result or diagnostics (summary, detail) differ from the reference.
#   python3 check_engine_rows.py ROWS.jsonl [path/to/hclvm]
import json,sys,subprocess
rows=[json.loads(l, parse_float=str) for l in open(sys.argv[1])]
inp="".join(json.dumps(r['case'])+"\n" for r in rows)
out=subprocess.run([sys.argv[2] if len(sys.argv) > 2 else "target/debug/hclvm", "conformance", "-"],input=inp,capture_output=True,text=True).stdout.splitlines()
bad=0
for r,o in zip(rows,out):
    g=json.loads(o, parse_float=str); e=r['expected']
    if e['ok']!=g['ok'] or (e['ok'] and (e['type']!=g['type'] or e['value']!=g['value'])) or (not e['ok'] and ([(d['summary'],d['detail']) for d in e['diags']]!=[(d['summary'],d['detail']) for d in g['diags']])):
        bad+=1; print(r['case']['src'], '\n  want', json.dumps(e)[:250], '\n  got ', json.dumps(g)[:250])
print(len(rows), "rows,", bad, "differ")
