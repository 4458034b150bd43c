"""Saving and loading models as JSON: a versioned format, safe writes, strict checks on load.

Every file this package writes (models, pictures, `-o` of the CLI) goes through `atomic_write`.
"""

from __future__ import annotations

import errno
import json
import math
import os
import stat
import sys
from typing import Any

from micrograd.nn import ACTIVATIONS, MLP

FORMAT = "micrograd-model"
VERSION = 1
MAX_PARAMETERS = 10_000_000  # ~1.5 GB of Values: what load() builds from one file at most


def to_json(model: MLP) -> dict[str, Any]:
    """The model as a JSON-ready dict: format, version, architecture and parameters."""
    return {
        "format": FORMAT,
        "version": VERSION,
        "architecture": {"type": "MLP", "sizes": model.sizes, "activation": model.activation},
        "parameters": model.state_dict(),
    }


def atomic_write(path: str | bytes | os.PathLike[Any], data: bytes) -> None:
    """Write `data` to `path` so that a crash leaves the old file or the new one, never a mix.

    `-` is standard output. A symlink is written through: its target is replaced and the link
    stays. A FIFO, a device, a directory or anything under /dev is refused (ValueError), and so is
    a file without any write permission (PermissionError), as `open(path, "w")` would for its
    owner. A new file gets the usual mode (0o666 less the umask, which is never changed); a
    replaced one keeps its mode."""
    name = os.fsdecode(path)
    if name == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    target = os.path.realpath(name)
    for where in (os.path.abspath(name), target):  # /dev/stdout links on to a file or a pipe
        if where.startswith(("/dev/", "/proc/")):
            raise ValueError(
                f"{name}: refusing to replace {where}; give a file, or '-' for standard output"
            )
    try:
        old: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        old = None
    if old is not None and not stat.S_ISREG(old.st_mode):
        raise ValueError(f"{name}: not a regular file (a directory, FIFO or device); not written")
    if old is not None and not old.st_mode & 0o222:
        raise PermissionError(errno.EACCES, "read-only file; not replaced", name)
    tmp = f"{target}.{os.getpid()}.{id(data):x}.tmp"  # in the target's folder, for the rename
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # the umask applies
    except OSError as e:
        raise type(e)(e.errno, f"cannot write into the folder of {name}: {e.strerror}") from None
    try:
        if old is not None:
            os.fchmod(fd, stat.S_IMODE(old.st_mode))
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)  # atomic on POSIX
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
    _fsync_folder(os.path.dirname(target))  # so that the rename itself survives a power cut


def _fsync_folder(folder: str) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:  # not every system opens folders (Windows)
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def model_bytes(model: MLP, path: str = "the model") -> bytes:
    """The model file's contents; ValueError if load() could not read them back (a NaN parameter,
    more than MAX_PARAMETERS parameters), naming the problem."""
    doc = to_json(model)
    _check_document(path, doc)
    return json.dumps(doc, indent=1, allow_nan=False).encode()


def save(model: MLP, path: str | bytes | os.PathLike[Any]) -> None:
    """Write the model to `path` as JSON, atomically; refuses (ValueError, nothing written) a
    model that load() could not read back, such as one with a NaN parameter."""
    atomic_write(path, model_bytes(model, os.fsdecode(path)))


def _read(path: str) -> dict[str, Any]:
    def no_constants(name: str) -> None:
        raise ValueError(f"{name} is not allowed in a model file")

    try:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f, parse_constant=no_constants)
    except json.JSONDecodeError as e:
        raise ValueError(
            f"{path}: not valid JSON: {e.msg} (line {e.lineno}, column {e.colno})"
        ) from None
    except UnicodeDecodeError as e:
        raise ValueError(f"{path}: not a UTF-8 text file ({e.reason})") from None
    except RecursionError:
        raise ValueError(f"{path}: nested too deeply to be a model file") from None
    except ValueError as e:  # NaN/Infinity, or an integer of more than 4300 digits
        raise ValueError(f"{path}: {e}") from None
    if not isinstance(doc, dict) or doc.get("format") != FORMAT:
        raise ValueError(f'{path}: not a micrograd model file (no "format": "{FORMAT}")')
    version = doc.get("version")
    if type(version) is not int or version != VERSION:
        raise ValueError(
            f"{path}: file version {version!r}; this micrograd reads version {VERSION}"
        )
    return doc


def _check_document(path: str, doc: dict[str, Any]) -> tuple[list[int], str]:
    """The architecture of a model document, checked before anything is built: sizes, activation,
    and exactly the parameters those sizes need, at most MAX_PARAMETERS of them."""
    arch = doc.get("architecture")
    if not isinstance(arch, dict) or arch.get("type") != "MLP":
        raise ValueError(f'{path}: architecture must be {{"type": "MLP", ...}}, got {arch!r}')
    sizes, activation = arch.get("sizes"), arch.get("activation")
    if not (
        isinstance(sizes, list)
        and len(sizes) >= 2
        and all(type(s) is int and s >= 1 for s in sizes)
    ):
        raise ValueError(
            f"{path}: architecture sizes must be a list of two or more integers >= 1, got {sizes!r}"
        )
    if activation not in ACTIVATIONS:
        raise ValueError(f"{path}: unknown activation {activation!r}")
    count = sum((a + 1) * b for a, b in zip(sizes, sizes[1:]))
    if count > MAX_PARAMETERS:
        raise ValueError(
            f"{path}: MLP{tuple(sizes)} has {count:,} parameters, more than this format's "
            f"{MAX_PARAMETERS:,}; for models that size, use PyTorch (micrograd.export.to_torch)"
        )
    params = doc.get("parameters")
    if not isinstance(params, dict) or len(params) != count:
        found = len(params) if isinstance(params, dict) else type(params).__name__
        raise ValueError(f"{path}: MLP{tuple(sizes)} has {count} parameters, the file {found}")
    for name, value in params.items():
        if type(value) not in (int, float) or not math.isfinite(_as_float(value)):
            shown = repr(value) if len(repr(value)) < 40 else repr(value)[:40] + "..."
            raise ValueError(f"{path}: parameter {name!r} is {shown}, not a finite number")
    return sizes, activation


def _as_float(x: int | float) -> float:
    try:
        return float(x)
    except OverflowError:  # an int beyond float's range
        return math.inf


def load(path: str | bytes | os.PathLike[Any]) -> MLP:
    """A new MLP built from the file's architecture, with its parameters."""
    name = os.fsdecode(path)
    doc = _read(name)
    sizes, activation = _check_document(name, doc)
    model = MLP(sizes[0], sizes[1:], activation=activation)
    _load_parameters(model, name, doc)
    return model


def load_into(model: MLP, path: str | bytes | os.PathLike[Any]) -> None:
    """Load the file's parameters into `model`; if anything is wrong, raise and leave it unchanged."""
    name = os.fsdecode(path)
    doc = _read(name)
    sizes, activation = _check_document(name, doc)
    # with one layer there is no hidden activation, so any name describes the same function
    if sizes != model.sizes or (len(sizes) > 2 and activation != model.activation):
        raise ValueError(
            f"{name}: holds MLP({sizes[0]}, {sizes[1:]}, activation={activation!r}), not the "
            f"model's {model.spec}"
        )
    _load_parameters(model, name, doc)


def _load_parameters(model: MLP, path: str, doc: dict[str, Any]) -> None:
    try:
        model.load_state_dict(doc["parameters"])
    except (ValueError, OverflowError) as e:
        raise ValueError(f"{path}: {e}") from None
