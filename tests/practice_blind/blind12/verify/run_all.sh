#!/bin/sh
# Re-run every verification (none imports micrograd.practice; check_engine.py imports micrograd.engine).
cd "$(dirname "$0")"
PY="${PYTHON:-python3}"  # the venv with torch: PYTHON=.venv/bin/python
for s in check_ops.py check_derivative.py check_backward.py check_zero_grad.py check_softmax.py check_mlp.py check_engine.py; do
  echo "=== $s"; $PY $s
done
