#!/usr/bin/env python3
"""Structure checks of a regrapht HTML page (tests only).

  html_check.py PAGE.html [--id ID[:TAG[:MIN_ROWS]]]... [--count TAG.CLASS:N]...

Parses the page with Python's html.parser and fails (exit 1, naming what)
unless: every element is closed in order, nothing is fetched (no script, link,
img, iframe, src=, an http(s) attribute value other than the SVG namespace,
or a CSS url()/@import that fetches; a URL as text is fine), each --id
exists (with that tag, and at least MIN_ROWS body rows for a table), and each
--count TAG.CLASS occurs exactly N times.
"""
import re
import sys
from html.parser import HTMLParser

VOID = {"meta", "br", "hr", "img", "link", "input", "col", "wbr"}


class Page(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack = []
        self.errors = []
        self.by_id = {}
        self.counts = {}
        self.rows = {}  # table id -> body rows

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in ("script", "link", "img", "iframe", "object", "embed"):
            self.errors.append(f"<{tag}> present: the page must load nothing")
        for k, v in attrs:
            if k == "src" or (v and (v.startswith("http://") or v.startswith("https://"))
                              and v != "http://www.w3.org/2000/svg"):
                self.errors.append(f"<{tag} {k}={v!r}>: external reference")
        if "id" in a:
            if a["id"] in self.by_id:
                self.errors.append(f"id {a['id']!r} used twice")
            self.by_id[a["id"]] = tag
        for c in (a.get("class") or "").split():
            self.counts[f"{tag}.{c}"] = self.counts.get(f"{tag}.{c}", 0) + 1
        self.counts[tag] = self.counts.get(tag, 0) + 1
        if tag == "tr" and self.stack and self.stack[-1][0] == "tbody":
            for t, tid in reversed(self.stack):
                if t == "table":
                    if tid:
                        self.rows[tid] = self.rows.get(tid, 0) + 1
                    break
        if tag not in VOID:
            self.stack.append((tag, a.get("id")))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if tag not in VOID:
            self.stack.pop()

    def handle_endtag(self, tag):
        if tag in VOID:
            return
        if not self.stack or self.stack[-1][0] != tag:
            top = self.stack[-1][0] if self.stack else "nothing"
            self.errors.append(f"</{tag}> closes <{top}> (line {self.getpos()[0]})")
            return
        self.stack.pop()


def main(argv):
    path = argv[1]
    text = open(path, encoding="utf-8").read()
    p = Page()
    p.feed(text)
    p.close()
    errors = list(p.errors)
    if p.stack:
        errors.append("left open: " + " > ".join(t for t, _ in p.stack))
    # CSS that would fetch (url(...) to a server, @import). A URL as text (a
    # model endpoint in the summary) fetches nothing.
    css = re.sub(r"\s+", "", text.lower())
    if re.search(r"url\(['\"]?(https?:)?//", css) or "@import" in css:
        errors.append("a CSS url() or @import that fetches")
    args = argv[2:]
    i = 0
    while i < len(args):
        flag, value = args[i], args[i + 1]
        i += 2
        if flag == "--id":
            parts = value.split(":")
            pid = parts[0]
            if pid not in p.by_id:
                errors.append(f"no element with id {pid!r}")
                continue
            if len(parts) > 1 and parts[1] and p.by_id[pid] != parts[1]:
                errors.append(f"#{pid} is <{p.by_id[pid]}>, expected <{parts[1]}>")
            if len(parts) > 2 and p.rows.get(pid, 0) < int(parts[2]):
                errors.append(f"table #{pid} has {p.rows.get(pid, 0)} body rows, expected at least {parts[2]}")
        elif flag == "--count":
            key, n = value.rsplit(":", 1)
            if p.counts.get(key, 0) != int(n):
                errors.append(f"{key}: {p.counts.get(key, 0)} found, expected {n}")
        else:
            errors.append(f"unknown flag {flag}")
    for e in errors:
        print(f"{path}: {e}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
