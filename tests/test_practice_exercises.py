"""The exercises (micrograd.practice.exercises): the ids and mistake names of the contract, the
lecture's order, and each exercise's words in both languages."""

from __future__ import annotations

from micrograd.practice import EXERCISES, MISTAKES
from micrograd.text import catalog


def test_exercise_ids_and_mistake_names_of_the_contract():
    for id in ("op-add", "op-mul", "op-pow", "op-sub", "op-div", "op-tanh", "op-exp", "op-relu"):
        assert id in EXERCISES
    for id in ("op-log", "op-pow-value", "backward", "zero-grad", "neuron-mlp"):
        assert id in EXERCISES
    assert {  # the names the first checks gave keep their meaning; new mistakes join them
        "assign-not-add",
        "closure-not-attached",
        "wrong-local",
        "wrong-operand",
        "not-reset",
        "recursion-limit",
        "visit-order",
        "wrong-forward",
        "other",
    } <= set(MISTAKES)
    for mistake in MISTAKES:  # each named in both languages: the English name is the id
        assert catalog("en")[f"practice.mistake.{mistake}"] == mistake
        assert not catalog("zh")[f"practice.mistake.{mistake}"].isascii()
    for ex in EXERCISES.values():
        assert ex.title("en") and ex.title("zh") and ex.task("zh")
        assert 2 <= len(ex.hints("en")) == len(ex.hints("zh")) <= 3


def test_every_exercise_is_in_the_lecture_order_once():
    for lang in ("en", "zh"):
        titled = [
            k.split(".")[1]
            for k in catalog(lang)
            if k.endswith(".title") and k.startswith("exercise.")
        ]
        # the catalog's words, one exercise each, in any order (EXERCISES fixes the lecture's)
        assert sorted(titled) == sorted(EXERCISES) and len(titled) == len(set(titled))
    assert list(EXERCISES)[:2] == ["derivative", "predict-lecture"]
    lecture = [id for id, ex in EXERCISES.items() if ex.track == "lecture"]
    assert lecture[-2:] == ["softmax-nll", "neuron-mlp"]
    # then the GPT track, in the order microgpt builds its parts
    gpt = ["local-grads", "linear", "softmax", "rmsnorm", "attention-head", "adam-step", "gpt-loop"]
    assert list(EXERCISES) == lecture + gpt


def test_an_exercises_words_are_the_catalogs():
    ex = EXERCISES["op-pow"]
    assert "f'**{k}'" in ex.task("en") and "f'**{k}'" in ex.task("zh")  # braces kept as written
    assert ex.hints("en")[0] == "d(x**k)/dx = k * x**(k-1)."
    assert len(ex.hints("en")) == 3
