"""The words of each exercise: its title, task and graded hints, in English and Chinese (terms
from the Chinese micrograd tutorial series: 父节点, 局部偏导, 梯度累加, 拓扑排序, 梯度清零)."""

from __future__ import annotations

Texts = tuple[str, str, tuple[str, ...]]  # title, task, hints


def _exercise(
    id: str, kind: str, en: Texts, zh: Texts
) -> tuple[str, str, dict[str, str], dict[str, str], dict[str, tuple[str, ...]]]:
    """(id, kind, titles, tasks, hints), each by language."""
    return (
        id,
        kind,
        {"en": en[0], "zh": zh[0]},
        {"en": en[1], "zh": zh[1]},
        {"en": en[2], "zh": zh[2]},
    )


TEXTS = [
    _exercise(
        "op-add",
        "op",
        (
            "__add__: the local rule of +",
            "Write Value.__add__ the lecture's way: out = Value(self.data + other.data, "
            "(self, other), '+') and a _backward closure that passes out.grad on to both "
            "inputs. A number on either side must work (2 + a uses __radd__).",
            (
                "d(a + b)/da = 1 and d(a + b)/db = 1: each input gets 1 * out.grad.",
                "Use += in the closure: a Value used twice (a + a) must get both shares.",
                "Attach the closure before returning: out._backward = _backward.",
            ),
        ),
        (
            "__add__：加法的局部规则",
            "按讲座的写法实现 Value.__add__：out = Value(self.data + other.data, (self, other), "
            "'+')，再写一个 _backward 闭包，把 out.grad 传给两个父节点。数字在任一边都要能用"
            "（2 + a 用的是 __radd__）。",
            (
                "d(a + b)/da = 1，d(a + b)/db = 1：每个父节点都得到 1 * out.grad。",
                "闭包里用 +=（梯度累加）：被用了两次的 Value（a + a）要拿到两份梯度。",
                "return out 之前把闭包挂上：out._backward = _backward。",
            ),
        ),
    ),
    _exercise(
        "op-mul",
        "op",
        (
            "__mul__: the local rule of *",
            "Write Value.__mul__: out = Value(self.data * other.data, (self, other), '*') and "
            "its _backward closure.",
            (
                "d(a * b)/da = b: each input's local derivative is the OTHER operand's data.",
                "self.grad += other.data * out.grad, and other.grad += self.data * out.grad.",
                "a * a: both lines add to a.grad, which gets 2 * a.data * out.grad.",
            ),
        ),
        (
            "__mul__：乘法的局部规则",
            "实现 Value.__mul__：out = Value(self.data * other.data, (self, other), '*') "
            "和它的 _backward 闭包。",
            (
                "d(a * b)/da = b：每个父节点的局部偏导是另一个操作数的数值。",
                "self.grad += other.data * out.grad，other.grad += self.data * out.grad。",
                "a * a：两行都加到 a.grad 上，它得到 2 * a.data * out.grad。",
            ),
        ),
    ),
    _exercise(
        "op-pow",
        "op",
        (
            "__pow__ with a number exponent",
            "Write Value.__pow__ for a number k (int or float): out = Value(self.data**k, "
            "(self,), f'**{k}') and its closure. (A Value exponent comes in op-pow-value.)",
            (
                "d(x**k)/dx = k * x**(k-1).",
                "Mind the brackets: other * self.data ** (other - 1), not self.data ** other - 1.",
                "The exponent is a plain number here: only self gets a grad.",
            ),
        ),
        (
            "__pow__：数字指数的幂",
            "为数字指数 k（整数或浮点数）实现 Value.__pow__：out = Value(self.data**k, (self,), "
            "f'**{k}') 和它的闭包。（Value 作指数见 op-pow-value。）",
            (
                "d(x**k)/dx = k * x**(k-1)。",
                "注意括号：other * self.data ** (other - 1)，而不是 self.data ** other - 1。",
                "这里的指数是普通数字：只有 self 得到梯度。",
            ),
        ),
    ),
    _exercise(
        "op-tanh",
        "op",
        (
            "tanh",
            "Write Value.tanh(): t = tanh(self.data) (math.tanh, or the lecture's "
            "(e**2x - 1)/(e**2x + 1)), out = Value(t, (self,), 'tanh'), and its closure.",
            (
                "d tanh(x)/dx = 1 - tanh(x)**2.",
                "Use t, the OUTPUT's data: 1 - t**2, not 1 - x**2.",
                "Multiply by the upstream grad: self.grad += (1 - t**2) * out.grad.",
            ),
        ),
        (
            "tanh",
            "实现 Value.tanh()：t = tanh(self.data)（math.tanh，或讲座里的 (e**2x - 1)/(e**2x + 1)），"
            "out = Value(t, (self,), 'tanh')，以及它的闭包。",
            (
                "d tanh(x)/dx = 1 - tanh(x)**2。",
                "用输出节点的数值 t：1 - t**2，而不是 1 - x**2。",
                "乘以上游梯度：self.grad += (1 - t**2) * out.grad。",
            ),
        ),
    ),
    _exercise(
        "op-exp",
        "op",
        (
            "exp",
            "Write Value.exp(): out = Value(math.exp(self.data), (self,), 'exp') and its closure.",
            (
                "exp is its own derivative: d e**x/dx = e**x.",
                "The local derivative is out.data (the output's data), not self.data.",
                "self.grad += out.data * out.grad.",
            ),
        ),
        (
            "exp",
            "实现 Value.exp()：out = Value(math.exp(self.data), (self,), 'exp') 和它的闭包。",
            (
                "exp 的导数就是它自己：d e**x/dx = e**x。",
                "局部偏导是 out.data（输出节点的数值），不是 self.data。",
                "self.grad += out.data * out.grad。",
            ),
        ),
    ),
    _exercise(
        "op-relu",
        "op",
        (
            "relu",
            "Write Value.relu(): out = Value(0 if self.data < 0 else self.data, (self,), 'ReLU') "
            "and its closure.",
            (
                "The local derivative is 1 where the input is > 0, else 0 (0 at exactly 0, as "
                "in PyTorch).",
                "(out.data > 0) is True or False, which Python multiplies as 1 or 0.",
                "self.grad += (out.data > 0) * out.grad.",
            ),
        ),
        (
            "relu",
            "实现 Value.relu()：out = Value(0 if self.data < 0 else self.data, (self,), 'ReLU') "
            "和它的闭包。",
            (
                "输入 > 0 时局部偏导是 1，否则是 0（恰好为 0 时也是 0，和 PyTorch 一样）。",
                "(out.data > 0) 是 True 或 False，Python 相乘时当作 1 或 0。",
                "self.grad += (out.data > 0) * out.grad。",
            ),
        ),
    ),
    _exercise(
        "op-sub",
        "op",
        (
            "__sub__",
            "Write Value.__sub__ (a - b): from the ops you have (self + (-other), where "
            "__neg__ is self * -1), or as one op '-' with its own closure.",
            (
                "d(a - b)/da = 1 and d(a - b)/db = -1.",
                "Built from + and negation, the chain rule finds the -1 for you.",
                "As its own op: self.grad += out.grad and other.grad += -1 * out.grad.",
            ),
        ),
        (
            "__sub__",
            "实现 Value.__sub__（a - b）：用已有的运算拼出来（self + (-other)，其中 __neg__ 是 "
            "self * -1），或者写成一个带自己闭包的运算 '-'。",
            (
                "d(a - b)/da = 1，d(a - b)/db = -1。",
                "用加法和取负拼出来时，链式法则会替你算出 -1。",
                "写成单独的运算时：self.grad += out.grad，other.grad += -1 * out.grad。",
            ),
        ),
    ),
    _exercise(
        "op-div",
        "op",
        (
            "__truediv__",
            "Write Value.__truediv__ (a / b): from the ops you have (self * other**-1), or as "
            "one op '/' with its own closure.",
            (
                "d(a / b)/da = 1/b and d(a / b)/db = -a/b**2.",
                "self * other**-1 reuses __mul__ and __pow__: no new closure is needed.",
                "As its own op: other.grad += -self.data / other.data**2 * out.grad.",
            ),
        ),
        (
            "__truediv__",
            "实现 Value.__truediv__（a / b）：用已有的运算拼出来（self * other**-1），或者写成一个"
            "带自己闭包的运算 '/'。",
            (
                "d(a / b)/da = 1/b，d(a / b)/db = -a/b**2。",
                "self * other**-1 复用 __mul__ 和 __pow__：不需要新的闭包。",
                "写成单独的运算时：other.grad += -self.data / other.data**2 * out.grad。",
            ),
        ),
    ),
    _exercise(
        "op-log",
        "op",
        (
            "log",
            "Write Value.log() (the natural logarithm): out = Value(math.log(self.data), "
            "(self,), 'log') and its closure.",
            (
                "d log(x)/dx = 1/x.",
                "Use self.data (the input's data), not out.data: 1 / self.data.",
                "self.grad += (1 / self.data) * out.grad.",
            ),
        ),
        (
            "log",
            "实现 Value.log()（自然对数）：out = Value(math.log(self.data), (self,), 'log') "
            "和它的闭包。",
            (
                "d log(x)/dx = 1/x。",
                "用 self.data（父节点的数值），不是 out.data：1 / self.data。",
                "self.grad += (1 / self.data) * out.grad。",
            ),
        ),
    ),
    _exercise(
        "op-pow-value",
        "op",
        (
            "x ** y with a Value exponent",
            "Let ** take a Value exponent. In the stub, __pow__ calls self._pow_value(other): "
            "write it, with out = Value(self.data**other.data, (self, other), '**') and a closure "
            "that gives both inputs their share.",
            (
                "d(a**b)/da = b * a**(b-1) and d(a**b)/db = a**b * log(a).",
                "The exponent's share uses the log of the base; a**b is out.data.",
                "Or build it from ops you have: (other * self.log()).exp() is a**b for a > 0.",
            ),
        ),
        (
            "x ** y：Value 作指数",
            "让 ** 接受 Value 作指数。stub 里的 __pow__ 会调用 self._pow_value(other)：实现它，"
            "out = Value(self.data**other.data, (self, other), '**')，闭包要给两个父节点各自的梯度。",
            (
                "d(a**b)/da = b * a**(b-1)，d(a**b)/db = a**b * log(a)。",
                "指数那一份要用底数的对数；a**b 就是 out.data。",
                "也可以用已有的运算拼出来：a > 0 时 (other * self.log()).exp() 就是 a**b。",
            ),
        ),
    ),
    _exercise(
        "backward",
        "backward",
        (
            "backward(): topological order and +=",
            "Write Value.backward(): order the graph topologically, set self.grad = 1.0, and call "
            "each Value's _backward(), outputs before inputs. It is checked on a + a, on "
            "b = a + a; c = b + b, on the Stack Exchange graph (a.grad 25, b.grad 19) and on a "
            "chain of 100,000 Values.",
            (
                "A Value's _backward() may run only after every Value made from it has added its "
                "share to its grad: that is what the reversed topological order guarantees.",
                "Build the order with a visited set that is local to backward(), never a global "
                "one, and call each _backward() exactly once.",
                "Python stops recursion near 1,000 calls: build the order with a loop and a "
                "stack of your own.",
            ),
        ),
        (
            "backward()：拓扑排序与 +=",
            "实现 Value.backward()：对计算图做拓扑排序，把输出节点的梯度设为 1（self.grad = 1.0），"
            "再按逆序调用每个 Value 的 _backward()。检查用的图：a + a；b = a + a; c = b + b；"
            "Stack Exchange 问题里的图（a.grad 25，b.grad 19）；以及 100,000 个 Value 的长链。",
            (
                "一个 Value 的 _backward() 只能在所有用到它的子节点都把梯度传给它之后才运行："
                "拓扑排序的逆序保证了这一点。",
                "visited 集合要放在 backward() 里面（不能是全局的），每个 _backward() 只调用一次。",
                "Python 的递归大约 1,000 层就会停：用循环和自己的栈来做拓扑排序。",
            ),
        ),
    ),
    _exercise(
        "zero-grad",
        "zero-grad",
        (
            "zero_grad: the accumulation traps",
            "Write three functions after the class: zero_grad(params) sets each parameter's "
            "grad to 0; zero_grad_all(root) sets the grad of every Value in root's graph to 0, "
            "so that root.backward() can run again on the same graph; train(params, loss_fn, "
            "steps, lr) runs the lecture's loop steps times: loss = loss_fn(), zero the grads, "
            "loss.backward(), p.data += -lr * p.grad.",
            (
                "+= in every closure means grads add up over backward() calls: reset them "
                "before each call.",
                "In train(), loss_fn() rebuilds the graph every step, so zeroing the parameters "
                "is enough; a graph used twice needs every node zeroed, inner ones included.",
                "Zero before loss.backward(), not after it.",
            ),
        ),
        (
            "梯度清零：累加的陷阱",
            "在类的后面写三个函数：zero_grad(params) 把每个参数的梯度清零；zero_grad_all(root) "
            "把 root 的计算图里每个 Value 的梯度清零，好在同一张图上再次调用 root.backward()；"
            "train(params, loss_fn, steps, lr) 按讲座的循环运行 steps 次：loss = loss_fn()，"
            "梯度清零，loss.backward()，p.data += -lr * p.grad。",
            (
                "每个闭包都用 +=，所以多次调用 backward() 时梯度会累加：每次调用之前都要清零。",
                "train() 里 loss_fn() 每一步都重新建图，所以只清零参数就够了；同一张图用两次时，"
                "每个节点（包括中间节点）都要清零。",
                "在 loss.backward() 之前清零，而不是之后。",
            ),
        ),
    ),
    _exercise(
        "neuron-mlp",
        "mlp",
        (
            "Neuron, Layer and MLP",
            "Write Neuron(nin), Layer(nin, nout) and MLP(nin, nouts) as in the lecture: a Neuron "
            "has weights w (a list) and a bias b and computes act(sum(w*x) + b) with tanh or "
            "relu; parameters() lists w, then b; a Layer of one neuron returns that Value, not a "
            "list. The check trains MLP(2, [8, 8, 1]) on two moons to over 90% accuracy.",
            (
                "Neuron: self.w = [Value(random.uniform(-1, 1)) for _ in range(nin)], and self.b "
                "likewise.",
                "sum((wi * xi for wi, xi in zip(self.w, x)), self.b) starts the sum at the bias; "
                "then .tanh().",
                "parameters(): w + [b] for a Neuron; a Layer joins its neurons' lists, an MLP its "
                "layers'.",
            ),
        ),
        (
            "神经元、层与多层感知机",
            "按讲座实现 Neuron(nin)、Layer(nin, nout) 和 MLP(nin, nouts)：神经元有权重 w（列表）和"
            "偏置 b，计算 act(sum(w*x) + b)，激活函数用 tanh 或 relu；parameters() 先列出 w，再列出 b；"
            "只有一个神经元的层返回那个 Value，而不是列表。检查会在 moons 数据集上训练 "
            "MLP(2, [8, 8, 1])，训练准确率要超过 90%。",
            (
                "神经元：self.w = [Value(random.uniform(-1, 1)) for _ in range(nin)]，self.b 同理。",
                "sum((wi * xi for wi, xi in zip(self.w, x)), self.b) 让求和从偏置开始；再 .tanh()。",
                "parameters()：神经元返回 w + [b]；层把各个神经元的列表连起来，多层感知机把各层的连起来。",
            ),
        ),
    ),
]
