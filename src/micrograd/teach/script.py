"""The bridge's plan as a program to read and run: a standalone numpy or PyTorch script that
computes a model's loss on a batch of rows, one line per array operation, and its gradient.

The numpy script carries its own backward pass: each operation's local derivatives come from the
same rules as engine.py's (their source is copied in, with micrograd.maths' numpy namespace and the
losses' fused rules), and the chain rule is written out line by line, from the loss back, as
additions into each operand's gradient. The PyTorch script writes the same forward pass in torch
and lets autograd do the rest. Neither imports micrograd; both print the mean loss and each
parameter tensor's gradient, and with --json the gradient in the model's parameter order, which
the tests compare with the scalar engine's.

    text = numpy_script(of_classifier(model), rows)   # rows: Classifier.rows(X, y)
"""

from __future__ import annotations

import inspect
import math
import re
from collections.abc import Sequence
from typing import Any

from micrograd.engine import OPS
from micrograd.losses import FUSED, PADS
from micrograd.maths import NumpyMath
from micrograd.replay.arrays import shared_bias
from micrograd.teach.arrayops import flat_place
from micrograd.teach.bridge import Bridge

Piece = tuple[str, list[Any]]  # (a tensor's or line's name, or "" for numbers; indices or numbers)


def ident(name: str) -> str:
    """A tensor's name as a Python name: layers.0.attn.wo.weight -> layers_0_attn_wo_weight."""
    return re.sub(r"\W", "_", name)


class _Script:
    """What both scripts share: names, index constants, operands as code."""

    def __init__(self, shown: Bridge, lib: str) -> None:
        self.shown, self.lib = shown, lib
        self.cat = "np.concatenate" if lib == "np" else "torch.cat"  # 1-D pieces, end to end
        self.consts: list[str] = []  # index lists, named I1, I2, ...
        self.kinds = {t.name: t.kind for t in shown.tensors} | {
            ln.name: "line" for ln in shown.lines
        }
        self.shapes = {t.name: t.shape for t in shown.tensors}
        self.widths = {ln.name: ln.width for ln in shown.lines}
        self.widths |= {t.name: t.shape[0] for t in shown.tensors if t.kind == "input"}

    def index(self, numbers: Sequence[int]) -> str:
        """A list of indices as a named constant of the script (written once)."""
        text = "[" + ", ".join(map(str, numbers)) + "]"
        for k, known in enumerate(self.consts):
            if known == text:
                return f"I{k + 1}"
        self.consts.append(text)
        return f"I{len(self.consts)}"

    def pieces(self, entries: Sequence[int]) -> list[Piece]:
        """An operand as runs of one source each: columns of a batch tensor or line, flat
        positions in a parameter tensor, or numbers."""
        found: list[Piece] = []
        for i in entries:
            node = self.shown.tape.nodes[i]
            if node.kind == "const":
                source, at = "", node.value
            else:
                source, where = self.shown.where[i]
                at = self._flat(source, where)
            if found and found[-1][0] == source:
                found[-1][1].append(at)
            else:
                found.append((source, [at]))
        return found

    def _flat(self, source: str, where: tuple[int, ...]) -> int:
        """A node's index in its source: a column of a batch tensor or line, or a parameter's
        place in its tensor, row by row."""
        return flat_place(where, self.shapes[source]) if self.kinds[source] == "param" else where[0]

    def piece(self, piece: Piece, alone: bool) -> str:
        """One piece as an expression: (B, w) for a batch source, (w,) for parameters or numbers
        (a number alone where every member reads the same one)."""
        source, at = piece
        lib = self.lib
        if not source:
            if alone and len(set(at)) == 1:
                return repr(float(at[0]))
            if len(set(at)) == 1:
                return f"{lib}.full(({len(at)},), {float(at[0])!r})"
            array = "np.array" if lib == "np" else "torch.tensor"
            return f"{array}([{', '.join(repr(float(v)) for v in at)}])"
        name = ident(source)
        if self.kinds[source] == "param":
            if at == list(range(math.prod(self.shapes[source]))):
                return f"{name}.reshape(-1)"
            return f"{name}.reshape(-1)[{self._columns(at)}]"
        if at == list(range(self.widths[source])):
            return name
        return f"{name}[:, {self._columns(at)}]"

    def _columns(self, at: list[int]) -> str:
        if at == list(range(at[0], at[0] + len(at))):
            return f"{at[0]}:{at[0] + len(at)}"
        return self.index(at)

    def operand(self, entries: Sequence[int]) -> str:
        parts = self.pieces(entries)
        if len(parts) == 1:
            return self.piece(parts[0], alone=True)
        return "cat(" + ", ".join(self.piece(p, alone=False) for p in parts) + ")"

    def rows(self, entries: Sequence[int]) -> str:
        """An operand as a (B, w) tensor even where it reads no batch tensor (a layer's input that
        is a parameter or a number: the same in every row)."""
        if self.batched([entries]):
            return self.operand(entries)
        return "cat(" + ", ".join(self.piece(p, alone=False) for p in self.pieces(entries)) + ")"

    def batched(self, operands: Sequence[Sequence[int]]) -> bool:
        """Whether some operand reads a batch tensor (else the result is the same for every row)."""
        return any(
            self.kinds[p[0]] in ("input", "line") for e in operands for p in self.pieces(e) if p[0]
        )

    def header(self, what: str, lib_import: str) -> list[str]:
        tape = self.shown.tape
        n_params = tape.n_params
        return [
            f'"""{what}: written by `micrograd bridge --write`, from the plan the numpy replay',
            "runs (one line per array operation). It needs no micrograd. Run it: it prints the mean",
            "loss of the rows below and each parameter tensor's gradient; --json prints the",
            f'gradient in the model\'s parameter order ({n_params} numbers)."""',
            "",
            "import json",
            "import sys",
            lib_import,
            "",
        ]

    def tensors(self, rows: Sequence[Sequence[float]], make: str) -> list[str]:
        """The parameters' numbers and the rows' inputs as tensors."""
        out = ["# the parameters, each tensor as the model holds it"]
        theta = self.shown.theta
        for t in self.shown.tensors:
            if t.kind != "param":
                continue
            flat = [0.0] * math.prod(t.shape)
            for i in t.entries:
                at, index = self.shown.where[i][1], self.shown.tape.nodes[i].index
                flat[self._flat(t.name, at)] = theta[index]
            numbers = ", ".join(repr(v) for v in flat)
            shape = ", ".join(map(str, t.shape))
            out.append(f"{ident(t.name)} = {make}([{numbers}]).reshape({shape})  # {t.about}")
        out += ["", "# the rows: each one's inputs, as the traced function reads them"]
        out.append(f"rows = {make}({[list(map(float, r)) for r in rows]!r})")
        out.append("B = len(rows)")
        start = 0
        for t in self.shown.tensors:
            if t.kind == "input":
                out.append(f"{ident(t.name)} = rows[:, {start}:{start + t.shape[0]}]")
                start += t.shape[0]
        return out

    def output(self) -> str:
        """The differentiated output, one number per row."""
        line, at = self.shown.where[self.shown.tape.outputs[0]]
        return f"{ident(line)}[:, {at[0]}]"

    def param_order(self) -> list[tuple[str, str]]:
        """Each parameter tensor's name, and the constant that says where its numbers go in the
        model's parameter vector (-1: a position the traced function never read)."""
        out = []
        for t in self.shown.tensors:
            if t.kind == "param":
                index = [-1] * math.prod(t.shape)
                for i in t.entries:
                    at, k = self.shown.where[i][1], self.shown.tape.nodes[i].index
                    index[self._flat(t.name, at)] = k
                out.append((t.name, self.index(index)))
        return out


def numpy_script(shown: Bridge, rows: Sequence[Sequence[float]], what: str = "A model") -> str:
    """The numpy script of `shown` on `rows`: forward, backward by hand, the gradient printed."""
    s = _Script(shown, "np")
    forward: list[str] = []
    backward: list[str] = []
    rules: list[Any] = []
    for line in shown.lines:
        name, (kind, args) = ident(line.name), line.form
        g = f"g_{name}"
        if kind == "linear":
            xs, W, w_rows, b, bias = args
            X, used, bias_code = _layer(s, xs, W, w_rows, b, bias)
            T = len(xs)
            if T == 1:
                forward.append(f"{name} = {X} @ {used}.T + {bias_code}")
                grad_x, grad_w, grad_b = f"{g} @ {used}", f"{g}.T @ {X}", f"{g}.sum(0)"
                said = f"d{X} = g @ W, dW = g.T @ {X}"
            else:  # the layer on T inputs side by side: X is (B, T, k), g as (B, T, n)
                forward.append(f"x_{name} = {X}")
                forward.append(f"{name} = (x_{name} @ {used}.T + {bias_code}).reshape(B, -1)")
                g3 = f"{g}.reshape(B, {T}, -1)"
                n = len(bias) // T
                shared = shared_bias(bias, n)  # one bias vector for every input, or one each
                grad_x, grad_b = f"{g3} @ {used}", f"{g3}.sum({'(0, 1)' if shared else '0'})"
                grad_w = f'np.einsum("btn,btk->nk", {g3}, x_{name})'
                said = "dx_t = g_t @ W, dW = the sum over t of g_t.T @ x_t"
            bias_said = "db = g summed over rows" if b else "the bias term gets g"
            step = [f"# {name} = x @ W.T + bias: {said}, {bias_said}"]
            if T == 1:
                step += _add(s, xs[0], grad_x)
            else:
                step.append(f"dx_{name} = {grad_x}")
                for t, x in enumerate(xs):
                    step += _add(s, x, f"dx_{name}[:, {t}]")
            if W:
                step.append(f"g_{ident(W)} += {grad_w}")
            else:  # the gradient of each gathered parameter, back where it came from
                step.append(f"dW_{name} = ({grad_w}).ravel()")
                step += _add_flat(s, [w for row in w_rows for w in row], f"dW_{name}")
            step += [f"g_{ident(b)} += {grad_b}"] if b else _add(s, bias, g)
        elif kind == "sum":
            (operands,) = args
            forward.append(f"{name} = " + " + ".join(s.operand(a) for a in operands))
            step = [f"# {name}: a sum, each term's gradient is g"]
            for a in operands:
                step += _add(s, a, g)
        elif kind == "segments":
            flat, sizes = args
            starts = [sum(sizes[:k]) for k in range(len(sizes))]
            forward.append(
                f"{name} = np.add.reduceat({s.operand(flat)}, {s.index(starts)}, axis=1)"
            )
            step = [f"# {name}: sums of runs of terms, each term's gradient is its sum's"]
            step += _add(s, flat, f"np.repeat({g}, {s.index(sizes)}, axis=1)")
        elif kind == "dot":
            starts, a, b, sizes = args
            begins = s.index([sum(sizes[:k]) for k in range(len(sizes))])
            forward.append(f"a_{name}, b_{name} = {s.operand(a)}, {s.operand(b)}")
            dots = f"np.add.reduceat(a_{name} * b_{name}, {begins}, axis=1)"
            forward.append(f"{name} = " + (f"{s.operand(starts)} + {dots}" if starts else dots))
            step = [f"# {name}: sums of products a * b, a gets g times b and b gets g times a"]
            spread = f"np.repeat({g}, {s.index(sizes)}, axis=1)"  # each product's sum's g
            step += _add(s, a, f"{spread} * b_{name}") + _add(s, b, f"{spread} * a_{name}")
            step += _add(s, starts, g) if starts else []
        elif kind == "fused":
            fused, flat, sizes = args
            rule = FUSED[fused]
            rules.append(rule)
            block, columns = _fused_block(s, "np", fused, name, line.width, flat, sizes, forward)
            forward.append(f"{name}, d_{name} = {rule.__name__}(np, {block}.transpose(2, 1, 0))")
            forward.append(f"{name} = {name}.T")
            many = f"{min(sizes)}-{max(sizes)}" if min(sizes) < max(sizes) else f"{sizes[0]}"
            step = [
                f"# {name}: {fused} of {many} numbers a row; its rule gave the local derivatives"
            ]
            step += _add(s, flat, f"({g}.T[None] * d_{name}).transpose(2, 1, 0){columns}")
        else:
            op, operands, k = args
            rule = OPS[op]
            rules.append(rule)
            call = ", ".join(
                [s.operand(a) for a in operands] + ([repr(k)] if k is not None else [])
            )
            forward.append(f"{name}, d_{name} = {rule.__name__}(m, {call})")
            if not s.batched(operands):
                forward.append(f"{name} = np.broadcast_to({name}, (B, {line.width}))")
            step = [f"# {name} = {line.code}: each operand gets g times its local derivative"]
            for j, a in enumerate(operands):
                step += _add(s, a, f"{g} * d_{name}[{j}]")
        if len(step) > 1:  # a line whose operands need no gradient writes nothing
            backward = step + backward
    if FUSED["cross_entropy"] in rules:  # it calls logsumexp's rule
        rules.insert(0, FUSED["logsumexp"])
    data = s.tensors(rows, "np.array")
    order = s.param_order()
    lines = s.header(what, "import numpy as np\nfrom typing import Any")
    lines += ["# the elementary functions on arrays (micrograd.maths.NumpyMath)"]
    lines += [inspect.getsource(NumpyMath), "m = NumpyMath(np)", ""]
    lines += ["# each op's rule as micrograd defines it: the output and its local derivatives", ""]
    lines += [inspect.getsource(rule) for rule in dict.fromkeys(rules)]
    lines += _helpers("np.concatenate", "np.broadcast_to(p, (B, np.shape(p)[-1]))")
    lines += [f"I{k + 1} = {text}" for k, text in enumerate(s.consts)] + [""]
    lines += data + ["", "# forward: one line per array operation, with its local derivatives"]
    lines += forward
    lines += [f"loss = {s.output()}.mean()  # each row weighs 1/B", ""]
    lines += ["# backward: from the loss back, each line's gradient g into what it read"]
    lines += [
        f"g_{ident(t.name)} = np.zeros_like({ident(t.name)})"
        for t in shown.tensors
        if t.kind == "param"
    ]
    lines += [f"g_{ident(ln.name)} = np.zeros((B, {ln.width}))" for ln in shown.lines]
    out, at = shown.where[shown.tape.outputs[0]]
    lines += [f"g_{ident(out)}[:, {at[0]}] = 1 / B  # d loss / d (each row's output)"]
    lines += backward
    lines += _report(s, order, "g_{}")
    return "\n".join(lines) + "\n"


def _helpers(concatenate: str, spread: str) -> list[str]:
    return [
        "",
        "def cat(*parts):",
        '    """Columns side by side; a vector stands for the same columns in every row."""',
        f"    return {concatenate}([{spread} for p in parts], axis=1)",
        "",
        "",
    ]


def _report(s: _Script, order: list[tuple[str, str]], grad: str) -> list[str]:
    """The lines that print the loss and each parameter tensor's gradient (`grad` of a tensor's
    name: g_W1 or W1.grad), or with --json the loss and the gradient in parameter order."""
    return [
        "",
        "ORDER = [  # each parameter tensor, its gradient, where its numbers go in the model's",
        *(f"    ({name!r}, {grad.format(ident(name))}, {where})," for name, where in order),
        "]",
        'if "--json" in sys.argv:',
        f"    grad = [0.0] * {s.shown.tape.n_params}",
        "    for _, g, where in ORDER:",
        "        for k, value in zip(where, g.reshape(-1).tolist()):",
        "            if k >= 0:",
        "                grad[k] = value",
        '    print(json.dumps({"loss": loss.item(), "grad": grad}))',
        "else:",
        '    print("loss", loss.item())',
        "    for name, g, _ in ORDER:",
        '        print(f"grad of {name}, shape {tuple(g.shape)}:")',
        "        print(g)",
    ]


def _layer(
    s: _Script, xs: list[list[int]], W: str | None, rows: list[list[int]], b: str | None, bias: Any
) -> tuple[str, str, str]:
    """A layer's input (one, or T side by side: stack(..., 1), (B, T, k)), its weight matrix
    (a tensor, or its parameters gathered from the tensors that hold them) and its bias."""
    lib = s.lib
    X = s.rows(xs[0]) if len(xs) == 1 else f"{lib}.stack([{', '.join(map(s.rows, xs))}], 1)"
    if W:
        used = ident(W)
    else:
        parts = [s.piece(p, alone=False) for p in s.pieces([w for row in rows for w in row])]
        joined = parts[0] if len(parts) == 1 else f"{s.cat}([{', '.join(parts)}])"
        used = f"{joined}.reshape({len(rows)}, {len(rows[0])})"
    if b:
        return X, used, ident(b)
    numbers = s.pieces(bias)
    if len(numbers) == 1 and not numbers[0][0] and len(set(numbers[0][1])) == 1:
        return X, used, repr(float(numbers[0][1][0]))  # the same number for every row (a 0)
    if len(xs) == 1:
        return X, used, s.operand(bias)
    return X, used, f"{s.rows(bias)}.reshape(B, {len(xs)}, -1)"  # each input's biases


def _fused_block(
    s: _Script,
    lib: str,
    fused: str,
    name: str,
    width: int,
    flat: Sequence[int],
    sizes: Sequence[int],
    forward: list[str],
) -> tuple[str, str]:
    """A fused op's inputs as a (B, width, most inputs) block, and the index that takes its real
    entries back to the flat operand's columns. Where members have fewer inputs than the most,
    the block is filled with the op's pad (losses.PADS: -inf for logsumexp, whose exp is 0),
    which changes neither the output nor the derivatives of the real entries."""
    k = max(sizes)
    if min(sizes) == k:
        return f"{s.operand(flat)}.reshape(B, {width}, {k})", ".reshape(B, -1)"
    members = s.index([m for m, n in enumerate(sizes) for _ in range(n)])
    places = s.index([j for n in sizes for j in range(n)])
    dtype = ", dtype=torch.float64" if lib == "torch" else ""
    pad = f"float('{PADS[fused]}')"
    forward.append(f"{name}_in = {lib}.full((B, {width}, {k}), {pad}{dtype})")
    forward.append(f"{name}_in[:, {members}, {places}] = {s.operand(flat)}")
    return f"{name}_in", f"[:, {members}, {places}]"


def _add_flat(s: _Script, entries: Sequence[int], contrib: str) -> list[str]:
    """Lines that add `contrib` (one number per entry, a 1-D array) into the gradients of the
    parameters the entries are."""
    out, start = [], 0
    for source, at in s.pieces(entries):
        part = f"{contrib}[{start}:{start + len(at)}]"
        out.append(f"np.add.at(g_{ident(source)}.reshape(-1), {s.index(at)}, {part})")
        start += len(at)
    return out


def _add(s: _Script, entries: Sequence[int], contrib: str) -> list[str]:
    """Lines that add `contrib` ((B, w) for the w members) into the gradients of what the
    members read: columns of lines, positions of parameters; the rows' inputs and numbers get
    none."""
    parts = s.pieces(entries)
    out, start = [], 0
    for source, at in parts:
        width = len(at)
        part = contrib if len(parts) == 1 else f"({contrib})[:, {start}:{start + width}]"
        start += width
        if not source or s.kinds[source] == "input":
            continue
        g = f"g_{ident(source)}"
        if s.kinds[source] == "param":
            out.append(
                f"np.add.at({g}.reshape(-1), {s.index(at)}, np.broadcast_to({part}, (B, {width})).sum(0))"
            )
        elif at == list(range(s.widths[source])):
            out.append(f"{g} += {part}")
        elif len(set(at)) == len(at):
            out.append(f"{g}[:, {s._columns(at)}] += {part}")
        else:
            out.append(f"np.add.at({g}, (slice(None), {s.index(at)}), {part})")
    return out


# the ops in torch: what autograd differentiates (the rules' derivatives are not needed)
TORCH_INFIX = {"+": "+", "*": "*", "/": "/", "**": "**"}
TORCH_FUNCTIONS = {"ReLU": "torch.relu", "tanh": "torch.tanh", "sigmoid": "torch.sigmoid"}
TORCH_FUNCTIONS |= {"exp": "torch.exp", "log": "torch.log", "sin": "torch.sin", "cos": "torch.cos"}


def torch_script(shown: Bridge, rows: Sequence[Sequence[float]], what: str = "A model") -> str:
    """The PyTorch script of `shown` on `rows`: the same forward in torch, float64, and
    loss.backward()."""
    s = _Script(shown, "torch")
    forward = []
    for line in shown.lines:
        name, (kind, args) = ident(line.name), line.form
        if kind == "linear":
            xs, W, w_rows, b, bias = args
            X, used, bias_code = _layer(s, xs, W, w_rows, b, bias)
            code = f"{X} @ {used}.T + {bias_code}"
            forward.append(f"{name} = " + (code if len(xs) == 1 else f"({code}).reshape(B, -1)"))
        elif kind == "sum":
            forward.append(f"{name} = " + " + ".join(s.operand(a) for a in args[0]))
        elif kind == "segments":
            flat, sizes = args
            which = [k for k, n in enumerate(sizes) for _ in range(n)]
            segments = f"torch.tensor({s.index(which)})"
            forward.append(
                f"{name} = torch.zeros(B, {line.width}, dtype=torch.float64)"
                f".index_add(1, {segments}, {s.operand(flat)})"
            )
        elif kind == "dot":
            starts, a, b, sizes = args
            which = [k for k, n in enumerate(sizes) for _ in range(n)]
            dots = (
                f"torch.zeros(B, {line.width}, dtype=torch.float64)"
                f".index_add(1, torch.tensor({s.index(which)}), {s.operand(a)} * {s.operand(b)})"
            )
            forward.append(f"{name} = " + (f"{s.operand(starts)} + {dots}" if starts else dots))
        elif kind == "fused":
            fused, flat, sizes = args
            block, _ = _fused_block(s, "torch", fused, name, line.width, flat, sizes, forward)
            k = max(sizes)
            if fused == "logsumexp":
                forward.append(f"{name} = torch.logsumexp({block}, dim=2)")
            else:  # cross_entropy: k / 2 logits z, then their target weights t
                forward.append(f"z_{name}, t_{name} = {block}.split({k // 2}, dim=2)")
                forward.append(
                    f"{name} = torch.logsumexp(z_{name}, dim=2) - (t_{name} * z_{name}).sum(2)"
                )
        else:
            op, operands, k = args
            said = [s.operand(a) for a in operands]
            if op == "**k":
                code = f"{said[0]} ** {k!r}"
            elif op in TORCH_INFIX:
                code = f" {TORCH_INFIX[op]} ".join(said)
            else:
                code = f"{TORCH_FUNCTIONS[op]}({', '.join(said)})"
            if not s.batched(operands):
                code = f"({code}).expand(B, {line.width})"
            forward.append(f"{name} = {code}")
    data = s.tensors(rows, "torch.tensor")
    order = s.param_order()
    lines = s.header(what, "import torch\n\ntorch.set_default_dtype(torch.float64)")
    lines += _helpers("torch.cat", "p.expand(B, p.shape[-1])")
    lines += [f"I{k + 1} = {text}" for k, text in enumerate(s.consts)] + [""]
    lines += data
    params = [ident(t.name) for t in shown.tensors if t.kind == "param"]
    lines += [f"for p in [{', '.join(params)}]:", "    p.requires_grad_()"]
    lines += ["", "# forward: one line per array operation"] + forward
    lines += [f"loss = {s.output()}.mean()  # each row weighs 1/B", "loss.backward()"]
    lines += _report(s, order, "{}.grad")
    return "\n".join(lines) + "\n"
