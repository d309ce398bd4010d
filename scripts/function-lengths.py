#!/usr/bin/env python3
"""Lengths of the C++ function definitions under src/ (or the given paths).

A heuristic, not a compiler: comments, string/char/raw-string literals and
preprocessor lines are blanked, then braces are matched. A `{` at namespace or
class level opens a function body when the text before it (back to the last
`;`, `{` or `}`) has a `(` outside brackets with no `=` before it and does not
start with class/struct/union/enum/namespace/extern; the function runs from
the line of that text's first non-blank character to its closing `}`. Lambdas
and local classes count toward the function around them. Class bodies are
searched for member functions; other braces (initializers) are skipped.

Prints the longest functions and how many are longer than --limit lines,
for the library sources and, separately, the tests (*_test.cc).
"""
import argparse
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCOPE_HEAD = re.compile(r"^(template\s*<.*>\s*)?(class|struct|union|enum|namespace|extern)\b", re.S)


def blank(text):
    """Comments, literals and preprocessor lines replaced by spaces (newlines kept)."""
    out = []
    i, n = 0, len(text)
    line_start = True
    while i < n:
        c = text[i]
        if line_start and c in " \t":
            out.append(c)
            i += 1
            continue
        if line_start and c == "#":  # a directive, with its continuation lines
            while i < n and not (text[i] == "\n" and text[i - 1] != "\\"):
                out.append("\n" if text[i] == "\n" else " ")
                i += 1
            continue
        line_start = c == "\n"
        if text.startswith("//", i):
            while i < n and text[i] != "\n":
                out.append(" ")
                i += 1
            continue
        if text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
            continue
        m = re.match(r'(?:u8|u|U|L)?R"([^(\s]{0,16})\(', text[i:i + 24])
        if m and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            end = text.find(")" + m.group(1) + '"', i + m.end())
            j = n if end < 0 else end + len(m.group(1)) + 2
            out.append('""' + re.sub(r"[^\n]", " ", text[i + 2:j]))
            i = j
            continue
        if c in "\"'":
            if c == "'" and i > 0 and text[i - 1].isalnum():  # a digit separator: 1'000
                out.append(" ")
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(c + " " * (min(j, n) - i - 1) + (c if j < n else ""))
            i = j + 1
            continue
        out.append(c)
        i += 1
    return "".join(out)


def functions(path):
    text = blank(open(path, encoding="utf-8", errors="replace").read())
    found = []
    head_start = 0  # where the text before the next `{` begins
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in ";}":
            head_start = i + 1
        elif c == "{":
            head = text[head_start:i]
            stripped = head.strip()
            is_scope = bool(SCOPE_HEAD.match(stripped))
            j = Matching(text, i)
            if is_scope:
                head_start = i + 1  # search inside the namespace or class
            else:
                if IsFunctionHead(stripped):
                    first = head_start + (len(head) - len(head.lstrip()))
                    start_line = text.count("\n", 0, first) + 1
                    end_line = text.count("\n", 0, j) + 1
                    found.append((end_line - start_line + 1, Name(stripped), start_line))
                i = j
                head_start = i + 1
        i += 1
    return found


def Matching(text, i):
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return j
    return len(text) - 1


def FirstParen(head):
    """The index of the first `(` outside (), [] and template <>, or -1."""
    depth = angle = 0
    for k, ch in enumerate(head):
        prev = head[:k].rstrip()
        if ch == "(" and depth == 0 and angle == 0:
            return k
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "<" and re.search(r"[\w:]$", prev) and not re.search(r"operator\s*<*$", prev):
            angle += 1
        elif ch == ">" and angle > 0 and not prev.endswith("-"):
            angle -= 1
    return -1


def IsFunctionHead(head):
    k = FirstParen(head)
    if k < 0:
        return False
    before = re.sub(r"operator\s*[=!<>+\-*/%&|^]*=", "", head[:k])
    return "=" not in re.sub(r"<[^<>]*>", "", before) and bool(re.search(r"[\w>\]]\s*$", head[:k]))


def Name(head):
    k = FirstParen(head)
    if k < 0:
        return head[:40]
    before = head[:k].rstrip()
    m = re.search(r"(operator\s*\S+|[\w:~]+)\s*$", before)
    name = m.group(1) if m else before[-40:]
    if name in ("TEST", "TEST_F", "TEST_P", "TYPED_TEST"):
        name += "(" + " ".join(head[k + 1:head.find(")", k)].split()) + ")"
    return name


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("paths", nargs="*", default=["src"])
    ap.add_argument("--limit", type=int, default=80, help="count functions longer than this (lines)")
    ap.add_argument("--top", type=int, default=15, help="how many of the longest to list")
    args = ap.parse_args()
    groups = {"library": [], "tests": []}
    for base in args.paths:
        base = os.path.join(ROOT, base) if not os.path.isabs(base) else base
        walk = [(os.path.dirname(base), [], [os.path.basename(base)])] if os.path.isfile(base) else os.walk(base)
        for dirpath, _, files in walk:
            for f in sorted(files):
                if not f.endswith((".cc", ".h", ".cpp", ".cu")):
                    continue
                path = os.path.join(dirpath, f)
                rel = os.path.relpath(path, ROOT)
                group = "tests" if re.search(r"_test(_util)?\.(cc|h)$|test_util|fixture", f) else "library"
                for length, name, line in functions(path):
                    groups[group].append((length, name, f"{rel}:{line}"))
    for group, fns in groups.items():
        fns.sort(key=lambda x: (-x[0], x[2]))
        over = [f for f in fns if f[0] > args.limit]
        print(f"{group}: {len(fns)} functions, {len(over)} longer than {args.limit} lines, "
              f"longest {fns[0][0] if fns else 0}")
        for length, name, where in fns[:args.top]:
            print(f"  {length:5d}  {name}  {where}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
