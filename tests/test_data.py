"""Toy data sets: seeded, shaped as promised, and a split that partitions."""

import pytest

from micrograd.data import DATASETS, moons, split


@pytest.mark.parametrize("name", sorted(DATASETS))
def test_datasets_are_seeded_and_shaped(name):
    X, y = DATASETS[name](n=120, seed=3)
    assert len(X) == len(y) == 120
    assert all(len(p) == 2 and all(isinstance(v, float) for v in p) for p in X)
    assert DATASETS[name](n=120, seed=3) == (X, y)
    assert DATASETS[name](n=120, seed=4) != (X, y)
    classes = {"spiral": 3, "yinyang": 3}.get(name, 2)
    assert set(y) == set(range(classes))


def test_moons_geometry():
    X, y = moons(200, noise=0.0, seed=0)
    upper = [p for p, c in zip(X, y) if c == 0]
    assert all(abs(p[0] ** 2 + p[1] ** 2 - 1) < 1e-9 for p in upper)


def test_split_partitions():
    X, y = moons(100, seed=1)
    (a, ya), (b, yb), (c, yc) = split(X, y, val=0.1, test=0.2, seed=2)
    assert (len(a), len(b), len(c)) == (70, 10, 20)
    assert sorted(map(tuple, a + b + c)) == sorted(map(tuple, X))


def test_bad_arguments():
    with pytest.raises(ValueError):
        moons(1)
    with pytest.raises(ValueError):
        moons(10, noise=-1)
    with pytest.raises(ValueError):
        split([[0.0, 0.0]], [0, 1])


def test_digits_ships_with_the_package():
    from micrograd.data import digits

    X, y = digits()
    assert len(X) == len(y) == 1797 and all(len(x) == 64 for x in X)
    assert sorted(set(y)) == list(range(10)) and y[:10] == list(range(10))
    assert min(min(x) for x in X) == 0.0 and max(max(x) for x in X) == 1.0
    raw, _ = digits(scale=False)
    assert raw[0][:8] == [0.0, 0.0, 5.0, 13.0, 9.0, 1.0, 0.0, 0.0]  # the first row of the "0"


def _write_idx(path, ndim_sizes, data, gz=False, magic=None):
    import gzip
    import struct

    head = magic if magic is not None else bytes([0, 0, 8, len(ndim_sizes)])
    blob = head + struct.pack(f">{len(ndim_sizes)}I", *ndim_sizes) + bytes(data)
    opener = gzip.open if gz else open
    with opener(str(path) + (".gz" if gz else ""), "wb") as f:
        f.write(blob)


@pytest.mark.parametrize("gz", [False, True])
def test_mnist_reads_the_standard_idx_files(tmp_path, gz):
    from micrograd.data import mnist

    images = [i % 256 for i in range(3 * 4 * 5)]  # three 4x5 images
    _write_idx(tmp_path / "t10k-images-idx3-ubyte", (3, 4, 5), images, gz)
    _write_idx(tmp_path / "t10k-labels-idx1-ubyte", (3,), [7, 0, 9], gz)
    X, y = mnist(str(tmp_path), "test")
    assert y == [7, 0, 9] and len(X) == 3 and len(X[0]) == 20
    assert X[1][0] == 20 / 255 and X[2][19] == 59 / 255
    X2, y2 = mnist(str(tmp_path), "test", limit=2, scale=False)
    assert y2 == [7, 0] and X2[1][:2] == [20.0, 21.0]


def test_mnist_says_what_is_wrong_with_its_files(tmp_path):
    from micrograd.data import mnist

    with pytest.raises(FileNotFoundError, match="download the four MNIST files"):
        mnist(str(tmp_path))
    _write_idx(tmp_path / "train-images-idx3-ubyte", (2, 2, 2), range(8))
    _write_idx(tmp_path / "train-labels-idx1-ubyte", (3,), [1, 2, 3])
    with pytest.raises(ValueError, match="2 images but .* 3 labels"):
        mnist(str(tmp_path))
    _write_idx(tmp_path / "train-labels-idx1-ubyte", (2,), [1, 12])
    with pytest.raises(ValueError, match="labels above 9"):
        mnist(str(tmp_path))
    _write_idx(tmp_path / "train-labels-idx1-ubyte", (2,), [1, 2], magic=b"\x00\x00\x0d\x01")
    with pytest.raises(ValueError, match="not an IDX file of unsigned bytes"):
        mnist(str(tmp_path))
    _write_idx(tmp_path / "train-labels-idx1-ubyte", (5,), [1, 2])  # says 5, holds 2
    with pytest.raises(ValueError, match="cut short"):
        mnist(str(tmp_path))
    (tmp_path / "train-labels-idx1-ubyte").write_bytes(b"\x00\x00")
    with pytest.raises(ValueError, match="header is cut short"):
        mnist(str(tmp_path))
    (tmp_path / "train-labels-idx1-ubyte").unlink()
    (tmp_path / "train-labels-idx1-ubyte.gz").write_bytes(b"not gzip at all")
    with pytest.raises(ValueError, match="cannot read"):
        mnist(str(tmp_path))
    with pytest.raises(ValueError, match="split must be"):
        mnist(str(tmp_path), "validation")


@pytest.mark.parametrize("gz", [False, True])
def test_mnist_headers_that_claim_too_much_or_nothing_are_clear_errors(tmp_path, gz):
    """A 16-byte file claiming 60000 images of 65535 x 65535 pixels, or 0 images, or images
    of 0 rows, is a ValueError naming the file, before anything of the claimed size is made."""
    import resource

    from micrograd.data import mnist

    _write_idx(tmp_path / "train-labels-idx1-ubyte", (2,), [1, 2], gz)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for sizes, words in [
        ((60000, 65535, 65535), "not MNIST images"),
        ((60000, 1024, 1024), "cut short"),  # a size allowed, but the file holds none of it
        ((0, 28, 28), "empty data set"),
        ((2, 0, 28), "empty data set"),
    ]:
        _write_idx(tmp_path / "train-images-idx3-ubyte", sizes, [], gz)
        with pytest.raises(ValueError, match=f"train-images-idx3-ubyte.*{words}"):
            mnist(str(tmp_path))
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 200_000  # KB


def test_names_ship_with_the_package():
    import re

    from micrograd.data import names

    found = names()
    assert len(found) == 5163  # the Census's 1,219 male and 4,275 female names, 331 in both
    assert all(re.fullmatch("[a-z]+", n) for n in found)
    assert len(set(found)) == len(found)
    assert found[:3] == ["james", "john", "robert"] and "mary" in found  # the lists' order
    assert names() == found  # the same every time


def test_the_character_tokenizer_round_trips_every_name():
    from micrograd.data import CharTokenizer, names

    tok = CharTokenizer(names())
    assert tok.chars == "abcdefghijklmnopqrstuvwxyz" and tok.bos == 26 and tok.vocab_size == 27
    assert tok.encode("emma") == [26, 4, 12, 12, 0, 26]  # microgpt's BOS on both sides
    assert all(tok.decode(tok.encode(n)) == n for n in names())
    assert tok.encode("") == [26, 26] and tok.decode([]) == ""
    assert repr(tok) == "CharTokenizer('abcdefghijklmnopqrstuvwxyz')"
    assert CharTokenizer(["ba", "ca"]).chars == "abc"  # sorted, each once
    with pytest.raises(ValueError, match="'É' in 'Émile' is not one of its characters"):
        tok.encode("Émile")
    with pytest.raises(ValueError, match="27 is not a token id in 0..26"):
        tok.decode([0, 27])
    with pytest.raises(ValueError, match="have no characters"):
        CharTokenizer(["", ""])
    with pytest.raises(TypeError, match="documents must be strings"):
        CharTokenizer([["a"]])


def test_documents_reads_one_a_line(tmp_path):
    from micrograd.data import documents

    path = tmp_path / "docs.txt"
    path.write_text("  anna\n\nbob  \r\nç\n\n", encoding="utf-8")
    assert documents(path) == ["anna", "bob", "ç"]
    long = "x" * 100  # kept whole: GPT.loss trains on its first block_size + 1 tokens
    path.write_text(long + "\n")
    assert documents(path) == [long]
    for content, words in [(b"", "has no documents"), (b"\n  \n", "has no documents")]:
        path.write_bytes(content)
        with pytest.raises(ValueError, match=words):
            documents(path)
    path.write_bytes(b"caf\xe9\n")
    with pytest.raises(ValueError, match="is not a UTF-8 text file"):
        documents(path)
    with pytest.raises(FileNotFoundError):
        documents(tmp_path / "missing.txt")
