"""The words of explain(), backward_sequence() and the pictures' legend, in English and Chinese.

One table: every sentence the teaching tools print is here, by key, in each language. The Chinese
follows the terms of the Chinese micrograd tutorial series (计算图, 反向传播, 链式法则, 拓扑排序,
父节点 for an op's inputs, 梯度累加 for +=). With no language given, LC_ALL, LC_MESSAGES or LANG
starting with "zh" choose Chinese.
"""

from __future__ import annotations

import os

LANGUAGES = ("en", "zh")

MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "order": "1. topological order (inputs first): [{order}]",
        "start": "2. start: {root}.grad = 1 (d {root} / d {root})",
        "walk": "3. walk the order backwards; each node adds local derivative * its grad to its inputs:",
        "step": "   {node} = {formula}, grad {grad}: {node}._backward()",
        "add": "      {input}.grad += {how} = {added}  -> {total}{why}",
        "repeated": "   (+=: {input} is used more than once; contributions add up)",
        "custom": "(custom _backward)",
        "overwrote": "      {input}.grad = {total}   (custom _backward: it set the grad with = "
        "instead of adding with +=; what came before is lost)",
        "user": "user code",
        "sequence_order": "topological order",
        "legend": "colours",
        "leaf": "input or constant",
        "param": "parameter",
        "output": "output",
        "inner": "computed",
    },
    "zh": {
        "order": "1. 拓扑排序（父节点在前）：[{order}]",
        "start": "2. 起点：把输出节点的梯度设为 1：{root}.grad = 1（d {root} / d {root}）",
        "walk": "3. 按拓扑排序的逆序遍历；每个节点把 局部偏导 × 自己的梯度 加到父节点的梯度上：",
        "step": "   {node} = {formula}，梯度 {grad}：{node}._backward()",
        "add": "      {input}.grad += {how} = {added}  -> {total}{why}",
        "repeated": "   （+=：{input} 被多次使用，梯度累加）",
        "custom": "（自定义 _backward）",
        "overwrote": "      {input}.grad = {total}   （自定义 _backward 用 = 覆盖了梯度，"
        "没有用 += 累加；之前的梯度丢失了）",
        "user": "用户代码",
        "sequence_order": "拓扑排序",
        "legend": "颜色",
        "leaf": "输入或常数",
        "param": "参数",
        "output": "输出节点",
        "inner": "计算得到",
    },
}


def language(lang: str | None = None) -> str:
    """`lang` if given ("en" or "zh"), else Chinese where the locale variables say zh_*."""
    if lang is not None:
        if lang not in LANGUAGES:
            raise ValueError(f"lang must be one of {LANGUAGES}, got {lang!r}")
        return lang
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(name)
        if value:
            return "zh" if value.lower().startswith("zh") else "en"
    return "en"


def text(key: str, lang: str, **fields: str) -> str:
    """The sentence `key` in `lang`, with its fields filled in."""
    return MESSAGES[lang][key].format(**fields)
