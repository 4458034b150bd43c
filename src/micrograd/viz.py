"""See the graph and step through backward: the teaching tools of micrograd.teach, by their
first name.

to_dot(root)            DOT text (no dependency); render with Graphviz's `dot`
draw_dot(root)          a graphviz.Digraph, shown inline by Jupyter (needs the `graphviz` extra)
to_mermaid(root)        a Mermaid flowchart of the graph
explain(root)           runs backward step by step and says what each step adds, and why
backward_sequence(root) a Mermaid sequence diagram of one backward pass
stepper(root)           a page that steps through backward, inline in a notebook (quiz=True asks)
"""

from micrograd.teach.drawings import (
    DOT_LAYOUT_NODES,
    MAX_NODES,
    draw_dot,
    fmt_number,
    formula,
    names,
    render_dot,
    to_dot,
    to_mermaid,
)
from micrograd.teach.explain import (
    Contribution,
    Explanation,
    Step,
    backward_sequence,
    explain,
)
from micrograd.teach.stepper import Stepper, page_with_data, script_json, stepper

__all__ = [
    "DOT_LAYOUT_NODES",
    "MAX_NODES",
    "Contribution",
    "Explanation",
    "Step",
    "Stepper",
    "backward_sequence",
    "draw_dot",
    "explain",
    "fmt_number",
    "formula",
    "names",
    "page_with_data",
    "render_dot",
    "script_json",
    "stepper",
    "to_dot",
    "to_mermaid",
]
