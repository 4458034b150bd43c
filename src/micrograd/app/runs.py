"""The playground's runs: each a data set, a model, an optimizer and its Trainer, and what the page
draws of it (micrograd.app.playground serves them over HTTP)."""

from __future__ import annotations

import copy
import math
import random
import secrets
import threading
from collections import OrderedDict
from http import HTTPStatus
from typing import Any

from micrograd.app.defaults import DEFAULTS, PLAYGROUND_LIMITS
from micrograd.app.tasks import Classifier
from micrograd.app.train import Trainer
from micrograd.data import DATASETS
from micrograd.engine import Value, topo_order
from micrograd.nn import ACTIVATIONS, MLP
from micrograd.optim import SGD, Adam
from micrograd.teach.drawings import fmt_number
from micrograd.teach.stepper import page_template, page_with_data, stepper
from micrograd.text import catalog, language
from micrograd.text import text as say
from micrograd.tuning import tuned

POINTS = 200  # per data set
GRID = 40  # the decision boundary is drawn from GRID x GRID predictions
MAX_RUNS = 16  # the oldest run is forgotten beyond this
MAX_STEPPER_NODES = 3000  # a sample's backward pass larger than this is not stepped through
_weights = threading.Lock()  # runs made at once by two requests draw their weights in turn


class BadRequest(ValueError):
    """A request the server refuses, with the status and the message it answers with."""

    def __init__(self, message: str, status: HTTPStatus = HTTPStatus.BAD_REQUEST) -> None:
        super().__init__(message)
        self.status = status


class Run:
    """One training run: its data, model, optimizer, Trainer and history, on a back end of
    micrograd.replay (the site's page runs the python one). Used under its lock only."""

    def __init__(self, config: dict[str, Any], points: int = POINTS, backend: str = "auto") -> None:
        c = checked_config(config)
        self.config = c
        self.X, self.y = DATASETS[c["data"]](n=points, seed=c["seed"])
        classes = max(self.y) + 1
        with _weights:  # the weights come from Python's random, seeded, as in the original
            random.seed(c["seed"])
            self.model = MLP(2, [*c["hidden"], 1 if classes == 2 else classes], c["activation"])
        self.clf = Classifier(self.model, classes)
        params = self.model.parameters()
        self.optimizer: SGD | Adam = (
            Adam(params, lr=c["lr"]) if c["optimizer"] == "adam" else SGD(params, lr=c["lr"])
        )
        self.trainer = Trainer(
            self.clf, self.X, self.y, self.optimizer, c["batch"], c["seed"], backend=backend
        )
        self.step = 0
        self.losses: list[float] = []
        self.accuracies: list[float] = []
        self.lock = threading.Lock()
        x0 = [p[0] for p in self.X]
        x1 = [p[1] for p in self.X]
        pad = 0.5
        self.box = (min(x0) - pad, max(x0) + pad, min(x1) - pad, max(x1) + pad)

    def train(self, steps: int) -> None:
        """Take `steps` optimizer steps on minibatches (or the whole set); a 409 if the loss stops
        being a number (the run stays readable: its state shows where it went)."""
        with tuned(), self.trainer.threads():
            for _ in range(steps):
                try:
                    loss = self.trainer.step()
                except FloatingPointError as e:  # a nan or inf loss: no parameter moved
                    raise _diverged(self.step + 1, str(e).split(";")[0]) from None
                self.step += 1
                self.losses.append(loss)
                try:
                    self.accuracies.append(self.trainer.accuracy())
                except FloatingPointError:  # the step made the parameters inf or nan
                    self.accuracies.append(math.nan)
                    raise _diverged(
                        self.step, "the model's outputs are no longer numbers"
                    ) from None

    def state(self, since: int = 0) -> dict[str, Any]:
        """What the page draws: the step, the curves from step `since`, the boundary and the
        parameters."""
        x0, x1, y0, y1 = self.box
        grid = [
            [x0 + (x1 - x0) * (i + 0.5) / GRID, y0 + (y1 - y0) * (j + 0.5) / GRID]
            for j in range(GRID)
            for i in range(GRID)
        ]
        try:
            scores = self.trainer.scores(grid)
        except FloatingPointError:  # parameters that are no longer numbers: nothing to draw
            scores = []
        if self.clf.binary:
            cells = [[int(s[0] > 0), min(1.0, abs(s[0]))] for s in scores]
        else:
            cells = [[max(range(len(s)), key=s.__getitem__), 1.0] for s in scores]
        try:
            active = self.active()
        except FloatingPointError:
            active = []
        self.trainer.sync()  # the table reads the model's Values and the optimizer's lists
        opt = self.optimizer
        adam = opt if isinstance(opt, Adam) else None
        m, v = (adam.m, adam.v) if adam else ([], [])
        params = [
            {
                "name": name,
                "data": _number(p.data),
                "grad": _number(p.grad),
                **({"m": _number(m[i]), "v": _number(v[i])} if adam else {}),
            }
            for i, (name, p) in enumerate(self.model.named_parameters())
        ]
        return {
            "step": self.step,
            "loss": _number(self.losses[-1]) if self.losses else None,
            "accuracy": _number(self.accuracies[-1]) if self.accuracies else None,
            "since": since,
            "losses": [_number(x) for x in self.losses[since:]],
            "accuracies": [_number(x) for x in self.accuracies[since:]],
            "grid": {"n": GRID, "box": self.box, "cells": cells},
            "params": params,
            "active": active,  # the samples whose loss is > 0: the only ones that send gradient
            "binary": self.clf.binary,
        }

    def snapshot(self) -> Classifier:
        """A copy of the model as it is now, to read without holding the run's lock."""
        self.trainer.sync()
        return Classifier(copy.deepcopy(self.model), self.clf.classes)

    def active(self) -> list[int]:
        """The samples whose loss is > 0 under the model as trained so far: for the hinge loss,
        those within the margin (y * score < 1); under cross-entropy, every sample."""
        if not self.clf.binary:
            return list(range(len(self.X)))
        scores = self.trainer.scores(self.X)
        return [i for i, (s, c) in enumerate(zip(scores, self.y)) if (2 * c - 1) * s[0] < 1]

    def sample_stepper(self, i: int, lang: str, clf: Classifier, quiz: bool = False) -> str:
        """The stepper page of sample i's loss under the model `clf` (a snapshot), built with
        Values (the eager engine), asking each += when `quiz`; a 422 for a graph too large to
        step through."""
        if not 0 <= i < len(self.X):
            raise BadRequest(
                f"no sample {i}: the data set has {len(self.X)} points (0..{len(self.X) - 1})"
            )
        row = clf.rows([self.X[i]], [self.y[i]])[0]
        names = ["x1", "x2"] + (["y"] if clf.binary else [f"y{k}" for k in range(len(row) - 2)])
        loss = clf.sample_loss(*(Value(v, label=n) for v, n in zip(row, names)))
        loss.label = "loss"
        if clf.binary:
            _name_hinge(loss)
        size = len(topo_order(loss))
        if size > MAX_STEPPER_NODES:
            raise BadRequest(
                f"the backward pass of one sample of this model has {size} Values, more than the "
                f"stepper shows ({MAX_STEPPER_NODES}): reset with fewer or narrower layers",
                HTTPStatus.UNPROCESSABLE_ENTITY,
            )
        out = clf.model([Value(v) for v in self.X[i]])  # one sample: eager, nothing to trace
        score = [o.data for o in out] if isinstance(out, list) else [out.data]
        intro = _why_this_loss(clf.binary, row[2:], score, loss.data, lang)
        page = stepper(loss, params=clf.model, lang=lang, max_nodes=None, quiz=quiz, intro=intro)
        return page.page


def _name_hinge(loss: Value) -> None:
    """The hinge's inner Values named as the line above its stepper writes them: `loss` is
    Classifier.sample_loss's relu(1 + -y·score), so they are not n302 and (n302+1)."""
    (margin,) = loss._prev
    (product,) = [v for v in margin._prev if v._prev]  # its other input is the constant 1
    minus_y, score = product._prev
    margin.label, product.label = "1 - y·score", "-y·score"
    minus_y.label, score.label = "-y", "score"


def _why_this_loss(
    binary: bool, target: list[float], score: list[float], loss: float, lang: str
) -> str:
    """The line above a sample's stepper: its loss in numbers, and what that means for its grads."""
    if not binary:
        return say("pg_why_softmax", lang, loss=fmt_number(loss))
    y, s = target[0], score[0]
    fields = {"y": _factor(y), "score": _factor(s), "loss": fmt_number(loss)}
    return say("pg_why_zero" if loss == 0 else "pg_why_active", lang, **fields)


def _factor(x: float) -> str:
    """x as a factor of a product: a negative one in brackets, 1 - (-1)·(-1.744)."""
    return f"({fmt_number(x)})" if x < 0 else fmt_number(x)


def _diverged(step: int, why: str) -> BadRequest:
    return BadRequest(
        f"training diverged at step {step} ({why}); reset with a smaller learning rate",
        HTTPStatus.CONFLICT,
    )


def checked_config(config: Any) -> dict[str, Any]:
    """The run's settings, each checked, with defaults for those not given."""
    if not isinstance(config, dict):
        raise BadRequest("the body must be a JSON object")
    known = {"data", "hidden", "activation", "optimizer", "lr", "batch", "seed"}
    unknown = sorted(set(config) - known)
    if unknown:
        raise BadRequest(f"unknown settings {unknown}; known: {sorted(known)}")
    given = DEFAULTS["playground"]
    c: dict[str, Any] = {key: given[key] for key in ("data", "hidden", "activation", "optimizer")}
    c.update(lr=given["lr"], batch=given["batch_size"] or 0, seed=given["seed"])  # 0: whole set
    c.update(config)
    if c["data"] not in DATASETS:
        raise BadRequest(f"data must be one of {sorted(DATASETS)}, got {c['data']!r}")
    hidden = c["hidden"]
    if (
        not isinstance(hidden, list)
        or not 1 <= len(hidden) <= PLAYGROUND_LIMITS["layers"]
        or not all(type(h) is int and 1 <= h <= PLAYGROUND_LIMITS["width"] for h in hidden)
    ):
        layers, width = PLAYGROUND_LIMITS["layers"], PLAYGROUND_LIMITS["width"]
        raise BadRequest(
            f"hidden must be a list of 1 to {layers} widths from 1 to {width}, got {hidden!r}"
        )
    if c["activation"] not in ACTIVATIONS:
        raise BadRequest(f"activation must be one of {list(ACTIVATIONS)}, got {c['activation']!r}")
    if c["optimizer"] not in ("sgd", "adam"):
        raise BadRequest(f"optimizer must be 'sgd' or 'adam', got {c['optimizer']!r}")
    lr = c["lr"]
    if type(lr) not in (int, float) or not 0 < lr <= 10:
        raise BadRequest(f"lr must be a number in (0, 10], got {lr!r}")
    for key, top in (("batch", POINTS), ("seed", 2**32 - 1)):
        if type(c[key]) is not int or not 0 <= c[key] <= top:
            raise BadRequest(f"{key} must be an integer from 0 to {top}, got {c[key]!r}")
    return c


class Playground:
    """The runs of one server, by id; the oldest are forgotten beyond MAX_RUNS."""

    def __init__(self, lang: str | None = None) -> None:
        self.lang = language(lang)
        self.runs: OrderedDict[str, Run] = OrderedDict()
        self.lock = threading.Lock()
        # Sent back by the page with every request that changes something: only a page this
        # server gave out knows it (another page cannot read this one: same-origin policy).
        self.token = secrets.token_urlsafe(16)

    def create(self, config: Any) -> tuple[str, Run]:
        """A new run and its id."""
        run = Run(config)
        key = secrets.token_hex(8)
        with self.lock:
            self.runs[key] = run
            while len(self.runs) > MAX_RUNS:
                self.runs.popitem(last=False)
        return key, run

    def get(self, key: str) -> Run:
        """The run `key`, or a 404."""
        with self.lock:
            run = self.runs.get(key)
        if run is None:
            raise BadRequest(
                f"no run {key!r} (runs are forgotten when the server restarts)",
                HTTPStatus.NOT_FOUND,
            )
        return run

    def page(self) -> str:
        """The playground page, its words in the server's language."""
        words = {k: v for k, v in catalog(self.lang).items() if k.startswith("pg_")}
        data = {
            "words": words,
            "datasets": sorted(DATASETS),
            "activations": list(ACTIVATIONS),
            "lang": self.lang,
            "limits": PLAYGROUND_LIMITS,
            "points": POINTS,
            "token": self.token,
            "defaults": checked_config({}),  # micrograd.defaults, as the server fills them in
        }
        # the drawings it shares with the site's playground page, inlined: one file, nothing fetched
        draw = page_template("playground_draw.js", "micrograd.app")
        return page_with_data("playground.html", data, "micrograd.app").replace("/*DRAW*/", draw)


def _number(x: float) -> float | None:
    """x for JSON, which has no nan or inf: None (null) for those."""
    return x if math.isfinite(x) else None
