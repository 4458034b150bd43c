"""The micrograd command, run for real in a temporary folder."""

import json
import math
import os
import random
import re
import shutil
import subprocess
import sys

import pytest

from micrograd.app.cli import main

PNG = b"\x89PNG\r\n\x1a\n"


def run_cli(capsys, *argv):
    return main(list(argv)), *capsys.readouterr()


def test_demo_writes_valid_files_and_prints_accuracies(tmp_path, capsys):
    out = tmp_path / "out"
    assert main(["demo", "--out", str(out), "--quiet"]) == 0
    printed = capsys.readouterr().out.splitlines()
    train = [line for line in printed if line.startswith("train accuracy: ")]
    test = [line for line in printed if line.startswith("test accuracy: ")]
    assert len(train) == len(test) == 1
    assert float(test[0].split(": ")[1]) >= 0.95
    for name in ("decision_boundary.png", "loss.png"):
        assert (out / name).read_bytes().startswith(PNG)
    doc = json.loads((out / "model.json").read_text())
    assert doc["architecture"]["sizes"] == [2, 16, 16, 1]
    assert sorted(os.listdir(out)) == ["decision_boundary.png", "loss.png", "model.json"]


@pytest.mark.parametrize(
    "args",
    [
        ["--data", "spiral", "--optimizer", "adam", "--hidden", "16,16", "--steps", "30"],
        [
            "--data",
            "xor",
            "--activation",
            "tanh",
            "--batch-size",
            "20",
            "--steps",
            "20",
            "--momentum",
            "0.9",
        ],
        [
            "--data",
            "yinyang",
            "--optimizer",
            "adam",
            "--lr",
            "0.01",
            "--steps",
            "5",
            "--hidden",
            "8",
        ],
    ],
)
def test_train_variants(tmp_path, capsys, args):
    assert main(["train", *args, "--out", str(tmp_path), "--no-plot", "--quiet"]) == 0
    assert "test accuracy: " in capsys.readouterr().out
    assert os.listdir(tmp_path) == ["model.json"]


@pytest.mark.parametrize(
    "args",
    [
        ["train", "--steps", "0"],
        ["train", "--steps", "x"],
        ["train", "--hidden", "16,,2"],
        ["train", "--data", "mnist"],
        ["train", "--lr", "-1"],
        ["nonsense"],
        ["demo", "--bogus"],
        ["train", "--noise", "-0.1"],
        ["train", "--momentum", "-1"],
        ["train", "--lr", "inf"],
    ],
)
def test_bad_arguments_exit_2_with_one_line(capsys, args):
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("micrograd: error: ") and err.count("\n") == 1
    assert "Traceback" not in err


def test_help_is_useful(capsys):
    with pytest.raises(SystemExit) as e:
        main(["--help"])
    assert e.value.code == 0
    text = capsys.readouterr().out
    for command in ("demo", "train", "graph", "explain"):
        assert command in text
    with pytest.raises(SystemExit):
        main(["train", "--help"])
    assert "--batch-size" in capsys.readouterr().out


def test_console_script_is_installed():
    exe = os.path.join(os.path.dirname(sys.executable), "micrograd")
    result = subprocess.run([exe, "--version"], capture_output=True, text=True)
    assert result.returncode == 0 and result.stdout.startswith("micrograd-plus ")


def test_explain_and_graph_speak_chinese_help_errors_and_all(capsys, monkeypatch):
    """--lang zh (or a zh_* locale) translates explain's and graph's help, errors and output."""
    monkeypatch.setenv("LANG", "C.UTF-8")
    with pytest.raises(SystemExit):
        main(["explain", "--lang", "zh", "--help"])
    help_text = capsys.readouterr().out
    assert help_text.startswith("用法：micrograd explain")
    for words in ["对表达式运行反向传播", "给一个名字赋值", "显示帮助并退出", "位置参数"]:
        assert words in help_text
    assert main(["explain", "a*q", "--set", "a=1", "--lang=zh"]) == 2
    assert (
        capsys.readouterr().err.strip()
        == "micrograd：错误：未知的名字 'q'：用 --set q=1.0 给它一个值"
    )
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    assert main(["graph", "a*a", "--set", "a=x"]) == 2
    assert capsys.readouterr().err.strip() == "micrograd：错误：--set a：'x' 不是数字"
    assert main(["explain", "c = a + b; f = c * a", "--set", "a=2", "--set", "b=3"]) == 0
    assert "拓扑排序" in capsys.readouterr().out
    assert main(["explain", "a*q", "--set", "a=1", "--lang", "en"]) == 2  # the flag wins
    assert "unknown name 'q'" in capsys.readouterr().err


def test_train_on_the_digits_reaches_95_percent_and_draws_its_pictures(tmp_path, capsys):
    pytest.importorskip("numpy")
    pytest.importorskip("matplotlib")
    assert main(["train", "--data", "digits", "--out", str(tmp_path), "--quiet"]) == 0
    out = capsys.readouterr().out
    test_accuracy = float(out.split("test accuracy: ")[1].split()[0])
    assert test_accuracy >= 0.95
    for name in ("model.json", "confusion.png", "misclassified.png", "loss.png"):
        assert (tmp_path / name).stat().st_size > 1000
    assert not (tmp_path / "decision_boundary.png").exists()
    model = json.loads((tmp_path / "model.json").read_text())
    assert model["architecture"]["sizes"] == [64, 64, 10]


def test_train_on_mnist_files(tmp_path, capsys):
    """MNIST's layout, from small IDX files written here (28x28 images: a bar whose side is the
    class, 0 or 1): trains, reports, refuses a missing --data-dir."""
    pytest.importorskip("numpy")
    from test_data import _write_idx

    rng = random.Random(0)
    for split, n in (("train", 60), ("t10k", 20)):
        labels = [rng.randrange(2) for _ in range(n)]
        images = []
        for c in labels:
            img = [0] * 784
            for r in range(28):
                img[r * 28 + (3 if c == 0 else 24)] = 255
            images += img
        _write_idx(tmp_path / f"{split}-images-idx3-ubyte", (n, 28, 28), images, gz=True)
        _write_idx(tmp_path / f"{split}-labels-idx1-ubyte", (n,), labels, gz=True)
    args = ["train", "--data", "mnist", "--data-dir", str(tmp_path), "--no-plot", "--quiet"]
    assert main([*args, "--hidden", "8", "--steps", "30", "--out", str(tmp_path / "out")]) == 0
    assert "test accuracy: 1.00" in capsys.readouterr().out
    assert main(["train", "--data", "mnist", "--no-plot"]) == 2
    assert "--data-dir" in capsys.readouterr().err
    assert (
        main(["train", "--data", "mnist", "--data-dir", str(tmp_path / "nope"), "--no-plot"]) == 1
    )
    assert "download the four MNIST files" in capsys.readouterr().err


@pytest.mark.skipif(not os.path.isdir("/dev/shm"), reason="no /dev/shm on this system")
def test_train_writes_into_dev_shm(capsys):
    """--out under /dev/shm (a tmpfs) is a folder like any other."""
    import shutil
    import tempfile

    folder = tempfile.mkdtemp(dir="/dev/shm")
    try:
        out = os.path.join(folder, "x")
        assert main(["train", "--steps", "2", "--no-plot", "--quiet", "--out", out]) == 0
        assert os.listdir(out) == ["model.json"]
    finally:
        shutil.rmtree(folder)


def test_train_refuses_an_unwritable_result_before_training_and_writes_all_or_none(
    tmp_path, capsys, monkeypatch
):
    """A result file that would be refused is refused before training; when the last
    file fails to write, the earlier ones are not left behind and the made folder is removed."""
    (tmp_path / "loss.png").mkdir()
    (tmp_path / "model.json").write_text("mine")
    assert main(["train", "--steps", "2", "--quiet", "--out", str(tmp_path)]) == 1
    assert "loss.png: not a regular file" in capsys.readouterr().err
    assert (tmp_path / "model.json").read_text() == "mine"

    from micrograd import io

    real = io._temporary

    def fail_on_loss(name, target, old, data):
        if name.endswith("loss.png"):
            raise OSError(28, "No space left on device")
        return real(name, target, old, data)

    monkeypatch.setattr(io, "_temporary", fail_on_loss)
    out = tmp_path / "new" / "out"
    assert main(["train", "--steps", "2", "--quiet", "--out", str(out)]) == 1
    assert "No space left" in capsys.readouterr().err
    assert not (tmp_path / "new").exists()


@pytest.mark.parametrize(
    "expression, words",
    [
        ("10.0**400*a", "op '**' on (10.0, 400.0): the result is too large for a float"),
        ("1/0*a", "op '/' on (1.0, 0.0): float division by zero"),
    ],
)
def test_numbers_folded_in_an_expression_fail_in_the_engines_words(capsys, expression, words):
    """No errno tuple such as (34, 'Numerical result out of range') reaches the learner."""
    assert main(["explain", expression, "--set", "a=1"]) == 2
    err = capsys.readouterr().err
    assert words in err and "(34," not in err


@pytest.mark.guard
def test_train_on_full_size_mnist_stays_under_500_mb(tmp_path):
    """60,000 training images (47 MB of pixels) are kept as bytes, and batches become floats
    when picked: `train --data mnist` peaks under 500 MB (it took 3.2 GB as lists of floats)."""
    pytest.importorskip("numpy")
    import gzip

    rng = random.Random(0)
    for split, n in (("train", 60_000), ("t10k", 10_000)):
        labels = bytes(rng.randrange(10) for _ in range(n))
        pixels = rng.randbytes(n * 784)
        with open(tmp_path / f"{split}-images-idx3-ubyte", "wb") as f:
            f.write(bytes([0, 0, 8, 3]) + n.to_bytes(4, "big") + (28).to_bytes(4, "big") * 2)
            f.write(pixels)
        with gzip.open(tmp_path / f"{split}-labels-idx1-ubyte.gz", "wb") as f:
            f.write(bytes([0, 0, 8, 1]) + n.to_bytes(4, "big") + labels)
    args = ["--data", "mnist", "--data-dir", str(tmp_path), "--steps", "3", "--no-plot"]
    args += ["--quiet", "--out", str(tmp_path / "out")]
    script = (
        "import resource, subprocess, sys\n"
        f"done = subprocess.run([sys.executable, '-m', 'micrograd', 'train', *{args!r}])\n"
        "print(done.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    code, peak_kb = map(int, out.stdout.split()[-2:])
    assert code == 0, out.stderr
    assert peak_kb < 500_000, f"peak {peak_kb / 1000:.0f} MB"
    print(f"train --data mnist (60,000 images): peak {peak_kb / 1000:.0f} MB")


# The help of every command, in English and in Chinese: (argv, Chinese lines, English lines).
HELP_CASES = [
    (
        [],
        ["一个极小的自动微分引擎", "显示程序的版本号并退出", "训练一个分类器"],
        [
            "A tiny autograd engine: train, draw and explain.",
            "show program's version number and exit",
            "train a classifier with your choices of data, model and optimizer",
        ],
    ),
    (
        ["demo"],
        ["数据和权重的随机数种子（默认：1337）", "打印训练准确率和测试准确率"],
        [
            "seed for data and weights (default: 1337)",
            "skip the pictures (no matplotlib needed)",
            "print the accuracies",
        ],
    ),
    (
        ["train"],
        [
            "学习率（默认：sgd 从 1.0 线性衰减到它的十分之一",
            "优化器：sgd",
            "多层感知机（MLP）分类器",
        ],
        [
            "learning rate (default: 1.0 decaying to a tenth for sgd, 0.03 for adam)",
            "minibatch size (default: the whole training set; 128 for images)",
            "Train an MLP classifier on a toy 2-D data set.",
        ],
    ),
    (
        ["playground"],
        ["观察决策边界和每个参数的梯度", "端口（默认：8000；0：任意一个空闲端口）"],
        ["port (default: 8000; 0: any free one)", "do not open a browser"],
    ),
    (
        ["practice"],
        ["按讲座的顺序列出所有练习", "显示参考答案（至少检查过一次之后）"],
        [
            "the exercises, in the lecture's order",
            "a reference solution (after at least one check)",
            "language: en or zh (default: from LANG, zh_* is Chinese)",
        ],
    ),
    (
        ["sample"],
        [
            "加载 `micrograd train --data names` 或 `--data FILE.txt` 保存的 GPT",
            "温度，用来除 logits",
            "模型文件",
        ],
        ["Load a GPT saved by", "how many names (default: 10)", "the model file"],
    ),
    (
        ["practice", "start"],
        ["写出 ./practice/ID.py：任务说明", "改为写出 ID.ipynb"],
        ["write ./practice/ID.py: the task and a stub to fill in", "write ID.ipynb instead"],
    ),
]
ARGPARSE_EN = ["usage:", "options:", "show this help message and exit"]


def _help_of(argv, lang):
    """The help the real command prints for `argv --help` under LANG=`lang`."""
    env = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES")}
    env.update(LANG=lang, COLUMNS="200")
    done = subprocess.run(
        [sys.executable, "-m", "micrograd", *argv, "--help"],
        capture_output=True,
        text=True,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.parametrize("argv, chinese, english", HELP_CASES)
@pytest.mark.parametrize("how", ["locale", "flag"])
def test_every_help_is_chinese_under_a_zh_locale_or_lang_zh(argv, chinese, english, how):
    text = (
        _help_of(argv, "zh_CN.UTF-8")
        if how == "locale"
        else _help_of([*argv, "--lang", "zh"], "C.UTF-8")
    )
    assert text.startswith("用法：micrograd")
    assert "选项：" in text and "显示帮助并退出" in text
    for words in chinese:
        assert words in text
    for words in english + ARGPARSE_EN:
        assert words not in text
    if argv[-1:] in (["practice"], ["start"]):  # a positional: its heading too
        assert "位置参数：" in text and "positional arguments" not in text


@pytest.mark.parametrize("argv, chinese, english", HELP_CASES)
def test_every_help_stays_english_without_zh(argv, chinese, english):
    text = _help_of(argv, "C.UTF-8")
    assert text.startswith("usage: micrograd")
    for words in english + ARGPARSE_EN:
        assert words in text
    assert not re.search(r"[\u2e80-\uffef]", text)
    assert _help_of([*argv, "--lang=en"], "zh_CN.UTF-8") == text  # the flag wins over the locale


def test_lang_is_read_anywhere_before_a_double_dash(monkeypatch):
    from micrograd.app.cli import _language_of

    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    assert _language_of(["train", "--help"]) == "en"
    assert _language_of(["--lang", "zh", "demo", "--help"]) == "zh"
    assert _language_of(["train", "--lang=zh", "--help"]) == "zh"
    assert _language_of(["explain", "--", "--lang", "zh"]) == "en"
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    assert _language_of(["practice", "start", "--help"]) == "zh"
    assert _language_of(["train", "--lang", "en"]) == "en"
    assert _language_of(["--lang", "en", "train", "--lang", "zh"]) == "zh"


def test_lang_before_the_command_is_the_commands_lang(capsys, monkeypatch):
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    assert main(["--lang", "zh", "explain", "a*q", "--set", "a=1"]) == 2
    assert capsys.readouterr().err.startswith("micrograd：错误：未知的名字 'q'")
    assert main(["--lang", "zh", "explain", "a*q", "--set", "a=1", "--lang", "en"]) == 2
    assert capsys.readouterr().err.startswith("micrograd: error: unknown name 'q'")  # the last


def test_demo_and_train_take_lang_and_train_as_before(tmp_path, capsys):
    out = tmp_path / "out"
    args = ["--steps", "2", "--no-plot", "--quiet", "--out", str(out), "--lang", "zh"]
    assert main(["train", *args]) == 0
    assert "测试准确率：" in capsys.readouterr().out  # what it prints is Chinese too
    assert os.listdir(out) == ["model.json"]


def test_train_prints_chinese_and_errs_in_chinese(tmp_path, capsys):
    args = ["--steps", "3", "--no-plot", "--lang", "zh", "--out", str(tmp_path / "o")]
    assert main(["train", *args]) == 0
    printed = capsys.readouterr().out
    assert (
        "训练准确率：" in printed and "训练了 3 步" in printed and "已把 model.json 写入" in printed
    )
    (tmp_path / "file").write_text("x")
    assert main(["demo", "--lang", "zh", "--out", str(tmp_path / "file")]) == 1
    assert "已存在，但不是文件夹" in capsys.readouterr().err
    assert main(["train", "--data", "mnist", "--lang", "zh"]) == 2
    assert "需要 --data-dir DIR" in capsys.readouterr().err


def test_output_to_a_device_or_a_fifo_is_one_line_and_exit_1(tmp_path, capsys):
    """`-o` to a device or a FIFO is refused in one line with exit status 1, and the device
    stays one."""
    fifo = tmp_path / "fifo.dot"
    os.mkfifo(fifo)
    for target in ("/dev/stdout", str(fifo)):
        code, out, err = run_cli(
            capsys, "graph", "a*b", "--set", "a=1", "--set", "b=2", "-o", target
        )
        assert code == 1 and err.count("\n") == 1 and "micrograd: error:" in err
    assert os.path.islink("/dev/stdout") or not os.path.isfile("/dev/stdout")


def test_dash_writes_to_standard_output(capsys):
    """`-o -` writes to standard output."""
    code, out, _ = run_cli(capsys, "graph", "a*b", "--set", "a=1", "--set", "b=2", "-o", "-")
    assert code == 0 and out.startswith("digraph micrograd")


def test_widths_beyond_the_budget_are_refused(capsys):
    """Train refuses hidden widths that would not finish, in one line pointing to to_torch."""
    code, _, err = run_cli(capsys, "train", "--hidden", "1024,1024", "--steps", "1", "--no-plot")
    assert code == 2 and "to_torch" in err and err.count("\n") == 1


def test_diverging_training_stops_with_one_line(tmp_path, capsys):
    """Training that diverges stops with a one-line error naming the step and --lr, not a
    traceback, and writes no --out folder."""
    out = tmp_path / "out"
    code, _, err = run_cli(
        capsys, "train", "--lr", "1e7", "--no-plot", "--quiet", "--out", str(out)
    )
    assert code == 1 and "diverged at step" in err and "--lr" in err
    assert "Traceback" not in err and err.count("\n") == 1 and not out.exists()


def test_an_expression_starting_with_minus_gets_a_hint(capsys):
    """An expression that starts with '-' gets a hint to pass it last, after '--'."""
    code, _, err = run_cli(capsys, "explain", "-a*b", "--set", "a=1", "--set", "b=2")
    assert code == 2 and "after '--'" in err
    code, out, _ = run_cli(capsys, "explain", "--set", "a=1", "--set", "b=2", "--", "-a*b")
    assert code == 0 and "out = -2" in out


def test_out_problems_are_reported_before_training(tmp_path, capsys):
    """Problems with --out are reported before training, and -o with no or an upper-case
    extension still picks a format."""
    a_file = tmp_path / "file"
    a_file.write_text("x")
    code, out, err = run_cli(capsys, "train", "--out", str(a_file), "--no-plot", "--quiet")
    assert code == 1 and "not a folder" in err and "accuracy" not in out
    inside = str(a_file / "sub")  # a folder under a file: refused before training too
    code, out, err = run_cli(capsys, "train", "--out", inside, "--no-plot", "--quiet")
    assert code == 1 and f"{a_file}: exists and is not a folder" in err and "accuracy" not in out
    code, _, err = run_cli(capsys, "train", "--out", "", "--no-plot", "--quiet")
    assert code == 2 and "--out" in err
    for name, fmt in [("graph", "digraph"), ("g.SVG", "<svg")]:
        if fmt == "<svg" and not shutil.which("dot"):
            continue
        code, _, _ = run_cli(
            capsys, "graph", "a*b", "--set", "a=1", "--set", "b=2", "-o", str(tmp_path / name)
        )
        assert code == 0 and fmt in (tmp_path / name).read_text()


def test_a_broken_pipe_exits_quietly():
    """A broken pipe (`micrograd explain ... | head -1`) exits quietly."""
    expr = " + ".join(f"a*{i}" for i in range(200))
    cmd = f"{sys.executable} -m micrograd explain '{expr}' --set a=1 --max-nodes 10000 | head -1"
    done = subprocess.run(cmd, shell=True, capture_output=True, text=True, timeout=60)
    assert done.stderr == "" and done.stdout.startswith("out = ")


def test_diverging_training_leaves_no_half_written_folder(tmp_path, capsys):
    """Training that diverges leaves no half-written --out folder."""
    out = tmp_path / "results"
    run_cli(capsys, "train", "--lr", "1e7", "--no-plot", "--quiet", "--out", str(out))
    assert not out.exists()


def test_python_minus_m_micrograd_runs_the_command():
    """`python -m micrograd` runs the command."""
    done = subprocess.run(
        [sys.executable, "-m", "micrograd", "--version"], capture_output=True, text=True
    )
    assert done.returncode == 0 and done.stdout.startswith("micrograd-plus ")


@pytest.mark.parametrize(
    "lang, words", [("en", "wrote {}: open it in a browser"), ("zh", "已写入 {}：用浏览器打开它")]
)
def test_explain_says_what_it_wrote(tmp_path, capsys, lang, words):
    """`explain -o page.html` says where the page is and what to do next."""
    page = tmp_path / "x.html"
    assert (
        main(["explain", "a*b", "--set", "a=2", "--set", "b=3", "-o", str(page), "--lang", lang])
        == 0
    )
    assert capsys.readouterr().out.strip() == words.format(page)
    assert page.read_text().startswith("<!DOCTYPE html>")


def test_images_start_near_ln_of_the_classes_and_a_far_first_loss_is_said(
    tmp_path, capsys, monkeypatch
):
    """The image models' weights fit their input width, so a softmax over 10 digits starts
    near ln 10; where a first loss is far above it, one line says what that means."""
    pytest.importorskip("numpy")
    from micrograd.app import commands

    seen = []
    argv = ["train", "--data", "digits", "--steps", "2", "--no-plot", "--quiet", "--out"]
    from micrograd.app import train

    real_fit = train.fit

    def recording_fit(*args, **kwargs):
        history = real_fit(*args, **kwargs)
        seen.append(history[0][0])
        return history

    monkeypatch.setattr(train, "fit", recording_fit)
    assert main([*argv, str(tmp_path / "a")]) == 0
    assert (
        abs(seen[0] - math.log(10)) < 0.2 and "note: the first loss" not in capsys.readouterr().out
    )
    monkeypatch.setattr(commands, "_fit_init_to_width", lambda model: None)  # the original's init
    assert main([*argv, str(tmp_path / "b")]) == 0
    said = capsys.readouterr().out
    assert (
        "note: the first loss is 13.58; a softmax over 10 classes starts near ln 10 = 2.30" in said
    )


def test_too_wide_a_model_is_refused_with_advice_that_helps(capsys, monkeypatch):
    """With numpy one sample is traced whatever the batch: a smaller --batch-size is advised only
    without it, where every sample of the batch is built."""
    from micrograd.app import commands

    code, _, err = run_cli(capsys, "train", "--hidden", "600,600", "--no-plot", "--quiet")
    assert code == 2 and "Values a step" in err and "--batch-size" not in err
    monkeypatch.setattr(commands.importlib.util, "find_spec", lambda name: None)  # no numpy
    code, _, err = run_cli(capsys, "train", "--hidden", "600,600", "--no-plot", "--quiet")
    assert code == 2 and "a smaller --batch-size" in err and "install numpy" in err


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["train", "--hidden", "16,x"], "参数 --hidden：宽度应写成 16,16 这样，收到的是 '16,x'"),
        (["train", "--lr", "0"], "参数 --lr：应为大于 0 的有限数"),
        (["train", "--optimizer", "foo"], "参数 --optimizer：无效的选择：'foo'（可选："),
        (["train", "--steps"], "参数 --steps：需要一个值"),
        (["explain"], "缺少必需的参数：expr（见 'micrograd explain --help'）"),
        (["explain", "a", "--set", "a=1", "b=2"], "无法识别的参数：b=2"),
        (
            ["train", "--data", "mnist", "--data-dir", "nowhere"],
            "mnist：在 nowhere 里找不到 MNIST 文件",
        ),
        (["explain", "-a*b"], "'-a*b' 以 '-' 开头，所以被当成了选项"),
    ],
)
def test_usage_errors_are_chinese_under_a_chinese_locale(args, said, capsys, monkeypatch):
    """Argparse's own sentences, the command's checks and the hints, in Chinese."""
    monkeypatch.setenv("LANG", "zh_CN.UTF-8")
    code, _, err = run_cli(capsys, *args)
    assert code in (1, 2) and err.startswith("micrograd：错误：") and said in err, err


@pytest.mark.parametrize(
    ("argv", "locale"),
    [
        (["--version"], "C.UTF-8"),
        (["--version"], "zh_CN.UTF-8"),
        (["--lang", "zh", "--version"], "C.UTF-8"),
    ],
)
def test_version_names_the_distribution_in_english_and_chinese(argv, locale, capsys, monkeypatch):
    """`micrograd --version` prints the PyPI name and the installed version, the same line in
    Chinese mode, and exits 0."""
    from micrograd import __version__

    monkeypatch.setenv("LANG", locale)
    with pytest.raises(SystemExit) as e:
        main(argv)
    assert e.value.code == 0
    assert capsys.readouterr().out == f"micrograd-plus {__version__}\n"


# ---------------------------------------------------------------------------- the GPT
@pytest.fixture(scope="module")
def names_run(tmp_path_factory):
    """`micrograd train --data names --steps 30`, in English with its picture: (folder, stdout)."""
    out = tmp_path_factory.mktemp("gpt")
    import contextlib
    import io

    printed = io.StringIO()
    with contextlib.redirect_stdout(printed), contextlib.redirect_stderr(io.StringIO()):
        code = main(
            ["train", "--data", "names", "--steps", "30", "--out", str(out), "--lang", "en"]
        )
    assert code == 0
    return out, printed.getvalue()


SAMPLE_LINE = {"en": r"sample +(\d+): ([a-z]*)", "zh": r"样本 +(\d+)：([a-z]*)"}


def _gpt_output(printed, lang):
    """(first loss, final loss, the sampled names) of what `train --data names` printed."""
    said = next(line for line in printed.splitlines() if re.search(r"\d+\.\d{4}", line))
    numbers = [float(x) for x in re.findall(r"\d+\.\d{4}", said)]
    samples = re.findall(SAMPLE_LINE[lang], printed)
    assert [int(i) for i, _ in samples] == list(range(1, 11))
    return numbers[0], numbers[1], [name for _, name in samples]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_train_on_names_lowers_the_loss_saves_the_model_and_samples_ten(
    names_run, tmp_path, capsys, lang
):
    if lang == "en":
        out, printed = names_run
        assert (out / "gpt_loss.png").read_bytes().startswith(PNG)
        assert (out / "gpt_attention.png").read_bytes().startswith(PNG)
        assert "trained 30 steps in " in printed
        assert "wrote gpt.json, gpt_loss.png, gpt_attention.png to" in printed
    else:  # no picture: the Chinese font may be missing here
        out = tmp_path / "zh"
        args = ["--steps", "30", "--out", str(out), "--lang", "zh", "--no-plot"]
        assert main(["train", "--data", "names", *args]) == 0
        printed = capsys.readouterr().out
        assert printed.startswith("正在追踪并编译训练步") and "训练了 30 步" in printed
        assert printed.splitlines()[1].startswith("第一步的损失 ")
    first, final, samples = _gpt_output(printed, lang)
    assert final < first  # 3.57 at the first step, 2.72 over the last 3
    assert len(samples) == 10 and any(samples)
    doc = json.loads((out / "gpt.json").read_text())
    assert doc["architecture"]["type"] == "GPT" and len(doc["parameters"]) == 4192
    assert doc["tokenizer"]["chars"] == "abcdefghijklmnopqrstuvwxyz"


def test_sample_draws_from_the_saved_model(names_run, capsys):
    out, printed = names_run
    model = str(out / "gpt.json")
    _, _, trained = _gpt_output(printed, "en")
    code, said, err = run_cli(capsys, "sample", model)
    assert code == 0 and err == ""
    assert re.findall(SAMPLE_LINE["en"], said) == [(str(i), n) for i, n in enumerate(trained, 1)]
    code, said, _ = run_cli(capsys, "sample", model, "-n", "3", "--seed", "4", "--lang", "zh")
    assert code == 0 and len(re.findall(SAMPLE_LINE["zh"], said)) == 3
    code, again, _ = run_cli(capsys, "sample", model, "-n", "3", "--seed", "4", "--lang", "zh")
    assert again == said  # seeded
    code, hot, _ = run_cli(capsys, "sample", model, "-n", "3", "--temperature", "5")
    assert code == 0 and len(re.findall(SAMPLE_LINE["en"], hot)) == 3


@pytest.mark.parametrize(("lang", "said"), [("en", "wrote "), ("zh", "已写出 ")])
def test_sample_draws_the_attention_of_the_first_name(names_run, tmp_path, capsys, lang, said):
    out, _ = names_run
    picture = tmp_path / "attention.png"
    argv = ["sample", str(out / "gpt.json"), "-n", "2", "--attention", str(picture)]
    code, printed, err = run_cli(capsys, *argv, "--lang", lang)
    assert code == 0 and len(re.findall(SAMPLE_LINE[lang], printed)) == 2
    assert printed.splitlines()[-1].startswith(said + str(picture))
    assert picture.read_bytes().startswith(PNG)
    code, printed, err = run_cli(capsys, *argv[:-1], str(tmp_path), "--lang", lang)  # a folder
    assert code == 1 and printed == "" and "not a regular file" in err and err.count("\n") == 1


def test_sample_refuses_a_bad_model_file_in_one_line(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "micrograd-model", "version": 1, "architecture": {"type": "GPT"}}')
    mlp = tmp_path / "mlp.json"
    assert main(["train", "--steps", "1", "--no-plot", "--quiet", "--out", str(tmp_path)]) == 0
    os.rename(tmp_path / "model.json", mlp)
    capsys.readouterr()
    cases = [
        (["sample", str(tmp_path / "none.json")], 1, "none.json: no such file"),
        (["sample", str(bad)], 1, "architecture vocab_size must be an integer >= 1"),
        (["sample", str(mlp)], 1, 'architecture must be {"type": "GPT", ...}'),
        (["sample", str(tmp_path)], 1, "micrograd: error: "),  # a folder
        (["sample", str(bad), "--lang", "zh"], 1, "不是 micrograd 能读取的 GPT 模型文件"),
        (["sample", str(bad), "-n", "0"], 2, "expected a finite number above 0"),
        (["sample", str(bad), "--temperature", "0"], 2, "expected a finite number above 0"),
        (["sample"], 2, "the following arguments are required: MODEL"),
        (["train", "--data", "names", "--hidden", "8"], 2, "--hidden does not apply to --data"),
        (["sample", str(bad), "-n", "3", "--temperature", "0"], 2, "got '0' (see 'micrograd"),
    ]
    for argv, status, words in cases:
        code, _, err = run_cli(capsys, *argv)
        assert code == status and err.count("\n") == 1 and words in err, (argv, err)
        assert "Traceback" not in err and "explain" not in err  # no hint for an expression


POETS = ["李白", "杜甫", "王维", "白居易", "李商隐", "苏轼", "欧阳修", "辛弃疾", "李清照", "陆游"]


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_train_on_your_own_documents_with_your_own_sizes_and_mark_the_copies(
    tmp_path, capsys, lang
):
    """--data FILE.txt trains the GPT on the file's lines (hanzi here), of the sizes the options
    give; each made-up name is marked new or in the training data, by train and by sample, and
    the count of copies is what the marks say."""
    data = tmp_path / "poets.txt"
    data.write_text("\n".join(POETS) + "\n\n", encoding="utf-8")  # an empty line is skipped
    out = tmp_path / "out"
    argv = ["train", "--data", str(data), "--n-layer", "2", "--n-head", "4", "--steps", "40"]
    code, printed, err = run_cli(capsys, *argv, "--out", str(out), "--no-plot", "--lang", lang)
    assert code == 0, err
    doc = json.loads((out / "gpt.json").read_text())
    assert doc["architecture"] == {
        "type": "GPT",
        **{"vocab_size": len(set("".join(POETS))) + 1, "block_size": 16},
        **{"n_layer": 2, "n_embd": 16, "n_head": 4},
    }
    assert sorted(doc["documents"]) == sorted(POETS)
    new, copy = {"en": ("   new", "   in the training data"), "zh": ("   新的", "   训练数据里有")}[
        lang
    ]
    line = {
        "en": r"sample +\d+: (.*?)(   new|   in the training data)$",
        "zh": r"样本 +\d+：(.*?)(   新的|   训练数据里有)$",
    }[lang]
    for said in (printed, run_cli(capsys, "sample", str(out / "gpt.json"), "--lang", lang)[1]):
        marked = re.findall(line, said, re.M)
        assert len(marked) == 10
        assert all((name in POETS) == (mark == copy) for name, mark in marked), marked
        copies = sum(name in POETS for name, _ in marked)
        assert 0 < copies < 10  # forty steps on ten names: some learned by heart, some not
        counted = {
            "en": f"{copies} of the 10 made-up names",
            "zh": f"编出的 10 个名字里有 {copies} 个",
        }
        assert counted[lang] in said
    assert new.strip() in printed


def test_a_note_says_when_documents_are_longer_than_the_block(tmp_path, capsys):
    data = tmp_path / "lines.txt"
    data.write_text("short\n" + "a much longer document\n" + "tiny\n", encoding="utf-8")
    # a model 4 wide: the note is about the data, and the ten names sampled after training
    # (up to the block's length, on the scalar engine) took most of the test's time at 16
    argv = ["train", "--data", str(data), "--steps", "2", "--no-plot", "--quiet"]
    argv += ["--backend", "eager", "--n-embd", "4", "--n-head", "1"]
    code, printed, _ = run_cli(capsys, *argv, "--block-size", "8", "--out", str(tmp_path / "a"))
    assert code == 0
    assert printed.startswith(
        "note: 1 of the 3 documents have 8 characters or more; with "
        "--block-size 8 the model learns only their first 8"
    )
    assert "(the longest has 22;" in printed
    code, printed, _ = run_cli(capsys, *argv, "--block-size", "23", "--out", str(tmp_path / "b"))
    assert code == 0 and "note" not in printed
    code, printed, _ = run_cli(
        capsys, *argv, "--block-size", "22", "--lang", "zh", "--out", str(tmp_path / "c")
    )
    assert code == 0 and printed.startswith("注意：3 篇文档中有 1 篇有 22 个或更多字符")


@pytest.mark.parametrize(
    ("lang", "compiling", "hint"),
    [
        ("en", "tracing and compiling the training step", "the loss is higher than at the start"),
        ("zh", "正在追踪并编译训练步", "损失比开始时还高：学习率 1.0 可能太大"),
    ],
)
def test_a_learning_rate_that_makes_the_loss_grow_is_named_and_compiling_announced(
    tmp_path, capsys, lang, compiling, hint
):
    data = tmp_path / "poets.txt"
    data.write_text("\n".join(POETS), encoding="utf-8")
    argv = ["train", "--data", str(data), "--no-plot", "--out", str(tmp_path / "out")]
    code, printed, _ = run_cli(capsys, *argv, "--steps", "100", "--lr", "1.0", "--lang", lang)
    lines = printed.splitlines()
    assert code == 0 and lines[0].startswith(compiling) and lines[2].startswith(hint)
    if lang == "zh":
        return  # what follows does not depend on the language
    code, printed, _ = run_cli(capsys, *argv, "--steps", "20", "--backend", "eager", "--quiet")
    assert code == 0 and "compil" not in printed and "learning rate" not in printed
    # a mean over fewer than 10 steps says nothing of the learning rate: one name is noise
    code, printed, _ = run_cli(capsys, *argv, "--steps", "40", "--lr", "1.0", "--quiet")
    assert code == 0 and "learning rate" not in printed


def test_the_gpt_options_are_checked_before_any_training(tmp_path, capsys):
    data = tmp_path / "poets.txt"
    data.write_text("\n".join(POETS), encoding="utf-8")
    latin1 = tmp_path / "latin1.txt"
    latin1.write_bytes("café\n".encode("latin-1"))
    empty = tmp_path / "empty.txt"
    empty.write_text("\n \n", encoding="utf-8")
    gpt = ["train", "--data", str(data), "--out", str(tmp_path / "out")]
    cases = [
        (["train", "--data", "nothere.txt"], 2, "'nothere.txt' is neither a data set (circles, "),
        (["train", "--data", "nothere.txt", "--lang", "zh"], 2, "既不是数据集"),
        ([*gpt, "--n-head", "3"], 2, "--n-embd 16 is not a multiple of --n-head 3"),
        ([*gpt, "--n-embd", "30", "--n-head", "4", "--lang", "zh"], 2, "不是 --n-head 4 的倍数"),
        ([*gpt, "--block-size", "300"], 2, "--block-size 300 is more than 256"),
        ([*gpt, "--n-head", "0"], 2, "expected a finite number above 0"),
        ([*gpt, "--n-embd", "1024", "--n-layer", "12"], 2, "parameters, more than this format's"),
        ([*gpt, "--hidden", "8"], 2, "--hidden does not apply to --data names or a text file"),
        (["train", "--data", "moons", "--n-layer", "2"], 2, "--n-layer is a size of the GPT"),
        (["train", "--data", str(latin1)], 1, f"cannot train on {latin1}: "),
        (["train", "--data", str(empty), "--lang", "zh"], 1, f"无法在 {empty} 上训练："),
    ]
    for argv, status, words in cases:
        code, printed, err = run_cli(capsys, *argv)
        assert code == status and err.count("\n") == 1 and words in err, (argv, err)
        assert printed == "" and "Traceback" not in err
    assert not (tmp_path / "out").exists()  # nothing trained, nothing written


def test_sample_leaves_names_unmarked_where_the_file_has_no_documents(tmp_path, capsys):
    path = _tiny_gpt(tmp_path, ["ab", "ba"])  # save_gpt without documents
    code, printed, _ = run_cli(capsys, "sample", str(path), "-n", "3")
    assert code == 0 and len(printed.splitlines()) == 3
    assert "new" not in printed and "training data" not in printed


def _tiny_gpt(tmp_path, docs, name="tiny.json", change=None):
    """A small GPT on the characters of `docs`, saved (after `change(model)`): its path."""
    from micrograd.data import CharTokenizer
    from micrograd.gpt import GPT
    from micrograd.io import save_gpt

    tokenizer = CharTokenizer(docs)
    random.seed(0)
    model = GPT(tokenizer.vocab_size, block_size=4, n_layer=1, n_embd=4, n_head=1)
    if change is not None:
        change(model)
    path = tmp_path / name
    save_gpt(model, tokenizer, path)
    return path


def test_sample_shows_a_control_character_as_its_escape_never_raw(tmp_path, capsys):
    """A model file is data people share: the names it draws reach the terminal with their
    control characters escaped (ESC ] 0 ; would set the window title, ESC [ 2 J clear it)."""
    path = _tiny_gpt(tmp_path, ["\x1b]0;x\x07", "\x1b[2J"])
    code, out, _ = run_cli(capsys, "sample", str(path), "-n", "10", "--seed", "1")
    assert code == 0
    assert "\x1b" not in out and "\x07" not in out
    assert "\\x1b" in out  # drawn, and shown as its escape


def test_a_model_file_with_a_long_block_or_half_a_character_is_refused(tmp_path, capsys):
    path = _tiny_gpt(tmp_path, ["ab"])
    doc = json.loads(path.read_text())
    doc["architecture"]["block_size"] = 3000  # sampling would take minutes a name
    path.write_text(json.dumps(doc))
    code, _, err = run_cli(capsys, "sample", str(path))
    assert code == 1 and "block_size 3,000 is more than this format's 256" in err
    doc = json.loads(_tiny_gpt(tmp_path, ["ab"], "half.json").read_text())
    doc["tokenizer"]["chars"] = "a\ud800"
    bad = tmp_path / "half.json"
    bad.write_text(json.dumps(doc))
    code, _, err = run_cli(capsys, "sample", str(bad))
    assert code == 1 and "'\\ud800', no character" in err and err.count("\n") == 1


def test_a_model_of_finite_numbers_whose_logits_overflow_is_named_with_its_file(tmp_path, capsys):
    def huge(model):
        for p in [*model.wte.parameters(), *model.wpe.parameters()]:
            p.data = 1.7e308  # each finite; their sums are not

    path = _tiny_gpt(tmp_path, ["ab"], change=huge)
    code, _, err = run_cli(capsys, "sample", str(path))
    assert code == 1 and err.count("\n") == 1
    assert str(path) in err and "are not finite" in err
    assert "Total of weights" not in err


def test_an_empty_name_is_shown_as_such(tmp_path, capsys):
    from micrograd.app.gpt_commands import sample_line

    assert sample_line(3, "", {"ab"}, "en") == "sample  3: (empty: the end was drawn first)   new"
    assert sample_line(3, "", None, "zh") == "样本  3：（空：第一个抽到的就是结束符）"
