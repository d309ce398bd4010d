"""The randomized fault test (docs/faults.md): a seeded generator of bad
command lines, problem specs and C++ sources, run for a fixed number of
cases through the CLI.

fuzz_cli.py REGRAPHT ROOT [--seed N] [--cases N] [--timeout S] [--save DIR]

Four kinds of case, in a fixed proportion:

- numeric options: every command's --help is walked; each numeric option
  shows its range in its type ("--samples INT:[1,100000]"; cli/number_flags.h).
  A numeric option without one is itself a failure (it bypasses the one
  parser). A case gives one option a value outside its range, or one that
  is no number (nan, inf, 1e999, a fraction for a count, hex, junk, twenty
  digits), as --opt=VALUE. The run must end with exit 2 and a message that
  names the option: anything else is a SILENT acceptance.
- argument lists: a valid, quick command line (graph stats, problem check
  --no-build, report, tree show, ...) with one edit: a token dropped,
  duplicated or swapped, an option of that command inserted with a random
  or weird value, a path replaced by a folder, a FIFO, a link, a missing or
  empty file. A numeric option inserted with a bad value must be refused as
  above.
- specs: problems/saxpy/problem.json mutated as tests/faults/fuzz.py does,
  checked with `problem check --no-build`.
- sources: examples/saxpy.cpp and examples/row_sums.cpp mutated by tokens
  (a brace, quote or comment opened, a keyword or main as a name, an
  overload, another return type, exit(0), a NUL or Latin-1 byte), run
  through optimize up to the reference's compile (--compile-timeout 0.001
  stops it there; the model endpoint is never reached).

Every run must end within --timeout seconds, by exit, without "internal
error" in its output: a signal, a timeout or "internal error" is a
failure, printed with the command and, for specs and sources, the input
(saved under --save when given). Exits 1 on any failure. The same seed
gives the same cases.
"""
import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from fuzz import mutate as mutate_json  # noqa: E402  (the JSON mutations of the spec fuzzer)

RAW_NUMBER_TYPES = {"INT", "UINT", "FLOAT", "NUMBER", "DOUBLE"}
# Commands never run with random arguments: they download, serve or run a model.
NO_ARGUMENT_FUZZ = {"model pull", "chat", "bench-llm", "graph build", "optimize", "bench"}


def run(binary, args, timeout, env, cwd=None):
    try:
        p = subprocess.run([binary] + args, capture_output=True, timeout=timeout, env=env, cwd=cwd)
        out = (p.stdout + p.stderr).decode("utf-8", "replace")
        return p.returncode, out
    except subprocess.TimeoutExpired:
        return None, "timed out"


def walk_help(binary, env, path=(), found=None):
    """{command path: [(option, kind, lo, hi, lo_open)]} and a list of raw numeric options."""
    found = {} if found is None else found
    rc, out = run(binary, list(path) + ["--help"], 30, env)
    options, subs, section, raw = [], [], None, []
    for line in out.splitlines():
        if re.match(r"^\S.*:$", line):
            section = line[:-1]
            continue
        m = re.match(r"^  (\S+)(?: (\S+))?", line)
        if not m:
            continue
        if section == "Subcommands":
            subs.append(m.group(1))
            continue
        if section != "Options":
            continue
        longs = [n for n in m.group(1).split(",") if n.startswith("--")]
        if not longs:
            continue
        kind = (m.group(2) or "").split("=")[0]
        r = re.match(r"^(INT|NUM):([\[(])([^,]+),([^\]]+)\]$", kind)
        if r:
            options.append((longs[0], r.group(1), float(r.group(3)), float(r.group(4)), r.group(2) == "("))
        elif kind.split(":")[0] in RAW_NUMBER_TYPES:
            raw.append("%s %s (%s)" % (" ".join(path), longs[0], kind))
            # Range unknown: only values no range can hold are tried on it.
            options.append((longs[0], "RAW", float("nan"), float("nan"), False))
    found[" ".join(path)] = options
    for s in subs:
        _, more_raw = walk_help(binary, env, path + (s,), found)
        raw += more_raw
    return found, raw


def bad_value(rng, kind, lo, hi, lo_open):
    """A value outside [lo, hi] or no number at all, as text."""
    choices = ["nan", "NaN", "-nan", "inf", "-inf", "infinity", "1e999", "-1e999", "", " ", "abc", "1,5",
               "0x10", "9" * 25, "-" + "9" * 25, "1e", "--", "１２"]
    if kind == "RAW":
        return rng.choice(choices)
    if kind == "INT":
        choices += ["1.5", "2e3", "0.0001", str(int(hi) + 1) if hi < 2**63 else "18446744073709551616"]
        if lo > -2**62:
            choices.append(str(int(lo) - 1))
            choices.append(str(int(lo) - 1000))
    else:
        choices += ["%.17g" % (hi * 2 + 1), "1e308", "%.17g" % (lo - 1)]
        if lo_open:
            choices.append("%g" % lo)
    return rng.choice(choices)


def good_value(rng, kind, lo, hi):
    if kind == "RAW":
        return "1"
    if kind == "INT":
        return str(int(lo) if rng.random() < 0.5 else int(min(hi, lo + 3)))
    return "%g" % (lo + (min(hi, lo + 1) - lo) * 0.5)


class Fuzzer:
    def __init__(self, a):
        self.a = a
        self.rng = random.Random(a.seed)
        self.scratch = tempfile.mkdtemp(prefix="rg-fuzz-cli.")
        self.env = dict(os.environ, REGRAPHT_CACHE_DIR=os.path.join(self.scratch, "cache"))
        self.env.pop("OPENAI_BASE_URL", None)
        self.failures = []
        self.counts = {}
        self.n = 0

    def path(self, *parts):
        return os.path.join(self.scratch, *parts)

    def record(self, kind, ok, what, args, detail, data=None):
        self.counts.setdefault(kind, [0, 0])
        self.counts[kind][0] += 1
        if ok:
            return
        self.counts[kind][1] += 1
        self.failures.append("%s %s: regrapht %s\n    %s" % (kind.upper(), what, " ".join(args), detail[-600:]))
        if self.a.save and data is not None:
            os.makedirs(self.a.save, exist_ok=True)
            name = os.path.join(self.a.save, "fuzz_cli_%s_%d" % (kind, self.n))
            with open(name, "wb") as f:
                f.write(data)

    def check(self, kind, args, data=None, bad_option=None):
        """Runs regrapht ARGS in a scratch folder (a relative path it is given lands there); a
        failure is a signal, a timeout, "internal error" or, with bad_option, anything but exit 2
        naming it."""
        self.n += 1
        rc, out = run(self.a.regrapht, args, self.a.timeout, self.env, self.path("cwd"))
        if rc is None:
            return self.record(kind, False, "HANG (over %d s)" % self.a.timeout, args, out, data)
        if rc < 0 or rc > 128:
            return self.record(kind, False, "SIGNAL (exit %d)" % rc, args, out, data)
        if "internal error" in out:
            return self.record(kind, False, "INTERNAL ERROR", args, out, data)
        if bad_option and not (rc == 2 and bad_option in out):
            return self.record(kind, False, "SILENT (exit %d, %s not refused)" % (rc, bad_option), args, out, data)
        self.record(kind, True, "", args, out)

    # ---- inputs ---------------------------------------------------------------------
    def setup(self):
        root = self.a.root
        os.makedirs(self.path("in"))
        os.makedirs(self.path("cwd"))
        shutil.copy(os.path.join(root, "tests/golden/graph_small.json"), self.path("in", "graph.json"))
        shutil.copy(os.path.join(root, "src/cli/testdata/tree/report.json"), self.path("in", "report.json"))
        shutil.copytree(os.path.join(root, "problems/saxpy"), self.path("in", "saxpy"))
        os.makedirs(self.path("in", "suite"))
        shutil.copytree(os.path.join(root, "problems/saxpy"), self.path("in", "suite", "saxpy"))
        with open(self.path("in", "suite", "suite.json"), "w") as f:
            f.write('{"format": "regrapht-suite", "version": 1, "name": "tiny"}')
        subprocess.run([sys.executable, os.path.join(root, "tests/faults/make_db.py"), self.path("in", "r.sqlite"),
                        "--rows", "3"], check=True)
        os.mkfifo(self.path("in", "fifo"))
        open(self.path("in", "empty"), "w").close()
        os.symlink(self.path("in", "graph.json"), self.path("in", "link"))
        os.makedirs(self.path("in", "folder"))

    def weird_path(self):
        return self.rng.choice([self.path("in", "fifo"), self.path("in", "empty"), self.path("in", "link"),
                                self.path("in", "folder"), self.path("in", "missing"), self.path("out", "x"),
                                self.path("in", "r.sqlite"), ""])

    def weird_value(self):
        return self.rng.choice(["", "-", "--", "x" * 5000, "é", "\t", "a b", "../" * 30 + "etc", "nan", "-1",
                                "0", "1e999", "99999999999999999999", self.weird_path()])

    # ---- the four kinds -------------------------------------------------------------
    def numeric_case(self, numeric):
        cmd, opts = self.rng.choice(numeric)
        opt, kind, lo, hi, lo_open = self.rng.choice(opts)
        value = bad_value(self.rng, kind, lo, hi, lo_open)
        args = cmd.split() + ["%s=%s" % (opt, value)]
        self.check("numeric", args, bad_option=opt)

    def argument_case(self, options):
        p = self.path
        bases = [
            ["graph", "stats", p("in", "graph.json")],
            ["graph", "show", p("in", "graph.json"), "--format", "dot", "-o", p("out", "g.dot")],
            ["graph", "export", p("in", "graph.json"), "--format", "official", "-o", p("out", "g.json")],
            ["problem", "check", "--no-build", p("in", "saxpy")],
            ["suite", "check", "--no-build", p("in", "suite")],
            ["report", "--db", p("in", "r.sqlite")],
            ["report", "--db", p("in", "r.sqlite"), "--format", "csv", "-o", p("out", "r.csv")],
            ["tree", "show", p("in", "report.json"), "--format", "svg", "-o", p("out", "t.svg")],
            ["simulate", "--budgets", "5", "--problems", "2"],
            ["graph", "techniques", "--list"],
        ]
        args = list(self.rng.choice(bases))
        cmd = " ".join(a for a in args[:2] if not a.startswith("-") and "/" not in a)
        cmd = cmd if cmd in options else args[0]
        edit = self.rng.randrange(6)
        bad_option = None
        if edit == 0 and len(args) > 1:
            i = self.rng.randrange(1, len(args))
            if args[i] != "--no-build":  # without it a check compiles and runs the problem: slow, not a fault
                del args[i]
        elif edit == 1:
            i = self.rng.randrange(len(args))
            args.insert(i, args[i])
        elif edit == 2 and len(args) > 2:
            i, j = self.rng.randrange(1, len(args)), self.rng.randrange(1, len(args))
            args[i], args[j] = args[j], args[i]
        elif edit == 3 and options.get(cmd):
            opt, kind, lo, hi, lo_open = self.rng.choice(options[cmd])
            if self.rng.random() < 0.7:
                bad_option = opt
                args.append("%s=%s" % (opt, bad_value(self.rng, kind, lo, hi, lo_open)))
            else:
                args.append("%s=%s" % (opt, good_value(self.rng, kind, lo, hi)))
        elif edit == 4:
            paths = [i for i, a in enumerate(args) if a.startswith(self.scratch)]
            if paths:
                args[self.rng.choice(paths)] = self.weird_path()
        else:
            args.insert(self.rng.randrange(1, len(args) + 1), self.weird_value())
        os.makedirs(p("out"), exist_ok=True)
        self.check("arguments", args, bad_option=bad_option)

    def spec_case(self):
        work = self.path("spec%d" % self.n)
        shutil.copytree(os.path.join(self.a.root, "problems/saxpy"), work)
        with open(os.path.join(work, "problem.json"), encoding="utf-8") as f:
            text = f.read()
        for _ in range(self.rng.randint(1, 3)):
            text = mutate_json(self.rng, text)
        data = text.encode("utf-8", "surrogatepass")
        with open(os.path.join(work, "problem.json"), "wb") as f:
            f.write(data)
        self.check("spec", ["problem", "check", "--no-build", work], data=data)
        shutil.rmtree(work, ignore_errors=True)

    def mutate_source(self, text, function):
        r = self.rng.randrange(12)
        lines = text.split("\n")
        if r == 0:  # a bracket or literal opened or closed
            i = self.rng.randrange(len(text) + 1)
            return text[:i] + self.rng.choice(["{", "}", "(", ")", "[", '"', "'", "/*", "*/", "R\"x(", "#", "\\"]) + text[i:]
        if r == 1:  # a character deleted
            i = self.rng.randrange(max(1, len(text)))
            return text[:i] + text[i + 1:]
        if r == 2:  # a parameter renamed to a keyword
            kw = self.rng.choice(["class", "new", "int", "template", "operator", "this", "delete", "auto"])
            return re.sub(r"\b(n|x|a|y|rows|cols|in|out)\b", kw, text, count=self.rng.randint(1, 3))
        if r == 3:
            return text + "\nint main() { return 0; }\n"
        if r == 4:  # an overload
            return text + "\n" + text.replace("float", "double")
        if r == 5:  # another return type
            return re.sub(r"\bvoid\s+" + function, self.rng.choice(["float ", "int ", "double* ", "auto "]) + function,
                          text, count=1)
        if r == 6:  # exit instead of returning
            return "#include <cstdlib>\n" + text.replace("}", "  std::exit(0);\n}", 1)
        if r == 7:  # a NUL or a Latin-1 byte
            i = self.rng.randrange(len(text) + 1)
            return text[:i] + self.rng.choice(["\0", "\udce9", "\udcff\udcfe"]) + text[i:]
        if r == 8 and len(lines) > 1:  # a line dropped
            del lines[self.rng.randrange(len(lines))]
            return "\n".join(lines)
        if r == 9:  # a template
            return text.replace("void " + function, "template <typename T> void " + function, 1)
        if r == 10:
            return ""
        return text.replace(function, function + "_renamed", 1)

    def source_case(self):
        name = self.rng.choice([("saxpy.cpp", "saxpy"), ("row_sums.cpp", "row_sums")])
        with open(os.path.join(self.a.root, "examples", name[0]), encoding="utf-8") as f:
            text = f.read()
        for _ in range(self.rng.randint(1, 2)):
            text = self.mutate_source(text, name[1])
        work = self.path("src%d" % self.n)
        os.makedirs(work)
        data = text.encode("utf-8", "surrogateescape")
        with open(os.path.join(work, name[0]), "wb") as f:
            f.write(data)
        function = name[1] if self.rng.random() < 0.9 else self.rng.choice(["main", "class", "", "f g", "x" * 300])
        args = ["optimize", os.path.join(work, name[0]), "--function", function, "-o", os.path.join(work, "out.cu"),
                "--endpoint", "http://127.0.0.1:9/v1", "--model-name", "m", "--no-cache", "--unsafe-no-sandbox",
                "--compile-timeout", "0.001"]
        self.check("source", args, data=data)
        shutil.rmtree(work, ignore_errors=True)

    def main(self):
        start = time.time()
        self.setup()
        options, raw = walk_help(self.a.regrapht, self.env)
        for r in raw:
            self.failures.append("UNPARSED numeric option (not through cli/number_flags.h): " + r)
        numeric = sorted((c, o) for c, o in options.items() if o)
        if len(numeric) < 10:
            self.failures.append("only %d commands with numeric options found: is the help format parsed?" % len(numeric))
        kinds = ["numeric"] * 4 + ["arguments"] * 3 + ["spec"] * 2 + ["source"] * 3
        for i in range(self.a.cases):
            kind = kinds[i % len(kinds)]
            if kind == "numeric" and numeric:
                self.numeric_case(numeric)
            elif kind == "arguments":
                self.argument_case(options)
            elif kind == "spec":
                self.spec_case()
            else:
                self.source_case()
        shutil.rmtree(self.scratch, ignore_errors=True)
        for f in self.failures:
            print(f)
        summary = ", ".join("%s %d (%d failed)" % (k, v[0], v[1]) for k, v in sorted(self.counts.items()))
        print("fuzz_cli: seed %d, %d cases in %.0f s over %d commands with numeric options: %s; %d failure(s)"
              % (self.a.seed, self.n, time.time() - start, len(numeric), summary, len(self.failures)))
        return 1 if self.failures else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("regrapht")
    ap.add_argument("root")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cases", type=int, default=480)
    ap.add_argument("--timeout", type=int, default=30)
    ap.add_argument("--save")
    return Fuzzer(ap.parse_args()).main()


if __name__ == "__main__":
    sys.exit(main())
