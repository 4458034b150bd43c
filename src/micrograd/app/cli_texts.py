"""The help texts of the `micrograd` command (its top level, demo, train and playground) and the
lines demo and train print, in English and Chinese. Those of graph and explain are in micrograd.messages, practice's in
micrograd.practice.command."""

from __future__ import annotations

TEXTS: dict[str, dict[str, str]] = {
    "en": {
        "about_micrograd": "A tiny autograd engine: train, draw and explain.",
        "help_version": "show program's version number and exit",
        "help_demo": "train MLP(2, {points_sizes}) on two moons, the original's demo",
        "about_demo": "Train MLP(2, {points_sizes}) on two moons (SGD, hinge loss), print the "
        "accuracies and write model.json, decision_boundary.png and loss.png.",
        "help_train": "train a classifier with your choices of data, model and optimizer",
        "about_train": "Train an MLP classifier on a toy 2-D data set.",
        "help_out": "folder for model.json and the pictures (default: %(default)s)",
        "help_seed": "seed for data and weights (default: %(default)s)",
        "help_no_plot": "skip the pictures (no matplotlib needed)",
        "help_quiet": "no progress bar, only the accuracies",
        "help_lang": "language of the help, the output and the pictures: en or zh (default: "
        "from LANG, zh_* is Chinese)",
        "help_data": "the data set: 2-D points, or the 8x8 digits (shipped) or MNIST images "
        "(default: %(default)s)",
        "help_data_dir": "for --data mnist: the folder with its four IDX files",
        "help_noise": "standard deviation of the noise added to the points (default: %(default)s)",
        "help_hidden": "hidden widths, e.g. 16,16 (default: {points_hidden}; {images_hidden} for images)",
        "help_activation": "activation of the hidden layers (default: %(default)s)",
        "help_optimizer": "sgd with a linear learning-rate decay, or adam (default: {points_optimizer}; {images_optimizer} "
        "for images)",
        "help_lr": "learning rate (default: {sgd_lr} decaying to a tenth for sgd, {adam_lr} for adam)",
        "help_momentum": "SGD momentum (default: %(default)s)",
        "help_steps": "training steps (default: {points_steps}; {images_steps} for images)",
        "help_batch_size": "minibatch size (default: the whole training set; {images_batch_size} for images)",
        "help_playground": "train an MLP live in the browser (a local server on 127.0.0.1)",
        "about_playground": "Serve the playground on 127.0.0.1 and open it in the browser: pick "
        "a data set and a model, press play, watch the decision boundary and every parameter's "
        "grad.",
        "help_port": "port (default: %(default)s; 0: any free one)",
        "help_no_browser": "do not open a browser",
        "help_page_lang": "language of the page (default: from LANG)",
        # what demo and train print
        "out_train_accuracy": "train accuracy: {accuracy:.2f}",
        "out_test_accuracy": "test accuracy: {accuracy:.2f}",
        "out_done": "trained {steps} steps in {seconds:.1f} s; wrote {files} to {out}",
        "out_progress": "training",
        "out_unit": "step",
        "out_step": "step {step}/{total}  loss {loss:.4f}  accuracy {accuracy:.2f}",
        "out_first_loss": "note: the first loss is {loss:.2f}; a softmax over {classes} classes "
        "starts near ln {classes} = {ln:.2f} when the first outputs are small: large initial "
        "weights make confident wrong guesses that the first steps must undo",
        # and the errors they stop with
        "err_mnist_dir": "--data mnist needs --data-dir DIR, a folder with the four MNIST files",
        "err_diverged": "training diverged at step {step} ({why}); try a smaller --lr (or "
        "--momentum)",
        "err_budget": "--hidden {hidden} builds about {values:,} Values a step, more than "
        "{limit:,} (a scalar engine makes one Python object per number): choose smaller "
        "widths,{eager} or move the model to PyTorch (micrograd.export.to_torch)",
        "err_budget_eager": " a smaller --batch-size, or install numpy for the fast path, which "
        "builds one sample whatever the batch (pip install 'micrograd-plus[fast]'),",
        "err_out_empty": "--out needs a folder name",
        "err_out_not_folder": "--out {folder}: exists and is not a folder",
        "err_out_no_permission": "--out {folder}: no permission to write there",
        "err_mnist_missing": "mnist: the MNIST files are not in {folder}; download the four "
        "MNIST files (train-images-idx3-ubyte.gz, train-labels-idx1-ubyte.gz, "
        "t10k-images-idx3-ubyte.gz, t10k-labels-idx1-ubyte.gz) into that folder",
        "err_dash": "; {arg!r} starts with '-', so it reads as an option: put an expression like "
        "it last, after '--' (micrograd explain --set a=1 -- {arg!r}); write a negative number as "
        "--lr=-1",
        "err_widths": "expected widths like 16,16, got {text!r}",
        "err_widths_range": "widths must be between 1 and 4096, got {text!r}",
        "err_not_int": "expected an int, got {text!r}",
        "err_not_number": "expected a float, got {text!r}",
        "err_not_above": "expected a finite number above {low}, got {text!r}",
        "err_not_at_least": "expected a finite number at least {low}, got {text!r}",
    },
    "zh": {
        "about_micrograd": "一个极小的自动微分引擎：训练、画图、讲解。",
        "help_version": "显示程序的版本号并退出",
        "help_demo": "在双月牙（two moons）数据上训练 MLP(2, {points_sizes})，即原版的演示",
        "about_demo": "在双月牙（two moons）数据上训练 MLP(2, {points_sizes})（SGD，合页损失），"
        "打印训练准确率和测试准确率，并写出 model.json、decision_boundary.png 和 loss.png。",
        "help_train": "训练一个分类器，数据集、模型和优化器都由你选择",
        "about_train": "在一个二维玩具数据集上训练多层感知机（MLP）分类器。",
        "help_out": "存放 model.json 和图片的文件夹（默认：%(default)s）",
        "help_seed": "数据和权重的随机数种子（默认：%(default)s）",
        "help_no_plot": "不画图（不需要 matplotlib）",
        "help_quiet": "不显示进度条，只打印准确率",
        "help_lang": "帮助、输出和图片的语言：en 或 zh（默认按 LANG，zh_* 为中文）",
        "help_data": "数据集：二维点集，或 8x8 手写数字（随包附带），或 MNIST 图像"
        "（默认：%(default)s）",
        "help_data_dir": "用于 --data mnist：存放它的四个 IDX 文件的文件夹",
        "help_noise": "加在点上的噪声的标准差（默认：%(default)s）",
        "help_hidden": "隐藏层的宽度，例如 16,16（默认：{points_hidden}；图像为 {images_hidden}）",
        "help_activation": "隐藏层的激活函数（默认：%(default)s）",
        "help_optimizer": "优化器：sgd（学习率线性衰减）或 adam（默认：{points_optimizer}；图像为 {images_optimizer}）",
        "help_lr": "学习率（默认：sgd 从 {sgd_lr} 线性衰减到它的十分之一，adam 为 {adam_lr}）",
        "help_momentum": "SGD 的动量（默认：%(default)s）",
        "help_steps": "训练步数（默认：{points_steps}；图像为 {images_steps}）",
        "help_batch_size": "小批量的大小（默认：整个训练集；图像为 {images_batch_size}）",
        "help_playground": "在浏览器里实时训练多层感知机（在 127.0.0.1 上启动本地服务器）",
        "about_playground": "在 127.0.0.1 上启动 playground 并在浏览器里打开它：选一个数据集和"
        "一个模型，按下播放，观察决策边界和每个参数的梯度。",
        "help_port": "端口（默认：%(default)s；0：任意一个空闲端口）",
        "help_no_browser": "不打开浏览器",
        "help_page_lang": "网页的语言（默认按 LANG）",
        "out_train_accuracy": "训练准确率：{accuracy:.2f}",
        "out_test_accuracy": "测试准确率：{accuracy:.2f}",
        "out_done": "训练了 {steps} 步，用时 {seconds:.1f} 秒；已把 {files} 写入 {out}",
        "out_progress": "训练中",
        "out_unit": "步",
        "out_step": "第 {step}/{total} 步  损失 {loss:.4f}  准确率 {accuracy:.2f}",
        "out_first_loss": "提示：第一步的损失是 {loss:.2f}。输出一开始都很小时，{classes} 个类别的 "
        "softmax 损失应从 ln {classes} = {ln:.2f} 附近开始；初始权重太大，模型一开始就会很自信地"
        "猜错，前几步得先把这些错纠正过来",
        "err_mnist_dir": "--data mnist 需要 --data-dir DIR：存放四个 MNIST 文件的文件夹",
        "err_diverged": "训练在第 {step} 步发散了（{why}）；试试更小的 --lr（或 --momentum）",
        "err_budget": "--hidden {hidden} 每一步大约要建 {values:,} 个 Value，超过了上限 {limit:,}"
        "（标量引擎为每个数建一个 Python 对象）：请选更小的宽度，{eager}"
        "或者把模型搬到 PyTorch（micrograd.export.to_torch）",
        "err_budget_eager": "或更小的 --batch-size，或安装 numpy 走快速路径（不管批量多大，它只建一个样本；"
        "pip install 'micrograd-plus[fast]'），",
        "err_out_empty": "--out 需要一个文件夹名",
        "err_out_not_folder": "--out {folder}：已存在，但不是文件夹",
        "err_out_no_permission": "--out {folder}：没有在那里写文件的权限",
        "err_mnist_missing": "mnist：在 {folder} 里找不到 MNIST 文件：请把四个 MNIST 文件（train-images-idx3-ubyte.gz、"
        "train-labels-idx1-ubyte.gz、t10k-images-idx3-ubyte.gz、t10k-labels-idx1-ubyte.gz）下载到这个文件夹",
        "err_dash": "；{arg!r} 以 '-' 开头，所以被当成了选项：像这样的表达式请放在最后、'--' 之后"
        "（micrograd explain --set a=1 -- {arg!r}）；负数请写成 --lr=-1 这样",
        "err_widths": "宽度应写成 16,16 这样，收到的是 {text!r}",
        "err_widths_range": "每层的宽度应在 1 到 4096 之间，收到的是 {text!r}",
        "err_not_int": "应为整数，收到的是 {text!r}",
        "err_not_number": "应为数字，收到的是 {text!r}",
        "err_not_above": "应为大于 {low} 的有限数，收到的是 {text!r}",
        "err_not_at_least": "应为不小于 {low} 的有限数，收到的是 {text!r}",
    },
}


def cli_line(key: str, lang: str, **fields: object) -> str:
    """A line that demo or train prints, in `lang`, with `fields` filled in."""
    return TEXTS[lang][key].format(**fields)


def cli_text(key: str, lang: str) -> str:
    """The help text `key` of the `micrograd` command in `lang` ("en" or "zh"), with the
    training defaults of micrograd.train.DEFAULTS filled in."""
    from micrograd.app.defaults import default_fields

    return TEXTS[lang][key].format(**default_fields())
