#!/bin/sh
# Re-run every verification (none imports micrograd.practice; check_engine.py imports micrograd.engine).
# PYTHON: a Python with torch and micrograd, e.g. PYTHON=.venv/bin/python (default: python3).
PY="${PYTHON:-python3}"
case "$PY" in */*) PY="$(cd "$(dirname "$PY")" && pwd)/$(basename "$PY")" ;; esac
cd "$(dirname "$0")"
for s in check_ops.py check_derivative.py check_backward.py check_zero_grad.py check_softmax.py check_mlp.py check_engine.py; do
  echo "=== $s"; "$PY" $s
done
