#!/usr/bin/env python3
"""CLI consistency: walks regrapht's command table (through `--help`, which is
generated from it) and checks every command and subcommand:

- `--help` exits 0; an unknown flag exits 2 (usage);
- an option spelled --output has the short -o, and no command shows --out;
- --quiet always has -q, and no command shows --no-progress;
- `regrapht --version` and `regrapht version` exit 0 and print the version;
- shared options that mean the same thing (listed in SAME_DEFAULT) have one
  default everywhere they appear.
Usage: cli_consistency_test.py REGRAPHT_BINARY
"""
import re
import subprocess
import sys

BIN = sys.argv[1]
# Options whose default must not differ between commands.
SAME_DEFAULT = ["--temperature", "--log-level", "--k", "--bootstrap", "--samples", "--top-p", "--ctx-size", "--seed", "--arch", "--budget", "--method"]
errors = []


def run(args):
    p = subprocess.run([BIN] + args, capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def parse_help(text):
    """(options: {long: (short or None, default or None)}, subcommands: [names])."""
    options, subs, section = {}, [], None
    for line in text.splitlines():
        if re.match(r"^\S.*:$", line):
            section = line[:-1]
            continue
        m = re.match(r"^  (\S+)", line)
        if not m:
            continue
        head = m.group(1)
        if section == "Subcommands":
            subs.append(head)
        elif section == "Options":
            names = head.split(",")
            longs = [n for n in names if n.startswith("--")]
            shorts = [n for n in names if re.match(r"^-[^-]", n)]
            default = None
            d = re.match(r"^  \S+ [A-Z]+=(\S+)", line)
            if d:
                default = d.group(1)
            for l in longs:
                options[l] = (shorts[0] if shorts else None, default)
    return options, subs


# Deliberate or not-yet-unified differences, each with its reason.
EXCEPTIONS = {
    # Shipped content (problem/suite check, graph import/build) must compile for every supported
    # architecture; candidates are compiled for the GPU at hand.
    ("--arch", "problem check"), ("--arch", "suite check"), ("--arch", "graph import"), ("--arch", "graph build"),
    # graph build drives a large model over whole trajectories (longer context); its base seed is
    # not unified yet.
    ("--ctx-size", "graph build"), ("--seed", "graph build"),
    # --method names a different thing per command (the search method; the benchmark's method; a filter).
    ("--method", "optimize"), ("--method", "bench"), ("--method", "report"),
}
defaults = {}  # option -> {default: [commands]}


def walk(path):
    name = " ".join(path) or "regrapht"
    rc, out, err = run(path + ["--help"])
    if rc != 0:
        errors.append(f"{name} --help exited {rc}: {err.strip()[:200]}")
        return
    options, subs = parse_help(out)
    rc, _, err = run(path + ["--no-such-flag-xyz"])
    if rc != 2:
        errors.append(f"{name} --no-such-flag-xyz exited {rc}, expected 2 (usage)")
    for opt, (short, default) in options.items():
        if opt == "--output" and short != "-o":
            errors.append(f"{name}: --output without -o")
        if opt == "--out":
            errors.append(f"{name}: shows --out; the spelling is -o/--output")
        if opt == "--quiet" and short != "-q":
            errors.append(f"{name}: --quiet without -q")
        if opt == "--no-progress":
            errors.append(f"{name}: shows --no-progress; the spelling is -q/--quiet")
        if opt in SAME_DEFAULT and (opt, name) not in EXCEPTIONS:
            defaults.setdefault(opt, {}).setdefault(default, []).append(name)
    for s in subs:
        walk(path + [s])


walk([])
if len(defaults) == 0:
    errors.append("no shared option found: is the help format parsed?")
for opt, by_default in defaults.items():
    if len(by_default) > 1:
        errors.append(f"{opt} has different defaults: " +
                      "; ".join(f"{d} in {', '.join(c)}" for d, c in by_default.items()))
for args in (["--version"], ["version"]):
    rc, out, err = run(args)
    if rc != 0 or not re.match(r"^regrapht \d+\.\d+\.\d+\n", out) or "nvcc" not in out:
        errors.append(f"regrapht {' '.join(args)} exited {rc} with {out[:200]!r}: expected the version and the toolchain")
for e in errors:
    print("FAIL:", e, file=sys.stderr)
print("cli_consistency_test:", "ok" if not errors else f"{len(errors)} problems")
sys.exit(1 if errors else 0)
