"""Every sentence of practice mode, in English and Chinese, by key.

The Chinese uses the words of the Chinese micrograd tutorial series (shared/glossary.zh.md):
父节点 for an op's inputs, 局部偏导, 上游梯度, 梯度累加 for +=, 闭包, 拓扑排序, 梯度清零; a random
seed is 随机数种子.
"""

from __future__ import annotations

MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        # the local rules, as the first wrong step explains them
        "why_add_0": "the local derivative of `+` with respect to each operand is 1",
        "why_add_1": "the local derivative of `+` with respect to each operand is 1",
        "why_sub_0": "the local derivative of `-` with respect to its left operand is 1",
        "why_sub_1": "the local derivative of `-` with respect to its right operand is -1",
        "why_mul_0": "the local derivative of `*` with respect to its left operand is the right "
        "operand's data, {value}",
        "why_mul_1": "the local derivative of `*` with respect to its right operand is the left "
        "operand's data, {value}",
        "why_div_0": "the local derivative of `a / b` with respect to a is 1/b = {value}",
        "why_div_1": "the local derivative of `a / b` with respect to b is -a/b**2 = {value}",
        "why_pow_k_0": "the local derivative of `x**k` is k * x**(k-1) = {value} (k = {k})",
        "why_pow_0": "the local derivative of `a**b` with respect to a is b * a**(b-1) = {value}",
        "why_pow_1": "the local derivative of `a**b` with respect to b is a**b * log(a) = {value}",
        "why_neg_0": "the local derivative of `-x` is -1",
        "why_tanh_0": "the local derivative of tanh is 1 - t**2 = {value}, where t is the "
        "output's data",
        "why_exp_0": "exp is its own derivative: the local derivative is the output's data, {value}",
        "why_relu_0": "the local derivative of relu is 1 where its input is > 0, else 0: here {value}",
        "why_log_0": "the local derivative of log(x) is 1/x = {value}",
        "why_sigmoid_0": "the local derivative of sigmoid is s * (1 - s) = {value}",
        "both_operands": "`{input}` is both operands, so both shares add up",
        # the first wrong step
        "step_wrong": "`{input}.grad` got {found} from `{node}._backward()` (upstream grad "
        "{upstream}); expected {expected}: {why}",
        "assign": "`{input}.grad` became {after} after `{node}._backward()`; expected {before} "
        "+ {expected} = {total}: the closure sets the grad with = instead of adding with +=, so "
        "what `{input}.grad` held before is lost",
        "not_attached": "`{node}._backward()` is still the do-nothing default, so `{input}.grad` "
        "got nothing from it; expected {expected}: the closure is written but never attached "
        "(`out._backward = _backward` is missing)",
        "operand_binary": "that is what the other operand's data gives: the closure reads the "
        "wrong operand",
        "operand_unary": "that is what the input's data gives where the output's belongs (or "
        "the reverse)",
        "no_upstream": "that is the local derivative alone: multiply it by the upstream grad "
        "out.grad (the chain rule)",
        "wrong_forward": "`{node}` has data {found}; expected {expected} ({symbol} of {args})",
        "out_differs": "`{what}` has data {found} at {where}; expected {expected}",
        "grad_differs": "`{input}.grad` is {found} ({where}); micrograd's engine gives {expected}",
        # learner code that fails
        "no_file": "no file {path}",
        "load_failed": "your code could not be run: {error}",
        "not_written": "`{what}` is not written yet (it raises NotImplementedError)",
        "raised": "`{what}` raised {error}",
        "recursion": "`{what}` raised RecursionError: a recursive topological sort (or "
        "_backward() calls that call each other) goes one Python call deeper per Value; build "
        "the order with a loop and a stack of your own",
        "no_class": "no class `{name}` in your code",
        "too_long": "`{what}` ran for more than {seconds} s and was stopped: a loop that never "
        "ends? (a while loop whose condition never changes, or a walk over the graph that never "
        "marks what it visited)",
        "not_value": "`{what}` returned a {kind}, not a Value",
        "missing_method": "your Value has no {method}",
        "unknown_exercise": "no exercise {exercise!r}; the exercises are: {known}",
        # backward()
        "chain": "a chain of {n} Values",
        "se_graph": "the Stack Exchange graph at a = {a}, b = {b}",
        "ran_twice": "`{node}._backward()` ran a second time: each node's _backward() must run "
        "exactly once, so its inputs got their share twice",
        "root_not_one": "the output's _backward() ran with grad {found}; expected 1: backward() "
        "starts by setting the output's grad to 1 (self.grad = 1.0)",
        "too_early": "`{node}._backward()` ran while {node}.grad was {found}; expected "
        "{expected}: `{later}` uses {node} too and had not passed its share yet. A node may run "
        "only after every Value made from it (a global visited set skips that; a topological "
        "order guarantees it)",
        "never_ran": "`{node}._backward()` never ran, so its inputs got nothing from it",
        # zero_grad and train
        "still_set": "after zero_grad_all(root), `{node}.grad` is still {value}: every Value of "
        "the graph needs its grad set to 0, inner ones too, not only the leaves",
        "params_not_zeroed": "after zero_grad(params), parameter {index} has grad {value}; "
        "expected 0",
        "accumulated": "in step {step}, `{name}.grad` is {found}, but that step's own gradient "
        "is {expected}: it still holds {previous} from step {previous_step}. The grads were not "
        "reset: zero them before loss.backward()",
        "zeroed_late": "in step {step}, `{name}.grad` is 0 when the update runs: zero the grads "
        "before loss.backward(), not after",
        "bad_grad": "in step {step}, `{name}.grad` is {found}; expected {expected}",
        "bad_update": "after step {step}, `{name}.data` is {found}; expected {expected} "
        "(p.data += -lr * p.grad)",
        "calls": "train() called loss_fn {found} times for steps={steps}",
        "twice_after_reset": "a second root.backward() after zero_grad_all(root) gives a.grad "
        "{found}; the first gave {expected}",
        # Neuron, Layer, MLP
        "params_count": "{what} has {found} parameters; expected {expected}",
        "neuron_forward": "Neuron(3)(x) gives {found}; act(w·x + b) is {expected} with tanh, "
        "{relu} with relu",
        "mlp_output": "MLP(2, [8, 8, 1])(x) returned a {kind}: a layer of one neuron returns "
        "that Value itself, not a list",
        "mlp_grad": "after loss.backward(), parameter {index}'s grad is {found}; micrograd's "
        "engine gives {expected} for the same network",
        "accuracy": "after {steps} steps on two moons the accuracy is {accuracy}; expected over "
        "0.9",
        # the result
        "passed": "{exercise}: passed",
        "failed": "{exercise}: not yet ({mistake})",
        "first_wrong_step": "first wrong step: {step}",
        "seed": "random seed {seed} (check(..., seed={seed}) or --seed {seed} replays these points)",
        "col_exercise": "exercise",
        "col_result": "result",
        "col_step": "first wrong step",
        "ok": "ok",
        "col_input": "input",
        "col_points": "points",
        "col_exact": "exact",
        "col_close": "close",
        "col_engine": "max diff (engine)",
        "col_numeric": "max diff (central differences)",
        # the exercises around the engine (micrograd.practice.lecture)
        "no_function": "no function `{name}` in your code",
        "three_numbers": "{what} must return three numbers [df/da, df/db, df/dc], got {found}",
        "gradf_wrong": "gradf gives df/d{input} = {found} at {where}; expected {expected}",
        "nudge_wrong": "{fn} gives df/d{input} = {found} at {where}; nudging {input} as the "
        "exercise says gives {expected}",
        "nudged_other_way": "{fn} gives df/d{input} = {found} at {where}, the other kind of "
        "difference: numerical_grad nudges forward only, (f(x + h) - f(x)) / h; symmetric_grad "
        "up and down, (f(x + h) - f(x - h)) / (2h); expected {expected}",
        "predict_wrong": "{node}'s step, `{input}.grad += ?`: you said {found}; expected "
        "{expected}: the local derivative ∂{node}/∂{input} is {local} and {node}.grad (the "
        "upstream grad) is {upstream}",
        "predict_count": "give one number per +=, in backward()'s order: {expected} numbers; "
        "got {found}",
        "softmax_forward": "softmax(logits)[{i}] is {found}; expected {expected} (exp of logit "
        "{i} over the sum of the exps)",
        "nll_forward": "nll(probs, {target}) is {found}; expected -log(probs[{target}]) = "
        "{expected}",
    },
    "zh": {
        "why_add_0": "`+` 对每个操作数的局部偏导都是 1",
        "why_add_1": "`+` 对每个操作数的局部偏导都是 1",
        "why_sub_0": "`-` 对左操作数的局部偏导是 1",
        "why_sub_1": "`-` 对右操作数的局部偏导是 -1",
        "why_mul_0": "`*` 对左操作数的局部偏导是右操作数的数值 {value}",
        "why_mul_1": "`*` 对右操作数的局部偏导是左操作数的数值 {value}",
        "why_div_0": "`a / b` 对 a 的局部偏导是 1/b = {value}",
        "why_div_1": "`a / b` 对 b 的局部偏导是 -a/b**2 = {value}",
        "why_pow_k_0": "`x**k` 的局部偏导是 k * x**(k-1) = {value}（k = {k}）",
        "why_pow_0": "`a**b` 对 a 的局部偏导是 b * a**(b-1) = {value}",
        "why_pow_1": "`a**b` 对 b 的局部偏导是 a**b * log(a) = {value}",
        "why_neg_0": "`-x` 的局部偏导是 -1",
        "why_tanh_0": "tanh 的局部偏导是 1 - t**2 = {value}，t 是输出节点的数值",
        "why_exp_0": "exp 的导数就是它自己：局部偏导等于输出节点的数值 {value}",
        "why_relu_0": "relu 的局部偏导在输入 > 0 时是 1，否则是 0：这里是 {value}",
        "why_log_0": "log(x) 的局部偏导是 1/x = {value}",
        "why_sigmoid_0": "sigmoid 的局部偏导是 s * (1 - s) = {value}",
        "both_operands": "`{input}` 同时是两个操作数，两份梯度要累加",
        "step_wrong": "`{node}._backward()`（上游梯度 {upstream}）给 `{input}.grad` 加了 {found}；"
        "应当加 {expected}：{why}",
        "assign": "`{node}._backward()` 之后 `{input}.grad` 变成了 {after}；应当是 {before} "
        "+ {expected} = {total}：闭包用 = 覆盖了梯度，没有用 += 累加，`{input}.grad` 原来的值丢失了",
        "not_attached": "`{node}._backward()` 还是默认的空函数，所以 `{input}.grad` 什么也没得到；"
        "应当加 {expected}：闭包写了却没有挂上（缺少 `out._backward = _backward`）",
        "operand_binary": "这正是用另一个操作数的数值算出来的：闭包读错了操作数",
        "operand_unary": "这正是把父节点的数值用在了该用输出节点数值的地方（或者反过来）",
        "no_upstream": "这只是局部偏导本身：还要乘以上游梯度 out.grad（链式法则）",
        "wrong_forward": "`{node}` 的数值是 {found}；应当是 {expected}（{args} 的 {symbol}）",
        "out_differs": "`{what}` 在 {where} 时的数值是 {found}；应当是 {expected}",
        "grad_differs": "`{input}.grad` 是 {found}（{where}）；micrograd 的引擎算出的是 {expected}",
        "no_file": "没有文件 {path}",
        "load_failed": "你的代码无法运行：{error}",
        "not_written": "`{what}` 还没有写（它抛出 NotImplementedError）",
        "raised": "`{what}` 抛出了 {error}",
        "recursion": "`{what}` 抛出了 RecursionError：递归的拓扑排序（或互相调用的 _backward()）"
        "每多一个 Value 就多一层 Python 调用；请用循环和自己的栈来做拓扑排序",
        "no_class": "你的代码里没有类 `{name}`",
        "too_long": "`{what}` 运行超过 {seconds} 秒，已被停止：是不是有一个永远不结束的循环？"
        "（条件永远不变的 while 循环，或者遍历计算图时从不记录已经访问过的节点）",
        "not_value": "`{what}` 返回的是 {kind}，不是 Value",
        "missing_method": "你的 Value 没有 {method}",
        "unknown_exercise": "没有练习 {exercise!r}；可选的练习：{known}",
        "chain": "{n} 个 Value 的长链",
        "se_graph": "Stack Exchange 问题里的图，a = {a}, b = {b}",
        "ran_twice": "`{node}._backward()` 运行了第二次：每个节点的 _backward() 只能运行一次，"
        "否则它的父节点会拿到两份梯度",
        "root_not_one": "输出节点的 _backward() 运行时梯度是 {found}；应当是 1：backward() "
        "先要把输出节点的梯度设为 1（self.grad = 1.0）",
        "too_early": "`{node}._backward()` 运行时 {node}.grad 是 {found}；应当是 {expected}："
        "`{later}` 也用到了 {node}，但它还没有把梯度传过来。一个节点只能在所有用到它的子节点之后"
        "运行（全局的 visited 集合做不到这一点；拓扑排序的逆序能保证）",
        "never_ran": "`{node}._backward()` 从没运行，所以它的父节点什么也没得到",
        "still_set": "zero_grad_all(root) 之后 `{node}.grad` 还是 {value}：计算图里每个 Value "
        "的梯度都要清零，中间节点也一样，不只是叶子节点",
        "params_not_zeroed": "zero_grad(params) 之后第 {index} 个参数的梯度是 {value}；应当是 0",
        "accumulated": "第 {step} 步里 `{name}.grad` 是 {found}，但这一步自己的梯度是 "
        "{expected}：它还留着第 {previous_step} 步的 {previous}。梯度没有清零：请在 "
        "loss.backward() 之前把梯度清零",
        "zeroed_late": "第 {step} 步更新参数时 `{name}.grad` 是 0：要在 loss.backward() 之前"
        "把梯度清零，而不是之后",
        "bad_grad": "第 {step} 步里 `{name}.grad` 是 {found}；应当是 {expected}",
        "bad_update": "第 {step} 步之后 `{name}.data` 是 {found}；应当是 {expected}"
        "（p.data += -lr * p.grad）",
        "calls": "steps={steps} 时 train() 调用了 {found} 次 loss_fn",
        "twice_after_reset": "zero_grad_all(root) 之后再次调用 root.backward()，a.grad 是 "
        "{found}；第一次是 {expected}",
        "params_count": "{what} 有 {found} 个参数；应当是 {expected}",
        "neuron_forward": "Neuron(3)(x) 得到 {found}；act(w·x + b) 用 tanh 是 {expected}，"
        "用 relu 是 {relu}",
        "mlp_output": "MLP(2, [8, 8, 1])(x) 返回的是 {kind}：只有一个神经元的层应当直接返回那个 "
        "Value，而不是列表",
        "mlp_grad": "loss.backward() 之后第 {index} 个参数的梯度是 {found}；同一个网络在 "
        "micrograd 的引擎里是 {expected}",
        "accuracy": "在 moons 数据集上训练 {steps} 步后训练准确率是 {accuracy}；应当超过 0.9",
        "passed": "{exercise}：通过",
        "failed": "{exercise}：还没通过（{mistake}）",
        "first_wrong_step": "第一个出错的步骤：{step}",
        "seed": "随机数种子 {seed}（check(..., seed={seed}) 或 --seed {seed} 可以重现这些点）",
        "col_exercise": "练习",
        "col_result": "结果",
        "col_step": "第一个出错的步骤",
        "ok": "通过",
        "col_input": "输入",
        "col_points": "点数",
        "col_exact": "完全相同",
        "col_close": "足够接近",
        "col_engine": "最大差（引擎）",
        "col_numeric": "最大差（中心差分）",
        "no_function": "你的代码里没有函数 `{name}`",
        "three_numbers": "{what} 应该返回三个数 [df/da, df/db, df/dc]，实际得到 {found}",
        "gradf_wrong": "在 {where} 处，gradf 给出 df/d{input} = {found}；应该是 {expected}",
        "nudge_wrong": "在 {where} 处，{fn} 给出 df/d{input} = {found}；按题目的方式挪动 {input} "
        "得到的是 {expected}",
        "nudged_other_way": "在 {where} 处，{fn} 给出 df/d{input} = {found}，用的是另一种差分："
        "numerical_grad 只向前挪，(f(x + h) - f(x)) / h；symmetric_grad 上下各挪一次，"
        "(f(x + h) - f(x - h)) / (2h)；应该是 {expected}",
        "predict_wrong": "{node} 这一步的 `{input}.grad += ?`：你的答案是 {found}；应该是 "
        "{expected}：局部偏导 ∂{node}/∂{input} 是 {local}，{node}.grad（上游梯度）是 {upstream}",
        "predict_count": "按 backward() 的顺序，每一次 += 给一个数：应该有 {expected} 个，实际有 {found} 个",
        "softmax_forward": "softmax(logits)[{i}] 是 {found}；应该是 {expected}（第 {i} 个 logit "
        "的 exp 除以所有 exp 之和）",
        "nll_forward": "nll(probs, {target}) 是 {found}；应该是 -log(probs[{target}]) = {expected}",
    },
}


def say(key: str, lang: str, **fields: object) -> str:
    """The sentence `key` in `lang` ("en" or "zh"), with its fields filled in."""
    table = MESSAGES.get(lang, MESSAGES["en"])
    return table.get(key, MESSAGES["en"][key]).format(**fields)


def aside(text: str, note: str, lang: str) -> str:
    """`text (note)`, with full-width brackets in Chinese."""
    return f"{text}（{note}）" if lang == "zh" else f"{text} ({note})"


def joined(parts: list[str], lang: str) -> str:
    """Sentences joined with a semicolon, full width in Chinese."""
    return ("；" if lang == "zh" else "; ").join(parts)


def titled(title: str, text: str, lang: str) -> str:
    """`title: text`, with a full-width colon in Chinese."""
    return f"{title}：{text}" if lang == "zh" else f"{title}: {text}"
