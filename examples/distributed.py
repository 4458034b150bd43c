"""From micrograd to many processes: train a micrograd model with PyTorch's DistributedDataParallel.

    torchrun --standalone --nproc-per-node 2 examples/distributed.py [--model mlp|gpt]
        [--steps 200] [--batch-size 64] [--out result.json]

Every process builds the same micrograd model (same seed), the MLP on the 8x8 digits or the GPT
on the names, exports it (`to_torch`, `gpt_to_torch`), and trains it with DistributedDataParallel
on its own shard of the data (gloo backend: CPUs, no GPU needed); DDP averages the gradients
across processes at each step, so all copies stay identical.

At the first step, rank 0 checks what DDP computed: the averaged gradient equals one process
accumulating every process's batch in turn (PyTorch, and micrograd's own backward() on the
Values), to 1e-12: the effective batch is the batch per process times the processes. At the end
the processes compare their weights, and rank 0 loads them back into the micrograd model and
checks that micrograd and PyTorch give the same outputs.

On several machines only the rendezvous changes: start the same command on each machine with
`--nnodes N --node-rank I --rdzv-backend c10d --rdzv-endpoint HOST:PORT` (HOST: one of the
machines, reachable by all) instead of `--standalone`.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys

import torch
import torch.distributed as dist
import torch.nn.functional as F
from torch.nn.parallel import DistributedDataParallel

from micrograd.data import CharTokenizer, digits, names, split
from micrograd.export import from_torch, gpt_matrices, gpt_to_torch, to_torch
from micrograd.gpt import GPT
from micrograd.losses import cross_entropy
from micrograd.nn import MLP


class MLPTask:
    """The MLP on the digits: rows of 64 pixels, a class each; softmax cross-entropy."""

    def __init__(self) -> None:
        X, y = digits()
        (self.X, self.y), _, (self.X_test, self.y_test) = split(X, y, test=0.2, seed=0)
        self.model = MLP(64, [64, 10])
        self.net = to_torch(self.model)

    def size(self) -> int:
        return len(self.X)

    def torch_loss(self, net: torch.nn.Module, batch: list[int]) -> torch.Tensor:
        """The mean loss of the rows `batch` (indices into the training set)."""
        x = torch.tensor([self.X[i] for i in batch], dtype=torch.float64)
        return F.cross_entropy(net(x), torch.tensor([self.y[i] for i in batch]))

    def micrograd_loss(self, batch: list[int]) -> object:
        return cross_entropy([self.model(self.X[i]) for i in batch], [self.y[i] for i in batch])

    def micrograd_grads(self) -> list[float]:
        """The Values' grads in the order of the torch module's parameters (each Linear's weight,
        then its bias)."""
        out: list[float] = []
        for layer in self.model.layers:
            out += [w.grad for n in layer.neurons for w in n.w]
            out += [n.b.grad for n in layer.neurons]
        return out

    def load_back(self, net: torch.nn.Module) -> float:
        """Load the trained weights into the micrograd model; the test accuracy."""
        from_torch(net, self.model)
        with torch.no_grad():
            theirs = net(torch.tensor(self.X_test, dtype=torch.float64))
        self.outputs = theirs
        return float((theirs.argmax(dim=1) == torch.tensor(self.y_test)).double().mean())

    def gap(self) -> float:
        """micrograd's own forward pass against PyTorch's, on the first 20 test images."""
        ours = [[o.data for o in self.model(x)] for x in self.X_test[:20]]
        return float((torch.tensor(ours, dtype=torch.float64) - self.outputs[:20]).abs().max())


class GPTTask:
    """microgpt's GPT on the names: each document a sequence; the mean loss of its positions."""

    def __init__(self) -> None:
        docs = names()
        self.tokenizer = CharTokenizer(docs)
        self.docs = [self.tokenizer.encode(d) for d in docs]
        self.model = GPT(vocab_size=self.tokenizer.vocab_size)
        self.net = Sequences(gpt_to_torch(self.model))

    def size(self) -> int:
        return len(self.docs)

    def torch_loss(self, net: torch.nn.Module, batch: list[int]) -> torch.Tensor:
        return net([self.docs[i] for i in batch])

    def micrograd_loss(self, batch: list[int]) -> object:
        losses = [self.model.loss(self.docs[i]) for i in batch]
        return sum(losses[1:], losses[0]) * (1 / len(batch))

    def micrograd_grads(self) -> list[float]:
        return [w.grad for m in gpt_matrices(self.model).values() for row in m.weight for w in row]

    def load_back(self, net: torch.nn.Module) -> float:
        """Load the trained weights into the micrograd GPT; the loss of the first 20 names."""
        for name, weight in net.gpt.weights.items():
            for row, numbers in zip(gpt_matrices(self.model)[name].weight, weight.tolist()):
                for w, x in zip(row, numbers):
                    w.data = x
        with torch.no_grad():
            self.theirs = float(net(self.docs[:20]))
        return self.theirs

    def gap(self) -> float:
        ours = self.micrograd_loss(list(range(20))).data  # type: ignore[attr-defined]
        return abs(ours - self.theirs)


class Sequences(torch.nn.Module):
    """A batch of token sequences -> their mean loss: one forward call per step, as DDP wants."""

    def __init__(self, gpt: torch.nn.Module) -> None:
        super().__init__()
        self.gpt = gpt

    def forward(self, sequences: list[list[int]]) -> torch.Tensor:
        losses = [F.cross_entropy(self.gpt(s[:-1]), torch.tensor(s[1:])) for s in sequences]
        return torch.stack(losses).mean()


def batch_of(rank: int, world: int, size: int, count: int, g: torch.Generator) -> list[int]:
    """`count` rows of this process's shard (every world-th row, starting at its rank)."""
    shard = list(range(rank, size, world))
    return [shard[i] for i in torch.randint(len(shard), (count,), generator=g).tolist()]


def flat_grads(net: torch.nn.Module) -> torch.Tensor:
    return torch.cat([p.grad.reshape(-1) for p in net.parameters()])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--model", choices=("mlp", "gpt"), default="mlp")
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--batch-size", type=int, default=None, help="per process (64; gpt: 4)")
    parser.add_argument("--out", help="rank 0 writes what it checked here (JSON)")
    args = parser.parse_args()
    count = args.batch_size or (4 if args.model == "gpt" else 64)

    dist.init_process_group("gloo")  # torchrun sets RANK, WORLD_SIZE and the rendezvous address
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.manual_seed(0)
    random.seed(0)  # the same weights in every process
    task = MLPTask() if args.model == "mlp" else GPTTask()
    net = DistributedDataParallel(task.net)  # float64, the micrograd model's weights
    optimizer = torch.optim.Adam(net.parameters(), lr=0.01)
    result: dict[str, object] = {"world": world, "model": args.model}

    generators = [torch.Generator().manual_seed(r) for r in range(world)]
    for step in range(args.steps):
        # every process draws every process's batch (the same generators): its own to train on,
        # and at the first step the others' too, for rank 0's check
        batches = [batch_of(r, world, task.size(), count, generators[r]) for r in range(world)]
        loss = task.torch_loss(net, batches[rank])
        optimizer.zero_grad()
        loss.backward()  # DDP averages the gradients of all processes here
        if step == 0 and rank == 0:
            result |= first_step(task, batches, flat_grads(net.module))
        optimizer.step()
        if rank == 0 and step % 25 == 0:
            print(f"step {step}: loss {loss.item():.4f}", flush=True)

    # are the copies identical? the largest and smallest value of each weight across processes
    flat = torch.cat([p.detach().reshape(-1) for p in net.module.parameters()])
    high, low = flat.clone(), flat.clone()
    dist.all_reduce(high, op=dist.ReduceOp.MAX)
    dist.all_reduce(low, op=dist.ReduceOp.MIN)
    spread = float((high - low).max())

    if rank == 0:
        score = task.load_back(net.module)
        gap = task.gap()
        print(
            f"{world} processes; weights identical across them: {spread == 0.0} (max gap {spread:g})"
        )
        print(f"micrograd model after loading the weights back: matches PyTorch to {gap:.1e}")
        print(("test accuracy" if args.model == "mlp" else "loss of 20 names") + f": {score:.3f}")
        if args.out:
            result |= {"spread": spread, "gap": gap, "score": score}
            with open(args.out, "w") as f:
                json.dump(result, f)
    # every process waits for rank 0's checks before any leaves: a process that tears its group
    # down while a peer still holds a connection to it can abort (gloo: "terminate called")
    dist.barrier()
    del net, optimizer  # DDP's reducer holds the group: let it go while the group is alive
    dist.destroy_process_group()


def first_step(task: MLPTask | GPTTask, batches: list[list[int]], ddp: torch.Tensor) -> dict:
    """DDP's averaged gradient at the first step, against one process that accumulates each
    process's batch in turn, each weighed 1/world: a PyTorch copy of the model (loss.backward()
    adds into .grad) and the micrograd model itself (backward() adds into each Value's grad)."""
    import copy

    world = len(batches)
    alone = copy.deepcopy(task.net)  # the weights before the first step, as every process had
    alone.zero_grad()
    for batch in batches:
        (task.torch_loss(alone, batch) / world).backward()
    task.model.zero_grad()
    for batch in batches:
        (task.micrograd_loss(batch) * (1 / world)).backward()  # type: ignore[operator]
    ours = torch.tensor(task.micrograd_grads(), dtype=torch.float64)
    found = {
        "ddp_vs_accumulated": float((ddp - flat_grads(alone)).abs().max()),
        "ddp_vs_micrograd": float((ddp - ours).abs().max()),
    }
    print(
        f"first step: DDP's averaged gradient = one process accumulating {world} batches, "
        f"to {found['ddp_vs_accumulated']:.1e} (PyTorch) and {found['ddp_vs_micrograd']:.1e} "
        "(micrograd)",
        flush=True,
    )
    return found


if __name__ == "__main__":
    main()
    # The work is done and checked, and the group destroyed. Leave without the interpreter's
    # teardown: gloo's threads can still abort a process there ("terminate called without an
    # active exception", seen once in a loaded CI run), and torchrun reports that as the whole
    # job failing.
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(0)
