"""A seeded mutation fuzzer over regrapht's JSON inputs (docs/faults.md).

fuzz.py REGRAPHT ROOT [--seconds S] [--seed N] [--save DIR]

Mutates problem.json (problems/saxpy, checked with `problem check
--no-build`), trajectory.json (data/trajectories/abs_difference, `graph
import`) and a native graph (tests/golden/graph_small.json, `graph stats`):
JSON-aware edits (a value replaced by a huge, negative, fractional or
non-number value, a string with control characters, a deep array; a key
removed or given twice) and byte-level ones (flips, truncation). Every run
must end with exit 0 or a one-line error naming the input: a signal, a
timeout or "internal error" is a crash, saved as a new fault-suite case
under --save (default: tests/faults/cases) so it stays a regression test.
Exits 1 if any crash was found. The same seed gives the same inputs.
"""
import argparse
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

TARGETS = [
    # (name, base folder or file, file mutated inside it, command)
    ("problem", "problems/saxpy", "problem.json", "problem check --no-build {in}"),
    ("trajectory", "data/trajectories/abs_difference", "trajectory.json", "graph import {in} --out {work}/g.json"),
    ("graph", "tests/golden/graph_small.json", "g.json", "graph stats {in}/g.json"),
]

WEIRD = [2**31 + 299, 2**63, 2**64 + 5, -1, -2**63 - 1, 0.5, 1e308, -1e308, 1e-320, "", "x\u0000y",
         "a\nb", "\u007f", "n*n*n*n*n*n", "((((", None, True, [], {}, [[[[[]]]]], "é" * 300, 0]


def mutate(rng, text):
    """One mutation of JSON `text` (bytes-level when it no longer parses)."""
    try:
        doc = json.loads(text)
    except ValueError:
        doc = None
    kind = rng.random()
    if doc is None or kind < 0.2:
        b = bytearray(text.encode("utf-8", "surrogatepass"))
        if not b:
            return text
        op = rng.randrange(3)
        i = rng.randrange(len(b))
        if op == 0:
            b[i] = rng.randrange(256)
        elif op == 1:
            del b[i:]
        else:
            b[i:i] = rng.choice([b"{", b"[", b"]", b'"', b",", b"\\u0000", b"1e999"])
        return b.decode("utf-8", "replace")
    # Pick a random container and edit one of its slots.
    nodes = []

    def walk(v):
        if isinstance(v, dict):
            nodes.append(v)
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            nodes.append(v)
            for x in v:
                walk(x)

    walk(doc)
    node = rng.choice(nodes)
    if isinstance(node, dict) and node:
        key = rng.choice(sorted(node))
        r = rng.random()
        if r < 0.15:
            del node[key]
        elif r < 0.25:
            dumped = json.dumps(doc)
            needle = json.dumps(key) + ": "
            at = dumped.find(needle)
            if at >= 0:  # the key given twice
                return dumped[:at] + needle + json.dumps(rng.choice(WEIRD)) + ", " + dumped[at:]
        elif r < 0.3:
            node[key] = json.loads("[" * 300 + "]" * 300)
        else:
            node[key] = rng.choice(WEIRD)
    elif isinstance(node, list) and node:
        i = rng.randrange(len(node))
        r = rng.random()
        if r < 0.2:
            del node[i]
        elif r < 0.3:
            node.append(node[i])
        else:
            node[i] = rng.choice(WEIRD)
    return json.dumps(doc, indent=1, ensure_ascii=rng.random() < 0.5)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("regrapht")
    ap.add_argument("root")
    ap.add_argument("--seconds", type=float, default=30)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--save")
    a = ap.parse_args()
    save = a.save or os.path.join(a.root, "tests", "faults", "cases")
    rng = random.Random(a.seed)
    scratch = tempfile.mkdtemp(prefix="rg-fuzz.")
    env = dict(os.environ, REGRAPHT_CACHE_DIR=os.path.join(scratch, "cache"))
    runs = errors = accepted = crashes = 0
    deadline = time.time() + a.seconds
    try:
        while time.time() < deadline:
            name, base, file, cmd = TARGETS[runs % len(TARGETS)]
            work = os.path.join(scratch, "w%d" % runs)
            os.makedirs(work)
            src = os.path.join(a.root, base)
            if os.path.isdir(src):
                inp = os.path.join(work, os.path.basename(base))
                shutil.copytree(src, inp)
                original = open(os.path.join(src, file), encoding="utf-8").read()
            else:
                inp = os.path.join(work, "in")
                os.makedirs(inp)
                original = open(src, encoding="utf-8").read()
            text = original
            for _ in range(rng.randint(1, 3)):
                text = mutate(rng, text)
            with open(os.path.join(inp, file), "w", encoding="utf-8", errors="surrogatepass") as f:
                f.write(text)
            args = cmd.replace("{in}", inp).replace("{work}", work).split()
            try:
                p = subprocess.run([a.regrapht] + args, capture_output=True, text=True, errors="replace",
                                   timeout=30, env=env)
                rc, out = p.returncode, p.stdout + p.stderr
            except subprocess.TimeoutExpired:
                rc, out = 124, "timeout"
            runs += 1
            if rc < 0 or rc >= 124 or "internal error" in out:
                crashes += 1
                digest = hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:10]
                case = os.path.join(save, "fuzz_%s_%s" % (name, digest))
                os.makedirs(case, exist_ok=True)
                with open(os.path.join(case, file), "w", encoding="utf-8", errors="surrogatepass") as f:
                    f.write(text)
                with open(os.path.join(case, "case"), "w") as f:
                    f.write("# found by tests/faults/fuzz.py --seed %d (exit %d: %s)\n" % (a.seed, rc, out.strip()[:200].replace("\n", " ")))
                    if os.path.isdir(src):
                        f.write("base: %s\n" % base)
                    f.write("run: %s\nexit: 1\nexpect: %s\n" % (cmd, file))
                print("CRASH %s (exit %d), saved as %s" % (name, rc, case))
            elif rc == 0:
                accepted += 1
            else:
                errors += 1
            shutil.rmtree(work, ignore_errors=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    print("fuzz: seed %d, %d inputs in %.0f s: %d refused, %d accepted, %d crashes/hangs"
          % (a.seed, runs, a.seconds, errors, accepted, crashes))
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
