import math
import random


class Value:
    def __init__(self, data, children=(), local_grads=()):
        self.data = data
        self.grad = 0
        self._children = children  # the Values this one was made from
        self._local_grads = local_grads  # d(this)/d(child), one per child, fixed when made

    def __repr__(self):
        return f"Value(data={self.data}, grad={self.grad})"

    def __neg__(self):
        return self * -1

    def __radd__(self, other):
        return self + other

    def __sub__(self, other):
        return self + (-other)

    def __rsub__(self, other):
        return other + (-self)

    def __rmul__(self, other):
        return self * other

    def __truediv__(self, other):
        return self * other**-1

    def __rtruediv__(self, other):
        return other * self**-1

    def __add__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data + other.data, (self, other), (1, 1))

    def __mul__(self, other):
        other = other if isinstance(other, Value) else Value(other)
        return Value(self.data * other.data, (self, other), (other.data, self.data))

    def __pow__(self, other):
        return Value(self.data**other, (self,), (other * self.data ** (other - 1),))

    def log(self):
        return Value(math.log(self.data), (self,), (1 / self.data,))

    def exp(self):
        return Value(math.exp(self.data), (self,), (math.exp(self.data),))

    def relu(self):
        return Value(max(0, self.data), (self,), (float(self.data > 0),))

    def backward(self):
        topo = []
        visited = set()

        def build_topo(v):
            if v not in visited:
                visited.add(v)
                for child in v._children:
                    build_topo(child)
                topo.append(v)

        build_topo(self)
        self.grad = 1
        for v in reversed(topo):
            for child, local_grad in zip(v._children, v._local_grads):
                child.grad += local_grad * v.grad


def linear(x, w):
    """w x, no bias: one output per row of w, the dot product of that row with x."""
    return [sum(wi * xi for wi, xi in zip(row, x)) for row in w]


def softmax(logits):
    """exp(z) / the sum of exp over all the logits, for each logit z; the largest logit (a plain
    number) subtracted first, so no exp overflows."""
    max_val = max(z.data for z in logits)
    exps = [(z - max_val).exp() for z in logits]
    total = sum(exps)
    return [e / total for e in exps]


def rmsnorm(x):
    """x / sqrt(mean(x ** 2) + 1e-5): each element scaled by one number, from all of them."""
    ms = sum(xi * xi for xi in x) / len(x)
    scale = (ms + 1e-5) ** -0.5
    return [xi * scale for xi in x]


def attention_head(xs, wq, wk, wv):
    """One causal attention head over the vectors xs, read one token at a time as microgpt
    reads them: token t's query, key and value (linear with wq, wk, wv); its key and value
    appended to the cache; then q · k / sqrt(d) with every key in the cache, their softmax, and
    the weighted sum of the cached values. Returns the output of each token."""
    keys, values, outs = [], [], []
    for x in xs:
        q = linear(x, wq)
        keys.append(linear(x, wk))
        values.append(linear(x, wv))
        d = len(q)
        scores = [sum(qj * kj for qj, kj in zip(q, k)) / math.sqrt(d) for k in keys]
        weights = softmax(scores)
        outs.append([sum(a * v[j] for a, v in zip(weights, values)) for j in range(d)])
    return outs


def adam_step(params, m, v, step, lr=0.01, beta1=0.85, beta2=0.99, eps=1e-8):
    """One Adam update of each parameter (microgpt's settings), then its grad set to 0: m and v
    are the lists of moments the caller keeps between steps, and step counts from 0."""
    for i, p in enumerate(params):
        m[i] = beta1 * m[i] + (1 - beta1) * p.grad
        v[i] = beta2 * v[i] + (1 - beta2) * p.grad**2
        m_hat = m[i] / (1 - beta1 ** (step + 1))
        v_hat = v[i] / (1 - beta2 ** (step + 1))
        p.data -= lr * m_hat / (v_hat**0.5 + eps)
        p.grad = 0


def init_model(vocab_size, n_embd=16, n_layer=1, block_size=16, std=0.08):
    """microgpt's weights, each drawn from N(0, 0.08 ** 2) in its order: a dict of matrices."""

    def matrix(rows, cols):
        return [[Value(random.gauss(0, std)) for _ in range(cols)] for _ in range(rows)]

    sd = {"wte": matrix(vocab_size, n_embd), "wpe": matrix(block_size, n_embd)}
    sd["lm_head"] = matrix(vocab_size, n_embd)
    for i in range(n_layer):
        for name in ("attn_wq", "attn_wk", "attn_wv", "attn_wo"):
            sd[f"layer{i}.{name}"] = matrix(n_embd, n_embd)
        sd[f"layer{i}.mlp_fc1"] = matrix(4 * n_embd, n_embd)
        sd[f"layer{i}.mlp_fc2"] = matrix(n_embd, 4 * n_embd)
    return sd


def gpt(sd, token, pos, keys, values, n_head=4):
    """microgpt's gpt(): the logits of the token after `token`, read at position `pos`; keys and
    values hold one cache per layer, to which this token's key and value are appended."""
    x = rmsnorm([t + p for t, p in zip(sd["wte"][token], sd["wpe"][pos])])
    d = len(x) // n_head
    for li in range(len(keys)):
        x_residual = x
        x = rmsnorm(x)
        q = linear(x, sd[f"layer{li}.attn_wq"])
        keys[li].append(linear(x, sd[f"layer{li}.attn_wk"]))
        values[li].append(linear(x, sd[f"layer{li}.attn_wv"]))
        x_attn = []
        for h in range(n_head):  # each head attends with its own slice of d numbers
            hs = slice(h * d, (h + 1) * d)
            scores = [sum(a * b for a, b in zip(q[hs], k[hs])) / math.sqrt(d) for k in keys[li]]
            weights = softmax(scores)
            x_attn += [
                sum(w * v[j] for w, v in zip(weights, values[li]))
                for j in range(*hs.indices(len(x)))
            ]
        x = [a + b for a, b in zip(linear(x_attn, sd[f"layer{li}.attn_wo"]), x_residual)]
        x_residual = x
        hidden = [h.relu() for h in linear(rmsnorm(x), sd[f"layer{li}.mlp_fc1"])]
        x = [a + b for a, b in zip(linear(hidden, sd[f"layer{li}.mlp_fc2"]), x_residual)]
    return linear(x, sd["lm_head"])


def train_step(sd, params, tokens, m, v, step, num_steps, lr=0.01):
    """One step of microgpt's training on one document's tokens (BOS, its letters, BOS): the
    loss, the mean over the positions of -log softmax(gpt(...))[the next token], with a fresh
    cache per layer; backward(); an Adam step at lr * (1 - step / num_steps). Returns the loss's
    number."""
    n_layer = len([name for name in sd if name.endswith("attn_wq")])
    keys = [[] for _ in range(n_layer)]
    values = [[] for _ in range(n_layer)]
    n = min(len(sd["wpe"]), len(tokens) - 1)
    losses = []
    for pos in range(n):
        logits = gpt(sd, tokens[pos], pos, keys, values)
        probs = softmax(logits)
        losses.append(-probs[tokens[pos + 1]].log())
    loss = (1 / n) * sum(losses)
    loss.backward()
    lr_t = lr * (1 - (step + 1) / num_steps)  # linear decay
    adam_step(params, m, v, step, lr=lr_t)
    return loss.data


if __name__ == "__main__":  # python this-file.py: train microgpt's model with your train_step
    from micrograd.data import CharTokenizer, names

    docs = names()
    random.seed(1337)
    random.shuffle(docs)
    tokenizer = CharTokenizer(docs)
    random.seed(1337)  # the chapter's model: the same weights as its GPT(tokenizer.vocab_size)
    sd = init_model(tokenizer.vocab_size)
    params = [p for matrix in sd.values() for row in matrix for p in row]
    m, v = [0.0] * len(params), [0.0] * len(params)
    steps, losses = 100, []
    for step in range(steps):
        losses.append(train_step(sd, params, tokenizer.encode(docs[step]), m, v, step, steps))
        if (step + 1) % 10 == 0:
            print(
                f"step {step + 1}: the mean loss of the last 10 names {sum(losses[-10:]) / 10:.3f}"
            )
    mean = sum(losses[-50:]) / 50
    print(f"the mean loss of the last 50 names: {mean:.3f}", "(below 2.6)" if mean < 2.6 else "")
