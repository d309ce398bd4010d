python3 "$ROOT/tests/faults/make_graph.py" g.json 20000
