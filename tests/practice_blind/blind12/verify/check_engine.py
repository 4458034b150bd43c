"""Cross-check: the fails_on cases of check_ops.py and check_backward.py's fixed graphs on
micrograd's reference engine (micrograd.engine.Value) against torch."""
from common import *
from micrograd.engine import Value as E
import check_ops, check_backward

for key, (desc, build, xs) in check_ops.FAILS.items():
    e, t = run_value(E, build, xs), run_torch(build, xs)
    print(key, desc, xs, "engine:", fmt(e), "| torch:", fmt(t), "| agree" if same(e, t) else "| DISAGREE")
for name, build, xs in check_backward.FIXED:
    build = build or check_backward.readme
    e, t = run_value(E, build, xs), run_torch(build, xs)
    print(name, "engine:", fmt(e), "| torch:", fmt(t), "| agree" if same(e, t) else "| DISAGREE")
print("random graphs, engine vs torch mismatches:", len(check_backward.random_graph_problems(E)))
