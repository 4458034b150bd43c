"""Pictures of a training run with matplotlib (headless): the decision boundary, the loss curve,
for images a confusion matrix and the misclassified ones, and for a GPT its loss and the attention
weights of each head."""

from __future__ import annotations

import io
import math
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from micrograd.app.tasks import Classifier
from micrograd.io import atomic_write
from micrograd.text import catalog, text

# Fonts with Chinese characters that matplotlib may find, the most common first.
CJK_FONTS = (
    "Noto Sans CJK SC",
    "Noto Sans SC",
    "Source Han Sans SC",
    "WenQuanYi Zen Hei",
    "WenQuanYi Micro Hei",
    "Microsoft YaHei",
    "PingFang SC",
    "Heiti SC",
    "SimHei",
    "Arial Unicode MS",
)


def pyplot():  # type: ignore[no-untyped-def]
    """matplotlib.pyplot on the headless Agg backend, or ImportError saying how to install it."""
    try:
        import matplotlib
    except ImportError:
        raise ImportError(
            "plots need matplotlib: pip install 'micrograd-plus[plot]', or pass --no-plot"
        ) from None
    matplotlib.use("Agg")  # no display needed
    import matplotlib.pyplot as plt

    return plt


def picture_language(lang: str) -> str:
    """`lang` if the pictures can be drawn in it: Chinese needs a font with its characters, and
    where matplotlib finds none the pictures stay English (stderr says why) rather than show
    empty boxes."""
    if lang != "zh" or _cjk_font() is not None:
        return lang
    import matplotlib

    print(
        "the pictures' labels are in English: matplotlib found no Chinese font (install "
        "fonts-noto-cjk; if it is installed, delete matplotlib's font cache in "
        f"{matplotlib.get_cachedir()})",
        file=sys.stderr,
    )
    return "en"


def _cjk_font() -> str | None:
    """The first of CJK_FONTS that matplotlib knows, if any."""
    pyplot()
    from matplotlib import font_manager

    found = {f.name for f in font_manager.fontManager.ttflist}
    return next((name for name in CJK_FONTS if name in found), None)


def _words(lang: str) -> dict[str, str]:
    """The pictures' words in `lang` (the keys plot.* of micrograd.text), by their short names."""
    return {k[len("plot.") :]: v for k, v in catalog(lang).items() if k.startswith("plot.")}


@contextmanager
def _drawing(lang: str) -> Iterator[dict[str, str]]:
    """The words of `lang` (from picture_language), with a font that has them while the block
    draws and saves the figure."""
    plt = pyplot()
    font = _cjk_font() if lang == "zh" else None
    if font is None:
        yield _words("en")
        return
    with plt.rc_context({"font.family": "sans-serif", "font.sans-serif": [font, "DejaVu Sans"]}):
        yield _words("zh")


def _png(fig, path: str | None) -> bytes:  # type: ignore[no-untyped-def]
    """The figure as PNG bytes, also written to `path` (atomically) when one is given."""
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110, bbox_inches="tight")
    data = buf.getvalue()
    if path is not None:
        atomic_write(path, data)  # an interrupted run never leaves half a picture
    return data


def decision_boundary(
    clf: Classifier,
    X: Sequence[Sequence[float]],
    y: Sequence[int],
    path: str | None = None,
    title: str = "",
    X_test: Sequence[Sequence[float]] = (),
    y_test: Sequence[int] = (),
    resolution: int = 150,
    lang: str = "en",
) -> bytes:
    """Colour the plane by predicted class and draw the points (test points hollow): PNG bytes,
    written to `path` too if given."""
    plt = pyplot()
    pts = [*X, *X_test]
    x0s, x1s = [p[0] for p in pts], [p[1] for p in pts]
    lo0, hi0 = min(x0s) - 0.5, max(x0s) + 0.5
    lo1, hi1 = min(x1s) - 0.5, max(x1s) + 0.5
    g0 = [lo0 + (hi0 - lo0) * i / (resolution - 1) for i in range(resolution)]
    g1 = [lo1 + (hi1 - lo1) * j / (resolution - 1) for j in range(resolution)]
    grid = [[a, b] for b in g1 for a in g0]
    pred = clf.predict(grid)
    Z = [pred[j * resolution : (j + 1) * resolution] for j in range(resolution)]
    with _drawing(lang) as w:
        fig, ax = plt.subplots(figsize=(6, 5))
        colours = {"cmap": "Spectral", "vmin": 0, "vmax": clf.classes - 1}  # a colour per class
        levels = [k - 0.5 for k in range(clf.classes + 1)]
        ax.contourf(g0, g1, Z, levels=levels, alpha=0.4, **colours)
        train = {"c": list(y), "edgecolors": "k", "s": 28, "label": w["train"]}
        ax.scatter(x0s[: len(X)], x1s[: len(X)], **train, **colours)
        if X_test:
            test = {
                "c": list(y_test),
                "marker": "s",
                "edgecolors": "k",
                "s": 28,
                "label": w["test"],
            }
            ax.scatter(x0s[len(X) :], x1s[len(X) :], **test, **colours)
            ax.legend(loc="upper right")
        ax.set_xlim(lo0, hi0)
        ax.set_ylim(lo1, hi1)
        ax.set_title(title)
        data = _png(fig, path)
    plt.close(fig)
    return data


def loss_curve(
    history: Sequence[tuple[float, float]], path: str | None = None, lang: str = "en"
) -> bytes:
    """Loss (log scale) and training accuracy against the step: PNG bytes, written to `path` too
    if given."""
    plt = pyplot()
    with _drawing(lang) as w:
        fig, ax = plt.subplots(figsize=(6, 4))
        steps = range(1, len(history) + 1)
        ax.plot(steps, [h[0] for h in history], color="tab:blue")
        ax.set_yscale("log")
        ax.set_xlabel(w["step"])
        ax.set_ylabel(w["loss"], color="tab:blue")
        acc = ax.twinx()
        acc.plot(steps, [h[1] for h in history], color="tab:orange")
        acc.set_ylabel(w["train_accuracy"], color="tab:orange")
        acc.set_ylim(0, 1.02)
        data = _png(fig, path)
    plt.close(fig)
    return data


def next_token_loss(
    losses: Sequence[float],
    spec: str,
    docs: int,
    mean_of: int,
    lang: str = "en",
    kind: str = "names",
) -> bytes:
    """A GPT's training on `docs` documents (of a `kind`: "names" or "documents"): each step's
    loss (faint; one document a step makes it noisy) and its running mean over `mean_of` steps,
    against the step: PNG bytes."""
    unit = "" if kind == "names" else "_documents"
    plt = pyplot()
    drawn = picture_language(lang)
    running = [
        sum(losses[max(0, i - mean_of + 1) : i + 1]) / (i + 1 - max(0, i - mean_of + 1))
        for i in range(len(losses))
    ]
    with _drawing(drawn) as w:
        fig, ax = plt.subplots(figsize=(6, 4))
        steps = range(1, len(losses) + 1)
        faint = {"color": "tab:blue", "alpha": 0.3, "lw": 0.8}
        ax.plot(steps, losses, **faint, label=text(f"gpt.plot_loss{unit}", drawn))
        ax.plot(steps, running, color="tab:blue", label=text("gpt.plot_mean", drawn, n=mean_of))
        ax.set_xlabel(w["step"])
        ax.set_ylabel(w["loss"])
        ax.set_title(text(f"gpt.plot_title{unit}", drawn, spec=spec, docs=docs), fontsize=9)
        ax.legend(loc="upper right")
        data = _png(fig, None)
    plt.close(fig)
    return data


def attention_weights(
    weights: Sequence[Sequence[Sequence[Sequence[float]]]],
    labels: Sequence[str],
    path: str | None = None,
    lang: str = "en",
) -> bytes:
    """A GPT's attention on one sequence (GPT.attention: weights[layer][head][i][j]), a heat map
    per head, a row of them per layer: row i is the position attending, column j a position it
    attends to (j <= i; the rest, the future it cannot see, left blank), `labels` (the tokens'
    characters) on both axes. PNG bytes, written to `path` too if given."""
    plt = pyplot()
    drawn = picture_language(lang)
    n = len(labels)
    layers, heads = len(weights), len(weights[0])
    with _drawing(drawn):
        side = max(2.4, 0.22 * n + 1.0)  # each cell large enough for its tick label
        fig, axes = plt.subplots(
            layers,
            heads,
            figsize=(side * heads + 1.0, side * layers + 0.6),
            squeeze=False,
            layout="constrained",  # the title, the heads and the colour bar without gaps
        )
        for layer in range(layers):
            for head in range(heads):
                ax = axes[layer][head]
                rows = weights[layer][head]
                # the upper triangle is not a weight of 0 but no weight at all: NaN, drawn blank
                square = [[*row, *[math.nan] * (n - len(row))] for row in rows]
                image = ax.imshow(square, cmap="Blues", vmin=0.0, vmax=1.0)
                ax.set_xticks(range(n), labels, fontsize=8)
                ax.set_yticks(range(n), labels, fontsize=8)
                ax.set_title(text("gpt.plot_head", drawn, layer=layer, head=head), fontsize=9)
                if layer == layers - 1:
                    ax.set_xlabel(text("gpt.plot_attended", drawn), fontsize=8)
                if head == 0:
                    ax.set_ylabel(text("gpt.plot_attending", drawn), fontsize=8)
        bar = fig.colorbar(image, ax=axes, shrink=0.8)
        bar.set_label(text("gpt.plot_weight", drawn), fontsize=8)
        title = text("gpt.plot_attention_title", drawn, sequence="".join(labels))
        fig.suptitle(title, fontsize=10)
        data = _png(fig, path)
    plt.close(fig)
    return data


def confusion_matrix(
    y: Sequence[int],
    predicted: Sequence[int],
    classes: int,
    path: str | None = None,
    title: str = "",
    lang: str = "en",
) -> bytes:
    """How often each true class (rows) was predicted as each class (columns), with the counts
    written in the cells: PNG bytes, written to `path` too if given."""
    plt = pyplot()
    counts = [[0] * classes for _ in range(classes)]
    for t, p in zip(y, predicted):
        counts[t][p] += 1
    top = max(max(row) for row in counts) or 1
    with _drawing(lang) as w:
        fig, ax = plt.subplots(figsize=(5.5, 5))
        ax.imshow(counts, cmap="Blues")
        for t in range(classes):
            for p in range(classes):
                if counts[t][p]:
                    colour = "white" if counts[t][p] > top / 2 else "black"
                    cell = {"ha": "center", "va": "center", "color": colour, "fontsize": 8}
                    ax.text(p, t, str(counts[t][p]), **cell)
        ax.set_xticks(range(classes))
        ax.set_yticks(range(classes))
        ax.set_xlabel(w["predicted"])
        ax.set_ylabel(w["true"])
        ax.set_title(title, fontsize=9)
        data = _png(fig, path)
    plt.close(fig)
    return data


def misclassified(
    X: Sequence[Sequence[float]],
    y: Sequence[int],
    predicted: Sequence[int],
    shape: tuple[int, int],
    path: str | None = None,
    limit: int = 32,
    lang: str = "en",
) -> bytes:
    """A grid of the first `limit` images the model got wrong, each titled "true -> predicted":
    PNG bytes, written to `path` too if given."""
    plt = pyplot()
    wrong = [i for i, (t, p) in enumerate(zip(y, predicted)) if t != p][:limit]
    cols = 8
    rows = max(1, -(-len(wrong) // cols))
    with _drawing(lang) as w:
        fig, axes = plt.subplots(rows, cols, figsize=(cols * 1.1, rows * 1.25), squeeze=False)
        for ax in axes.flat:
            ax.axis("off")
        for ax, i in zip(axes.flat, wrong):
            h, w_ = shape
            ax.imshow([X[i][r * w_ : (r + 1) * w_] for r in range(h)], cmap="gray_r")
            ax.set_title(f"{y[i]} -> {predicted[i]}", fontsize=8)
        if not wrong:
            axes.flat[0].set_title(w["no_mistakes"], fontsize=9)
        fig.suptitle(w["misclassified"].format(n=len(wrong)), fontsize=9)
        data = _png(fig, path)
    plt.close(fig)
    return data
