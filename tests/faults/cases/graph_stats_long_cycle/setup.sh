python3 "$ROOT/tests/faults/make_graph.py" g.json 300000 --shape cycle
