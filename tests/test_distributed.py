"""examples/distributed.py under torchrun: two local processes (gloo) train a micrograd model
exported to PyTorch, end with identical weights, and load them back into micrograd exactly."""

import json
import os
import subprocess
import sys

import pytest

pytest.importorskip("torch")
pytest.importorskip("torch.distributed.run")

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_two_processes_train_one_model_and_micrograd_gets_it_back(tmp_path):
    out = tmp_path / "result.json"
    cmd = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc-per-node", "2"]
    cmd += ["examples/distributed.py", "--steps", "40", "--out", str(out)]
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=600)
    # the head says why a rank stopped (gloo's own message); the tail, which torchrun reports
    assert done.returncode == 0, done.stderr[:3000] + "\n[...]\n" + done.stderr[-2000:]
    result = json.loads(out.read_text())
    assert result["world"] == 2
    assert result["spread"] == 0.0  # DDP kept the two copies bit-identical
    assert result["gap"] < 1e-12  # from_torch: micrograd computes what PyTorch computes
    assert result["accuracy"] > 0.5  # it trained
    assert "weights identical across them: True" in done.stdout
