"""Run programs with whichever micrograd this interpreter imports, for the differential tests.

Reads a JSON list on stdin: {"name", "source"} (one program, in a fresh namespace, after
random.seed(0)) or {"name", "blocks"} (a document's code blocks, in order, in one namespace).
Writes {name: result} as JSON, where a result is {"out": what it printed, "error": the exception's
type if it raised}; a document's result is the list of its blocks' results. Standard library only,
so it runs under micrograd 0.1.0's interpreter too.
"""

import contextlib
import io
import json
import random
import sys


def run(source, scope):
    out = io.StringIO()
    result = {}
    try:
        with contextlib.redirect_stdout(out):
            exec(compile(source, "<program>", "exec"), scope)
    except Exception as e:  # the type is compared; messages are the errors row of the README
        result["error"] = type(e).__name__
    result["out"] = out.getvalue()
    return result


def main():
    results = {}
    for job in json.load(sys.stdin):
        if "blocks" in job:
            scope = {"__name__": "__main__"}
            results[job["name"]] = [run(block, scope) for block in job["blocks"]]
        else:
            random.seed(0)
            results[job["name"]] = run(job["source"], {"__name__": "__main__"})
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    main()
