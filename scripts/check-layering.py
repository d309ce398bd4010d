#!/usr/bin/env python3
"""Checks the library layering documented in docs/architecture.md ("Layering").

Reads three fenced blocks from that page:
  ```layers      library: the libraries it may include (besides itself)
  ```owners      path prefix -> library (longest prefix wins)
  ```exceptions  file prefix -> included header   # why
and fails (exit 1), naming file and line, when
  - a file under src/ includes a project header ("core/...", "regrapht/...")
    owned by a library its own library may not include;
  - a library's CMake DEPS (src/*/CMakeLists.txt, regrapht_library) name a
    regrapht library the layers do not allow, or the layers have a cycle;
  - an exception no longer matches any include (a stale exception).
Tests (*_test.cc), benchmarks (*_bench.cc) and test helpers are checked like
the library beside them: they may include what it may, and the fakes beside it.

  - a file under src/cli/ (the flag and output helpers themselves and the
    tests aside) includes a library header other than the public API
    (include/regrapht/): commands parse flags, call the library, print.
--cli also prints those files with the headers they include, and their
number: the CLI's reach into the libraries (0 since 2026-12-05).
"""
import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"')
CLI_FLAG_HELPERS = {"cli/backend_flags.h", "cli/number_flags.h", "cli/search_flags.h",
                    "cli/verify_flags.h", "cli/command.h", "cli/commands.h", "cli/json_output.h",
                    "cli/interrupt.h", "cli/build_info.h"}


def fenced_block(text, name):
    m = re.search(r"^```" + name + r"\n(.*?)^```", text, re.S | re.M)
    if not m:
        sys.exit(f"docs/architecture.md: no ```{name} block")
    lines = []
    for i, line in enumerate(m.group(1).splitlines()):
        body = line.split("#", 1)[0].strip()
        if body:
            lines.append((body, line))
    return lines


def read_spec(doc_path):
    text = open(doc_path, encoding="utf-8").read()
    layers = {}
    for body, line in fenced_block(text, "layers"):
        name, _, deps = body.partition(":")
        layers[name.strip()] = set(deps.split())
    owners = []
    for body, line in fenced_block(text, "owners"):
        prefix, _, lib = body.partition("->")
        owners.append((prefix.strip(), lib.strip()))
    owners.sort(key=lambda o: -len(o[0]))
    exceptions = []
    for body, line in fenced_block(text, "exceptions"):
        src, _, hdr = body.partition("->")
        exceptions.append([src.strip(), hdr.strip(), 0])
    for lib, deps in layers.items():
        for d in deps:
            if d not in layers and d != "*":
                sys.exit(f"docs/architecture.md: layer {lib} names unknown library {d}")
    return layers, owners, exceptions


def owner(path, owners):
    for prefix, lib in owners:
        if path.startswith(prefix):
            return lib
    return None


def closure(layers):
    """Each library's allowed set, transitively; fails on a cycle."""
    done, out = set(), {}

    def visit(lib, stack):
        if lib in out:
            return out[lib]
        if lib in stack:
            sys.exit("docs/architecture.md: the layers have a cycle: " + " -> ".join(stack + [lib]))
        allowed = set()
        for d in layers[lib]:
            if d == "*":
                allowed |= set(layers)
                continue
            allowed |= {d} | visit(d, stack + [lib])
        out[lib] = allowed
        return allowed

    for lib in layers:
        visit(lib, [])
    return out


def source_files():
    for base in ("src", "include", "examples"):
        for dirpath, _, files in os.walk(os.path.join(ROOT, base)):
            for f in sorted(files):
                if f.endswith((".cc", ".h", ".cu", ".cpp")):
                    yield os.path.relpath(os.path.join(dirpath, f), ROOT)


def includes(path):
    with open(os.path.join(ROOT, path), encoding="utf-8", errors="replace") as f:
        for n, line in enumerate(f, 1):
            m = INCLUDE.match(line)
            if m:
                yield n, m.group(1)


def header_owner(header, owners):
    """The library owning a quoted include, or None for a file outside the
    project's libraries (a generated file, a third-party header)."""
    for candidate in ("src/" + header, "include/" + header):
        if os.path.exists(os.path.join(ROOT, candidate)):
            return owner(candidate, owners)
    return None


def check_cmake(layers, errors):
    deps_re = re.compile(r"regrapht_library\(NAME\s+regrapht_(\w+).*?DEPS([^)]*)\)", re.S)
    for dirpath, _, files in os.walk(os.path.join(ROOT, "src")):
        if "CMakeLists.txt" not in files:
            continue
        path = os.path.join(dirpath, "CMakeLists.txt")
        text = open(path, encoding="utf-8").read()
        for m in deps_re.finditer(text):
            lib = m.group(1)
            rel = os.path.relpath(path, ROOT)
            if lib not in layers:
                errors.append(f"{rel}: library regrapht_{lib} is not in the layers")
                continue
            allowed = closure(layers)[lib]
            for dep in re.findall(r"regrapht_(\w+)", m.group(2)):
                if dep not in allowed:
                    errors.append(f"{rel}: regrapht_{lib} links regrapht_{dep}, "
                                  f"which the layers do not allow ({lib} may use: "
                                  f"{' '.join(sorted(allowed)) or 'nothing'})")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--root", help="the checkout to check (default: this script's)")
    ap.add_argument("--doc", help="the page with the blocks (default: ROOT/docs/architecture.md)")
    ap.add_argument("--cli", action="store_true", help="report src/cli/ files with non-public includes")
    args = ap.parse_args()
    global ROOT
    if args.root:
        ROOT = os.path.abspath(args.root)
    layers, owners, exceptions = read_spec(args.doc or os.path.join(ROOT, "docs", "architecture.md"))
    allowed = closure(layers)
    errors = []
    cli_files = {}
    for path in source_files():
        lib = owner(path, owners)
        if lib is None:
            continue
        for line, header in includes(path):
            hdr_lib = header_owner(header, owners)
            if (path.startswith("src/cli/") and "_test" not in path
                    and os.path.splitext(path)[0] + ".h" not in ["src/" + h for h in CLI_FLAG_HELPERS]
                    and hdr_lib not in (None, "cli") and not header.startswith("regrapht/")):
                cli_files.setdefault(path, []).append(header)
                errors.append(f"{path}:{line}: the CLI includes {header}; a command includes only the "
                              "public API (include/regrapht/) and the CLI's flag and output helpers "
                              "(docs/architecture.md, Layering)")
                continue
            if hdr_lib is None or hdr_lib == lib or hdr_lib in allowed[lib]:
                continue
            exc = next((e for e in exceptions if path.startswith(e[0]) and header == e[1]), None)
            if exc:
                exc[2] += 1
                continue
            errors.append(f"{path}:{line}: {lib} includes {header} ({hdr_lib}); "
                          f"{lib} may include: {' '.join(sorted(allowed[lib])) or 'nothing'} "
                          "(docs/architecture.md, Layering)")
    check_cmake(layers, errors)
    for src, hdr, used in exceptions:
        if not used:
            errors.append(f"docs/architecture.md: exception {src} -> {hdr} matches no include (remove it)")
    if args.cli:
        for path, hdrs in sorted(cli_files.items()):
            print(f"{path}: {' '.join(sorted(set(hdrs)))}")
        print(f"{len(cli_files)} file(s) under src/cli/ include more than the public API and the flag helpers")
    for e in errors:
        print("layering: " + e, file=sys.stderr)
    if errors:
        print(f"layering: {len(errors)} violation(s)", file=sys.stderr)
        return 1
    if not args.cli:
        print(f"layering: ok ({len(layers)} libraries)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
