"""Data sets in pure Python: seeded toy 2-D sets (moons, circles, spiral, xor, yin-yang), the 8x8
handwritten digits shipped with the package, MNIST read from its standard files, and a split.

Each returns (X, y): X a list of points (lists of floats), y a list of class indices 0..K-1.
For a GPT: documents, one string each (`names()` shipped, `documents(path)` from a text file),
and `CharTokenizer`, which turns them into token ids and back.
"""

from __future__ import annotations

import gzip
import math
import os
import random
import struct
from collections.abc import Callable, Iterable, Sequence
from importlib import resources
from typing import Any, overload

Points = list[list[float]]
Labels = list[int]


def _check(n: int, noise: float) -> None:
    if not isinstance(n, int) or n < 2:
        raise ValueError(f"n must be an integer >= 2, got {n!r}")
    if not (isinstance(noise, (int, float)) and 0 <= noise < math.inf):
        raise ValueError(f"noise must be a finite number >= 0, got {noise!r}")


def _shuffled(X: Points, y: Labels, rng: random.Random) -> tuple[Points, Labels]:
    idx = list(range(len(X)))
    rng.shuffle(idx)
    return [X[i] for i in idx], [y[i] for i in idx]


def moons(n: int = 100, noise: float = 0.1, seed: int = 0) -> tuple[Points, Labels]:
    """Two interleaving half circles (as scikit-learn's make_moons), classes 0 and 1."""
    _check(n, noise)
    rng = random.Random(seed)
    n_out = n // 2
    n_in = n - n_out
    X, y = [], []
    for i in range(n_out):
        t = math.pi * i / max(n_out - 1, 1)
        X.append([math.cos(t), math.sin(t)])
        y.append(0)
    for i in range(n_in):
        t = math.pi * i / max(n_in - 1, 1)
        X.append([1 - math.cos(t), 0.5 - math.sin(t)])
        y.append(1)
    X = [[a + rng.gauss(0, noise), b + rng.gauss(0, noise)] for a, b in X]
    return _shuffled(X, y, rng)


def circles(
    n: int = 100, noise: float = 0.05, seed: int = 0, factor: float = 0.5
) -> tuple[Points, Labels]:
    """A circle inside another (as make_circles): class 0 outside, 1 inside."""
    _check(n, noise)
    if not 0 < factor < 1:
        raise ValueError(f"factor must be between 0 and 1, got {factor!r}")
    rng = random.Random(seed)
    X, y = [], []
    for i in range(n):
        inner = i >= n // 2
        t = 2 * math.pi * rng.random()
        r = factor if inner else 1.0
        X.append([r * math.cos(t) + rng.gauss(0, noise), r * math.sin(t) + rng.gauss(0, noise)])
        y.append(int(inner))
    return _shuffled(X, y, rng)


def spiral(
    n: int = 150, noise: float = 0.2, seed: int = 0, classes: int = 3
) -> tuple[Points, Labels]:
    """Interleaved spiral arms, one class per arm (the CS231n data set)."""
    _check(n, noise)
    if not isinstance(classes, int) or classes < 2:
        raise ValueError(f"classes must be an integer >= 2, got {classes!r}")
    rng = random.Random(seed)
    X, y = [], []
    for i in range(n):
        k = i % classes
        r = (i // classes + 1) / (n // classes + 1)
        t = k * 2 * math.pi / classes + 4 * r + rng.gauss(0, noise)
        X.append([r * math.sin(t), r * math.cos(t)])
        y.append(k)
    return _shuffled(X, y, rng)


def xor(n: int = 100, noise: float = 0.1, seed: int = 0) -> tuple[Points, Labels]:
    """Four blobs at the corners of a square; class 1 where the signs of x0 and x1 differ."""
    _check(n, noise)
    rng = random.Random(seed)
    X, y = [], []
    for i in range(n):
        a, b = (1.0 if i % 2 else -1.0), (1.0 if (i // 2) % 2 else -1.0)
        X.append([a * 0.5 + rng.gauss(0, noise), b * 0.5 + rng.gauss(0, noise)])
        y.append(int(a != b))
    return _shuffled(X, y, rng)


def yinyang(n: int = 200, noise: float = 0.0, seed: int = 0) -> tuple[Points, Labels]:
    """Points in the yin-yang symbol: 0 yin, 1 yang, 2 the two small dots."""
    _check(n, noise)
    rng = random.Random(seed)
    r_big, r_dot = 1.0, 0.18
    X: Points = []
    y: Labels = []
    while len(X) < n:
        a, b = rng.uniform(-1, 1), rng.uniform(-1, 1)
        if math.hypot(a, b) > r_big:
            continue
        up, down = math.hypot(a, b - 0.5), math.hypot(a, b + 0.5)
        if up < r_dot or down < r_dot:
            label = 2
        elif up < 0.5:
            label = 0  # the top half-disc belongs to yin
        elif down < 0.5:
            label = 1
        else:
            label = 0 if a > 0 else 1
        X.append([a + rng.gauss(0, noise), b + rng.gauss(0, noise)] if noise else [a, b])
        y.append(label)
    return X, y


def digits(scale: bool = True) -> tuple[Points, Labels]:
    """The 8x8 handwritten digits (UCI, CC BY 4.0; see micrograd/datasets/README.md): 1,797 images
    as 64 pixels each, row by row, and their digits 0..9. Pixels are 0..16, divided by 16 when
    `scale` (the default) so that they lie in [0, 1]."""
    raw = resources.files("micrograd").joinpath("datasets/digits.csv.gz").read_bytes()
    X, y = [], []
    for line in gzip.decompress(raw).decode("ascii").splitlines():
        *pixels, label = (int(v) for v in line.split(","))
        X.append([p / 16 for p in pixels] if scale else [float(p) for p in pixels])
        y.append(label)
    return X, y


MNIST_FILES = {
    "train": ("train-images-idx3-ubyte", "train-labels-idx1-ubyte"),
    "test": ("t10k-images-idx3-ubyte", "t10k-labels-idx1-ubyte"),
}


class Images(Sequence[list[float]]):
    """Images kept as their file's bytes, one byte a pixel (MNIST's 60,000 take 47 MB, where
    lists of floats take 1.75 GB). `X[i]` is image i's pixels as floats, divided by `divisor`;
    `X[a:b]` is a view; `numpy.asarray(X)` is the (N, pixels) float64 array."""

    def __init__(self, pixels: bytes | memoryview, size: int, divisor: float = 1.0) -> None:
        self.pixels = memoryview(pixels).cast("B")
        self.size = size  # pixels per image
        self.divisor = divisor

    def __len__(self) -> int:
        return len(self.pixels) // self.size

    @overload
    def __getitem__(self, i: int) -> list[float]: ...

    @overload
    def __getitem__(self, i: slice) -> Images: ...

    def __getitem__(self, i: int | slice) -> list[float] | Images:
        n = len(self)
        if isinstance(i, slice):
            start, stop, step = i.indices(n)
            size = self.size
            if step == 1:  # a view of the same bytes
                picked: bytes | memoryview = self.pixels[start * size : max(start, stop) * size]
            else:
                picked = b"".join(
                    self.pixels[k * size : (k + 1) * size] for k in range(start, stop, step)
                )
            return Images(picked, size, self.divisor)
        if not -n <= i < n:
            raise IndexError(f"image {i} of {n}")
        start = (i % n) * self.size
        d = self.divisor
        return [v / d for v in self.pixels[start : start + self.size]]

    def take(self, idx: Any = slice(None)) -> Any:
        """The images at `idx` (a slice, a list or an index array) as a float64 numpy array: only
        those are made floats."""
        import numpy as np

        pixels = np.frombuffer(self.pixels, np.uint8).reshape(len(self), self.size)
        return pixels[idx] / self.divisor

    def __array__(self, dtype: Any = None, copy: Any = None) -> Any:
        return self.take().astype(dtype or "float64", copy=False)


def mnist(
    path: str, split: str = "train", limit: int | None = None, scale: bool = True
) -> tuple[Images, Labels]:
    """MNIST from the folder `path` holding its standard IDX files (as downloaded, gzipped or
    not): `split` "train" (60,000) or "test" (10,000), the first `limit` images if given. Each
    image is 784 pixels row by row, divided by 255 when `scale`, kept compact (Images: `X[i]` is a
    list of floats, numpy.asarray(X) an array); labels are 0..9."""
    if split not in MNIST_FILES:
        raise ValueError(f"mnist: split must be 'train' or 'test', got {split!r}")
    if limit is not None and (not isinstance(limit, int) or limit < 1):
        raise ValueError(f"mnist: limit must be a positive integer, got {limit!r}")
    images_name, labels_name = MNIST_FILES[split]
    images, (rows, cols) = _idx(path, images_name, 3, limit)
    labels, _ = _idx(path, labels_name, 1, limit)
    if len(images) != len(labels) * rows * cols:
        raise ValueError(
            f"mnist: {images_name} has {len(images) // (rows * cols)} images but {labels_name} "
            f"has {len(labels)} labels"
        )
    if any(v > 9 for v in labels):
        raise ValueError(f"mnist: {labels_name} has labels above 9: not MNIST labels")
    return Images(images, rows * cols, 255.0 if scale else 1.0), list(labels)


def _idx(folder: str, name: str, ndim: int, limit: int | None) -> tuple[bytes, tuple[int, ...]]:
    """The unsigned-byte data of the IDX file `name` (or `name`.gz) in `folder`, and its sizes
    after the first; at most `limit` items."""
    for candidate in (name, name + ".gz", name.replace("-idx", ".idx")):
        file = os.path.join(folder, candidate)
        if os.path.isfile(file):
            break
    else:
        raise FileNotFoundError(
            f"mnist: {os.path.join(folder, name)}(.gz) not found; download the four MNIST files "
            "(train-images-idx3-ubyte.gz, train-labels-idx1-ubyte.gz, t10k-images-idx3-ubyte.gz, "
            "t10k-labels-idx1-ubyte.gz) into that folder"
        )
    opener = gzip.open if file.endswith(".gz") else open
    try:
        with opener(file, "rb") as f:
            head = f.read(4 + 4 * ndim)
            if len(head) < 4 + 4 * ndim:
                raise ValueError("the header is cut short")
            zero, kind, dims = head[0:2], head[2], head[3]
            if zero != b"\0\0" or kind != 0x08 or dims != ndim:
                raise ValueError(
                    f"not an IDX file of unsigned bytes with {ndim} dimensions (magic {head[:4].hex()})"
                )
            sizes = struct.unpack(f">{ndim}I", head[4:])
            if 0 in sizes:
                raise ValueError(f"the header gives the sizes {list(sizes)}: an empty data set")
            count = sizes[0] if limit is None else min(limit, sizes[0])
            item = math.prod(sizes[1:])
            if item > MAX_IMAGE_BYTES:
                raise ValueError(
                    f"the header gives items of {' x '.join(map(str, sizes[1:]))} bytes, more than "
                    f"{MAX_IMAGE_BYTES:,}: not MNIST images"
                )
            data = _read_at_most(f, count * item)
    except (OSError, EOFError) as e:  # gzip's errors (a bad CRC, a cut stream) are OSErrors
        raise ValueError(f"mnist: cannot read {file}: {e}") from None
    except ValueError as e:
        raise ValueError(f"mnist: {file}: {e}") from None
    if len(data) != count * item:
        raise ValueError(f"mnist: {file} is cut short: {len(data)} of {count * item} bytes")
    return data, sizes[1:]


MAX_IMAGE_BYTES = 1 << 20  # an IDX item larger than this (a 1024 x 1024 image) is refused


def _read_at_most(f: Any, size: int) -> bytes:
    """Up to `size` bytes of f, read in pieces: memory grows with what the file holds, not with
    what its header claims (a 16-byte file may claim terabytes)."""
    data = bytearray()
    while len(data) < size:
        piece = f.read(min(1 << 22, size - len(data)))
        if not piece:
            break
        data += piece
    return bytes(data)


DATASETS: dict[str, Callable[..., tuple[Points, Labels]]] = {
    "moons": moons,
    "circles": circles,
    "spiral": spiral,
    "xor": xor,
    "yinyang": yinyang,
}


def split(
    X: Sequence[Sequence[float]],
    y: Sequence[int],
    val: float = 0.0,
    test: float = 0.2,
    seed: int = 0,
) -> tuple[tuple[Points, Labels], tuple[Points, Labels], tuple[Points, Labels]]:
    """Shuffle and cut into (train, val, test) parts of the given fractions."""
    if len(X) != len(y):
        raise ValueError(f"split: {len(X)} points but {len(y)} labels")
    if not (0 <= val < 1 and 0 <= test < 1 and val + test < 1):
        raise ValueError(f"split: val={val} and test={test} must be fractions summing below 1")
    Xs, ys = _shuffled([list(p) for p in X], list(y), random.Random(seed))
    n_test, n_val = round(len(Xs) * test), round(len(Xs) * val)
    cut = len(Xs) - n_test - n_val
    return (
        (Xs[:cut], ys[:cut]),
        (Xs[cut : cut + n_val], ys[cut : cut + n_val]),
        (Xs[cut + n_val :], ys[cut + n_val :]),
    )


# ---------------------------------------------------------------------------- documents for a GPT
def names() -> list[str]:
    """The 5,163 US first names shipped with the package (1990 Census, public domain; see
    micrograd/datasets/README.md): lower case a-z, each once, the male list and then the female
    one, each in the Census's order (most frequent first)."""
    raw = resources.files("micrograd").joinpath("datasets/names.txt.gz").read_bytes()
    return gzip.decompress(raw).decode("ascii").split()


def documents(path: str | os.PathLike[str]) -> list[str]:
    """The documents of a UTF-8 text file, one a line (microgpt's input.txt): each line without
    the white space around it, empty lines skipped. ValueError for a file that is not UTF-8 or has
    no document. Any length is kept: a document longer than a GPT's block_size - 1 characters
    trains on its first block_size + 1 tokens (GPT.loss), as in microgpt."""
    name = os.fsdecode(path)
    try:
        with open(name, encoding="utf-8") as f:
            text = f.read()
    except UnicodeDecodeError as e:
        raise ValueError(f"documents: {name} is not a UTF-8 text file ({e.reason})") from None
    docs = [line.strip() for line in text.splitlines() if line.strip()]
    if not docs:
        raise ValueError(f"documents: {name} has no documents (every line is empty)")
    return docs


class CharTokenizer:
    """Characters as token ids, as microgpt's tokenizer: the documents' distinct characters,
    sorted, are ids 0..n-1, and id n is BOS, which marks where a document begins and ends."""

    def __init__(self, docs: Iterable[str]) -> None:
        docs = list(docs)
        for doc in docs:
            if not isinstance(doc, str):
                raise TypeError(f"CharTokenizer: documents must be strings, got {doc!r}")
        self.chars = "".join(sorted(set("".join(docs))))
        if not self.chars:
            raise ValueError("CharTokenizer: the documents have no characters")
        self.bos = len(self.chars)
        self._ids = {c: i for i, c in enumerate(self.chars)}

    @property
    def vocab_size(self) -> int:
        """The number of token ids: the characters and BOS."""
        return len(self.chars) + 1

    def encode(self, doc: str) -> list[int]:
        """[BOS, the characters' ids..., BOS]; ValueError naming a character it does not know."""
        try:
            return [self.bos, *(self._ids[c] for c in doc), self.bos]
        except KeyError as e:
            shown = doc if len(doc) <= 40 else doc[:40] + "..."
            raise ValueError(
                f"CharTokenizer: {e.args[0]!r} in {shown!r} is not one of its characters "
                f"{self.chars!r}"
            ) from None

    def decode(self, ids: Iterable[int]) -> str:
        """The characters of `ids`, BOS left out; ValueError naming an id out of range."""
        out = []
        for i in ids:
            if isinstance(i, bool) or not isinstance(i, int) or not 0 <= i <= self.bos:
                raise ValueError(f"CharTokenizer: {i!r} is not a token id in 0..{self.bos}")
            if i != self.bos:
                out.append(self.chars[i])
        return "".join(out)

    def __repr__(self) -> str:
        return f"CharTokenizer({self.chars!r})"  # its characters: the same tokenizer again
