"""Saving and loading models as JSON: a versioned format, safe writes, strict checks on load.

An MLP (save, load, load_into) or a GPT with its tokenizer's characters (save_gpt, load_gpt): one
format, their "architecture" says which. Every file this package writes (models, pictures, `-o` of
the CLI) goes through `atomic_write`.
"""

from __future__ import annotations

import errno
import json
import math
import os
import random
import secrets
import stat
import sys
from collections.abc import Sequence
from typing import Any

from micrograd.data import CharTokenizer
from micrograd.gpt import GPT
from micrograd.nn import ACTIVATIONS, MLP, Module

FORMAT = "micrograd-model"
VERSION = 1
MAX_PARAMETERS = 10_000_000  # ~1.5 GB of Values: what load() builds from one file at most
# the longest block a GPT file may have: sampling a name costs the square of its length (a file
# of 78 KB with a block of 3,000 kept `micrograd sample` busy for minutes a name); microgpt's is 16
MAX_BLOCK = 256


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
    stays. Refused, with nothing changed: a FIFO, a device, a directory or anything under /proc
    (ValueError); a file with a second hard link, whose other names would keep the old contents
    (ValueError); a file without any write permission, or owned by another user when this process
    cannot give the new file that owner (PermissionError), as `open(path, "w")` would refuse it.
    A new file gets the usual mode (0o666 less the umask, which is never changed); a replaced one
    keeps its mode, owner and group."""
    name = os.fsdecode(path)
    if name == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
        return
    write_files({name: data})


def write_files(files: dict[str, bytes]) -> None:
    """Write several files as atomic_write does, all or none: each is written to a temporary
    file beside its target first, and only when every one is complete are they renamed into
    place; if writing any fails, the targets are as they were and no temporary file is left."""
    checked = [(check_target(name), data) for name, data in files.items()]
    written: list[tuple[str, str]] = []
    try:
        for (name, target, old), data in checked:
            written.append((_temporary(name, target, old, data), target))
        for tmp, target in written:
            os.replace(tmp, target)  # atomic on POSIX
    except BaseException:
        for tmp, _ in written:
            if os.path.exists(tmp):
                os.unlink(tmp)
        raise
    for folder in dict.fromkeys(os.path.dirname(target) for _, target in written):
        _fsync_folder(folder)  # so that the renames themselves survive a power cut


def check_target(name: str) -> tuple[str, str, os.stat_result | None]:
    """(name, the file a write to `name` replaces, through symlinks, and its status), or the
    error that atomic_write would refuse it with."""
    target = os.path.realpath(name)
    # /dev/stdout, /dev/fd/N and /proc/self/fd/N name a process's open files (a terminal, a pipe,
    # a file a shell redirected): not files to replace. /dev/shm is a folder like any other.
    given = os.path.abspath(name)
    linked_out = given.startswith("/dev/") and not target.startswith("/dev/")
    if linked_out or given.startswith("/proc/") or target.startswith("/proc/"):
        raise ValueError(
            f"{name}: refusing to replace {target}; give a file, or '-' for standard output"
        )
    try:
        old: os.stat_result | None = os.stat(target)
    except FileNotFoundError:
        old = None
    if old is None:
        return name, target, old
    if not stat.S_ISREG(old.st_mode):
        raise ValueError(f"{name}: not a regular file (a directory, FIFO or device); not written")
    if not old.st_mode & 0o222:
        raise PermissionError(errno.EACCES, "read-only file; not replaced", name)
    if old.st_nlink > 1:
        raise ValueError(
            f"{name}: has {old.st_nlink} hard links, and replacing it would leave the other names "
            "with the old contents; not written (remove the other links, or write elsewhere)"
        )
    if old.st_uid != os.geteuid() and not os.access(target, os.W_OK):
        raise PermissionError(errno.EACCES, "another user's file; not replaced", name)
    return name, target, old


def _temporary(name: str, target: str, old: os.stat_result | None, data: bytes) -> str:
    """A complete copy of `data` in a new file beside `target` (for the rename), with the mode,
    owner and group of the file it replaces. A short name: the target's may be at the limit."""
    tmp = os.path.join(os.path.dirname(target), f".micrograd-{secrets.token_hex(6)}.tmp")
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # the umask applies
    except OSError as e:
        raise type(e)(e.errno, f"cannot write into the folder of {name}: {e.strerror}") from None
    try:
        with os.fdopen(fd, "wb") as f:
            if old is not None:
                os.fchmod(f.fileno(), stat.S_IMODE(old.st_mode))
                _keep_owner(f.fileno(), name, old)
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
    except BaseException:
        os.unlink(tmp)
        raise
    return tmp


def _keep_owner(fd: int, name: str, old: os.stat_result) -> None:
    """Give the new file the old one's owner and group; refuse to take another user's file."""
    mine = os.fstat(fd)
    if (mine.st_uid, mine.st_gid) == (old.st_uid, old.st_gid):
        return
    try:
        os.fchown(fd, old.st_uid, old.st_gid)
    except PermissionError:
        if mine.st_uid != old.st_uid:  # the file would change hands: open() would not do that
            raise PermissionError(
                errno.EPERM, "another user's file, which would become yours; not replaced", name
            ) from None
        # only the group differs, and this user is not in it: the file keeps this user's group


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
    _check_parameters(path, doc, count, f"MLP{tuple(sizes)}")
    return sizes, activation


def _check_parameters(path: str, doc: dict[str, Any], count: int, model: str) -> None:
    """The document's parameters: a dict of exactly `count` finite numbers."""
    params = doc.get("parameters")
    if not isinstance(params, dict) or len(params) != count:
        found = len(params) if isinstance(params, dict) else type(params).__name__
        raise ValueError(f"{path}: {model} has {count} parameters, the file {found}")
    for name, value in params.items():
        if type(value) not in (int, float) or not math.isfinite(_as_float(value)):
            shown = repr(value) if len(repr(value)) < 40 else repr(value)[:40] + "..."
            raise ValueError(f"{path}: parameter {name!r} is {shown}, not a finite number")


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


def _load_parameters(model: Module, path: str, doc: dict[str, Any]) -> None:
    try:
        model.load_state_dict(doc["parameters"])
    except (ValueError, OverflowError) as e:
        raise ValueError(f"{path}: {e}") from None


# ---------------------------------------------------------------------------- a GPT and its tokenizer
GPT_SIZES = ("vocab_size", "block_size", "n_layer", "n_embd", "n_head")


def gpt_parameter_count(
    vocab_size: int, block_size: int, n_layer: int, n_embd: int, n_head: int
) -> int:
    """The parameters of GPT(...) with these sizes: wte, wpe, lm_head, and per layer the four
    attention matrices (n_embd x n_embd) and the MLP's two (4 n_embd x n_embd)."""
    return n_embd * (2 * vocab_size + block_size) + n_layer * 12 * n_embd * n_embd


def gpt_to_json(
    model: GPT, tokenizer: CharTokenizer, documents: Sequence[str] | None = None
) -> dict[str, Any]:
    """The GPT and its tokenizer as a JSON-ready dict: format, version, architecture (the
    GPT's config), the tokenizer's characters, the parameters, and the documents it was trained
    on if given (`micrograd sample` marks a made-up name that is one of them)."""
    if tokenizer.vocab_size != model.vocab_size:
        raise ValueError(
            f"the tokenizer has {tokenizer.vocab_size} token ids, the model {model.spec} "
            f"{model.vocab_size}: they do not belong together"
        )
    doc = {
        "format": FORMAT,
        "version": VERSION,
        "architecture": {"type": "GPT", **model.config},
        "tokenizer": {"type": "characters", "chars": tokenizer.chars},
        "parameters": model.state_dict(),
    }
    if documents is not None:
        doc["documents"] = list(documents)
    return doc


def gpt_bytes(
    model: GPT,
    tokenizer: CharTokenizer,
    path: str = "the model",
    documents: Sequence[str] | None = None,
) -> bytes:
    """The GPT file's contents; ValueError if load_gpt() could not read them back."""
    doc = gpt_to_json(model, tokenizer, documents)
    _check_gpt_document(path, doc)
    return json.dumps(doc, indent=1, allow_nan=False).encode()


def save_gpt(
    model: GPT,
    tokenizer: CharTokenizer,
    path: str | bytes | os.PathLike[Any],
    documents: Sequence[str] | None = None,
) -> None:
    """Write the GPT, its tokenizer's characters (and the training documents, if given) to
    `path` as JSON, atomically; refuses (ValueError, nothing written) what load_gpt() could not
    read back."""
    atomic_write(path, gpt_bytes(model, tokenizer, os.fsdecode(path), documents))


def check_gpt_config(config: dict[str, Any], where: str = "GPT") -> int:
    """The number of parameters of GPT(**config), after checking what this file format holds:
    each size an integer >= 1, n_embd a multiple of n_head, block_size at most MAX_BLOCK and at
    most MAX_PARAMETERS parameters; a ValueError naming `where` and the size otherwise."""
    for key in GPT_SIZES:
        n = config.get(key)
        if type(n) is not int or n < 1:
            raise ValueError(f"{where}: architecture {key} must be an integer >= 1, got {n!r}")
    if config["n_embd"] % config["n_head"]:
        raise ValueError(
            f"{where}: n_embd={config['n_embd']} is not a multiple of n_head={config['n_head']}"
        )
    if config["block_size"] > MAX_BLOCK:
        raise ValueError(
            f"{where}: block_size {config['block_size']:,} is more than this format's {MAX_BLOCK} "
            "(drawing a name takes time that grows with the square of the block)"
        )
    count = gpt_parameter_count(**{key: config[key] for key in GPT_SIZES})
    if count > MAX_PARAMETERS:
        raise ValueError(
            f"{where}: this GPT has {count:,} parameters, more than this format's "
            f"{MAX_PARAMETERS:,}"
        )
    return count


def _check_gpt_document(path: str, doc: dict[str, Any]) -> tuple[dict[str, Any], str]:
    """The GPT's config and its tokenizer's characters, checked before anything is built, with
    exactly the parameters that config needs, at most MAX_PARAMETERS of them."""
    arch = doc.get("architecture")
    if not isinstance(arch, dict) or arch.get("type") != "GPT":
        shown = repr(arch) if len(repr(arch)) < 80 else repr(arch)[:80] + "..."
        raise ValueError(f'{path}: architecture must be {{"type": "GPT", ...}}, got {shown}')
    unknown = sorted(set(arch) - {"type", *GPT_SIZES})
    if unknown:
        raise ValueError(f"{path}: unknown entries in the GPT's architecture: {unknown[:5]}")
    config = {key: arch.get(key) for key in GPT_SIZES}
    count = check_gpt_config(config, path)
    documents = doc.get("documents", [])
    if not isinstance(documents, list) or not all(isinstance(d, str) for d in documents):
        raise ValueError(f"{path}: documents must be a list of strings (the training documents)")
    tokenizer = doc.get("tokenizer")
    chars = tokenizer.get("chars") if isinstance(tokenizer, dict) else None
    if (
        not isinstance(tokenizer, dict)
        or tokenizer.get("type") != "characters"
        or not isinstance(chars, str)
        or not chars
        or "".join(sorted(set(chars))) != chars
    ):
        shown = repr(tokenizer) if len(repr(tokenizer)) < 80 else repr(tokenizer)[:80] + "..."
        raise ValueError(
            f'{path}: tokenizer must be {{"type": "characters", "chars": "..."}} with its '
            f"distinct characters in sorted order, got {shown}"
        )
    unpaired = [c for c in chars if 0xD800 <= ord(c) <= 0xDFFF]
    if unpaired:  # half of a character: nothing can print or save it
        raise ValueError(
            f"{path}: the tokenizer's characters hold {ascii(unpaired[0])}, no character"
        )
    if len(chars) + 1 != config["vocab_size"]:
        raise ValueError(
            f"{path}: the tokenizer's {len(chars)} characters and BOS are {len(chars) + 1} "
            f"token ids, but vocab_size is {config['vocab_size']}"
        )
    spec = "GPT(" + ", ".join(f"{k}={v}" for k, v in config.items()) + ")"
    _check_parameters(path, doc, count, spec)
    return config, chars


def gpt_documents(path: str | bytes | os.PathLike[Any]) -> list[str] | None:
    """The documents the GPT in the file was trained on, as `micrograd train` saved them, or
    None for a file without them (one written by save_gpt() without `documents`)."""
    name = os.fsdecode(path)
    doc = _read(name)
    _check_gpt_document(name, doc)
    return doc.get("documents")


def load_gpt(path: str | bytes | os.PathLike[Any]) -> tuple[GPT, CharTokenizer]:
    """A new GPT built from the file's config, with its parameters, and its tokenizer. Python's
    random is left as it was: building the GPT draws weights, which the file's then replace."""
    name = os.fsdecode(path)
    doc = _read(name)
    config, chars = _check_gpt_document(name, doc)
    state = random.getstate()
    try:
        model = GPT(**config)
    finally:
        random.setstate(state)
    _load_parameters(model, name, doc)
    return model, CharTokenizer([chars])
