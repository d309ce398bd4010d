#!/usr/bin/env python3
"""CLI consistency: walks regrapht's command table (through `--help`, which is
generated from it) and checks every command and subcommand:

- `--help` exits 0; an unknown flag exits 2 (usage) with a message naming it;
  an unknown command exits 2 naming it; a bare `regrapht` prints the command
  list; no option's help shows a default it does not have ({false} on a flag
  that is on by default);
- every flag the docs (README.md, docs/*.md, the examples' headers) name for a
  `regrapht` command exists in that command's --help, and every other flag they
  name in code exists in some command (or is another tool's, EXTERNAL_FLAGS);
- an option spelled --output has the short -o, and no command shows --out;
- --quiet always has -q, and no command shows --no-progress;
- `regrapht --version` and `regrapht version` exit 0 and print the version;
- shared options that mean the same thing (listed in SAME_DEFAULT) have one
  default everywhere they appear;
- every command that runs something (a leaf of the table) has -v/--verbose
  and -q/--quiet, which exclude each other (exit 2 with both), and --json
  unless it only
  writes a file format or a script (NO_JSON, each with its reason);
- with SOURCE_DIR and REPORT_FIXTURE_DB: cheap real runs of the commands with
  --json (a fake model server, tiny fixtures) print one JSON document on stdout
  that parses, and -v adds detail on stderr only.
Usage: cli_consistency_test.py REGRAPHT_BINARY [SOURCE_DIR REPORT_FIXTURE_DB]
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

BIN = sys.argv[1]
SRC = sys.argv[2] if len(sys.argv) > 2 else None
FIXTURE = sys.argv[3] if len(sys.argv) > 3 else None
# Options whose default must not differ between commands.
SAME_DEFAULT = ["--temperature", "--log-level", "--k", "--bootstrap", "--samples", "--top-p", "--ctx-size", "--seed", "--arch", "--budget", "--method"]
errors = []


def run(args, timeout=60, env=None):
    p = subprocess.run([BIN] + args, capture_output=True, text=True, timeout=timeout, env=env)
    return p.returncode, p.stdout, p.stderr


def parse_help(text):
    """(options: {long: (short or None, default or None, help text)}, subcommands: [names])."""
    options, subs, section = {}, [], None
    lines = text.splitlines()
    for i, line in enumerate(lines):
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
            d = re.match(r"^  \S+ [A-Z]+(?::[[(][^ =]*[])])?=(\S+)", line)
            if d:
                default = d.group(1)
            text = line.strip()
            if i + 1 < len(lines) and lines[i + 1].startswith("     "):
                text += " " + lines[i + 1].strip()  # help on the next line
            for l in longs:
                options[l] = (shorts[0] if shorts else None, default, text)
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
    # bench runs the paper's budget (200) unless told; optimize sizes its own (auto: a few
    # generations with the embedded model on a CPU, the paper's with an endpoint).
    ("--budget", "bench"),
}
# Commands that print no result of their own: --json would have nothing to say.
NO_JSON = {
    "graph show": "draws the graph (--format dot, svg or png); the graph as JSON is `graph export`",
    "graph export": "writes a graph file (native or official JSON) with -o",
    "tree show": "draws an optimize report, itself JSON (--format svg or html)",
    "completion": "prints a shell script",
}
# Options that must mean the same thing everywhere: a phrase every command's help of it holds.
SAME_MEANING = {"--cache": "cache folder", "--model": "GGUF model file", "--model-name": "Model name",
                "--output": None, "--db": "database", "--graph": "reasoning graph", "--prompts": "folder of prompt"}
meanings = {}  # option -> [(command, help text)]
# Just enough arguments for a command's required ones (the exclusion is checked after them).
REQUIRED_ARGS = {"optimize": ["x.cpp", "--function", "f"], "graph build": ["--kernels", "k"], "model pull": ["m"]}
defaults = {}  # option -> {default: [commands]}
options_of = {}  # command ("regrapht", "graph show") -> its long options
leaves = []
exclusion_checked = []  # commands where -q -v was seen to exit 2 for the exclusion


def walk(path):
    name = " ".join(path) or "regrapht"
    rc, out, err = run(path + ["--help"])
    if rc != 0:
        errors.append(f"{name} --help exited {rc}: {err.strip()[:200]}")
        return
    options, subs = parse_help(out)
    options_of[name] = set(options)
    rc, _, err = run(path + REQUIRED_ARGS.get(" ".join(path), []) + ["--no-such-flag-xyz"])
    if rc != 2:
        errors.append(f"{name} --no-such-flag-xyz exited {rc}, expected 2 (usage)")
    elif "--no-such-flag-xyz" not in err:
        errors.append(f"{name} --no-such-flag-xyz: the message does not name it: {err.strip()[:200]}")
    for line in out.splitlines():
        if re.match(r"^  --\S+\{(true|false)\}", line):
            errors.append(f"{name} --help shows a flag's default as {{true}}/{{false}} (say it in words): {line.strip()}")
    if subs:
        rc, _, err = run(path + ["nosuchcmd"])
        if rc != 2 or "nosuchcmd" not in err:
            errors.append(f"{name} nosuchcmd exited {rc} without naming it: {err.strip()[:200]}")
    for opt, (short, default, text) in options.items():
        if opt in SAME_MEANING and SAME_MEANING[opt] and SAME_MEANING[opt].lower() not in text.lower():
            errors.append(f"{name}: {opt} does not say '{SAME_MEANING[opt]}' (it means that in every command): {text}")
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
    runs = not subs
    if subs and path:
        # A command with subcommands runs something itself when it needs none (bench).
        rc, _, err = run(path)
        runs = "subcommand" not in err.lower()
    if runs and path:
        leaves.append(name)
        if options.get("--verbose", (None,))[0] != "-v":
            errors.append(f"{name}: no -v/--verbose")
        if "--json" not in options and name not in NO_JSON:
            errors.append(f"{name}: prints a result but has no --json")
        if "--json" in options and name in NO_JSON:
            errors.append(f"{name}: has --json now; drop it from NO_JSON")
        if options.get("--quiet", (None,))[0] != "-q":
            errors.append(f"{name}: no -q/--quiet")
        if "--quiet" in options:
            rc2, _, err2 = run(path + REQUIRED_ARGS.get(name, []) + ["-q", "-v"])
            if rc2 == 2 and "is required" in err2 and name not in REQUIRED_ARGS:
                pass  # its required arguments are checked first; the exclusion is main.cc's, one loop for all
            elif rc2 != 2 or "excludes" not in err2:
                errors.append(f"{name} -q -v exited {rc2}, expected 2 (they exclude each other): {err2.strip()[:200]}")
            else:
                exclusion_checked.append(name)
    for s in subs:
        walk(path + [s])


walk([])
# A budget of 0 or less is refused, naming the option (it started an unlimited search once).
for cmd in (["optimize", "x.cpp", "--function", "f"], ["bench", "--suite", "s"]):
    for bad in ("0", "-3"):
        rc, _, err = run(cmd + ["--budget", bad])
        if rc != 2 or "--budget" not in err:
            errors.append(f"{' '.join(cmd[:1])} --budget {bad} exited {rc} without naming --budget: {err.strip()[:200]}")
rc, out, err = run([])
if rc != 2 or any(c not in out + err for c in ("optimize", "verify", "bench", "report", "graph", "tree")):
    errors.append(f"a bare regrapht exited {rc} without the command list: {(out + err)[:300]!r}")
if len(exclusion_checked) < 8:
    errors.append(f"-q -v checked on only {exclusion_checked}")
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


def check_json(label, args, expect=None, rc_ok=(0,), timeout=120, env=None):
    """Runs `regrapht ARGS` (with --json in them): the exit status is one of rc_ok,
    stdout is exactly one JSON document, and expect(doc) holds."""
    try:
        rc, out, err = run(args, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        errors.append(f"{label}: timed out after {timeout} s")
        return None
    if rc not in rc_ok:
        errors.append(f"{label}: exited {rc}, expected {rc_ok}: {err.strip()[-400:]}")
        return None
    try:
        doc = json.loads(out)
    except ValueError as e:
        errors.append(f"{label}: stdout is not one JSON document ({e}): {out[:300]!r}")
        return None
    if expect is not None and not expect(doc):
        errors.append(f"{label}: unexpected document {json.dumps(doc)[:400]}")
    json_checked.add(label.split(" --")[0])
    return doc


json_checked = set()


def start_fake_server(tmp):
    port_file = os.path.join(tmp, "port")
    log = os.path.join(tmp, "server.log")
    server = subprocess.Popen([sys.executable, os.path.join(SRC, "src/cli/fake_openai_server.py"),
                               os.path.join(tmp, "no-replies"), port_file, log])
    for _ in range(100):
        if os.path.exists(port_file) and open(port_file).read().strip():
            return server, "http://127.0.0.1:%s/v1" % open(port_file).read().strip()
        time.sleep(0.1)
    server.kill()
    raise RuntimeError("the fake server did not start")


def real_runs():
    """--json on real, cheap runs; -v on one of them."""
    tmp = tempfile.mkdtemp(prefix="rg-cli-json-")
    env = dict(os.environ, REGRAPHT_CACHE_DIR=os.path.join(tmp, "cache"))
    graph = os.path.join(SRC, "data/graph/regrapht.json")
    check_json("version", ["version", "--json"], lambda d: d["version"] and "data_dir" in d)
    check_json("graph stats", ["graph", "stats", "--json", graph], lambda d: d["nodes"] > 1)
    check_json("graph techniques", ["graph", "techniques", "--json"], lambda d: len(d) > 10 and "id" in d[0])
    check_json("graph relabel", ["graph", "relabel", "--json", "shared memory tiling"],
               lambda d: d[0]["method"] == "shared memory tiling")
    check_json("graph import", ["graph", "import", "--json", os.path.join(SRC, "data/trajectories/lookup_sum_i64"),
                                "-o", os.path.join(tmp, "g.json")],
               lambda d: d["imported"] == 1 and d["graph"]["nodes"] > 1)
    check_json("problem check", ["problem", "check", "--no-build", "--json", os.path.join(SRC, "problems/saxpy"),
                                 os.path.join(tmp, "missing")],
               lambda d: d["failed"] == 1 and d["problems"][0]["ok"] and not d["problems"][1]["ok"], rc_ok=(1,))
    check_json("suite check", ["suite", "check", "--no-build", "--json", os.path.join(SRC, "suites/cudaeval")],
               lambda d: d["failed"] == 0 and len(d["problems"]) > 10 and d["tiers"])
    check_json("suite overlap", ["suite", "overlap", "--json", "--benchmark", os.path.join(SRC, "problems/saxpy"),
                                 "--corpus", os.path.join(SRC, "problems/sum_of_squares")],
               lambda d: d["overlaps"] == [] and "similarity" in d)
    check_json("suite calibrate", ["suite", "calibrate", "--json", "--only", "scale_add", "--target-ms", "1",
                                   "--max-steps", "2", os.path.join(SRC, "src/cli/testdata/calibrate")],
               lambda d: d["failed"] == 0 and d["problems"][0]["problem"] == "scale_add" and d["problems"][0]["new_ms"] > 0,
               env=env)
    check_json("simulate", ["simulate", "--json", "--budgets", "2", "--problems", "2", "--methods", "best-of-n"],
               lambda d: len(d["rows"]) == 1 and d["rows"][0]["budget"] == 2)
    check_json("graph retrieval-eval", ["graph", "retrieval-eval", "--json", "--retrieval", "bm25", "--suite",
                                        os.path.join(SRC, "suites/cudaeval")],
               lambda d: d["problems"] >= 156 and d["runs"][0]["retrieval"] == "bm25" and len(d["runs"][0]["hits"]) == d["problems"])
    check_json("model list", ["model", "--models-dir", tmp, "list", "--json"], lambda d: len(d["models"]) > 0)
    if FIXTURE:
        db = os.path.join(tmp, "r.db")
        subprocess.run([FIXTURE, db], check=True, capture_output=True)
        check_json("report", ["report", "--json", "--db", db], lambda d: isinstance(d, (list, dict)))
        rc, out, _ = run(["report", "--format", "json", "--db", db])
        rc2, out2, _ = run(["report", "--json", "--db", db])
        if out != out2:
            errors.append("report --json differs from report --format json")
        rc, _, err = run(["report", "--json", "--format", "csv", "--db", db])
        if rc != 2:
            errors.append(f"report --json --format csv exited {rc}, expected 2: {err.strip()[:200]}")
        check_json("bench merge", ["bench", "merge", "--json", "-o", os.path.join(tmp, "m.db"), db],
                   lambda d: d["rows"] > 0 and d["rows_added"] == d["rows"])
        rc, _, err = run(["bench", "merge", os.path.join(tmp, "m2.db"), db])
        if rc != 0 or "deprecated" not in err or not os.path.isfile(os.path.join(tmp, "m2.db")):
            errors.append(f"bench merge OUT IN (the old form): exited {rc}, expected it to work with a warning: {err[-200:]!r}")
        check_json("bench repair", ["bench", "repair", "--json", "--db", db, "-o", os.path.join(tmp, "rep.db")],
                   lambda d: d["rows_copied"] > 0)
    # The model-facing commands against the fake server (prose only: no code).
    server, endpoint = start_fake_server(tmp)
    try:
        model = ["--endpoint", endpoint, "--model-name", "fake"]
        check_json("chat", ["chat", "--json", "--no-cache"] + model + ["hello"],
                   lambda d: len(d["choices"]) == 1 and d["choices"][0]["text"], env=env)
        # chat --cache is the cache folder (the responses in its llm-cache.db); a FILE.db warns (old meaning).
        cache_dir = os.path.join(tmp, "chat-cache")
        rc, _, err = run(["chat", "--cache", cache_dir] + model + ["hello"], env=env)
        if rc != 0 or not os.path.isfile(os.path.join(cache_dir, "llm-cache.db")):
            errors.append(f"chat --cache DIR: exited {rc}, no DIR/llm-cache.db: {err[-200:]!r}")
        rc, _, err = run(["chat", "--cache", os.path.join(tmp, "old.db")] + model + ["hello"], env=env)
        if rc != 0 or "deprecated" not in err or not os.path.isfile(os.path.join(tmp, "old.db")):
            errors.append(f"chat --cache FILE.db: exited {rc}, expected the old meaning with a warning: {err[-200:]!r}")
        check_json("verify", ["verify", "--json", "--reference-only", "--no-timing", "--problem",
                              os.path.join(SRC, "problems/saxpy")], lambda d: d["reference"] == "ok", env=env)
        doc = check_json("optimize", ["optimize", "--json", os.path.join(SRC, "examples/saxpy.cpp"), "--function",
                                      "saxpy", "--budget", "1", "--no-heldout", "--no-cache", "--first-step", "none", "-o",
                                      os.path.join(tmp, "saxpy.cu")] + model,
                         lambda d: d["verdict"] == "none_correct" and d["exit_status"] == 4 and d["report"],
                         rc_ok=(4,), timeout=300, env=env)
        # -v: more detail (compile commands, cache hits) on stderr, stdout unchanged.
        rc, out, err = run(["verify", "-v", "--json", "--reference-only", "--no-timing", "--problem",
                            os.path.join(SRC, "problems/saxpy")], env=env)
        if rc != 0 or "[info]" not in err or json.loads(out)["reference"] != "ok":
            errors.append(f"verify -v: exited {rc}, expected [info] lines on stderr: {err[-300:]!r}")
        rc, out, err = run(["verify", "--reference-only", "--no-timing", "--problem",
                            os.path.join(SRC, "problems/saxpy")], env=env)
        if "[info]" in err or "[info]" in out:
            errors.append("verify without -v prints [info] lines")
    finally:
        server.kill()
        server.wait()
        shutil.rmtree(tmp, ignore_errors=True)
    # The rest print a result only after minutes of work, with a real model or the network: their
    # --json is checked at the --help level above (graph build, bench-llm, model pull); bench's
    # real run with --json is in bench_concurrency_test.
    untested = sorted(set(l for l in leaves if l not in NO_JSON) - json_checked -
                      {"bench", "graph build", "bench-llm", "model pull"})
    if untested:
        errors.append("commands with --json but no real run in this test: " + ", ".join(untested))


# Flags the docs name in code that no regrapht --help shows: other tools' (nvcc, cmake, Slurm, servers,
# scripts) and the old spellings kept hidden for one release, each with whose it is.
EXTERNAL_FLAGS = {
    "--full": "scripts/test.sh", "--content-full": "scripts/test.sh", "--install": "cmake", "--build": "cmake",
    "--prefix": "cmake --install", "--test-dir": "ctest", "--output-on-failure": "ctest",
    "--dependency": "sbatch", "--array": "sbatch", "--wrap": "sbatch", "--gres": "sbatch", "--gpus": "sbatch",
    "--time": "sbatch", "--wait": "sbatch", "--parallel": "llama-server",
    "--no-deps": "pip download", "--no-binary": "pip download", "--resource-usage": "nvcc",
    "--ptxas-options": "nvcc", "--keep": "nvcc", "--cases": "tests/faults/fuzz_cli.py",
    "--timeout": "tests/faults/fuzz_cli.py", "--opt": "a placeholder for any option (docs/faults.md)", "--use_fast_math": "nvcc", "--query-gpu": "nvidia-smi",
    "--host": "vllm/llama-server", "--port": "vllm/llama-server",
    "--served-model-name": "vllm", "--max-model-len": "vllm", "--tensor-parallel-size": "vllm",
    "--ro-bind": "bwrap", "--dev-bind": "bwrap", "--seconds": "tests/faults/fuzz.py", "--save": "tests/faults/fuzz.py",
    "--cli": "scripts/check-layering.py", "--check": "scripts/build-graph.sh", "--force": "scripts/setup-llama.sh", "--print-prefix": "scripts/setup-llama.sh",
    "--edge": "a diagram's arrow (docs/graph.md)",
    "--benchmark_repetitions": "Google Benchmark (the *_bench programs)",
    "--benchmark_report_aggregates_only": "Google Benchmark (the *_bench programs)",
    "--out": "the old spelling of -o/--output, hidden (docs/cli.md)",
    "--no-progress": "the old spelling of -q/--quiet, hidden (docs/cli.md)",
}


# Flags the docs name as examples of a usage error.
UNKNOWN_ON_PURPOSE = {"--bogus", "--no-such-flag-xyz"}


def doc_texts():
    """(file, text) of the docs: README.md, docs/*.md and the examples' leading comments."""
    out = [("README.md", open(os.path.join(SRC, "README.md")).read())]
    docs = os.path.join(SRC, "docs")
    for f in sorted(os.listdir(docs)):
        if f.endswith(".md"):
            out.append(("docs/" + f, open(os.path.join(docs, f)).read()))
    ex = os.path.join(SRC, "examples")
    for f in sorted(os.listdir(ex)):
        if f.endswith((".cpp", ".cc")):
            head = []
            for line in open(os.path.join(ex, f)):
                if not line.startswith("//"):
                    break
                head.append(line[2:])
            out.append(("examples/" + f, "```\n" + "".join(head) + "```\n"))
    return out


def code_pieces(text):
    """The code of a markdown text: fenced blocks (line by line) and inline code spans."""
    pieces = []
    for i, block in enumerate(re.split(r"^```[^\n]*\n", text, flags=re.M)):
        if i % 2 == 1:  # inside a fence
            body = block.split("```")[0]
            pieces += body.splitlines()
        else:
            pieces += re.findall(r"`([^`\n]+)`", block)
    return pieces


def check_docs_flags():
    """Every flag the docs name in code exists where they say it does."""
    all_flags = set().union(*options_of.values())
    commands = sorted((c for c in options_of if c != "regrapht"), key=lambda c: -len(c.split()))
    for file, text in doc_texts():
        for piece in code_pieces(text):
            flags = [f for f in re.findall(r"(?<![\w-])(--[a-z][a-z0-9_-]*)(?!<TAB>)(?![a-z0-9_-])", piece)
                     if f not in UNKNOWN_ON_PURPOSE]
            if not flags:
                continue
            m = re.search(r"(?:^|[\s/(])regrapht\s+(.*)", piece)
            if m:
                words = m.group(1).split()
                cmd = next((c for c in commands if words[:len(c.split())] == c.split()), None)
                if cmd is not None:
                    known = options_of[cmd] | options_of.get("regrapht", set()) | {"--help"}
                    for f in flags:
                        if f not in known:
                            errors.append(f"{file}: `{piece.strip()[:120]}` names {f}, which `regrapht {cmd}` "
                                          "does not have")
                    continue
            for f in flags:
                if f not in all_flags and f not in EXTERNAL_FLAGS:
                    errors.append(f"{file}: `{piece.strip()[:120]}` names {f}, which no regrapht command has "
                                  "(another tool's? add it to EXTERNAL_FLAGS with its name)")


if SRC:
    check_docs_flags()
    real_runs()
for e in errors:
    print("FAIL:", e, file=sys.stderr)
print("cli_consistency_test:", "ok" if not errors else f"{len(errors)} problems")
sys.exit(1 if errors else 0)
