"""From micrograd to many processes: train a micrograd MLP with PyTorch's DistributedDataParallel.

    torchrun --standalone --nproc-per-node 2 examples/distributed.py [--steps 200] [--out result.json]

Every process builds the same micrograd model (same seed), exports it with `to_torch`, and trains
it with DistributedDataParallel on its own half of the 8x8 digits (gloo backend: CPUs, no GPU
needed); DDP averages the gradients across processes at each step, so all copies stay identical.
At the end the processes compare their weights, and rank 0 loads them back into the micrograd
model with `from_torch` and checks that micrograd and PyTorch give the same outputs.

On several machines only the rendezvous changes: start the same command on each machine with
`--nnodes N --node-rank I --rdzv-backend c10d --rdzv-endpoint HOST:PORT` (HOST: one of the
machines, reachable by all) instead of `--standalone`.
"""

from __future__ import annotations

import argparse
import json
import random

import torch
import torch.distributed as dist
from torch.nn.parallel import DistributedDataParallel

from micrograd.data import digits, split
from micrograd.export import from_torch, to_torch
from micrograd.nn import MLP


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps", type=int, default=200)
    parser.add_argument("--batch-size", type=int, default=64, help="per process")
    parser.add_argument("--out", help="rank 0 writes what it checked here (JSON)")
    args = parser.parse_args()

    dist.init_process_group("gloo")  # torchrun sets RANK, WORLD_SIZE and the rendezvous address
    rank, world = dist.get_rank(), dist.get_world_size()
    torch.manual_seed(0)

    X, y = digits()
    (X_train, y_train), _, (X_test, y_test) = split(X, y, test=0.2, seed=0)
    random.seed(0)  # the same weights in every process
    model = MLP(64, [64, 10])
    net = DistributedDataParallel(to_torch(model))  # float64, the micrograd model's weights
    optimizer = torch.optim.Adam(net.parameters(), lr=0.01)

    # each process trains on its own shard: every world-th image, starting at its rank
    xs = torch.tensor(X_train[rank::world], dtype=torch.float64)
    ys = torch.tensor(y_train[rank::world])
    g = torch.Generator().manual_seed(rank)
    for step in range(args.steps):
        batch = torch.randint(len(xs), (args.batch_size,), generator=g)
        loss = torch.nn.functional.cross_entropy(net(xs[batch]), ys[batch])
        optimizer.zero_grad()
        loss.backward()  # DDP averages the gradients of all processes here
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
        from_torch(net.module, model)  # back into micrograd
        with torch.no_grad():
            theirs = net.module(torch.tensor(X_test, dtype=torch.float64))
        accuracy = float((theirs.argmax(dim=1) == torch.tensor(y_test)).double().mean())
        # micrograd's own forward pass, a Value per number (~50 ms an image): the first 20 images
        ours = torch.tensor([[o.data for o in model(x)] for x in X_test[:20]], dtype=torch.float64)
        gap = float((ours - theirs[:20]).abs().max())
        print(
            f"{world} processes; weights identical across them: {spread == 0.0} (max gap {spread:g})"
        )
        print(f"micrograd model after from_torch: outputs match PyTorch to {gap:.1e}")
        print(f"test accuracy: {accuracy:.3f}")
        if args.out:
            result = {"world": world, "spread": spread, "gap": gap, "accuracy": accuracy}
            with open(args.out, "w") as f:
                json.dump(result, f)
    dist.destroy_process_group()


if __name__ == "__main__":
    main()
