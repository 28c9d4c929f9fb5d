"""What the row generators share: conformance cases with ids `NAME/NNNN`,
written as JSON Lines to cases/NAME.jsonl (then `regen.sh` asks the
reference for their expected results)."""

import json
import os

HERE = os.path.dirname(os.path.abspath(__file__))


def q(s):
    """An HCL string literal of `s` (JSON's quoting is HCL's for these)."""
    return json.dumps(s, ensure_ascii=False)


class Rows:
    def __init__(self, name, funcs="packer"):
        self.name = name
        self.funcs = funcs
        self.rows = []

    def __len__(self):
        return len(self.rows)

    def add(self, src, mode="expr", vars=None, unknowns=None, note=None):
        r = {"id": "%s/%04d" % (self.name, len(self.rows)), "mode": mode, "src": src, "funcs": self.funcs}
        if vars:
            r["vars"] = vars
        if unknowns:
            r["unknowns"] = unknowns
        if note:
            r["_note"] = note
        self.rows.append(r)

    def write(self):
        """Writes cases/NAME.jsonl; returns its path."""
        path = os.path.join(HERE, "cases", self.name + ".jsonl")
        with open(path, "w", encoding="utf-8") as f:
            for r in self.rows:
                f.write(json.dumps(r, ensure_ascii=False) + "\n")
        return path
