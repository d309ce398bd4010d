#!/usr/bin/env python3
"""Counts how many model replies in a response-cache database hold a code
block with a target function (docs/llm.md, "Output shaping: measured").

    scripts/reply-yield.py CACHE_DB FUNCTION...

A reply counts when it has a ``` fenced block that is closed, or is left open
with balanced braces and ends with '}' or ';' (the extractor's rule for an
unterminated fence), and whose code contains "FUNCTION(" for one of the given
names (the problems of the run: a reply for one problem naming another's
function is not expected); it counts as defining the function when that is
"FUNCTION(...) {" (parameters without ';' or braces). Prints totals, the
finish reasons, and how many replies the wrap-up (docs/llm.md) wrote part of
and how many of those got the function's head from it. This mirrors
src/llm/extract.cc's fence rule; it does not parse JSON replies (the search's
prompts ask for a fenced block).
"""
import json
import re
import sqlite3
import sys
from collections import Counter


def blocks(text):
    """Yields (code, closed) for every fenced block."""
    pos = 0
    while True:
        start = text.find("```", pos)
        if start < 0:
            return
        nl = text.find("\n", start)
        if nl < 0:
            return
        end = text.find("```", nl + 1)
        if end < 0:
            yield text[nl + 1:], False
            return
        yield text[nl + 1:end], True
        pos = end + 3


def has_code(text, names):
    """(mentions, defines) for the best block of `text`."""
    alt = "|".join(re.escape(n) for n in names)
    mention = re.compile(r"\b(" + alt + r")\s*\(")
    define = re.compile(r"\b(" + alt + r")\s*\([^;{}]*\)\s*\{")
    best = (False, False)
    for code, closed in blocks(text):
        if not closed:
            stripped = code.rstrip()
            if code.count("{") != code.count("}") or not stripped.endswith(("}", ";")):
                continue
        best = max(best, (bool(mention.search(code)), bool(define.search(code))))
    return best


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    db = sqlite3.connect(sys.argv[1])
    names = sys.argv[2:]
    total = mentions = defines = head_forced = touched = 0
    finish = Counter()
    for (response,) in db.execute("SELECT response FROM llm_cache"):
        for choice in json.loads(response)["choices"]:
            total += 1
            finish[choice["finish_reason"]] += 1
            m, d = has_code(choice["text"], names)
            mentions += m
            defines += d
            # The wrap-up (docs/llm.md): what the backend wrote, if anything;
            # the function's head when that holds "(...) {".
            wrapped = choice.get("wrapped_up", "")
            touched += bool(wrapped)
            head_forced += any(n + "(" in wrapped for n in names)
    pct = lambda k: f"{100.0 * k / total:.0f}%" if total else "-"
    print(f"replies {total}: a code block holding the function {mentions} ({pct(mentions)}), "
          f"defining it {defines} ({pct(defines)}); finish reasons {dict(finish)}; "
          f"the wrap-up wrote part of {touched}, the function's head of {head_forced}")


if __name__ == "__main__":
    main()
