"""The words of the exercises that follow the lecture around the engine: derivatives by hand and by
nudging, predicting each `+=` of a backward pass, and softmax with the negative log likelihood (the
lecture's exercise set), in English and Chinese."""

from __future__ import annotations

from micrograd.practice.texts import _exercise

LECTURE_TEXTS = [
    _exercise(
        "derivative",
        "derivative",
        (
            "a derivative by hand and by nudging",
            "The stub defines f(a, b, c) = -a**3 + sin(3*b) - 1.0/c + b**2.5 - a**0.5. Write "
            "gradf(a, b, c), the list [df/da, df/db, df/dc] worked out by hand; "
            "numerical_grad(f, a, b, c, h), the same by nudging each input by h (forward "
            "differences, (f(a+h, b, c) - f(a, b, c)) / h); and symmetric_grad(f, a, b, c, h), "
            "with central differences (f(a+h) - f(a-h)) / (2h), which are closer.",
            (
                "Differentiate term by term: d(-a**3)/da = -3*a**2 and d(a**0.5)/da = 0.5*a**-0.5; "
                "the b and c terms do not move when a does.",
                "d sin(3*b)/db = 3*cos(3*b) (the chain rule); d(-1/c)/dc = 1/c**2.",
                "Nudge one input at a time, keeping the other two as they are; the symmetric "
                "version nudges up and down and divides by 2*h.",
            ),
        ),
        (
            "手算导数，再用微小扰动估计",
            "stub 里定义了 f(a, b, c) = -a**3 + sin(3*b) - 1.0/c + b**2.5 - a**0.5。实现 "
            "gradf(a, b, c)：手算出的 [df/da, df/db, df/dc]；numerical_grad(f, a, b, c, h)：把每个"
            "输入挪动 h 来估计同样的导数（前向差分，(f(a+h, b, c) - f(a, b, c)) / h）；以及 "
            "symmetric_grad(f, a, b, c, h)：用中心差分 (f(a+h) - f(a-h)) / (2h)，它更准确。",
            (
                "逐项求导：d(-a**3)/da = -3*a**2，d(a**0.5)/da = 0.5*a**-0.5；a 变化时含 b 和 c 的项不变。",
                "d sin(3*b)/db = 3*cos(3*b)（链式法则）；d(-1/c)/dc = 1/c**2。",
                "每次只挪动一个输入，另外两个保持不变；对称的版本上下各挪一次，再除以 2*h。",
            ),
        ),
    ),
    _exercise(
        "predict-lecture",
        "predict",
        (
            "predict the grads: the lecture's first graph",
            "L = (a*b + c) * f with a = 2, b = -3, c = 10, f = -2, as the lecture fills it in by "
            "hand. Predict each += of L.backward(): `micrograd practice check predict-lecture` "
            "asks them one at a time in the terminal; the page practice/predict-lecture.html "
            "asks the same in a browser.",
            (
                "Each step adds (local derivative) * (the node's grad): the node's grad is "
                "shown in the step's line.",
                "For +, the local derivative is 1 for both inputs; for *, it is the other "
                "input's data.",
                "L.grad is 1; d.grad is f's data, -2; e's comes from d through +.",
            ),
        ),
        (
            "预测梯度：讲座里的第一张图",
            "L = (a*b + c) * f，a = 2，b = -3，c = 10，f = -2，和讲座里手工填梯度的那张图一样。"
            "预测 L.backward() 的每一次 +=：`micrograd practice check predict-lecture` 在终端里逐个提问；"
            "网页 practice/predict-lecture.html 在浏览器里问同样的问题。",
            (
                "每一步加上的是（局部偏导）×（该节点的梯度）：节点的梯度写在这一步的那一行里。",
                "加法对两个父节点的局部偏导都是 1；乘法的局部偏导是另一个父节点的 data。",
                "L.grad 是 1；d.grad 是 f 的 data，即 -2；e 的梯度经过 + 从 d 传来。",
            ),
        ),
    ),
    _exercise(
        "predict-neuron",
        "predict",
        (
            "predict the grads: the tanh neuron",
            "o = tanh(x1*w1 + x2*w2 + b) with x1 = 2, x2 = 0, w1 = -3, w2 = 1, b = 6.8813735870195432 "
            "(the lecture's neuron, o = 0.7071). Predict each += of o.backward().",
            (
                "d tanh(n)/dn = 1 - tanh(n)**2 = 1 - o**2: with o = 0.7071 that is 0.5.",
                "The sum passes n's grad unchanged to each of its inputs.",
                "x2 is 0, so w2 gets 0 * its upstream; x1 gets w1 * its upstream.",
            ),
        ),
        (
            "预测梯度：tanh 神经元",
            "o = tanh(x1*w1 + x2*w2 + b)，x1 = 2，x2 = 0，w1 = -3，w2 = 1，b = 6.8813735870195432"
            "（讲座里的神经元，o = 0.7071）。预测 o.backward() 的每一次 +=。",
            (
                "d tanh(n)/dn = 1 - tanh(n)**2 = 1 - o**2：o = 0.7071 时是 0.5。",
                "求和把 n 的梯度原样传给每个父节点。",
                "x2 是 0，所以 w2 得到 0 × 上游梯度；x1 得到 w1 × 上游梯度。",
            ),
        ),
    ),
    _exercise(
        "predict-shared",
        "predict",
        (
            "predict the grads: a Value used more than once",
            "The Stack Exchange question's graph: c = a + b, d = a * b, e = c + d, g = c * d, "
            "f = e + g with a = 2, b = 3. a and b, c and d each feed two Values: predict every "
            "+=, and see why a.grad ends at 25 and b.grad at 19.",
            (
                "A Value used twice receives two contributions, one from each Value made from it: "
                "+= adds them up.",
                "c's grad is only complete after both e and g have added theirs: g's share is "
                "d's data times g's grad.",
                "d.grad is 1 (from e) + c's data (from g) = 6.",
            ),
        ),
        (
            "预测梯度：被多次使用的 Value",
            "Stack Exchange 问题里的图：c = a + b，d = a * b，e = c + d，g = c * d，f = e + g，"
            "a = 2，b = 3。a 和 b、c 和 d 都各自被两个 Value 使用：预测每一次 +=，看看为什么 a.grad "
            "最后是 25，b.grad 是 19。",
            (
                "被用了两次的 Value 会收到两份梯度，每个用到它的子节点各给一份：+= 把它们累加起来。",
                "c 的梯度要等 e 和 g 都把自己那一份加上之后才完整：g 给的那一份是 d 的 data × g 的梯度。",
                "d.grad 是 1（来自 e）+ c 的 data（来自 g）= 6。",
            ),
        ),
    ),
    _exercise(
        "softmax-nll",
        "softmax",
        (
            "softmax and the negative log likelihood",
            "The end of the lecture's exercise set: write softmax(logits), a list of "
            "exp(logit) / sum(exp(logits)), and nll(probs, target) = -log(probs[target]), with "
            "your Value's ops (exp, sum() through __radd__, /, log, -). The check compares each "
            "logit's grad with micrograd's, which is probs[i] - (1 if i == target else 0).",
            (
                "counts = [z.exp() for z in logits]; denominator = sum(counts); "
                "[c / denominator for c in counts].",
                "sum() starts from the number 0: 0 + Value needs __radd__.",
                "-x needs __neg__ (x * -1), and c / d needs __truediv__ (c * d**-1).",
            ),
        ),
        (
            "softmax 与负对数似然",
            "讲座练习的最后一题：用你的 Value 的运算（exp、经过 __radd__ 的 sum()、/、log、-）实现 "
            "softmax(logits)：exp(logit) / sum(exp(logits)) 组成的列表；以及 nll(probs, target) = "
            "-log(probs[target])。检查会把每个 logit 的梯度与 micrograd 的比较，后者等于 "
            "probs[i] - (i == target 时为 1，否则为 0)。",
            (
                "counts = [z.exp() for z in logits]；denominator = sum(counts)；"
                "[c / denominator for c in counts]。",
                "sum() 从数字 0 开始：0 + Value 需要 __radd__。",
                "-x 需要 __neg__（x * -1），c / d 需要 __truediv__（c * d**-1）。",
            ),
        ),
    ),
]
