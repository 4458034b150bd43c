"""Every sentence micrograd shows a person, in Chinese: the keys and fields of en.py.

The terms follow the Chinese micrograd tutorial series and shared glossary (计算图, 反向传播, 链式法则,
拓扑排序, 父节点 for an op's inputs, 梯度累加 for +=)."""

CATALOG: dict[str, str] = {
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
    "expr_parser_unclosed": "括号 '{bracket}' 没有闭合",
    "expr_parser_unmatched": "多了一个 '{bracket}'，前面没有和它配对的括号",
    "expr_parser_mismatch": "'{closing}' 和前面的 '{opening}' 不配对",
    "expr_parser_invalid": "语法不对",
    "expr_parser_eof": "表达式没有写完",
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
    "pg_why_zero": "损失 = max(0, 1 - y·score) = max(0, 1 - {y}·{score}) = {loss}：这个点在它那一边，"
    "而且留有余量，所以它不传回任何梯度，下面每个梯度都保持 0。点击一个带圈的点，看一个能教会模型的样本。",
    "pg_why_active": "损失 = max(0, 1 - y·score) = max(0, 1 - {y}·{score}) = {loss} > 0：这个点落在余量之内"
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
    "quiz_stopped": "已结束：{total} 题中答了 {asked} 题",
    "quiz_quit": "输入 q 或「退出」结束",
    "quiz_values": "各个值：{values}",
    "quiz_score": "首次答对 {right} / {asked}",
    "neuron": "神经元",
    "group_help": "每个方框是计算的一部分，框里的梯度是它最后一个输出的梯度。点击它展开成标量运算，点击虚线框"
    "的空白处或“收起”按钮把它收起来。方框里的每一步都标着它的名字。用 + 和 − 或 Ctrl + 滚轮缩放；拖动来移动。",
    "group_inside": "方框内部：{step}",
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
    # ---- the engine's errors
    "op_error": "运算 {op!r}（输入 {inputs}）：{reason}",
    "reason_log": "log 只对正数有定义，收到的是 {x!r}",
    "reason_zero_negative_power": "0.0 不能取负数次幂（{k!r}）",
    "reason_too_large": "结果太大，超出了浮点数的范围",
    "reason_division_by_zero": "除数是 0",
    "reason_domain": "超出了这个函数的定义域",
    # ---- argparse's usage errors
    "usage_see_help": "{error}（见 '{prog} --help'）",
    "usage_argument": "参数 {name}：{error}",
    "usage_required": "缺少必需的参数：{x1}",
    "usage_unrecognized": "无法识别的参数：{x1}",
    "usage_choice": "无效的选择：{x1}（可选：{x2}）",
    "usage_one_argument": "需要一个值",
    "usage_invalid": "无效的 {x1} 值：{x2}",
    "usage_not_with": "不能和参数 {x1} 一起用",
    # ---- the command's help and the lines demo and train print
    "cli.about_micrograd": "一个极小的自动微分引擎：训练、画图、讲解。",
    "cli.help_version": "显示程序的版本号并退出",
    "cli.help_demo": "在双月牙（two moons）数据上训练 MLP(2, {points_sizes})，即原版的演示",
    "cli.about_demo": "在双月牙（two moons）数据上训练 MLP(2, {points_sizes})（SGD，合页损失），"
    "打印训练准确率和测试准确率，并写出 model.json、decision_boundary.png 和 loss.png。",
    "cli.help_train": "训练一个分类器，数据集、模型和优化器都由你选择",
    "cli.about_train": "在一个二维玩具数据集上训练多层感知机（MLP）分类器。",
    "cli.help_backend": "每一步怎么运行：auto（装了 numpy 就用 numpy，否则用 python）、numpy、python"
    "（重放追踪下来的一步），或 eager（每一步都搭出 Value 的计算图再反向走一遍；最慢）（默认："
    "%(default)s）",
    "cli.help_out": "存放模型（model.json；用 --data names 时是 gpt.json）和图片的文件夹（默认："
    "%(default)s）",
    "cli.help_seed": "数据和权重的随机数种子（默认：%(default)s）",
    "cli.help_no_plot": "不画图（不需要 matplotlib）",
    "cli.help_quiet": "不显示进度条，只打印准确率",
    "cli.help_lang": "帮助、输出和图片的语言：en 或 zh（默认按 LANG，zh_* 为中文）",
    "cli.help_data": "数据集：二维点集，或 8x8 手写数字（随包附带），或 MNIST 图像"
    "（默认：%(default)s）",
    "cli.help_data_dir": "用于 --data mnist：存放它的四个 IDX 文件的文件夹",
    "cli.help_noise": "加在点上的噪声的标准差（默认：%(default)s）",
    "cli.help_hidden": "隐藏层的宽度，例如 16,16（默认：{points_hidden}；图像为 {images_hidden}）",
    "cli.help_activation": "隐藏层的激活函数（默认：%(default)s）",
    "cli.help_optimizer": "优化器：sgd（学习率线性衰减）或 adam（默认：{points_optimizer}；图像为 {images_optimizer}）",
    "cli.help_lr": "学习率（默认：sgd 从 {sgd_lr} 线性衰减到它的十分之一，adam 为 {adam_lr}）",
    "cli.help_momentum": "SGD 的动量（默认：%(default)s）",
    "cli.help_steps": "训练步数（默认：{points_steps}；图像为 {images_steps}）",
    "cli.help_batch_size": "小批量的大小（默认：整个训练集；图像为 {images_batch_size}）",
    "cli.help_playground": "在浏览器里实时训练多层感知机（在 127.0.0.1 上启动本地服务器）",
    "cli.about_playground": "在 127.0.0.1 上启动 playground 并在浏览器里打开它：选一个数据集和"
    "一个模型，按下播放，观察决策边界和每个参数的梯度。",
    "cli.help_port": "端口（默认：%(default)s；0：任意一个空闲端口）",
    "cli.help_no_browser": "不打开浏览器",
    "cli.help_page_lang": "网页的语言（默认按 LANG）",
    "cli.out_train_accuracy": "训练准确率：{accuracy:.2f}",
    "cli.out_test_accuracy": "测试准确率：{accuracy:.2f}",
    "cli.out_done": "训练了 {steps} 步，用时 {seconds:.1f} 秒；已把 {files} 写入 {out}",
    "cli.out_progress": "训练中",
    "cli.out_unit": "步",
    "cli.out_step": "第 {step}/{total} 步  损失 {loss:.4f}  准确率 {accuracy:.2f}",
    "cli.out_first_loss": "提示：第一步的损失是 {loss:.2f}。输出一开始都很小时，{classes} 个类别的 "
    "softmax 损失应从 ln {classes} = {ln:.2f} 附近开始；初始权重太大，模型一开始就会很自信地"
    "猜错，前几步得先把这些错纠正过来",
    "cli.err_mnist_dir": "--data mnist 需要 --data-dir DIR：存放四个 MNIST 文件的文件夹",
    "cli.err_diverged": "训练在第 {step} 步发散了（{why}）；试试更小的 --lr（或 --momentum）",
    "cli.err_budget": "--hidden {hidden} 每一步大约要建 {values:,} 个 Value，超过了上限 {limit:,}"
    "（标量引擎为每个数建一个 Python 对象）：请选更小的宽度，{eager}"
    "或者把模型搬到 PyTorch（micrograd.export.to_torch）",
    "cli.err_budget_eager": "或更小的 --batch-size，或安装 numpy 走快速路径（不管批量多大，它只建一个样本；"
    "pip install 'micrograd-plus[fast]'），",
    "cli.err_out_empty": "--out 需要一个文件夹名",
    "cli.err_out_not_folder": "--out {folder}：已存在，但不是文件夹",
    "cli.err_out_no_permission": "--out {folder}：没有在那里写文件的权限",
    "cli.err_mnist_missing": "mnist：在 {folder} 里找不到 MNIST 文件：请把四个 MNIST 文件（train-images-idx3-ubyte.gz、"
    "train-labels-idx1-ubyte.gz、t10k-images-idx3-ubyte.gz、t10k-labels-idx1-ubyte.gz）下载到这个文件夹",
    "cli.err_dash": "；{arg!r} 以 '-' 开头，所以被当成了选项：像这样的表达式请放在最后、'--' 之后"
    "（micrograd explain --set a=1 -- {arg!r}）；负数请写成 --lr=-1 这样",
    "cli.err_widths": "宽度应写成 16,16 这样，收到的是 {text!r}",
    "cli.err_widths_range": "每层的宽度应在 1 到 4096 之间，收到的是 {text!r}",
    "cli.err_not_int": "应为整数，收到的是 {text!r}",
    "cli.err_not_number": "应为数字，收到的是 {text!r}",
    "cli.err_not_above": "应为大于 {low} 的有限数，收到的是 {text!r}",
    "cli.err_not_at_least": "应为不小于 {low} 的有限数，收到的是 {text!r}",
    # ---- the pictures of demo and train
    "plot.step": "步数",
    "plot.loss": "损失",
    "plot.train_accuracy": "训练准确率",
    "plot.train": "训练集",
    "plot.test": "测试集",
    "plot.predicted": "预测的类别",
    "plot.true": "真实的类别",
    "plot.no_mistakes": "没有分错的",
    "plot.misclassified": "分错的测试图片：{n} 张（真实 -> 预测）",
    "plot.title": "{data}：{spec}，测试准确率 {accuracy:.2f}",
    # ---- the site's pages
    "site.run": "运行",
    "site.running": "运行中…",
    "site.edit": "编辑",
    "site.editing": "已编辑：运行的是你改过的代码",
    "site.restore": "恢复原文",
    "site.expected": "文档里的输出",
    "site.queued": "等待上面的代码块运行…",
    "site.skipped": "没有运行：上面的第 {k} 个代码块出错了",
    "site.ran": "用时 {s} 秒",
    "site.runtime": "正在加载 Python（Pyodide {x}，约 13 MB；第一次之后由浏览器缓存）…",
    "site.package": "正在加载 micrograd（{x}）…",
    "site.ready": "Python 已就绪，用时 {s} 秒",
    "site.failed": "Python 加载失败：{x}",
    "site.crashed": "Python 已停止（刷新页面重新启动）：{x}",
    "site.starting": "正在启动 Python…",
    "site.gpt_compiling": "正在追踪并编译这一步，只需一次（几秒）……",
    "site.gpt_compiled": "这一步编译用了 {s} 秒；训练中",
    "site.gpt_paused": "已暂停（第 {step} 步）；这一步编译用了 {s} 秒",
    "site.gpt_bad_temperature": "温度应为大于 0 的数，收到的是 {text}",
    "site.gpt_sampled": "温度 {t}、训练 {step} 步后编出的 {n} 个名字；每次点击都会编出新的",
    "site.gpt_ready": "这一步编译用了 {s} 秒：按训练开始",
    "site.gpt_ms": "Python 里每步 {ms} 毫秒",
    "site.steps_per_s": "每秒 {r} 步（Python 里每步 {ms} 毫秒）",
    "site.passed": "通过",
    "site.not_passed": "尚未通过",
    "site.progress": "本浏览器里已通过 {n} / {total} 个练习",
    "site.checking": "检查中…",
    "site.check_too_long": "运行 {s} 秒后被停止：检查运行得太久了（是不是有永远不结束的循环？）。下次检查时 Python 会重新启动；你的代码保留着。",
    "site.check_stopped": "已停止：下次检查时 Python 会重新启动；你的代码保留着。",
    "site.no_more_hints": "没有更多提示了",
    "site.bad_value": "取值要写成 名字=数字，收到的是 {part!r}",
    "site.unknown_name": "未知的名字 '{name}'：在“取值”里加上 {name}=1.0",
    "site.bad_hidden": "隐藏层要写成用逗号分开的整数，例如 8, 8（1 到 {layers} 层，每层 1 到 {width} 个神经元）；"
    "收到的是 {got!r}",
    # ---- practice
    # the words of the Chinese micrograd tutorial series (shared/glossary.zh.md): 父节点 for an
    # op's inputs, 局部偏导, 上游梯度, 梯度累加 for +=, 闭包, 拓扑排序, 梯度清零, 随机数种子
    # the local rules, as the first wrong step explains them: practice.why.OP.I is the rule OP
    # (a key of micrograd.engine.OPS, or - and neg) for its operand I
    "practice.why.+.0": "`+` 对每个操作数的局部偏导都是 1",
    "practice.why.+.1": "`+` 对每个操作数的局部偏导都是 1",
    "practice.why.-.0": "`-` 对左操作数的局部偏导是 1",
    "practice.why.-.1": "`-` 对右操作数的局部偏导是 -1",
    "practice.why.*.0": "`*` 对左操作数的局部偏导是右操作数的数值 {value}",
    "practice.why.*.1": "`*` 对右操作数的局部偏导是左操作数的数值 {value}",
    "practice.why./.0": "`a / b` 对 a 的局部偏导是 1/b = {value}",
    "practice.why./.1": "`a / b` 对 b 的局部偏导是 -a/b**2 = {value}",
    "practice.why.**k.0": "`x**k` 的局部偏导是 k * x**(k-1) = {value}（k = {k}）",
    "practice.why.**.0": "`a**b` 对 a 的局部偏导是 b * a**(b-1) = {value}",
    "practice.why.**.1": "`a**b` 对 b 的局部偏导是 a**b * log(a) = {value}",
    "practice.why.neg.0": "`-x` 的局部偏导是 -1",
    "practice.why.tanh.0": "tanh 的局部偏导是 1 - t**2 = {value}，t 是输出节点的数值",
    "practice.why.exp.0": "exp 的导数就是它自己：局部偏导等于输出节点的数值 {value}",
    "practice.why.ReLU.0": "relu 的局部偏导在输入 > 0 时是 1，否则是 0：这里是 {value}",
    "practice.why.log.0": "log(x) 的局部偏导是 1/x = {value}",
    "practice.why.sigmoid.0": "sigmoid 的局部偏导是 s * (1 - s) = {value}",
    "practice.why.sin.0": "sin(x) 的局部偏导是 cos(x) = {value}",
    "practice.why.cos.0": "cos(x) 的局部偏导是 -sin(x) = {value}",
    "practice.why.rule": "按引擎的局部规则（{rule}），局部偏导是 {value}",
    "practice.tampered": "代码替换了检查器自己的一部分（{names}）：被检查的代码改动过的检查器不给出结论",
    "practice.apart_killed": "代码超过了 {seconds} 秒的时限，被要求停下时也没有停（是不是有一个吞掉所有中断的 "
    "`except:`？）：检查进程已被结束",
    "practice.apart_signal": "代码运行时检查进程被 {how} 杀掉了：没有结论",
    "practice.apart_killed_oom": "代码运行时检查进程被杀掉了（SIGKILL），系统在进程耗尽内存时就是这样结束它的：没有结论",
    "practice.apart_ended": "代码在给出结论之前结束了检查进程（退出状态 {code}，像 os._exit() 或崩溃那样）{said}",
    "practice.upstream_unread": "上游梯度换成 {other} 时它仍然加 {found}：闭包没有乘以 out.grad（它读的是别的东西："
    "{node} 建好时记下的一个数，还是另一个 Value 的梯度？）",
    "practice.reads_out_data": "上游梯度换成 {other} 时它仍然加 {found}：闭包乘的是 out.data（输出节点的数值），"
    "应当乘 out.grad",
    "practice.upstream_sign": "上游梯度换成 {other} 时它加的大小对、符号错：闭包只取了 out.grad 的大小，丢掉了它的符号（abs？）",
    "practice.adds_nothing": "上游梯度换成 {other} 时它同样什么也没加",
    "practice.upstream_divides": "上游梯度换成 {other} 时它加的是局部偏导除以 {other}：闭包除以了 "
    "out.grad，链式法则是乘以 out.grad",
    "practice.local_sign": "这是符号反了的局部偏导：大小对，符号错（是不是少了或多了一个负号，或用 abs() "
    "丢掉了输入自己的符号？）",
    "practice.held_before": "`{input}.grad` 原来是 {before}",
    "practice.upstream_part": "换用别的上游梯度时它加的是 `{part} {sign} {slope} * out.grad`：其中 {part} "
    "不随上游梯度变化。链式法则要把整个局部偏导 {local} 乘以 out.grad：`(局部偏导) * out.grad`"
    "（少了括号？）",
    "practice.one_share": "`{input}` 是这个节点的 {n} 个操作数，所以要得到 {n} 份梯度，每个一份；它只得到了一份",
    "practice.other_share": "这是它自己的一份再加上 {other} 的一份：本该加给 {other} 的那一行加到了 `{input}` 上"
    "（该写 other 的地方写成了 self？）",
    "practice.both_operands": "`{input}` 同时是两个操作数，两份梯度要累加",
    # the first wrong step
    "practice.step_wrong": "`{node}._backward()`（上游梯度 {upstream}）给 `{input}.grad` 加了 "
    "{found}；应当加 {expected}：{why}",
    "practice.assign": "`{node}._backward()` 之后 `{input}.grad` 变成了 {after}；应当是 {before} "
    "+ {expected} = {total}（原来的值加上这一步的一份）：闭包用 = 覆盖了梯度，没有用 += 累加，"
    "`{input}.grad` 原来的值丢失了",
    "practice.not_attached": "`{node}._backward()` 还是默认的空函数，所以 `{input}.grad` 什么也没"
    "得到；应当加 {expected}：闭包写了却没有挂上（缺少 `out._backward = _backward`）",
    "practice.operand_binary": "这正是用另一个操作数的数值算出来的：闭包读错了操作数",
    "practice.swapped.tanh": "它用了输入 x：1 - x**2；该用的是输出 t：1 - t**2",
    "practice.swapped.exp": "它用了输入的数值；该用的是输出的数值 out.data",
    "practice.swapped.log": "它用了输出：1 / out.data；该用的是输入：1 / self.data",
    "practice.swapped.ReLU": "它用了输出的数值本身；该用的是斜率：输入 > 0 时为 1，否则为 0",
    "practice.operand_own": "它加的 {found} 正是 {input} 自己的值乘以上游梯度：乘法给 {input} "
    "的局部偏导是另一个操作数的值",
    "practice.wrong_upstream": "这是局部偏导乘以 {grad}，那是一个输入的梯度：上游梯度是输出节点的 "
    "{node}.grad（闭包里的 out.grad），不是 self.grad",
    "practice.called_closure": "`{node}._backward` 是 {kind}，不是函数：闭包被调用了（`out._backward "
    "= _backward()`），而不是挂上去。应当写 `out._backward = _backward`，不带括号",
    "practice.closure_at": "{path} 第 {line} 行的闭包",
    "practice.no_upstream": "这只是局部偏导本身：还要乘以上游梯度 out.grad（链式法则）",
    "practice.wrong_forward": "`{node}` 的数值是 {found}；应当是 {expected}（{args} 的 {symbol}）",
    "practice.out_differs": "`{what}` 在 {where} 时的数值是 {found}；应当是 {expected}",
    "practice.grad_differs": "`{input}.grad` 是 {found}（{where}）；micrograd 的引擎算出的是 "
    "{expected}",
    # learner code that fails
    "practice.no_file": "没有文件 {path}",
    "practice.load_failed": "你的代码无法运行：{error}",
    "practice.not_written": "`{what}` 还没有写（它抛出 NotImplementedError）",
    "practice.exited": "你的代码在 `{what}` 里调用了 {how}",
    "practice.raised": "`{what}` 抛出了 {error}",
    "practice.recursion": "`{what}` 抛出了 RecursionError：递归的拓扑排序（或互相调用的 "
    "_backward()）每多一个 Value 就多一层 Python 调用；请用循环和自己的栈来做拓扑排序",
    "practice.no_class": "你的代码里没有类 `{name}`",
    "practice.too_long": "`{what}` 运行超过 {seconds} 秒，已被停止：是不是有一个永远不结束的循环？"
    "（条件永远不变的 while 循环，或者遍历计算图时从不记录已经访问过的节点）",
    "practice.check_too_long": "检查运行超过 {seconds} 秒，已被停止：你的代码里是不是有一个运行次数"
    "太多（或永远不结束）的循环？",
    "practice.printed": "你的代码打印了 {n} 行：",
    "practice.printed_more": "……还有 {n} 行",
    "practice.number_unwrapped": "`{what}` 抛出了 {error}：读 .data 之前要先把数字包成 Value："
    "`other = other if isinstance(other, Value) else Value(other)`",
    "practice.number_left": "`{what}` 抛出了 {error}：数字在左边时，Python 会找右边 Value 的 "
    "`{method}`：要定义它，例如 `def {method}(self, other): return {body}`",
    "practice.not_in_graph": "{input} 不在 `{what}` 的计算图里：从结果沿 _prev 往回走，永远到不了 "
    "{input}，梯度也就传不回它。要把两个操作数都列为新 Value 的父节点（Value(..., (self, other), "
    "op)），并且用 Value 的运算来算，不要用 .data",
    "practice.number_recursion": "`{what}` 抛出了 RecursionError：{method} 无穷无尽地调用自己（数字在"
    "左边时，返回 `other {op} self` 又会去找 Value 的 {method}）。应当返回 {body}",
    "practice.number_cut": "`{what}` 返回的是 {kind}，不是 Value：从计算图里取出来的数（.data、"
    "math.log）把图切断了，梯度到不了 logits；用 Value 自己的运算来算（probs[target].log()）",
    "practice.not_value": "`{what}` 返回的是 {kind}，不是 Value",
    "practice.param_not_value": "`{what}` 是 {kind}，不是 Value：要把权重和偏置包成 Value()",
    "practice.not_notebook": "不是 Jupyter 笔记本：{path}",
    "practice.missing_method": "你的 Value 没有 {method}",
    "practice.unknown_exercise": "没有练习 {exercise!r}；可选的练习：{known}",
    # backward()
    "practice.chain": "{n} 个 Value 的长链",
    "practice.other_order": "{title}，每个 Value 的 _prev（一个集合）按另一个顺序遍历：集合的顺序取决"
    "于各个 Value 的内存地址，所以拓扑排序不能依赖它",
    # the stubs' TODO lines (micrograd.practice.reference.stub): one line per TODO, in order
    "practice.todo.derivative": "",  # its TODOs say nothing but TODO
    "practice.todo.zero-grad": "",
    "practice.todo.softmax-nll": "",
    "practice.todo.op-add": 'out = Value(..., (self, other), "+")，一个 _backward 闭包，out._backward = ...',
    "practice.todo.op-mul": "和 __add__ 一样，换成 * 的局部偏导",
    "practice.todo.op-pow": 'other 是一个数 k：out = Value(self.data**other, (self,), "**" + str(other)) ……',
    "practice.todo.op-tanh": 't = tanh(self.data)；out = Value(t, (self,), "tanh")；再写它的 _backward 闭包',
    "practice.todo.op-exp": 'out = Value(math.exp(self.data), (self,), "exp")；再写它的 _backward 闭包',
    "practice.todo.op-relu": 'out = Value(max(0, self.data), (self,), "ReLU")；再写它的 _backward 闭包',
    "practice.todo.op-sub": "self - other：用已有的运算搭出来，或者写成一个带自己闭包的运算",
    "practice.todo.op-div": "self / other：用已有的运算搭出来，或者写成一个带自己闭包的运算",
    "practice.todo.op-log": 'out = Value(math.log(self.data), (self,), "log")；再写它的 _backward 闭包',
    "practice.todo.op-pow-value": 'Value 作指数的 self ** other：out = Value(..., (self, other), "**")，闭包要给 self 和 other 各自的梯度',
    "practice.todo.backward": "1. 计算图的拓扑排序；2. self.grad = 1.0；3. 按输出在前、输入在后的顺序调用每个 Value 的 _backward()",
    "practice.todo.neuron-mlp": "self.w（nin 个权重）和 self.b\nnout 个 Neuron\nnouts 里每个尺寸一个 Layer",
    "practice.se_graph": "Stack Exchange 问题里的图，a = {a}, b = {b}",
    "practice.ran_twice": "`{node}._backward()` 运行了第二次：每个节点的 _backward() 只能运行一次"
    "，否则它的父节点会拿到两份梯度（一个节点能从两条路走到，就在每条路上各运行了一次：要先排好整个"
    "顺序，每个节点只出现一次，再按顺序运行）",
    "practice.root_not_one": "输出节点的 _backward() 运行时梯度是 {found}；应当是 1：backward() 先"
    "要把输出节点的梯度设为 1（self.grad = 1.0）",
    "practice.too_early": "`{node}._backward()` 运行时 {node}.grad 是 {found}；应当是 {expected}："
    "`{later}` 也用到了 {node}，但它还没有把梯度传过来。一个节点只能在所有用到它的节点之后运行，而这"
    "个顺序不是拓扑排序的逆序",
    "practice.preorder": "`{node}._backward()` 在用到 {node} 的节点之前就运行了，虽然遍历已经把列表逆序了："
    "列表里有节点排在它的父节点之前，逆过来就成了父节点在前。它要么是每个节点先于它的父节点放进去的（前序），"
    "要么是放在集合里的（集合没有顺序）。要先处理完所有父节点再把这个节点放进一个列表"
    "（`for child in v._prev: build_topo(child)` 之后再 `topo.append(v)`），再逆序遍历",
    "practice.inputs_first": "`{node}._backward()` 在用到 {node} 的节点之前就运行了：闭包是按输入在"
    "前的顺序调用的。要走的顺序是拓扑排序（每个节点在它的父节点之后才放进 topo）的逆序：`for v in "
    "reversed(topo): v._backward()`",
    "practice.kept_default": "{where}：backward() 之后，`{method}` 的默认参数 `{arg}` 里还有 {n} "
    "个 Value：默认的 {kind} 只在 def 运行时创建一次，每次调用都共用它，所以下一次 backward() 会在里面"
    "找到这张图的 Value 并跳过它们。写成 `{arg}=None`，在调用里新建一个 {kind}"
    "（`if {arg} is None: {arg} = {kind}()`）",
    "practice.second_call": "{where}：`{input}.grad` 是 {found}，应当是 {expected}：第二次 backward() "
    "没有重新遍历计算图（第一次调用留下的 `visited` 或 `topo`：全局变量，或像 `visited=set()` 这样的可变默认参数，"
    "会在两次调用之间一直存在）",
    "practice.second_zero": "再次 root.backward() 之后第二次调用 zero_grad_all(root)，`{node}.grad` 仍是 "
    "{value}：第一次调用留下的东西让它跳过了已经见过的节点（像 `seen=set()` 这样的可变默认参数会在两次调用之间一直存在）",
    "practice.unused_moved": "train() 把 u（params 里损失没有用到的一个参数）从 0.5 移到了 {found}：它一开始带着旧的梯度（3），"
    "把损失的计算图清零碰不到它；应当把参数的梯度清零（zero_grad(params)）",
    "practice.two_losses": "先 (a * b).backward() 再 (a + b).backward() 之后",
    "practice.zeroes_leaves": "{where}，`{input}.grad` 是 {found}；应当是 {expected}：只剩下第二次 "
    "backward() 的那一份。backward() 不应把梯度清零（叶子节点要累加每一次 backward() 给的梯度）：清"
    "零是训练循环里 zero_grad() 的事",
    "practice.deep_challenge": "另有一个挑战：在 {n} 个 Value 的长链上，你的 backward() 停在了 "
    "Python 的递归上限（递归的 build_topo 每个 Value 调用一层）。用循环和自己的栈来排序，多深都行。",
    "practice.never_ran_equal": "`{node}._backward()` 从没运行，所以它的父节点什么也没得到；数值相同（{data}）"
    "的另一个 Value `{twin}` 运行了：遍历把两者当成了一个（`visited` 记的是 .data，还是 Value 按数值判等、按数值求哈希？）",
    "practice.never_ran": "`{node}._backward()` 从没运行，所以它的父节点什么也没得到",
    # zero_grad and train
    "practice.leaf_still_set": "zero_grad_all(root) 之后 `{node}.grad` 还是 {value}：{node} 是叶子"
    "节点，在 root 下面 {depth} 层。要遍历整张图，一直到叶子节点，不只是 root 和它的直接父节点",
    "practice.still_set": "zero_grad_all(root) 之后 `{node}.grad` 还是 {value}：计算图里每个 "
    "Value 的梯度都要清零，中间节点也一样，不只是叶子节点",
    "practice.params_not_zeroed": "zero_grad(params) 之后第 {index} 个参数的梯度是 {value}；应当"
    "是 0",
    "practice.accumulated": "第 {step} 步里 `{name}.grad` 是 {found}，但这一步自己的梯度是 "
    "{expected}：它还留着第 {previous_step} 步的 {previous}。梯度没有清零：请在 loss.backward() 之"
    "前把梯度清零",
    "practice.zeroed_late": "第 {step} 步更新 `{name}` 时用的梯度是 0；它的梯度应该是 {expected}：梯度"
    "在 loss.backward() 之后、更新之前被清零了。要在 loss.backward() 之前清零（或者在更新之后）",
    "practice.bad_update": "第 {step} 步之后 `{name}.data` 是 {found}；应当是 {expected}（p.data "
    "+= -lr * p.grad）",
    "practice.calls": "steps={steps} 时 train() 调用了 {found} 次 loss_fn：要在循环里调用 "
    "loss_fn()，每一步一次（每一步都要用更新后的参数重新建计算图）",
    "practice.calls_count": "steps={steps} 时 train() 调用了 {found} 次 loss_fn：一步就是一次 loss_fn()、"
    "backward() 和更新，所以循环要运行 `steps` 次（range(steps)）",
    "practice.calls_one_step": "steps={steps} 时 train() 只调用了一次 loss_fn，参数也只正确地走了一步："
    "循环在第一步之后就结束了（循环里有 `return`？）",
    "practice.leaf_behind_zero": "在还没有反向传播、叶子节点却带着另一个计算图的梯度的 b * c + b 上，"
    "zero_grad_all 之后 `{node}.grad` 仍是 {value}：遍历在一个梯度已经是 0 的节点处停下了（它的父节点可能仍带着梯度）",
    "practice.params_again": "MLP.parameters() 给出了 {first} 个 Value，再调用一次却给出 {second} 个："
    "它往一个自己保存的列表里追加（self.w.append(self.b)？），而不是每次新建一个列表",
    "practice.stale_at_start": "第 1 步里 `{name}.grad` 是 {found}，而这一步自己的梯度是 {expected}：它还带着 {stale}，"
    "也就是 train() 开始之前的梯度。每一步都要在 loss.backward() 之前清零梯度（在这一步开头，或 loss_fn() 之后），而不是在更新之后",
    "practice.not_updated": "第 {step} 步里 `{name}` 没有动，可它的梯度并不是 0：更新没有作用到它的数值上"
    "（`p = p - lr * p.grad` 新建了一个 Value，参数本身没变；`p.data += -lr * p.grad` 才会改变它）",
    "practice.twice_after_reset": "zero_grad_all(root) 之后再次调用 root.backward()，a.grad 是 "
    "{found}；第一次是 {expected}",
    # Neuron, Layer, MLP
    "practice.uphill": "第 {step} 步里 `{name}` 顺着梯度 {expected} 的方向走了，而不是逆着它：更新往"
    "上走了。要逆着梯度走：p.data += -lr * p.grad",
    "practice.nested": "`{what}` 是 {kind}：parameters() 必须是一个由 Value 组成的扁平列表。把各个神经"
    "元的列表连起来：[p for n in self.neurons for p in n.parameters()]",
    "practice.param_order_listed": "网络用神经元自己的 w 和 b 算出的输出是对的，但 parameters() 列出它们的顺序和讲座的不同："
    "应当逐层、逐个神经元，每个神经元先 w 后 b（优化器按这个顺序把每个参数和它的状态对应起来，保存的权重也按它读回）",
    "practice.param_order": "你的 parameters() 把每个神经元的 b 列在 w 前面：只有按这个顺序读参数，前"
    "向的结果才对。请按讲座的顺序列出，先 w 后 b（self.w + [self.b]）：优化器、保存的模型和这个检查"
    "都按这个顺序读",
    "practice.syntax": "你的代码无法运行：第 {line} 行不是合法的 Python：{reason}（{code}）",
    "practice.params_replaced": "train() 在 params 里放进了新的 Value，替换了原来的参数：loss_fn() 建出的计算图仍然"
    "用着旧的参数，被清零的不是它们的梯度，模型训练的是它已经不再持有的东西。要就地把每个 Value 的梯度设为 0（p.grad = 0）",
    "practice.mlp_first_layer_only": "MLP(2, [8, 8, 1]) 有 {found} 个参数，只是第一层的；应当是 {expected} 个："
    "建各层的循环在第一层之后就结束了（循环里有 `return`？）",
    "practice.mlp_output_changes": "MLP(2, [8, 8, 1])(x) 在三个点上依次调用，返回的是 {kinds}：返回的东西一次和一次不同"
    "（是不是在层上保存了一个列表并不断往里加，而不是每次调用都新建？）",
    "practice.mlp_layer_count": "第 {i} 层 Layer({nin}, {nout}) 有 {found} 个；应当是 {expected} 个："
    "{nout} 个神经元，每个有 {nin} 个权重和一个偏置",
    "practice.mlp_params_count": "MLP(2, [8, 8, 1]) 有 {found} 个参数；应当是 {expected}：它的三层分别"
    "把 2、8、8 个输入送进 8、8、1 个神经元，(2+1)·8 + (8+1)·8 + (8+1)·1",
    "practice.row_mlp": "MLP 的参数",
    "practice.params_count": "{what} 有 {found} 个参数；应当是 {expected}",
    "practice.neuron_linear": "Neuron(3)(x) 得到 {found}，正是 w·x + b 本身：少了激活函数。应当返回 "
    "act.tanh()（act = w·x + b）：这里是 {expected}",
    "practice.neuron_forward": "Neuron(3)(x) 得到 {found}；act(w·x + b) 用 tanh 是 {expected}，用 "
    "relu 是 {relu}",
    "practice.mlp_output": "MLP(2, [8, 8, 1])(x) 返回的是 {kind}：只有一个神经元的层应当直接返回那"
    "个 Value，而不是列表",
    "practice.mlp_grad": "loss.backward() 之后第 {index} 个参数的梯度是 {found}；同一个网络在 "
    "micrograd 的引擎里是 {expected}",
    "practice.shared_neuron": "parameters() 里同样的 Value 重复出现了 {n} 次：一个对象只造了一次，却被"
    "列了 n 次，`[Neuron(nin)] * nout`（一层里的神经元）或 `[Value(...)] * nin`（一个神经元的权重）就"
    "会这样。要各造各的：`[Neuron(nin) for _ in range(nout)]`、`[Value(random.uniform(-1, 1)) for _ "
    "in range(nin)]`",
    "practice.train_loss": "在 moons 数据集上训练：第 {step} 步之前的损失是 {found}；同一个网络在 "
    "micrograd 的引擎里、从同样的权重、用同样的方法训练，是 {expected}",
    "practice.trained": "moons：{steps} 步里损失从 {first} 降到 {last}，和 micrograd 的引擎一样",
    # the result
    # the mistakes' names (micrograd.practice.result.MISTAKES)
    "practice.mistake.assign-not-add": "用 = 代替了 +=",
    "practice.mistake.closure-not-attached": "闭包没有挂上",
    "practice.mistake.called-closure": "调用了闭包而不是挂上它",
    "practice.mistake.wrong-local": "局部偏导错了",
    "practice.mistake.wrong-operand": "用错了操作数",
    "practice.mistake.wrong-upstream": "上游梯度用错了",
    "practice.mistake.number-operand": "数字操作数",
    "practice.mistake.not-reset": "梯度没有清零",
    "practice.mistake.zeroed-late": "清零的时机不对",
    "practice.mistake.zeroes-leaves": "backward() 清零了梯度",
    "practice.mistake.recursion-limit": "递归太深",
    "practice.mistake.visit-order": "运行顺序错了",
    "practice.mistake.not-reversed": "少了 reversed",
    "practice.mistake.reversed-not-topological": "逆序的列表不是拓扑排序",
    "practice.mistake.wrong-forward": "前向的数值错了",
    "practice.mistake.graph-cut": "计算图断了",
    "practice.mistake.no-output-grad": "输出节点的梯度没有设为 1",
    "practice.mistake.graph-reused": "计算图没有重建",
    "practice.mistake.update-sign": "更新方向反了",
    "practice.mistake.difference-quotient": "差商写错了",
    "practice.mistake.param-count": "参数的个数不对",
    "practice.mistake.nested-params": "参数列表嵌套了",
    "practice.mistake.param-order": "参数的顺序不对",
    "practice.mistake.list-output": "返回了列表",
    "practice.mistake.shared-neuron": "神经元是同一个对象",
    "practice.mistake.own-value": "用了节点自己的数值",
    "practice.mistake.input-not-output": "用了输入而不是输出",
    "practice.mistake.running-total": "填了累加后的总数",
    "practice.mistake.no-upstream": "没有乘上游梯度",
    "practice.mistake.input-output-swapped": "输入和输出的数值用反了",
    "practice.mistake.value-as-slope": "把数值当成了斜率",
    "practice.mistake.unfinished": "没有做完",
    "practice.mistake.not-written": "还没有写",
    "practice.mistake.syntax-error": "语法错误",
    "practice.mistake.too-long": "运行太久",
    "practice.mistake.tampered": "改动了检查器",
    "practice.mistake.other": "其他",
    "practice.passed": "{exercise}：通过",
    "practice.failed": "{exercise}：还没通过（{mistake}）",
    "practice.first_wrong_step": "第一个出错的步骤：{step}",
    "practice.hint_for_step": "这一步的提示：{hint}",
    "practice.seed": "随机数种子 {seed}（check(..., seed={seed}) 或 --seed {seed} 可以重现这些点）",
    "practice.table_caption": "每个输入在各个检查点上的梯度：与应得的梯度（micrograd 引擎算的，或准确"
    "的导数）完全相同的个数、足够接近的个数，以及与引擎的、与中心差分的最大差。",
    "practice.col_exercise": "练习",
    "practice.col_result": "结果",
    "practice.col_step": "第一个出错的步骤",
    "practice.ok": "通过",
    "practice.col_input": "输入",
    "practice.col_points": "点数",
    "practice.col_exact": "完全相同",
    "practice.col_close": "足够接近",
    "practice.col_engine": "最大差（引擎）",
    "practice.col_numeric": "最大差（中心差分）",
    # the exercises around the engine (micrograd.practice.lecture)
    "practice.no_function": "你的代码里没有函数 `{name}`",
    "practice.three_numbers": "{what} 应该返回三个数 [df/da, df/db, df/dc]，实际得到 {found}",
    "practice.gradf_wrong": "在 {where} 处，gradf 给出 df/d{input} = {found}；应该是 {expected}",
    "practice.over_h": "在 {where} 处，{fn} 给出 df/d{input} = {found}，是正确值 {expected} 的两倍："
    "中心差分跨了 2h，要除以 2 * h",
    "practice.times_h": "在 {where} 处，{fn} 给出 df/d{input} = {found}；应该是 {expected}：`/ 2 * h` "
    "是先除以 2 再乘以 h；要写成 `/ (2 * h)`",
    "practice.nudged_another": "在 {where} 处，{fn} 给出 df/d{input} = {found}，那是 df/d{other}：要"
    "挪动 {input}（求的是它的导数），其余输入保持不变",
    "practice.nudge_wrong": "在 {where} 处，{fn} 给出 df/d{input} = {found}；按题目的方式挪动 "
    "{input} 得到的是 {expected}",
    "practice.nudged_other_way": "在 {where} 处，{fn} 给出 df/d{input} = {found}，用的是另一种差分"
    "：numerical_grad 只向前挪，(f(x + h) - f(x)) / h；symmetric_grad 上下各挪一次，(f(x + h) - "
    "f(x - h)) / (2h)；应该是 {expected}",
    "practice.predict_wrong": "{node} 这一步的 `{input}.grad += ?`：你的答案是 {found}；应该是 "
    "{expected}：局部偏导 ∂{node}/∂{input} 是 {local}，{node}.grad（上游梯度）是 {upstream}",
    "practice.predict_own_value": "{found} 是 {input} 自己的值：这一步加上的是局部偏导 "
    "∂{node}/∂{input}（乘法的局部偏导是另一个输入的值）乘以 {node}.grad",
    "practice.predict_input_not_output": "{found} 是 1 - {input}**2，用的是输入：tanh 的局部偏导用"
    "它的输出，1 - {node}**2 = {local}",
    "practice.predict_running_total": "{found} 是这一次 += 之后 {input}.grad 的值，也就是累加后的"
    "总数：这里问的是这一次 += 加上的数，{local} * {upstream}",
    "practice.predict_count": "按 backward() 的顺序，每一次 += 给一个数：应该有 {expected} 个，实"
    "际有 {found} 个",
    "practice.softmax_forward": "softmax(logits)[{i}] 是 {found}；应该是 {expected}（第 {i} 个 "
    "logit 的 exp 除以所有 exp 之和）",
    "practice.graph_cut_leaf": "softmax(logits)[{i}] 是 {value}，一个没有父节点的 Value：它是用一个数新建的"
    "（Value(x.data)，或者放在它位置上的一个常数），梯度经过它传不到 {logit}。它要一直是对 logits 做运算得到的结果",
    "practice.graph_cut": "softmax(logits)[{i}] 的数值是对的，但它的计算图连不到 {logit}：有一个数"
    "经 .data 脱离了计算图（像 `sum(c.data for c in counts)` 这样的分母只是一个普通的 float），梯度"
    "从这里传不回去。要用 Value 来算：`sum(counts)`",
    "practice.nll_forward": "nll(probs, {target}) 是 {found}；应该是 -log(probs[{target}]) = "
    "{expected}",
    # the command: micrograd practice ...
    "practice.cmd.task": "任务",
    "practice.cmd.hints_left": "提示 {n} / {total}",
    "practice.cmd.last_hint": "这是最后一条提示。检查过一次之后，`micrograd practice reveal {id}{how}` "
    "会显示参考答案。",
    "practice.cmd.more_hints": "更多提示：`micrograd practice hint {id}{how}`。",
    "practice.cmd.exists": "{path} 已经存在：没有覆盖（想重新开始就先删掉它）",
    "practice.cmd.written": "已写入 {path}：完成其中的 TODO，然后运行 `micrograd practice check "
    "{id}{how}`",
    "practice.cmd.written_quiz": "已写入 {path}：在浏览器里打开它，预测每一次 +=；或者在终端里回答"
    "：`micrograd practice check {id}{how}`",
    "practice.cmd.no_stub": "没有 {path}：先运行 `micrograd practice start {id}{how}`，或者给出文件",
    "practice.cmd.reveal_first": "先检查一次你自己的代码：`micrograd practice check {id}{how}`（检查过"
    "一次后才能查看答案）",
    "practice.cmd.solution": "{id} 的参考答案（{way}）：",
    "practice.cmd.way.lecture": "讲座的写法",
    "practice.cmd.way.gpt": "microgpt 的写法",
    "practice.cmd.checked": "检查的文件：{path}",
    "practice.cmd.corrupt": "{path} 无法读取（{why}）：进度从头开始",
    "practice.cmd.fresh": "还没有进度（{path} 不存在）",
    "practice.cmd.passed_count": "{total} 个练习中通过了 {n} 个",
    "practice.cmd.col_id": "练习",
    "practice.cmd.col_title": "标题",
    "practice.cmd.col_attempts": "检查次数",
    "practice.cmd.col_hints": "提示",
    "practice.cmd.col_done": "通过",
    "practice.cmd.yes": "是",
    "practice.cmd.no": "-",
    "practice.cmd.stub_check": "检查：     micrograd practice check {id}{how}",
    "practice.cmd.stub_hint": "提示：     micrograd practice hint {id}{how}",
    "practice.cmd.unknown": "没有练习 {id!r}；`micrograd practice list` 会列出所有练习",
    "practice.cmd.help": "练习：自己实现反向传播，逐步检查",
    "practice.cmd.about": "练习反向传播：每个练习要求你写讲座风格 Value 的一部分；check 会找出你代"
    "码里第一个出错的步骤。",
    "practice.cmd.help_lang": "语言：en 或 zh（默认按 LANG，zh_* 为中文）",
    "practice.cmd.help_list": "按讲座的顺序列出所有练习",
    "practice.cmd.help_start": "写出 ./practice/ID.py：任务说明和一个待你填写的代码框架",
    "practice.cmd.help_notebook": "改为写出 ID.ipynb",
    "practice.cmd.help_check": "检查你的代码（默认：./practice/ID.py）；通过时退出状态为 0",
    "practice.cmd.help_seed": "给出之前某次检查的随机数种子，重放同样的随机点",
    "practice.cmd.help_hint": "显示一个练习的下一条提示",
    "practice.cmd.help_reveal": "显示参考答案（至少检查过一次之后）",
    "practice.cmd.help_status": "你的进度（来自 ./practice/progress.json）",
    "practice.cmd.help_check_engine": "对一个完整的讲座风格引擎运行所有适用于它的练习",
    # the exercises, in the lecture's order: a title, a task and hints (from 0) each
    "exercise.derivative.title": "手算导数，再用微小扰动估计",
    "exercise.derivative.task": "代码框架里定义了 f(a, b, c) = -a**3 + sin(3*b) - 1.0/c + b**2.5 - "
    "a**0.5。实现 gradf(a, b, c)：手算出的 [df/da, df/db, df/dc]；numerical_grad(f, a, b, c, h)："
    "把每个输入挪动 h 来估计同样的导数（前向差分，(f(a+h, b, c) - f(a, b, c)) / h）；以及 "
    "symmetric_grad(f, a, b, c, h)：用中心差分 (f(a+h) - f(a-h)) / (2h)，它更准确。",
    "exercise.derivative.hint.0": "逐项求导：d(-a**3)/da = -3*a**2，d(a**0.5)/da = 0.5*a**-0.5；a "
    "变化时含 b 和 c 的项不变。",
    "exercise.derivative.hint.1": "d sin(3*b)/db = 3*cos(3*b)（链式法则）；d(-1/c)/dc = 1/c**2。",
    "exercise.derivative.hint.2": "每次只挪动一个输入，另外两个保持不变；对称的版本上下各挪一次，"
    "再除以 2*h。",
    "exercise.predict-lecture.title": "预测梯度：讲座里的第一张图",
    "exercise.predict-lecture.task": "L = (a*b + c) * f，a = 2，b = -3，c = 10，f = -2，和讲座里手"
    "工填梯度的那张图一样。预测 L.backward() 的每一次 +=：`micrograd practice check "
    "predict-lecture` 在终端里逐个提问；网页 practice/predict-lecture.html 在浏览器里问同样的问题"
    "。",
    "exercise.predict-lecture.hint.0": "每一步加上的是（局部偏导）×（该节点的梯度）：节点的梯度写"
    "在这一步的那一行里。",
    "exercise.predict-lecture.hint.1": "加法对两个父节点的局部偏导都是 1；乘法的局部偏导是另一个父"
    "节点的 data。",
    "exercise.predict-lecture.hint.2": "L.grad 是 1；d.grad 是 f 的 data，即 -2；e 的梯度经过 + "
    "从 d 传来。",
    "exercise.op-add.title": "__add__：加法的局部规则",
    "exercise.op-add.task": "按讲座的写法实现 Value.__add__：out = Value(self.data + other.data, "
    "(self, other), '+')，再写一个 _backward 闭包，把 out.grad 传给两个父节点。数字在任一边都要能"
    "用（2 + a 用的是 __radd__）。",
    "exercise.op-add.hint.0": "d(a + b)/da = 1，d(a + b)/db = 1：每个父节点都得到 1 * out.grad。",
    "exercise.op-add.hint.1": "闭包里用 +=（梯度累加）：被用了两次的 Value（a + a）要拿到两份梯度"
    "。",
    "exercise.op-add.hint.2": "return out 之前把闭包挂上：out._backward = _backward。",
    "exercise.op-mul.title": "__mul__：乘法的局部规则",
    "exercise.op-mul.task": "实现 Value.__mul__：out = Value(self.data * other.data, (self, "
    "other), '*') 和它的 _backward 闭包。",
    "exercise.op-mul.hint.0": "d(a * b)/da = b：每个父节点的局部偏导是另一个操作数的数值。",
    "exercise.op-mul.hint.1": "self.grad += other.data * out.grad，other.grad += self.data * "
    "out.grad。",
    "exercise.op-mul.hint.2": "a * a：两行都加到 a.grad 上，它得到 2 * a.data * out.grad。",
    "exercise.predict-neuron.title": "预测梯度：tanh 神经元",
    "exercise.predict-neuron.task": "o = tanh(x1*w1 + x2*w2 + b)，x1 = 2，x2 = 0，w1 = -3，w2 = "
    "1，b = 6.8813735870195432（讲座里的神经元，o = 0.7071）。预测 o.backward() 的每一次 +=。",
    "exercise.predict-neuron.hint.0": "d tanh(n)/dn = 1 - tanh(n)**2 = 1 - o**2：o = 0.7071 时是 "
    "0.5。",
    "exercise.predict-neuron.hint.1": "求和把 n 的梯度原样传给每个父节点。",
    "exercise.predict-neuron.hint.2": "x2 是 0，所以 w2 得到 0 × 上游梯度；x1 得到 w1 × 上游梯度。",
    "exercise.op-pow.title": "__pow__：数字指数的幂",
    "exercise.op-pow.task": "为数字指数 k（整数或浮点数）实现 Value.__pow__：out = "
    "Value(self.data**k, (self,), f'**{{k}}') 和它的闭包。（Value 作指数见 op-pow-value。）",
    "exercise.op-pow.hint.0": "d(x**k)/dx = k * x**(k-1)。",
    "exercise.op-pow.hint.1": "注意括号：other * self.data ** (other - 1)，而不是 self.data ** "
    "other - 1。",
    "exercise.op-pow.hint.2": "这里的指数是普通数字：只有 self 得到梯度。",
    "exercise.op-tanh.title": "tanh",
    "exercise.op-tanh.task": "实现 Value.tanh()：t = tanh(self.data)（math.tanh，或讲座里的 "
    "(e**2x - 1)/(e**2x + 1)），out = Value(t, (self,), 'tanh')，以及它的闭包。",
    "exercise.op-tanh.hint.0": "d tanh(x)/dx = 1 - tanh(x)**2。",
    "exercise.op-tanh.hint.1": "用输出节点的数值 t：1 - t**2，而不是 1 - x**2。",
    "exercise.op-tanh.hint.2": "乘以上游梯度：self.grad += (1 - t**2) * out.grad。",
    "exercise.op-exp.title": "exp",
    "exercise.op-exp.task": "实现 Value.exp()：out = Value(math.exp(self.data), (self,), 'exp') 和"
    "它的闭包。",
    "exercise.op-exp.hint.0": "exp 的导数就是它自己：d e**x/dx = e**x。",
    "exercise.op-exp.hint.1": "局部偏导是 out.data（输出节点的数值），不是 self.data。",
    "exercise.op-exp.hint.2": "self.grad += out.data * out.grad。",
    "exercise.op-relu.title": "relu",
    "exercise.op-relu.task": "实现 Value.relu()：out = Value(0 if self.data < 0 else self.data, "
    "(self,), 'ReLU') 和它的闭包。",
    "exercise.op-relu.hint.0": "输入 > 0 时局部偏导是 1，否则是 0（恰好为 0 时也是 0，和 PyTorch "
    "一样）。",
    "exercise.op-relu.hint.1": "(out.data > 0) 是 True 或 False，Python 相乘时当作 1 或 0。",
    "exercise.op-relu.hint.2": "self.grad += (out.data > 0) * out.grad。",
    "exercise.op-sub.title": "__sub__",
    "exercise.op-sub.task": "实现 Value.__sub__（a - b）：用已有的运算拼出来（self + (-other)，其"
    "中 __neg__ 是 self * -1），或者写成一个带自己闭包的运算 '-'。",
    "exercise.op-sub.hint.0": "d(a - b)/da = 1，d(a - b)/db = -1。",
    "exercise.op-sub.hint.1": "用加法和取负拼出来时，链式法则会替你算出 -1。",
    "exercise.op-sub.hint.2": "写成单独的运算时：self.grad += out.grad，other.grad += -1 * "
    "out.grad。",
    "exercise.op-div.title": "__truediv__",
    "exercise.op-div.task": "实现 Value.__truediv__（a / b）：用已有的运算拼出来（self * "
    "other**-1），或者写成一个带自己闭包的运算 '/'。",
    "exercise.op-div.hint.0": "d(a / b)/da = 1/b，d(a / b)/db = -a/b**2。",
    "exercise.op-div.hint.1": "self * other**-1 复用 __mul__ 和 __pow__：不需要新的闭包。",
    "exercise.op-div.hint.2": "写成单独的运算时：other.grad += -self.data / other.data**2 * "
    "out.grad。",
    "exercise.op-log.title": "log",
    "exercise.op-log.task": "实现 Value.log()（自然对数）：out = Value(math.log(self.data), "
    "(self,), 'log') 和它的闭包。",
    "exercise.op-log.hint.0": "d log(x)/dx = 1/x。",
    "exercise.op-log.hint.1": "用 self.data（父节点的数值），不是 out.data：1 / self.data。",
    "exercise.op-log.hint.2": "self.grad += (1 / self.data) * out.grad。",
    "exercise.op-pow-value.title": "x ** y：Value 作指数",
    "exercise.op-pow-value.task": "让 ** 接受 Value 作指数。代码框架里的 __pow__ 会调用 "
    "self._pow_value(other)：实现它，out = Value(self.data**other.data, (self, other), '**')，闭包"
    "要给两个父节点各自的梯度。",
    "exercise.op-pow-value.hint.0": "d(a**b)/da = b * a**(b-1)，d(a**b)/db = a**b * log(a)。",
    "exercise.op-pow-value.hint.1": "指数那一份要用底数的对数；a**b 就是 out.data。",
    "exercise.op-pow-value.hint.2": "也可以用已有的运算拼出来：a > 0 时 (other * "
    "self.log()).exp() 就是 a**b。",
    "exercise.backward.title": "backward()：拓扑排序与 +=",
    "exercise.backward.task": "实现 Value.backward()：对计算图做拓扑排序，把输出节点的梯度设为 1（"
    "self.grad = 1.0），再按逆序调用每个 Value 的 _backward()。检查用的图：a + a；b = a + a; c = "
    "b + b；Stack Exchange 问题里的图（a.grad 25，b.grad 19）；以及在共用叶子节点的两张图上各调用一次 backward()（梯度要累加）。"
    "20,000 个 Value 的长链比递归排序能走的更深，是一个可选的挑战。",
    "exercise.backward.hint.0": "一个 Value 的 _backward() 只能在所有用到它的子节点都把梯度传给它"
    "之后才运行：拓扑排序的逆序保证了这一点。",
    "exercise.backward.hint.1": "visited 集合要放在 backward() 里面（不能是全局的），每个 "
    "_backward() 只调用一次。",
    "exercise.backward.hint.2": "Python 的递归大约 1,000 层就会停：用循环和自己的栈来做拓扑排序。",
    "exercise.predict-shared.title": "预测梯度：被多次使用的 Value",
    "exercise.predict-shared.task": "Stack Exchange 问题里的图：c = a + b，d = a * b，e = c + d，"
    "g = c * d，f = e + g，a = 2，b = 3。a 和 b、c 和 d 都各自被两个 Value 使用：预测每一次 +=，看"
    "看为什么 a.grad 最后是 25，b.grad 是 19。",
    "exercise.predict-shared.hint.0": "被用了两次的 Value 会收到两份梯度，每个用到它的子节点各给一"
    "份：+= 把它们累加起来。",
    "exercise.predict-shared.hint.1": "c 的梯度要等 e 和 g 都把自己那一份加上之后才完整：g 给的那"
    "一份是 d 的 data × g 的梯度。",
    "exercise.predict-shared.hint.2": "d.grad 是 1（来自 e）+ c 的 data（来自 g）= 6。",
    "exercise.zero-grad.title": "梯度清零：累加的陷阱",
    "exercise.zero-grad.task": "在类的后面写三个函数：zero_grad(params) 把每个参数的梯度清零；"
    "zero_grad_all(root) 把 root 的计算图里每个 Value 的梯度清零，好在同一张图上再次调用 "
    "root.backward()；train(params, loss_fn, steps, lr) 按讲座的循环运行 steps 次：loss = "
    "loss_fn()，梯度清零，loss.backward()，p.data += -lr * p.grad。",
    "exercise.zero-grad.hint.0": "每个闭包都用 +=，所以多次调用 backward() 时梯度会累加：每次调用"
    "之前都要清零。",
    "exercise.zero-grad.hint.1": "train() 里 loss_fn() 每一步都重新建图，所以只清零参数就够了；同"
    "一张图用两次时，每个节点（包括中间节点）都要清零。",
    "exercise.zero-grad.hint.2": "在 loss.backward() 之前清零，而不是之后。",
    "exercise.softmax-nll.title": "softmax 与负对数似然",
    "exercise.softmax-nll.task": "讲座练习的最后一题：用你的 Value 的运算（exp、经过 __radd__ 的 "
    "sum()、/、log、-）实现 softmax(logits)：exp(logit) / sum(exp(logits)) 组成的列表；以及 "
    "nll(probs, target) = -log(probs[target])。检查会把每个 logit 的梯度与 micrograd 的比较，后者"
    "等于 probs[i] - (i == target 时为 1，否则为 0)。",
    "exercise.softmax-nll.hint.0": "softmax 把每个 logit 的 exp 除以所有 exp 之和：两者都要用你的 "
    "Value 的运算（.exp()、sum()、/）来算，不能用 .data，否则计算图就断了。",
    "exercise.softmax-nll.hint.1": "sum() 从数字 0 开始：0 + Value 需要 __radd__。",
    "exercise.softmax-nll.hint.2": "-x 需要 __neg__（x * -1），c / d 需要 __truediv__（c * d**-1）"
    "。",
    "exercise.neuron-mlp.title": "神经元、层与多层感知机",
    "exercise.neuron-mlp.task": "按讲座实现 Neuron(nin)、Layer(nin, nout) 和 MLP(nin, nouts)：神经"
    "元有权重 w（列表）和偏置 b，计算 act(sum(w*x) + b)，激活函数用 tanh 或 relu；parameters() 先"
    "列出 w，再列出 b；只有一个神经元的层返回那个 Value，而不是列表。检查会把 MLP(2, [8, 8, 1]) 的"
    "梯度和 micrograd 的引擎比较，再在 moons 数据集上训练几步，每一步的损失都和引擎的比较。",
    "exercise.neuron-mlp.hint.0": "神经元：self.w = [Value(random.uniform(-1, 1)) for _ in "
    "range(nin)]，self.b 同理。",
    "exercise.neuron-mlp.hint.1": "sum((wi * xi for wi, xi in zip(self.w, x)), self.b) 让求和从偏"
    "置开始；再 .tanh()。",
    "exercise.neuron-mlp.hint.2": "parameters()：神经元返回 w + [b]；层把各个神经元的列表连起来，"
    "多层感知机把各层的连起来。",
    # the GPT: `micrograd train --data names` and `micrograd sample` (micrograd/app/gpt_commands.py)
    "gpt.about_train": "加上 --data names 时，改为在 {count:,} 个英文名字上训练 microgpt 的 "
    "GPT；加上 --data FILE.txt 时在这个文件的各行上训练（一行一篇文档，任何字符都行）。它打印编出"
    "的 {samples} 个名字，每个都标明是新的还是训练数据里有的。",
    "gpt.help_data": "；names：在 {count:,} 个英文名字（随包附带）上训练 microgpt 的 GPT；一个"
    "文本文件：在它的各行上训练这个 GPT。数据集：{choices}",
    "gpt.help_steps": "；names 为 {steps}",
    "gpt.help_lr": "；names 为 {lr}，线性衰减到 0（Adam，用 microgpt 的 betas）",
    "gpt.help_sample": "打印 `micrograd train` 保存的 GPT（--data names 或文本文件）编出的名字",
    "gpt.about_sample": "加载 `micrograd train --data names` 或 `--data FILE.txt` 保存的 GPT（gpt.json），打印它编出"
    "的名字：按 softmax(logits / temperature) 每次采样一个词元。",
    "gpt.help_model": "模型文件（运行 micrograd train --data names 之后是 micrograd-out/gpt.json）",
    "gpt.help_n": "名字的个数（默认：%(default)s）",
    "gpt.help_temperature": "温度，用来除 logits：越低越保守，越高越多样（默认：%(default)s，"
    "microgpt 的取值）",
    "gpt.help_seed": "采样用的随机数种子（默认：%(default)s，与训练命令相同：得到它打印的那些名字）",
    "gpt.out_step": "第 {step}/{total} 步  损失 {loss:.4f}",
    "gpt.out_compiling": "正在追踪并编译训练步，每种文档长度一次：最初几步要几秒，之后每步几毫秒",
    "gpt.note_lr": "损失比开始时还高：学习率 {lr} 可能太大（默认值是 {default}）",
    "gpt.out_loss": "第一步的损失 {first:.4f}，最后 {n} 步的平均损失 {last:.4f}",
    "gpt.out_sample": "样本 {i:2d}：{name}",
    "gpt.empty_name": "（空：第一个抽到的就是结束符）",
    "gpt.out_new": "样本 {i:2d}：{name}   新的",
    "gpt.out_copy": "样本 {i:2d}：{name}   训练数据里有",
    "gpt.out_copies": "编出的 {n} 个名字里有 {copies} 个是它训练过的文档，{new} 个是新的（把数据"
    "背下来了的模型会把它原样吐出来）",
    "gpt.note_long": "注意：{n:,} 篇文档中有 {long:,} 篇有 {block} 个或更多字符；--block-size "
    "{block} 时模型只学它们的前 {block} 个字符，学不到它们在哪里结束（最长的有 {longest} 个；"
    "更大的 --block-size，最多 {most}，训练更慢）",
    "gpt.help_size": "GPT 的 {size}（默认：{default}，microgpt 的取值）",
    "gpt.err_data": "{text!r} 既不是数据集（{choices}），也不是文件",
    "gpt.err_data_file": "无法在 {path} 上训练：{why}",
    "gpt.err_gpt_option": "{option} 是 GPT 的尺寸：它用于 --data names 或一个文档文本文件，"
    "不用于这个多层感知机（它的尺寸是 --hidden）",
    "gpt.err_heads": "--n-embd {n_embd} 不是 --n-head {n} 的倍数：每个头分到嵌入的 "
    "n_embd / n_head 维",
    "gpt.err_block": "--block-size {block} 大于 {most}：编一个名字所需的时间随块长的平方增长",
    "gpt.plot_loss": "每一步的损失（一个名字）",
    "gpt.plot_mean": "最近 {n} 步的平均值",
    "gpt.plot_title": "{spec}，{docs:,} 个名字",
    "gpt.plot_loss_documents": "每一步的损失（一篇文档）",
    "gpt.plot_title_documents": "{spec}，{docs:,} 篇文档",
    "gpt.err_option": "{option} 不适用于 --data names 或文本文件：它们训练 microgpt 的 GPT（可用"
    "的选项：--steps、--lr、--seed、--n-layer、--n-head、--n-embd、--block-size、--backend、"
    "--out、--no-plot、--quiet 和 --lang）",
    "gpt.err_diverged": "训练发散了（{why}）；试试更小的 --lr",
    "gpt.err_no_model": "{path}：文件不存在；micrograd train --data names 会写出一个"
    "（micrograd-out/gpt.json）",
    "gpt.err_bad_model": "不是 micrograd 能读取的 GPT 模型文件：{why}",
    "gpt.help_attention": "另外把每个注意力头在第一个名字上的注意力权重画进 FILE（PNG 图片）",
    "gpt.out_attention": "已写出 {path}：样本 1 上每个注意力头的注意力权重",
    "gpt.plot_attention_title": "读 {sequence} 时每个注意力头的注意力权重（· 是 BOS）",
    "gpt.plot_head": "层 {layer}，头 {head}",
    "gpt.plot_attending": "发出注意的位置",
    "gpt.plot_attended": "被注意的位置",
    "gpt.plot_weight": "注意力权重",
    "gpt.group_qk": "q·k",
    "gpt.group_qk_ops": "每个键：q·k / √d",
    "gpt.group_softmax": "softmax",
    "gpt.group_softmax_ops": "分数 → 加起来为 1 的权重",
    "gpt.group_sum": "Σ 权重 · 值",
    "gpt.group_sum_ops": "值的加权和",
    "gpt.group_kv": "位置 {pos}：k、v",
    "gpt.group_kv_ops": "嵌入、rmsnorm、wk、wv",
    "gpt.group_qkv": "位置 {pos}：q、k、v",
    "gpt.group_qkv_ops": "嵌入、rmsnorm、wq、wk、wv",
    "gpt.stepper_intro": "一个很小的 GPT（块长 3，n_embd 4，一个头）读 {tokens}。y 是最后一个位置上这个头的"
    "输出之和，o.0 + ... + o.{last}；它的反向传播经过 q·k、softmax 和值的加权和。名字：e 是嵌入，x 是投影"
    "读入的数，q 是查询，k1.2 是位置 1 的键的第 2 个分量，v 是值，s 是分数，a 是注意力权重，o 是输出。",
    # the GPT track (micrograd/practice/reference/gpt.py): microgpt's Value, then its parts
    "exercise.local-grads.title": "microgpt 的 Value：存下局部偏导",
    "exercise.local-grads.task": "microgpt 的 Value 不用闭包：每个运算存下它的输入（microgpt 把它们放在 "
    "children 里），以及输出对每个输入的局部偏导（local_grads），这些数在运算执行时就定下了："
    "Value(a + b, (self, other), (1, 1))。实现 __add__ 和 __mul__（任一侧的普通数字都先包成 "
    "Value）、__pow__（指数是数字 k）、log、exp 和 relu，再实现 backward()：拓扑排序，"
    "self.grad = 1，然后按先输出后输入的顺序，对每个 Value 执行 child.grad += local_grad * "
    "v.grad。检查会读出每个运算存下的局部偏导，再在 backward() 练习的那些计算图上运行 "
    "backward()，与 micrograd 的引擎比较。",
    "exercise.local-grads.hint.0": "每个运算的局部偏导，就是讲座里闭包去掉 `* out.grad` 的部分："
    "d(a * b)/da = b，d(x ** k)/dx = k * x ** (k - 1)，d(exp x)/dx = exp x，d(log x)/dx = 1 / x，"
    "relu 在 x > 0 处是 1。",
    "exercise.local-grads.hint.1": "backward() 和讲座的一样：同样的拓扑排序，再逆序；讲座调用 "
    "v._backward() 的地方，改成遍历 zip(v._children, v._local_grads)，把 local_grad * v.grad "
    "加到每个输入的梯度上。",
    "exercise.local-grads.hint.2": "用 +=，不是 =：用了两次的 Value（a * a，或经两条路径到达）"
    "每用一次就得到一份梯度。",
    "exercise.linear.title": "linear：没有偏置的一层",
    "exercise.linear.task": "按 microgpt 的写法实现 linear(x, w)：x 是 n 个 Value 的列表，w 是 m "
    "行、每行 n 个 Value；返回 m 个 Value w[i] · x，即每一行与 x 的点积。检查会在方阵和非方阵上，"
    "把输出和每个输入的梯度与 micrograd 的引擎比较。",
    "exercise.linear.hint.0": "w 的每一行对应一个输出：那一行与 x 的点积，也就是对 j 求 w[i][j] * x[j] 之和，用 Value 的运算来算。",
    "exercise.linear.hint.1": "全程保持是 Value：用 .data 算出的点积背后没有计算图；len(w) 行就有 len(w) 个输出，不管 len(x) 是多少。",
    "exercise.softmax.title": "对一行 logits 做 softmax",
    "exercise.softmax.task": "按 microgpt 的写法实现 softmax(logits)：每个 exp(z) 除以所有 logit 的 "
    "exp 之和，组成列表。先减去最大的 logit（一个普通数字：max(z.data for z in logits)）可以防止 "
    "exp 溢出，而且不改变任何结果：减或不减都对。检查会用 1 到 5 个 logit 的行（也有相差很远的），"
    "把每个 logit 的梯度与 micrograd 的引擎比较。",
    "exercise.softmax.hint.0": "先算各个 exp，再求和（一个 Value），再用它去除每个 exp；全都用 "
    "Value 的运算，除了要减去的最大值以外，不要用 .data。",
    "exercise.softmax.hint.1": "分子和求和里都要减去同一个最大值（只有这样才能约掉）："
    "exps = [(z - top).exp() for z in logits]。",
    "exercise.rmsnorm.title": "rmsnorm",
    "exercise.rmsnorm.task": "按 microgpt 的写法实现 rmsnorm(x)：每个 x_i 乘以（所有 x_j ** 2 的均值 "
    "+ 1e-5）** -0.5。这个缩放因子由所有元素算出，所以每个元素的梯度都会流到其他每个元素：检查会"
    "与 micrograd 的引擎比较，也包括 1e-5 起作用的很小的输入。",
    "exercise.rmsnorm.hint.0": "ms = sum(xi * xi for xi in x) / len(x)：是平方的均值，不是均值的"
    "平方。",
    "exercise.rmsnorm.hint.1": "scale = (ms + 1e-5) ** -0.5：epsilon 在根号里面，指数是 -0.5（均方根"
    "的倒数）；然后 [xi * scale for xi in x]。",
    "exercise.attention-head.title": "一个因果注意力头，带键值缓存",
    "exercise.attention-head.task": "实现 attention_head(xs, wq, wk, wv)：像 microgpt 那样逐个词元读入的一个注意力头。按顺序对 xs 里"
    "的每个向量 x：查询 q = linear(x, wq)；先把它的键 linear(x, wk) 和值 linear(x, wv) 追加进缓存（词元"
    "能看到自己和之前的词元，看不到之后的）；对缓存里的每个键 k 算分数 q · k / sqrt(d)，d = len(q)；"
    "权重 softmax(scores)；输出的第 j 个数是缓存中各 weight * value[j] 之和。返回每个词元的输出，每个"
    "是 d 个 Value 对象的列表。文件里已有 linear 和 softmax（参考答案的写法）。",
    "exercise.attention-head.hint.0": "对每个词元按顺序做：它的 q、k、v（三次 linear）；把 k 和 v 放进缓存；对缓存里的每个键算一个分数；"
    "对分数做 softmax；对缓存里的值做加权求和。",
    "exercise.attention-head.hint.1": "键和值要在算分数之前放进缓存：这样第一个词元也有一个键可以关注，就是它自己的；后面的词元还不在缓存里，"
    "所以一个也看不到。",
    "exercise.attention-head.hint.2": "每个分数是 q · k / sqrt(d)，d = len(q)；softmax 作用在缓存上，到目前为止每个词元一个权重；输出是在缓存上"
    "对 weight * value[j] 求和。",
    "exercise.adam-step.title": "一步 Adam，带偏差修正",
    "exercise.adam-step.task": "按 microgpt 的写法实现 adam_step(params, m, v, step, lr=0.01, "
    "beta1=0.85, beta2=0.99, eps=1e-8)：对每个参数 p（下标 i），m[i] = beta1 * m[i] + (1 - beta1) "
    "* p.grad，v[i] = beta2 * v[i] + (1 - beta2) * p.grad ** 2，m_hat = m[i] / (1 - beta1 ** (step "
    "+ 1))，v_hat 同理，p.data -= lr * m_hat / (v_hat ** 0.5 + eps)，然后 p.grad = 0。m 和 v 是调用"
    "者的列表，在两次调用之间保留；step 从 0 开始。检查会连续调用几次，再从头重新来一遍。",
    "exercise.adam-step.hint.0": "m[i] 和 v[i] 存的是滑动平均本身（梯度的，和梯度平方的）；下一次调用要从那里读。m_hat 和 v_hat 只用于"
    "这一次更新。",
    "exercise.adam-step.hint.1": "偏差修正除以 1 - beta ** (step + 1)：step 从 0 开始，第一次调用就"
    "要除以 1 - beta。",
    "exercise.adam-step.hint.2": "要减去更新量，并且每个 p.grad 用完后设为 0。",
    "practice.todo.local-grads": "两数之和：Value(a + b, (self, other), (d/da, d/db))\n"
    "乘积，以及每个因子的局部偏导：另一个因子\n"
    "other 是数字：x ** k，以及 k * x ** (k - 1)\n"
    "log x，以及 1 / x\n"
    "exp x，以及 exp x 本身\n"
    "max(0, x)，以及 x > 0 时为 1，否则为 0\n"
    "拓扑排序；self.grad = 1；然后先输出后输入，对 v 的每个输入：child.grad += local_grad * v.grad",
    "practice.todo.linear": "",
    "practice.todo.softmax": "",
    "practice.todo.rmsnorm": "",
    "practice.todo.attention-head": "",
    "practice.todo.adam-step": "",
    "practice.mistake.wrong-axis": "方向（轴）弄错了",
    "practice.mistake.no-scale": "缩放不对",
    "practice.mistake.sees-future": "看到了后面的词元",
    "practice.mistake.cache-after": "关注之后才写入缓存",
    "practice.mistake.no-epsilon": "少了 epsilon",
    "practice.mistake.mean-not-square": "没有先平方",
    "practice.mistake.no-bias-correction": "少了偏差修正",
    "practice.mistake.moments-swapped": "m 和 v 弄反了",
    "practice.mistake.moments-not-kept": "m 和 v 没有保存下来",
    "practice.mistake.state-kept": "调用之间残留了状态",
    "practice.mistake.wrong-update": "更新的数值错了",
    "practice.gpt.forward": "`{call}{where}` 是 {found}；应为 {expected}。",
    "practice.gpt.shape": "`{call}` 给出了 {found} 个输出；应为 {expected} 个。",
    "practice.gpt.grad": "`{call}`：输出的上游梯度为 {upstream} 时，`{leaf}.grad` 是 {found}；应为 "
    "{expected}。",
    "practice.gpt.cut_number": "`{call}{where}` 的数值对，但它只是普通的 {kind}，不是 Value：背后没有"
    "计算图，梯度无法经它流回去。",
    "practice.gpt.cut_leaf": "`{call}` 的数值是对的，但它的计算图到不了它所依赖的 `{leaf}`：路上有一个"
    "普通数字（.data 取出的，或直接写进去的）占了 Value 的位置，梯度无法从这里流回 `{leaf}`。",
    "practice.gpt.linear_transposed": "这正是 w 的各列与 x 点积的结果：每个输出应是 w 的一行"
    "（w[i]）乘以 x。",
    "practice.gpt.softmax_sum_of_logits": "这正是 exp(z) 除以 logit 本身之和的结果：应除以它们的 "
    "exp 之和。",
    "practice.gpt.softmax_half_shifted": "这正是 exp(z - max) 除以 exp(z) 之和的结果：求和里也要减去"
    "最大值，要么都不减。",
    "practice.gpt.softmax_no_exp": "这正是 z / sum(z) 的结果：softmax 要先对每个 logit 取 exp。",
    "practice.gpt.rmsnorm_no_eps": "这正是少了 1e-5 的 rmsnorm 的结果：把它加到平方的均值上，放在"
    "根号里面。",
    "practice.gpt.rmsnorm_not_squared": "这正是对 x 求均值、而不是对 x ** 2 求均值的结果：先把每个"
    "元素平方再求平均。",
    "practice.gpt.rmsnorm_sum": "这正是平方之和、而不是平方均值的结果：要除以 len(x)。",
    "practice.gpt.rmsnorm_times_rms": "这正是 x 乘以均方根的结果：缩放因子是它的倒数，(ms + 1e-5) "
    "** -0.5。",
    "practice.gpt.rmsnorm_eps_outside": "这正是 x / (sqrt(ms) + 1e-5) 的结果：1e-5 要放在根号里面，"
    "(ms + 1e-5) ** -0.5。",
    "practice.gpt.attention_no_scale": "这正是分数 q · k 没有除以 sqrt(d) 的结果。",
    "practice.gpt.attention_scale_d": "这正是 q · k 除以 d 的结果：应除以 sqrt(d)。",
    "practice.gpt.attention_future": "这正是一个能看到所有词元（包括后面的）的注意力头的结果：第 t 个词元只能关注第 0 到第 t 个，"
    "也就是读到 t 时缓存里已有的。",
    "practice.gpt.attention_cache_after": "这正是词元关注之后才把键和值写入缓存时的表现：先追加，词元才能也关注自己。",
    "practice.gpt.attention_axis": "这正是在另一个方向上做 softmax 的结果（每个键的分数在各个查询之间归一化）：每个词元在缓存上的"
    "权重之和应为 1。",
    "practice.gpt.attention_keys_summed": "这正是权重乘以键的结果：输出是值的加权和。",
    "practice.gpt.adam_call": "{run}，step 为 {step} 的那次调用（梯度 {grads}）",
    "practice.gpt.adam_run1": "第 1 轮",
    "practice.gpt.adam_run2": "第 2 轮（从头开始）",
    "practice.gpt.adam_differs": "{where}：`{what}` 是 {found}；应为 {expected}。",
    "practice.gpt.adam_passed": "两轮共 {calls} 次调用后的每个数都对：data、m、v，以及清零的梯度。",
    "practice.gpt.adam_kept_state": "第 1 轮是对的：这次调用依赖了之前一轮留下的东西（可变的默认"
    "参数、全局变量）：adam_step 除了调用者传进来的 m 和 v，什么都不能保留。",
    "practice.gpt.adam_no_bias": "这正是没有偏差修正的 Adam 的结果：m 要除以 1 - beta1 ** (step + "
    "1)，v 要除以 1 - beta2 ** (step + 1)。",
    "practice.gpt.adam_moments_swapped": "这正是 m 跟随梯度平方、v 跟随梯度的结果：m 是梯度的均值，"
    "v 是梯度平方的均值。",
    "practice.gpt.adam_hats_swapped": "这正是更新量写成 v_hat / (sqrt(m_hat) + eps) 的结果：应为 "
    "m_hat / (sqrt(v_hat) + eps)。",
    "practice.gpt.adam_not_kept": "这正是每次调用 m 和 v 都从 0 开始的结果：要把它们写回 m[i] 和 "
    "v[i]。",
    "practice.gpt.adam_power": "偏差修正用 beta ** step 就会这样：step 从 0 开始，所以是 beta ** "
    "(step + 1)。",
    "practice.gpt.adam_step_unused": "这正是每次调用都用第一次的偏差修正的结果：它要用到 step。",
    "practice.gpt.adam_eps_inside": "这正是 sqrt(v_hat + eps) 的结果：eps 要在开根号之后加，"
    "sqrt(v_hat) + eps。",
    "practice.gpt.adam_sign": "这正是沿梯度上升一步的结果：应为 p.data -= 更新量。",
    "practice.gpt.adam_not_zeroed": "其余都对：更新之后要设 p.grad = 0，否则下一次 backward() 会加到"
    "旧的梯度上。",
    "practice.gpt.op_forward": "`{what}` 在 {at} 时是 {found}；应为 {expected}。",
    "practice.gpt.op_counts": "`{what}` 在 {at} 时存了 {children} 个输入，局部偏导却是 ({stored})："
    "每个输入对应一个局部偏导。",
    "practice.gpt.op_no_children": "`{what}` 在 {at} 时没有把输入记为 children：backward() 到不了"
    "它们。",
    "practice.gpt.op_local": "`{what}` 在 {at} 时存下的局部偏导是 ({stored})，由此 d out / "
    "d ({leaves}) = {found}；应为 {expected}。",
    "practice.gpt.bw_grad": "`{name}.grad` 是 {found}；应为 {expected}。",
    "practice.gpt.bw_not_reversed": "在每个计算图上，你的梯度都和按“先输入后输出”的拓扑顺序运行时一样：要把顺序倒过来，一个 Value "
    "拿到全部梯度之后才往下传。",
    "practice.gpt.bw_bfs": "在每个计算图上，你的梯度都和从输出开始广度优先运行时一样：经较长路径到达的 Value 在传出梯度"
    "之后才收到剩下的梯度；要对计算图做拓扑排序。",
    "practice.gpt.bw_preorder": "在每个计算图上，你的梯度都和深度优先、第一次遇到就加入（在它的输入之前）的顺序一样：那不是"
    "拓扑排序；要在它的输入之后加入，再倒过来。",
    "practice.gpt.bw_by_data": "在每个计算图上，你的梯度都和按数值比较 Value 的 visited 集合一样：data 相等的两个 Value 被当成"
    "了一个。",
    "practice.gpt.bw_assign": "在每个计算图上，你的梯度都和把 += 写成 child.grad = ... 时一样：用了两次的 Value 只留下最后"
    "一份；要用 +=。",
    "practice.gpt.bw_no_seed": "在每个计算图上，你的梯度都和从不设 self.grad = 1 的 backward() 一样：于是每一份都是 0。",
    "practice.gpt.bw_no_upstream": "在每个计算图上，你的梯度都和 child.grad += local_grad（不乘 v.grad）时一样：链式法则要乘上"
    "到达 v 的梯度。",
    "practice.gpt.bw_data": "在每个计算图上，你的梯度都和 local_grad * v.data 时一样：链式法则乘的是 v.grad，不是 v 的"
    "数值。",
    "practice.gpt.linear_rows_of_x": "这正是 x 的每个元素对应一个输出的结果：应是 w 的每一行对应一个"
    "（len(w) 个输出）。",
    "practice.gpt.linear_relu": "这正是每个输出都过了 relu 的结果：microgpt 的 linear 就是单纯的 w x"
    "（MLP 块在它之后才加 relu）。",
    "practice.gpt.softmax_negated": "这正是 exp(max - z)，即 -z 的 softmax 的结果：应从每个 logit 减去"
    "最大值，z - max。",
    "practice.gpt.rmsnorm_square_of_mean": "这正是均值的平方的结果：应是平方的均值，sum(xi * xi) / "
    "len(x)。",
    "practice.gpt.rmsnorm_n_minus_1": "这正是除以 len(x) - 1 求均值的结果：rmsnorm 除以 len(x)。",
    "practice.gpt.rmsnorm_other_eps": "这正是 epsilon 为 {eps} 的 rmsnorm 的结果：microgpt 用的是 "
    "1e-5。",
    "practice.gpt.attention_scale_input": "这正是 q · k 除以 sqrt(len(x))（输入的长度）的结果：d 是 q "
    "的长度（这个头的）。",
    "practice.gpt.alias": "`{call}` 的第 {i} 个和第 {j} 个是同一个列表：只建一次、每个词元都重新填写的列表，到处显示的都是"
    "最后一个词元的数；要给每个词元新建一个列表。",
    "practice.gpt.adam_parens": "这正是 (1 - beta) ** (step + 1) 的结果：偏差修正是 1 - beta ** "
    "(step + 1)，乘方只作用在 beta 上。",
    "practice.gpt.adam_betas_swapped": "这正是 beta1 和 beta2 用反了的结果：m 按 beta1（0.85）衰减，"
    "v 按 beta2（0.99）。",
    "practice.gpt.bw_repeats": "在每个计算图上，你的梯度都和没有 visited 集合的拓扑排序一样：经两条路径到达的 Value 被列了两次，"
    "把梯度往下传了两次。",
    "practice.gpt.op_swapped": "每个输入拿到的是另一个输入的局部偏导：d(a * b)/da 是 b。",
    "practice.track.lecture": "backward()，按讲座的顺序",
    "practice.track.gpt": "GPT，按 microgpt 的顺序：先是它的 Value，再是各个部件",
    "practice.gpt.op_changed_input": "`{what}` 在 {at} 时把 `{name}.data` 改成了 {found}：运算只读它的"
    "输入，再新建一个 Value；之后再用到 `{name}` 时看到的就是改过的数了。",
    "practice.gpt.op_value_grads": "`{what}` 在 {at} 时存下的局部偏导的类型是 {kinds}：局部偏导是一个"
    "数，在运算执行时就定下了（other.data，不是 other）；存成 Value 会让每个梯度都变成带有自己计算图"
    "的 Value。",
    "practice.gpt.changed_data": "`{call}` 改动了 `{leaf}.data`：部件只读输入的数，从不改写它们"
    "（在 GPT 里它们就是模型的权重）。",
    "practice.gpt.changed_list": "`{call}` 还在读传给它的列表时，就把 `{where}` 换成了别的东西：之后读到的"
    "是新放进去的，而不是输入；要新建一个列表。",
    "practice.gpt.state_kept": "`{call}` 第二次运行时给出了不同的结果：有东西从一次调用留到了下一次（全局"
    "列表、可变的默认参数）；部件在两次调用之间什么都不能保留。",
    "practice.gpt.bw_not_topological": "在每个计算图上，你的梯度都和某种不是拓扑排序的顺序一样（从输出开始的广度优先遍历，或先列 "
    "Value、后列它的输入的深度优先遍历，都会这样）：一个 Value 在它的梯度还没到齐时就传了出去。",
    "practice.gpt.bw_visits": "在每个计算图上，你的梯度都和某些 Value 被访问的次数不对的遍历一样（经两条路径到达时访问了两次，"
    "或两个 data 相等的 Value 只访问了一次）：每个 Value 必须恰好列出一次。",
    "practice.gpt.adam_length": "{where}：`{what}` 里有 {found} 个数；应为 {expected} 个，每个参数一个。",
    "practice.gpt.op_number": "同一个运算作用在两个 Value 上是能运行的：Value 旁边的普通数字要先包成 "
    "Value（other = other if isinstance(other, Value) else Value(other)）。",
    "exercise.gpt-loop.title": "microgpt 的一步训练",
    "exercise.gpt-loop.task": "按 microgpt 的训练方式实现 train_step(sd, params, tokens, m, v, "
    "step, num_steps)：每层一个新的空缓存，在 n = min(block_size, len(tokens) - 1) 个位置上逐个读入"
    '文档的词元（block_size = len(sd["wpe"])，更长的文档只用它前面的部分；gpt(sd, token, pos, '
    "keys, values) 给出下一个词元的 logits），损失是这些位置上 -log softmax(logits)[下一个词元] 的"
    "均值，然后 loss.backward()，再以学习率 0.01 * (1 - step / num_steps) 调用 adam_step；返回损失"
    "的数值。文件里已有 microgpt 的模型（init_model、gpt）和它之前的各个部件。通过之后运行这个文件："
    "你的这一步会在 100 个名字上训练 microgpt 的模型，使平均损失低于 2.6（大约 15 秒）。",
    "exercise.gpt-loop.hint.0": "一共 n 个位置，n = len(tokens) - 1（最后一个词元没有下一个）；位置 "
    "pos 预测 tokens[pos + 1]；损失是这 n 个损失的均值。",
    "exercise.gpt-loop.hint.1": "先 backward()，再 adam_step（它读取梯度，然后把梯度设为 0）；学习率"
    "线性下降，0.01 * (1 - step / num_steps)，step 也要传给 adam_step。",
    "exercise.gpt-loop.hint.2": "keys 和 values 是在这一步里新建的列表，每层一个空列表：每个文档都从空"
    "缓存开始，上一步的东西一样都不留。",
    "practice.todo.gpt-loop": "",
    "practice.gpt.loop_at": "{run}，`{call}`",
    "practice.gpt.loop_passed": "{steps} 步，以及从同样的权重再来一遍的同样几步，每个数都和 microgpt "
    "的一样。现在在终端里运行这个文件（python practice/gpt-loop.py）：你的这一步会在 100 个名字上训练 "
    "microgpt 的模型，使平均损失低于 2.6。",
    "practice.gpt.loop_sum": "这正是各位置损失之和的结果：损失是它们的均值。",
    "practice.gpt.loop_target": "这正是预测刚读入的那个词元的损失的结果：位置 pos 预测的是下一个，"
    "tokens[pos + 1]。",
    "practice.gpt.loop_no_decay": "这正是学习率不变的结果：它线性下降，0.01 * (1 - step / "
    "num_steps)。",
    "practice.gpt.loop_decay_late": "这正是学习率提前了一步的结果，0.01 * (1 - (step + 1) / "
    "num_steps)：step 从 0 开始。",
    "practice.gpt.loop_adam_first": "这正是在 loss.backward() 之前调用 adam_step 的结果：每次更新用的"
    "都是上一步的梯度。",
    "practice.gpt.loop_step_zero": "这正是每次都把 step 为 0 传给 adam_step 的结果：它的偏差修正需要"
    "这一步的 step。",
    "practice.gpt.loop_kept": "第一轮是对的：这一步依赖了之前的步骤留下的东西（放在函数外面的缓存或"
    "列表、可变的默认参数）。",
    "practice.gpt.loop_number": "train_step 返回了 {kind}：要返回损失的数值 loss.data（文件里的训练会"
    "打印它；返回 Value 会让它整个计算图都留在内存里）。",
    "practice.gpt.linear_running": "这正是所有行共用一个累加和的结果：第 i 个输出把第 0 到第 i 行都"
    "加了进去；每一行要重新开始求和。",
    "practice.gpt.linear_all_pairs": "这正是每个权重乘以每个输入的结果，即 sum(row) * sum(x)：应把 "
    "row[j] 和 x[j] 配对（zip），不是两两全乘。",
    "practice.gpt.linear_first_twice": "这正是求和从 row[0] * x[0] 开始、再加上所有乘积的结果：第一项"
    "算了两次。",
    "practice.gpt.softmax_first_twice": "这正是 exp 之和从第一个 exp 开始、再加上所有 exp 的结果：第一"
    "个算了两次。",
    "practice.gpt.softmax_by_max": "这正是每个 exp 除以最大的 exp 的结果：softmax 除以所有 exp 之和。",
    "practice.gpt.softmax_scaled": "这正是 logit 除以最大值的结果：应减去最大值，z - max。",
    "practice.gpt.rmsnorm_no_root": "这正是 (ms + 1e-5) ** -1 的结果：缩放因子是平方根的倒数，** -0.5。",
    "practice.gpt.rmsnorm_halved": "这正是 (ms + 1e-5) ** -1 / 2 的结果，Python 把它读成 ((ms + 1e-5) "
    "** -1) / 2：要写 ** -0.5，或 ** (-1 / 2)。",
    "practice.gpt.attention_scale_keys": "这正是 q · k 除以键的个数的平方根的结果：应除以 sqrt(d)，d 是 "
    "q 的长度。",
    "practice.gpt.attention_latest_key": "这正是每个分数都用最新那个键算的结果：缓存里的每个键都要各自"
    "算 q · k。",
    "practice.gpt.adam_power_two": "这正是偏差修正用 beta ** (step + 2) 的结果：step 从 0 开始，所以是 "
    "beta ** (step + 1)。",
    "practice.gpt.adam_raw_grad": "这正是直接用梯度更新的结果：Adam 按 m_hat / (sqrt(v_hat) + eps) "
    "更新。",
    "practice.gpt.adam_v_beta1": "这正是 v_hat 用 beta1 做偏差修正的结果：v 的偏差修正是 1 - beta2 "
    "** (step + 1)。",
    "practice.gpt.loop_short": "这正是少了一个位置的结果：n = len(tokens) - 1，最后一个位置预测的是"
    "结尾的 BOS。",
    "practice.gpt.loop_last_only": "这正是只用最后一个位置的损失的结果：损失是所有位置的均值。",
    "practice.gpt.loop_sign": "这正是 log p 少了负号的结果：损失是 -log p，训练会让它变小。",
    "practice.gpt.loop_uncapped": '读入比块还长的文档的每个词元时就会这样：位置只有 len(sd["wpe"]) '
    "个，n = min(block_size, len(tokens) - 1)。",
    "practice.gpt.loop_over_tokens": "这正是损失之和除以词元个数的结果：每个位置一个损失，一共 "
    "len(tokens) - 1 个。",
    # ---- 从标量到张量 (micrograd.teach.bridge, micrograd bridge)
    "bridge.head": "追踪到的计算图有 {nodes} 个标量节点，合并成 {ops} 个数组运算"
    "（其中 {matmuls} 个是矩阵乘法）；批次在前：一次算 B 行。",
    "bridge.leaves": "计算图读取的张量：",
    "bridge.ops": "数组运算，按顺序（每个只读取它上面的）：",
    "bridge.params": "参数 {about}",
    "bridge.inputs": "每行的输入 {about}",
    "bridge.consts": "常数 {about}",
    "bridge.line": "标量节点 {count} 个（{ops}）",
    "bridge.line_units": "标量节点 {count} 个（{ops}），来自 {units}",
    "bridge.unused": "有 {count} 个标量节点没有任何输出需要：追踪到了，但不计算。",
    "bridge.help": "显示模型的哪些标量运算变成了哪个数组运算",
    "bridge.about": "用 Value 追踪模型的一步训练，打印 numpy 重放时实际运行的数组运算："
    "每个一行，用 PyTorch 的写法（一批 B 行），附上形状和它代表的标量节点。默认是 demo 的模型。",
    "bridge.help_model": "保存的模型（model.json，或 train --data names 保存的 gpt.json）",
    "bridge.help_digits": "手写数字模型：MLP(64, [隐藏层..., 10])，softmax 交叉熵",
    "bridge.help_gpt": "microgpt 的 GPT（名字的 27 个词元，默认大小）",
    "bridge.help_hidden": "MLP 的隐藏层宽度，例如 4,3（默认：demo 的）",
    "bridge.help_length": "GPT 这一步的位置数，最多为它的 block_size（默认：%(default)s）",
    "bridge.help_write": "把这些运算写成一个 numpy 脚本：手写反向传播，算出几行数据的损失和梯度，不用 micrograd",
    "bridge.help_torch": "和 --write 一起用：改写成 PyTorch 脚本（反向传播交给 PyTorch 的自动微分，autograd）",
    "bridge.wrote": "已写入 {path}：`python {path}` 打印脚本里 {rows} 行数据的平均损失和每个参数张量的梯度，"
    "与 micrograd 算出的相同",
    "bridge.help_seed": "新模型权重的随机数种子（默认：%(default)s）：同一个种子写出的 numpy 脚本和 PyTorch 脚本数值相同",
    "bridge.err_hidden": "--hidden 设定新建多层感知机的宽度；GPT（--gpt）或保存的模型（--model）有它自己的宽度",
    "bridge.err_torch": "--torch 选择 --write 写出的脚本用哪种语言：请同时给出 --write FILE.py",
}
