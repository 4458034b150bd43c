"""The words of explain(), backward_sequence() and the pictures' legend, in English and Chinese.

One table: every sentence the teaching tools print is here, by key, in each language. The Chinese
follows the terms of the Chinese micrograd tutorial series (计算图, 反向传播, 链式法则, 拓扑排序,
父节点 for an op's inputs, 梯度累加 for +=). With no language given, LC_ALL, LC_MESSAGES or LANG
starting with "zh" choose Chinese.
"""

from __future__ import annotations

import os
import re

LANGUAGES = ("en", "zh")

MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "order": "1. topological order (inputs first): [{order}]",
        "start": "2. start: {root}.grad = 1 (∂{root}/∂{root})",
        "walk": "3. walk the order backwards; each node adds local derivative * its grad to its inputs:",
        "step": "   {node} = {formula}, grad {grad}: {node}._backward()",
        "add": "      {input}.grad += {how} = {added}  -> {total}{why}",
        "repeated": "   (+=: {input} is used more than once; contributions add up)",
        "custom": "(custom _backward)",
        "forgotten": "      {input}.grad += 0  -> {total}   (made by hand, Value(..., (inputs), op), "
        "with no _backward set: it passes nothing back)",
        "overwrote": "      {input}.grad = {total}   (custom _backward: it set the grad with = "
        "instead of adding with +=; what came before is lost)",
        "user": "user code",
        "sequence_order": "topological order",
        "sequence_step": "{node}._backward()  (grad {grad})",
        "legend": "colours",
        "leaf": "input or constant",
        "param": "parameter",
        "output": "output",
        "inner": "computed",
        "operands": "0, 1 on an edge: the op's first and second operand",
        # micrograd explain / graph: the errors of an expression and of --set (micrograd.teach.expr)
        "expr_too_long": "expression longer than {limit} characters",
        "expr_syntax": "not a valid expression: {why}",
        "expr_syntax_wide": "not a valid expression: {why} (type symbols in half-width ASCII)",
        "expr_empty": "empty expression",
        "expr_bool": "{value} is not allowed in an expression",
        "expr_unknown_name": "unknown name '{name}': give it a value with --set {name}=1.0",
        "expr_call": "only these functions can be called, with one argument: {functions}",
        "expr_not_allowed": "{kind} is not allowed in an expression: {text}",
        "wrote": "wrote {path}",
        "wrote_page": "wrote {path}: open it in a browser",
        "nan_output": "the output is nan: a forward op made it (such as a negative number to a "
        "fractional power); run the forward inside micrograd.detect_anomaly() to find which",
        "expr_instead": "'{typed}' is not in the language: write {instead} instead",
        "expr_method": "write {name}(a), not a.{name}(): functions are called by name",
        "expr_times": "write the multiplication: {number}*{name}, not {number}{name}",
        "expr_operator": "the operator {op} is not in the language: use + - * / **",
        "expr_twice": "'{name}' is given a value twice",
        "expr_statement": "only `name = expression` statements, and a last expression: {text}",
        "expr_deep": "expression nested too deeply",
        "expr_cannot": "cannot evaluate: {why}",
        "set_form": "--set expects NAME=NUMBER, got {item}",
        "set_keyword": "--set {name}: '{name}' is a keyword, which cannot be a name",
        "set_twice": "--set {name} is given twice",
        "set_nan": "--set {name}: {number} is not a number",
        "set_inf": "--set {name}: {number} is not a finite number",
        # the command line of explain and graph (micrograd.cli)
        "error": "micrograd: error: {message}",
        "no_backward": "a Value made by hand with op {op!r} and inputs has no _backward: its "
        "inputs get nothing from it (set out._backward = _backward, the closure of its local "
        "derivatives, as the lecture does)",
        "nan_backward": "backward() of a nan: a forward op made it (such as a negative number to "
        "a fractional power); run the forward inside micrograd.detect_anomaly() to find which",
        "unknown_format": "unknown format '{fmt}' (from -o's extension): give --format, one of {formats}",
        "png_tty": "--format png writes binary data: give a file with -o FILE",
        "no_dot": "--format {fmt} needs Graphviz's 'dot' program, which is not installed: "
        "apt-get install graphviz (Debian/Ubuntu), brew install graphviz (macOS), "
        "or https://graphviz.org/download/; --format dot and --format mermaid need nothing",
        "help_expr": "e.g. 'relu(a*b + c)': names, numbers, + - * / **, ( ), {functions}; "
        "or statements 'c = a + b; d = c * a'",
        "help_set": "a value for a name (repeat)",
        "help_lang": "language of the text: en or zh (default: from LANG, zh_* is Chinese)",
        "help_max_nodes": "refuse graphs larger than this (default: %(default)s)",
        "help_graph": "draw the graph of an expression after backward",
        "about_graph": "Draw the graph of an expression, with each Value's data and grad.",
        "help_format": "default: from -o's extension, else dot",
        "help_output": "write to this file; - or none: standard output",
        "help_explain": "print the steps of backward for an expression",
        "help_explain_format": "text (default) or html: a page that steps through backward "
        "(default: html when -o ends in .html)",
        "help_quiz": "predict each +=: type the number it adds before it is shown (text: asked "
        "here; html: in the page)",
        "about_explain": "Run backward on an expression and print every step of the chain rule.",
        # the playground page (micrograd.playground)
        "pg_title": "micrograd playground",
        "pg_data": "data",
        "pg_hidden": "hidden layers",
        "pg_activation": "activation",
        "pg_optimizer": "optimizer",
        "pg_lr": "learning rate",
        "pg_batch": "batch size (0: all)",
        "pg_seed": "random seed",
        "pg_play": "play",
        "pg_pause": "pause",
        "pg_step": "step",
        "pg_reset": "reset",
        "pg_loss": "loss",
        "pg_accuracy": "accuracy",
        "pg_steps": "steps",
        "pg_params": "parameters",
        "pg_name": "name",
        "pg_click": "Click a point to step through the backward pass of its loss.",
        "pg_quiz": "quiz me: predict each +=",
        "pg_serving": "micrograd playground: {url} (Ctrl-C stops it)",
        "pg_stopped": "micrograd playground: stopped",
        "pg_dead": "grey rows: the grad is exactly 0 at this step (a relu unit dead for every "
        "point passes nothing back to its weights)",
        "pg_active": "ringed points: loss > 0, the only ones that send gradient back ({n} of {total})",
        "pg_formula_binary": "loss = mean over points of max(0, 1 - y·score) + 0.0001·Σ w²  (hinge, y = ±1)",
        "pg_formula_softmax": "loss = mean over points of -log softmax(scores)[class] + 0.0001·Σ w²",
        "pg_adam": "m and v: Adam's running averages of each parameter's grad and of its square; "
        "the step is lr · m / (√v + ε), after their bias correction",
        "pg_axis_step": "step",
        "pg_why_zero": "loss = max(0, 1 - y·score) = max(0, 1 - ({y})·{score}) = {loss}: this point "
        "is on its side with a margin, so it sends no gradient back and every grad below stays 0. "
        "Click a ringed point to see one that teaches the model.",
        "pg_why_active": "loss = max(0, 1 - y·score) = max(0, 1 - ({y})·{score}) = {loss} > 0: this "
        "point is inside the margin or on the wrong side, so it sends gradient back to every parameter.",
        "pg_why_softmax": "loss = -log softmax(scores)[class] = {loss}: under cross-entropy every "
        "point sends gradient back, most of all the ones the model gets wrong.",
        "usage": "usage: ",
        "prev": "◀ back",
        "next": "next ▶",
        "play": "play",
        "pause": "pause",
        "step_of": "step {k} of {n}",
        "nudge": "nudge",
        "skip_zero": "skip += 0",
        "nudge_pick": "Click an input's box, then nudge: the forward pass is recomputed with it "
        "moved by h, as the lecture does by hand.",
        "nudge_result": "({root}({name}+h) - {root}({name})) / h = {slope} with h = {h};  "
        "{name}.grad from backward() = {grad}",
        "nudge_cannot": "this graph has an op the page cannot recompute ({op})",
        # the quiz of the stepper and of `micrograd explain --quiz`: predict each +=
        "quiz_intro": "Predict each +=: type the number it adds to the input's grad, then check.",
        "quiz_ask": "{input}.grad += ?",
        "quiz_check": "check",
        "quiz_show": "show",
        "quiz_right": "right",
        "quiz_right_step": "right: {line}",
        "quiz_wrong": "not quite: the local derivative ∂{node}/∂{input} is {local}, and "
        "{node}.grad (the upstream grad) is {upstream}; += adds their product",
        "quiz_not_number": "type a number, e.g. -1.5 or 1/2",
        "quiz_score": "{right} of {asked} right at the first try",
        # the stepper's neuron view: an MLP's neurons, one box each
        "neuron": "neuron",
        "neuron_help": "Each box w·x+b → relu is one neuron, its grad that of its output: click "
        "it to see its scalar ops (layers.0.neurons.3:w.1·x is w.1 times its input, "
        ":b+w·x[:2] the bias plus the first two products), click the dashed frame's empty space "
        "or 'collapse' to fold them back. Grey and hatched: a dead ReLU (its output is 0), which "
        "passes no gradient back to its weights, whatever its output's grad. Zoom with + and − "
        "or Ctrl + the wheel; drag to move.",
        "neuron_dead": "dead: relu = 0",
        "neuron_sample": "sample {k}",
        "neuron_inside": "inside the neuron: {step}",
        "neuron_grad": "output grad",
        "view_zoom_in": "zoom in",
        "view_zoom_out": "zoom out",
        "view_fit": "fit",
        "view_follow": "follow the step",
        "view_expand_all": "expand all",
        "view_collapse_all": "collapse all",
        "view_collapse": "collapse",
        "positionals": "positional arguments",
        "options": "options",
        "help_help": "show this help message and exit",
    },
    "zh": {
        "order": "1. 拓扑排序（父节点在前）：[{order}]",
        "start": "2. 起点：把输出节点的梯度设为 1：{root}.grad = 1（∂{root}/∂{root}）",
        "walk": "3. 按拓扑排序的逆序遍历；每个节点把「局部偏导 × 自己的梯度」加到父节点的梯度上：",
        "step": "   {node} = {formula}，梯度 {grad}：{node}._backward()",
        "add": "      {input}.grad += {how} = {added}  -> {total}{why}",
        "repeated": "   （+=：{input} 被多次使用，梯度累加）",
        "custom": "（自定义 _backward）",
        "forgotten": "      {input}.grad += 0  -> {total}   （手工创建的 Value(..., (父节点), op) "
        "没有设置 _backward：它不向父节点传递任何梯度）",
        "overwrote": "      {input}.grad = {total}   （自定义 _backward 用 = 覆盖了梯度，"
        "没有用 += 累加；之前的梯度丢失了）",
        "user": "用户代码",
        "sequence_order": "拓扑排序",
        "sequence_step": "{node}._backward()（梯度 {grad}）",
        "legend": "颜色",
        "leaf": "输入或常数",
        "param": "参数",
        "output": "输出节点",
        "inner": "中间节点",
        "operands": "边上的 0、1：运算的第一个和第二个父节点",
        "expr_too_long": "表达式超过 {limit} 个字符",
        "expr_syntax": "不是合法的表达式：{why}",
        "expr_syntax_wide": "不是合法的表达式：{why}（请使用半角符号，例如 ( ) = + -）",
        "expr_empty": "表达式为空",
        "expr_bool": "表达式里不能使用 {value}",
        "expr_unknown_name": "未知的名字 '{name}'：用 --set {name}=1.0 给它一个值",
        "expr_call": "只能调用这些函数，并且只带一个参数：{functions}",
        "expr_not_allowed": "表达式里不能使用 {kind}：{text}",
        "wrote": "已写入 {path}",
        "wrote_page": "已写入 {path}：用浏览器打开它",
        "nan_output": "输出是 nan：是前向计算中的某个运算产生的（例如负数的小数次幂）；"
        "在 micrograd.detect_anomaly() 里重新做一遍前向计算，就能找到是哪一个",
        "expr_instead": "表达式里没有 '{typed}'：请写 {instead}",
        "expr_method": "请写 {name}(a)，而不是 a.{name}()：函数按名字调用",
        "expr_times": "乘号不能省略：请写 {number}*{name}，而不是 {number}{name}",
        "expr_operator": "表达式里没有运算符 {op}：请用 + - * / **",
        "expr_twice": "'{name}' 被赋值了两次",
        "expr_statement": "只能写 `名字 = 表达式` 语句，最后一句是表达式：{text}",
        "expr_deep": "表达式嵌套太深",
        "expr_cannot": "无法计算：{why}",
        "set_form": "--set 的格式是 名字=数字，收到的是 {item}",
        "set_keyword": "--set {name}：'{name}' 是 Python 关键字，不能用作名字",
        "set_twice": "--set {name} 给了两次",
        "set_nan": "--set {name}：{number} 不是数字",
        "set_inf": "--set {name}：{number} 不是有限的数字",
        "error": "micrograd：错误：{message}",
        "no_backward": "这个 Value 是手工建的（运算 {op!r}，有父节点），但没有设置 _backward："
        "它的父节点从它那里得不到任何梯度（请像讲座里那样写 out._backward = _backward，"
        "即计算局部偏导的闭包）",
        "nan_backward": "对 nan 调用了 backward()：前向计算里某个运算算出了 nan（例如负数的小数次幂）；"
        "把前向传播放进 micrograd.detect_anomaly() 里运行，就能找到是哪一个",
        "unknown_format": "未知的格式 '{fmt}'（来自 -o 的扩展名）：请用 --format 指定，可选 {formats}",
        "png_tty": "--format png 输出的是二进制数据：请用 -o 文件名 写入文件",
        "no_dot": "--format {fmt} 需要 Graphviz 的 'dot' 程序，但它没有安装："
        "apt-get install graphviz（Debian/Ubuntu）、brew install graphviz（macOS），"
        "或见 https://graphviz.org/download/；--format dot 和 --format mermaid 不需要它",
        "help_expr": "例如 'relu(a*b + c)'：名字、数字、+ - * / **、( )、{functions}；"
        "或语句 'c = a + b; d = c * a'",
        "help_set": "给一个名字赋值（可重复）",
        "help_lang": "输出文字的语言：en 或 zh（默认按 LANG，zh_* 为中文）",
        "help_max_nodes": "拒绝超过这个大小的计算图（默认：%(default)s）",
        "help_graph": "反向传播之后画出表达式的计算图",
        "about_graph": "画出表达式的计算图，显示每个 Value 的数据和梯度。",
        "help_format": "默认：按 -o 的扩展名，否则为 dot",
        "help_output": "写入这个文件；- 或不给：标准输出",
        "help_explain": "打印表达式反向传播的每一步",
        "help_quiz": "预测每一次 +=：在它显示之前输入它加上的数（text：在终端里问；html：在网页里问）",
        "help_explain_format": "text（默认）或 html：一个逐步演示反向传播的网页"
        "（-o 以 .html 结尾时默认为 html）",
        "about_explain": "对表达式运行反向传播，并打印链式法则的每一步。",
        "pg_title": "micrograd 训练游乐场",
        "pg_data": "数据集",
        "pg_hidden": "隐藏层",
        "pg_activation": "激活函数",
        "pg_optimizer": "优化器",
        "pg_lr": "学习率",
        "pg_batch": "批大小（0：全部）",
        "pg_seed": "随机数种子",
        "pg_play": "播放",
        "pg_pause": "暂停",
        "pg_step": "单步",
        "pg_reset": "重置",
        "pg_loss": "损失",
        "pg_accuracy": "训练准确率",
        "pg_steps": "步数",
        "pg_params": "参数",
        "pg_name": "参数名",
        "pg_click": "点击一个数据点，逐步查看它的损失的反向传播。",
        "pg_quiz": "测验：预测每一次 +=",
        "pg_serving": "micrograd 训练游乐场：{url}（按 Ctrl-C 停止）",
        "pg_stopped": "micrograd 训练游乐场：已停止",
        "pg_dead": "灰色的行：这一步的梯度正好是 0（对所有点都“死掉”的 relu 单元不会把梯度传回给它的权重）",
        "pg_active": "带圈的点：损失 > 0，只有它们会把梯度传回去（{total} 个中的 {n} 个）",
        "pg_formula_binary": "损失 = 各点 max(0, 1 - y·score) 的平均 + 0.0001·Σ w²（合页损失，y = ±1）",
        "pg_formula_softmax": "损失 = 各点 -log softmax(scores)[类别] 的平均 + 0.0001·Σ w²",
        "pg_adam": "m 和 v：Adam 对每个参数的梯度及其平方所做的滑动平均；每一步走 lr · m / (√v + ε)（先做偏差修正）",
        "pg_axis_step": "步数",
        "pg_why_zero": "损失 = max(0, 1 - y·score) = max(0, 1 - ({y})·{score}) = {loss}：这个点在它那一边，"
        "而且留有余量，所以它不传回任何梯度，下面每个梯度都保持 0。点击一个带圈的点，看一个能教会模型的样本。",
        "pg_why_active": "损失 = max(0, 1 - y·score) = max(0, 1 - ({y})·{score}) = {loss} > 0：这个点落在余量之内"
        "或者在错误的一边，所以它会把梯度传回给每一个参数。",
        "pg_why_softmax": "损失 = -log softmax(scores)[类别] = {loss}：用交叉熵时每个点都会传回梯度，"
        "模型判断错的点传回得最多。",
        "usage": "用法：",
        "prev": "◀ 上一步",
        "next": "下一步 ▶",
        "play": "播放",
        "pause": "暂停",
        "step_of": "第 {k} 步，共 {n} 步",
        "nudge": "挪动一下",
        "skip_zero": "跳过 += 0 的步骤",
        "nudge_pick": "点击一个输入的方框，再点“挪动一下”：把它挪动 h 之后重新做一遍前向计算，就像讲座里手算的那样。",
        "nudge_result": "({root}({name}+h) - {root}({name})) / h = {slope}（h = {h}）；"
        "backward() 算出的 {name}.grad = {grad}",
        "nudge_cannot": "这张图里有网页无法重新计算的运算（{op}）",
        "quiz_intro": "预测每一次 +=：输入它加到父节点梯度上的数，再核对。",
        "quiz_ask": "{input}.grad += ?",
        "quiz_check": "核对",
        "quiz_show": "显示答案",
        "quiz_right": "答对了",
        "quiz_right_step": "答对了：{line}",
        "quiz_wrong": "不对：局部偏导 ∂{node}/∂{input} 是 {local}，{node}.grad（上游梯度）是 "
        "{upstream}；+= 加上的是两者的乘积",
        "quiz_not_number": "请输入一个数，例如 -1.5 或 1/2",
        "quiz_score": "首次答对 {right} / {asked}",
        "neuron": "神经元",
        "neuron_help": "每个 w·x+b → relu 方框是一个神经元，框里的梯度是它输出的梯度。点击它展开成标量运算"
        "（layers.0.neurons.3:w.1·x 是 w.1 乘它的输入，:b+w·x[:2] 是偏置加上前两个乘积），"
        "点击虚线框里的空白处或“收起”按钮收起。灰色带斜线的是死掉的 ReLU（输出为 0）：不管它输出的梯度是多少，"
        "都传不回它的权重。用 + 和 − 或 Ctrl + 滚轮缩放，拖动来移动。",
        "neuron_dead": "ReLU 输出 0，梯度传不回去",
        "neuron_sample": "样本 {k}",
        "neuron_inside": "神经元内部：{step}",
        "neuron_grad": "输出的梯度",
        "view_zoom_in": "放大",
        "view_zoom_out": "缩小",
        "view_fit": "全图",
        "view_follow": "跟随当前步骤",
        "view_expand_all": "全部展开",
        "view_collapse_all": "全部收起",
        "view_collapse": "收起",
        "positionals": "位置参数",
        "options": "选项",
        "help_help": "显示帮助并退出",
    },
}


def language(lang: str | None = None) -> str:
    """`lang` if given ("en" or "zh"), else Chinese where the locale variables say zh_*."""
    if lang is not None:
        if lang not in LANGUAGES:
            raise ValueError(f"lang must be one of {LANGUAGES}, got {lang!r}")
        return lang
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name)
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    return "en"


# The reasons the engine's ops give when they fail, in Chinese. An op's error reads
# "op 'log' on (0.0): log is defined for positive numbers only, got 0.0" (micrograd.engine._fail).
_OP_ERROR = re.compile(r"op '(.+?)' on \((.*?)\): (.*)", re.S)
_REASONS_ZH = [
    (r"log is defined for positive numbers only, got (.+)", r"log 只对正数有定义，收到的是 \1"),
    (r"(.+) cannot be raised to the negative power (.+)", r"\1 不能取负数次幂（\2）"),
    (r"the result is too large for a float", "结果太大，超出了浮点数的范围"),
    (r"(?:float )?division by zero", "除数是 0"),
    (r"math domain error", "超出了这个函数的定义域"),
    (r"math range error", "结果超出了浮点数的范围"),
]


def op_error(e: BaseException, lang: str) -> str:
    """The message of an error raised by an op of the engine, in `lang` (Chinese where its reason
    is one the engine gives; any other message as it is)."""
    message = str(e)
    found = _OP_ERROR.fullmatch(message)
    if lang != "zh" or found is None:
        return message
    op, inputs, reason = found.groups()
    for pattern, chinese in _REASONS_ZH:
        if re.fullmatch(pattern, reason):
            reason = re.sub(pattern, chinese, reason)
            break
    return f"运算 '{op}'（输入 {inputs}）：{reason}"


# argparse's own sentences (its usage errors), in Chinese
_USAGE_ZH = [
    (r"the following arguments are required: (.*)", r"缺少必需的参数：\1"),
    (r"unrecognized arguments: (.*)", r"无法识别的参数：\1"),
    (r"invalid choice: (.*) \(choose from (.*)\)", r"无效的选择：\1（可选：\2）"),
    (r"expected one argument", "需要一个值"),
    (r"invalid (\w+) value: (.*)", r"无效的 \1 值：\2"),
]


def usage_error(message: str, lang: str) -> str:
    """A usage error of the command (argparse's words, then "(see 'PROG --help')") in `lang`."""
    if lang != "zh":
        return message
    found = re.fullmatch(r"(.*) \(see '(.+) --help'\)", message, re.S)
    if found is None:
        return _usage_zh(message)
    return f"{_usage_zh(found[1])}（见 '{found[2]} --help'）"


def _usage_zh(sentence: str) -> str:
    """One of argparse's sentences in Chinese ("argument --x: ..." around another one)."""
    argument = re.fullmatch(r"argument (\S+): (.*)", sentence, re.S)
    if argument:
        return f"参数 {argument[1]}：{_usage_zh(argument[2])}"
    for pattern, chinese in _USAGE_ZH:
        if re.fullmatch(pattern, sentence, re.S):
            return re.sub(pattern, chinese, sentence, flags=re.S)
    return sentence


def text(key: str, lang: str, **fields: object) -> str:
    """The sentence `key` in `lang`, with its fields filled in."""
    return MESSAGES[lang][key].format(**fields)


def columns(text: str) -> int:
    """The screen columns `text` takes: two for each Chinese character or full-width sign."""
    return sum(2 if "\u2e80" <= ch <= "\uffef" else 1 for ch in text)
