"""The training defaults, in one place: `micrograd demo` and `micrograd train` (and their help),
both playgrounds (the local server's page and the site's, in Pyodide), and the README's table
(checked by tests/test_defaults.py) read them here."""

from __future__ import annotations

from typing import Any

# per kind of data set: the 2-D points (and the demo, the original's MLP(2, [16, 16, 1]) with SGD),
# the images (softmax over 10 classes), and the playground (small, to watch it learn live)
DEFAULTS: dict[str, dict[str, Any]] = {
    "points": {"hidden": [16, 16], "optimizer": "sgd", "steps": 200, "batch_size": None},
    "images": {"hidden": [64], "optimizer": "adam", "steps": 300, "batch_size": 128},
    "playground": {
        **{"data": "moons", "hidden": [8, 8], "activation": "relu", "optimizer": "adam"},
        **{"lr": 0.03, "batch_size": None, "seed": 0},
    },
}
# the playgrounds' models: at most this many hidden layers, each at most this wide
PLAYGROUND_LIMITS = {"layers": 4, "width": 32}
# the learning rate of each optimizer when none is given; SGD's decays linearly to a tenth of it
# over the run, as the original demo's did
LEARNING_RATES = {"sgd": 1.0, "adam": 0.03}


def widths(hidden: list[int]) -> str:
    """Hidden widths as the command line takes them: 16,16."""
    return ",".join(map(str, hidden))


def default_fields() -> dict[str, Any]:
    """The defaults as fields for help texts: points_hidden, images_steps, sgd_lr..."""
    fields: dict[str, Any] = {f"{o}_lr": lr for o, lr in LEARNING_RATES.items()}
    for kind, values in DEFAULTS.items():
        for key, value in values.items():
            fields[f"{kind}_{key}"] = widths(value) if key == "hidden" else value
        fields[f"{kind}_sizes"] = [*values["hidden"], 1]
    return fields
