"""One engine of the benchmark, run in its own process (bench.py starts one per engine).

Protocol on stdin/stdout, one JSON document per line:
    in:  {"engine": ..., "X": [[x0, x1], ...], "y": [+-1, ...], "weights": [...], "hidden": [16, 16]}
    out: {"loss": ..., "grads": [...], "values_per_step": ..., "bytes_per_value": ...}
    in:  {"steps": k}      out: {"times": [seconds per step, ...]}
    in:  {"chain": n}      out: {"seconds": ..., "grad": ...}   (eager engines)
    in:  {"loop": k}       out: {"seconds": ...}   k steps as the demo notebook's loop runs them

BENCH_GC=tuned runs the worker inside micrograd.tuned() (for 0.1.0: the same GC thresholds).

Engines: "eager" and "original" (the same user code; which micrograd it imports depends on the
interpreter bench.py starts), "fast" (micrograd.replay, numpy), "torch" (batched float64), "autograd" (HIPS).
The workload W is the original demo's training step: mean hinge loss + 1e-4 * L2, SGD.
"""

import gc
import json
import os
import sys
import time
import tracemalloc

ALPHA, LR = 1e-4, 0.05

if os.environ.get("BENCH_GC") == "tuned":  # what micrograd.tuned() does, for either engine
    try:
        from micrograd.tuning import tuned

        TUNED = tuned()  # kept: a dropped generator would close, and put everything back
        TUNED.__enter__()  # for the worker's whole life
    except ImportError:  # micrograd 0.1.0: the same GC thresholds by hand
        gc.set_threshold(700, 10, 100)


def count_values(root):
    seen, stack = {id(root)}, [root]
    while stack:
        for p in stack.pop()._prev:
            if id(p) not in seen:
                seen.add(id(p))
                stack.append(p)
    return len(seen)


class Eager:
    """The user code of the original demo, unchanged, for either micrograd."""

    def __init__(self, X, y, weights, hidden):
        from micrograd.engine import Value
        from micrograd.nn import MLP

        self.Value, self.X, self.y = Value, X, y
        self.model = MLP(2, [*hidden, 1])
        for p, w in zip(self.model.parameters(), weights, strict=True):
            p.data = w

    def loss(self):
        Value, model = self.Value, self.model
        inputs = [list(map(Value, xrow)) for xrow in self.X]
        scores = list(map(model, inputs))
        losses = [(1 + -yi * scorei).relu() for yi, scorei in zip(self.y, scores)]
        data_loss = sum(losses) * (1.0 / len(losses))
        reg_loss = ALPHA * sum(p * p for p in model.parameters())
        return data_loss + reg_loss

    def first(self):
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        total = self.loss()
        used = tracemalloc.get_traced_memory()[0] - before
        tracemalloc.stop()
        n = count_values(total)
        self.model.zero_grad()
        total.backward()
        grads = [p.grad for p in self.model.parameters()]
        return {
            "loss": total.data,
            "grads": grads,
            "values_per_step": n,
            "bytes_per_value": used / n,
        }

    def step(self):
        total = self.loss()
        self.model.zero_grad()
        total.backward()
        for p in self.model.parameters():
            p.data -= LR * p.grad

    def chain(self, n):
        start = time.perf_counter()
        x = self.Value(1.0)
        y = x
        for _ in range(n):
            y = y + x
        y.backward()
        return {"seconds": time.perf_counter() - start, "grad": x.grad}


class Fast(Eager):
    """micrograd.replay's numpy back end: trace one sample's loss once, replay it on the batch."""

    def __init__(self, X, y, weights, hidden):
        super().__init__(X, y, weights, hidden)
        import numpy as np

        from micrograd.losses import l2
        from micrograd.replay import compile

        params = self.params = self.model.parameters()
        self.np = np
        model = self.model
        loss = lambda x0, x1, t: (1 + -t * model([x0, x1])).relu()  # noqa: E731
        self.per_sample = compile(loss, params, 3, backend="numpy")
        self.reg = compile(lambda: ALPHA * l2(params), params, 0, backend="numpy")
        self.batch = np.array([[*xi, yi] for xi, yi in zip(X, y)])
        self.no_inputs = np.zeros((1, 0))

    def loss_and_grads(self):
        losses, grads, _ = self.per_sample.value_and_grad(self.batch, 1.0 / len(self.batch))
        reg, reg_grads, _ = self.reg.value_and_grad(self.no_inputs)
        return float(losses.mean() + reg[0]), (grads + reg_grads).tolist()

    def first(self):
        loss, grads = self.loss_and_grads()
        return {"loss": loss, "grads": grads}

    def step(self):
        _, grads = self.loss_and_grads()
        for p, g in zip(self.params, grads):
            p.grad = g
            p.data -= LR * g


def layer_shapes(hidden):
    sizes = [2, *hidden, 1]
    return [(sizes[i + 1], sizes[i]) for i in range(len(sizes) - 1)]


def unflatten(weights, hidden):
    """micrograd's parameter order (per neuron: its weights, then its bias) as (W, b) per layer."""
    layers, k = [], 0
    for nout, nin in layer_shapes(hidden):
        W, b = [], []
        for _ in range(nout):
            W.append(weights[k : k + nin])
            b.append(weights[k + nin])
            k += nin + 1
        layers.append((W, b))
    return layers


def flatten(layers):
    out = []
    for W, b in layers:
        for row, bias in zip(W, b):
            out += [*row, bias]
    return out


def tensor_loss(X, y, params):
    """W's loss with batched tensor ops; the same code serves PyTorch and tinygrad."""
    h = X
    pairs = list(zip(params[::2], params[1::2]))
    for i, (W, b) in enumerate(pairs):
        h = h @ W.T + b
        if i < len(pairs) - 1:
            h = h.relu()
    data_loss = (1 - y * h[:, 0]).relu().mean()
    return data_loss + ALPHA * sum(
        ((p * p).sum() for p in params[1:]), (params[0] * params[0]).sum()
    )


class Torch:
    """PyTorch, batched matrix ops in float64: the speed a user gets after graduating."""

    def __init__(self, X, y, weights, hidden):
        import torch

        torch.set_num_threads(1)
        self.torch = torch
        self.X = torch.tensor(X, dtype=torch.float64)
        self.y = torch.tensor(y, dtype=torch.float64)
        self.params = []
        for W, b in unflatten(weights, hidden):
            self.params += [
                torch.tensor(W, dtype=torch.float64, requires_grad=True),
                torch.tensor(b, dtype=torch.float64, requires_grad=True),
            ]

    def loss(self):
        return tensor_loss(self.X, self.y, self.params)

    def first(self):
        total = self.loss()
        total.backward()
        grads = flatten(
            [
                (W.grad.tolist(), b.grad.tolist())
                for W, b in zip(self.params[::2], self.params[1::2])
            ]
        )
        for p in self.params:
            p.grad = None
        return {"loss": total.item(), "grads": grads}

    def step(self):
        total = self.loss()
        total.backward()
        with self.torch.no_grad():
            for p in self.params:
                p -= LR * p.grad
                p.grad = None


class Autograd:
    """HIPS autograd on numpy, batched."""

    def __init__(self, X, y, weights, hidden):
        import autograd.numpy as anp
        from autograd import grad, value_and_grad

        self.anp, self.X, self.y = anp, anp.array(X), anp.array(y)
        self.params = []
        for W, b in unflatten(weights, hidden):
            self.params += [anp.array(W), anp.array(b)]
        self.value_and_grad = value_and_grad(self.loss)
        self.grad = grad(self.loss)

    def loss(self, params):
        anp, h = self.anp, self.X
        pairs = list(zip(params[::2], params[1::2]))
        for i, (W, b) in enumerate(pairs):
            h = anp.dot(h, W.T) + b
            if i < len(pairs) - 1:
                h = anp.maximum(h, 0.0)
        data_loss = anp.mean(anp.maximum(1 - self.y * h[:, 0], 0.0))
        return data_loss + ALPHA * sum(anp.sum(p * p) for p in params)

    def first(self):
        value, grads = self.value_and_grad(self.params)
        pairs = [(W.tolist(), b.tolist()) for W, b in zip(grads[::2], grads[1::2])]
        return {"loss": float(value), "grads": flatten(pairs)}

    def step(self):
        grads = self.grad(self.params)
        self.params = [p - LR * g for p, g in zip(self.params, grads)]


class Tinygrad:
    """tinygrad, batched float64, the whole step compiled once with TinyJit (needs a C compiler)."""

    def __init__(self, X, y, weights, hidden):
        from tinygrad import Tensor, TinyJit, dtypes

        f64 = dtypes.float64
        self.X, self.y = Tensor(X, dtype=f64), Tensor(y, dtype=f64)
        self.params = []
        for W, b in unflatten(weights, hidden):
            self.params += [Tensor(W, dtype=f64), Tensor(b, dtype=f64)]

        @TinyJit
        def step():
            loss = self.loss()
            for p, g in zip(self.params, loss.gradient(*self.params)):
                p.assign(p - LR * g)
            Tensor.realize(loss, *self.params)
            return loss

        self.jitted = step

    def loss(self):
        return tensor_loss(self.X, self.y, self.params)

    def first(self):
        loss = self.loss()
        grads = [g.numpy().tolist() for g in loss.gradient(*self.params)]
        return {"loss": float(loss.numpy()), "grads": flatten(list(zip(grads[::2], grads[1::2])))}

    def step(self):
        self.jitted().numpy()  # wait for the result, as the other engines do


ENGINES = {
    "eager": Eager,
    "original": Eager,
    "fast": Fast,
    "torch": Torch,
    "autograd": Autograd,
    "tinygrad": Tinygrad,
}


def main():
    setup = json.loads(sys.stdin.readline())
    engine = ENGINES[setup["engine"]](setup["X"], setup["y"], setup["weights"], setup["hidden"])
    print(json.dumps(engine.first()), flush=True)
    for line in sys.stdin:
        cmd = json.loads(line)
        if "steps" in cmd:
            times = []
            for _ in range(cmd["steps"]):
                start = time.perf_counter()
                engine.step()
                times.append(time.perf_counter() - start)
            print(json.dumps({"times": times}), flush=True)
        elif "loop" in cmd:
            start = time.perf_counter()
            for _ in range(cmd["loop"]):
                engine.step()
            print(json.dumps({"seconds": time.perf_counter() - start}), flush=True)
        elif "chain" in cmd:
            try:
                print(json.dumps(engine.chain(cmd["chain"])), flush=True)
            except RecursionError:
                print(json.dumps({"error": "RecursionError"}), flush=True)


if __name__ == "__main__":
    main()
