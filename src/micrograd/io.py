"""Saving and loading models as JSON: a versioned format, atomic writes, strict checks on load."""

from __future__ import annotations

import json
import math
import os
import tempfile
from typing import Any

from micrograd.nn import ACTIVATIONS, MLP

FORMAT = "micrograd-model"
VERSION = 1


def to_json(model: MLP) -> dict[str, Any]:
    """The model as a JSON-ready dict: format, version, architecture and parameters."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "architecture": {"type": "MLP", "sizes": model.sizes, "activation": model.activation},
        "parameters": model.state_dict(),
    }


def _file_mode(path: str | os.PathLike[str]) -> int:
    try:
        return os.stat(path).st_mode & 0o777  # keep the mode of the file being replaced
    except FileNotFoundError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def atomic_write(path: str | os.PathLike[str], data: bytes) -> None:
    """Write `data` to `path` through a temporary file and a rename: a crash mid-write leaves the
    earlier file, if any, intact."""
    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".micrograd-", suffix=".tmp")
    try:
        os.chmod(tmp, _file_mode(path))  # mkstemp makes it private; give it a normal file's mode
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)  # atomic on POSIX and Windows
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def save(model: MLP, path: str | os.PathLike[str]) -> None:
    """Write the model to `path` as JSON, atomically."""
    atomic_write(path, json.dumps(to_json(model), indent=1, allow_nan=False).encode())


def _read(path: str | os.PathLike[str]) -> dict[str, Any]:
    def no_constants(name: str) -> None:
        raise ValueError(f"{path}: {name} is not allowed in a model file")

    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f, parse_constant=no_constants)
    except json.JSONDecodeError as e:
        raise ValueError(
            f"{path}: not valid JSON ({e.msg} at line {e.lineno}, column {e.colno})"
        ) from None
    except UnicodeDecodeError as e:
        raise ValueError(f"{path}: not a UTF-8 text file ({e.reason})") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ValueError(f'{path}: not a micrograd model file (no "format": "{FORMAT}")')
    if doc.get("version") != VERSION:
        raise ValueError(
            f"{path}: file version {doc.get('version')!r}; this micrograd reads version {VERSION}"
        )
    return doc


def _architecture(path: Any, doc: dict[str, Any]) -> tuple[list[int], str]:
    arch = doc.get("architecture")
    if not isinstance(arch, dict) or arch.get("type") != "MLP":
        raise ValueError(f'{path}: architecture must be {{"type": "MLP", ...}}, got {arch!r}')
    sizes, activation = arch.get("sizes"), arch.get("activation")
    if (
        not isinstance(sizes, list)
        or len(sizes) < 2
        or not all(
            isinstance(s, int) and not isinstance(s, bool) and 1 <= s <= 100_000 for s in sizes
        )
    ):
        raise ValueError(
            f"{path}: architecture sizes must be a list of 2+ positive integers, got {sizes!r}"
        )
    if activation not in ACTIVATIONS:
        raise ValueError(f"{path}: unknown activation {activation!r}")
    return sizes, activation


def load(path: str | os.PathLike[str]) -> MLP:
    """A new MLP built from the file's architecture, with its parameters."""
    doc = _read(path)
    sizes, activation = _architecture(path, doc)
    model = MLP(sizes[0], sizes[1:], activation=activation)
    _load_parameters(model, path, doc)
    return model


def load_into(model: MLP, path: str | os.PathLike[str]) -> None:
    """Load the file's parameters into `model`; if anything is wrong, raise and leave it unchanged."""
    doc = _read(path)
    sizes, activation = _architecture(path, doc)
    if sizes != model.sizes or activation != model.activation:
        raise ValueError(
            f"{path}: holds MLP{tuple(sizes)} with {activation}, not the model's "
            f"MLP{tuple(model.sizes)} with {model.activation}"
        )
    _load_parameters(model, path, doc)


def _load_parameters(model: MLP, path: str | os.PathLike[str], doc: dict[str, Any]) -> None:
    try:
        model.load_state_dict(doc.get("parameters"))  # type: ignore[arg-type]
    except ValueError as e:
        raise ValueError(f"{path}: {e}") from None
