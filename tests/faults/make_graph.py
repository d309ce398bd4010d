#!/usr/bin/env python3
"""Writes a large native reasoning graph for the fault suite and the
linearity measurement of `graph stats` / `graph show` (docs/faults.md).

make_graph.py OUT EDGES [--nodes N] [--seed S] [--shape random|chain|cycle]

random: EDGES distinct edges between N technique nodes (default
2 * sqrt(EDGES) + 2), strongly connected and full of cycles; chain: one
path of EDGES edges (a million-node path must not overflow a recursion);
cycle: the chain closed into one cycle. Nodes are flagged for review (no
technique), edges carry no examples: about 55 bytes per edge.
"""
import argparse
import math
import random


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("edges", type=int)
    ap.add_argument("--nodes", type=int)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--shape", default="random", choices=["random", "chain", "cycle"])
    a = ap.parse_args()
    rng = random.Random(a.seed)
    pairs = []
    if a.shape == "random":
        n = a.nodes or int(2 * math.sqrt(a.edges)) + 2
        if n * (n - 1) < a.edges:
            raise SystemExit("too few nodes for that many edges")
        seen = set()
        for v in range(1, n):  # the init node reaches every node
            seen.add((0, v))
        pairs = sorted(seen)
        while len(pairs) < a.edges:
            f, t = rng.randrange(n), rng.randrange(1, n)
            if f != t and (f, t) not in seen:
                seen.add((f, t))
                pairs.append((f, t))
        pairs = pairs[:a.edges]
    else:
        n = a.edges + 1
        pairs = [(v, v + 1) for v in range(a.edges)]
        if a.shape == "cycle":
            n = a.edges
            pairs[-1] = (a.edges - 1, 1)
    with open(a.out, "w") as f:
        f.write('{"format": "regrapht-graph", "version": 1, "nodes": [\n{"id": 0, "name": "init state"}')
        for v in range(1, n):
            f.write(',\n{"id": %d, "name": "technique %d", "technique": "", "needs_review": true}' % (v, v))
        f.write('\n], "edges": [\n')
        f.write(",\n".join('{"id": %d, "from": %d, "to": %d, "examples": []}' % (i, p, q)
                           for i, (p, q) in enumerate(pairs)))
        f.write("\n]}\n")


if __name__ == "__main__":
    main()
