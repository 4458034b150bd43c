"""micrograd: a tiny scalar autograd engine and neural-net library, written to be read."""

from micrograd.engine import Value
from micrograd.functional import grad, hessian, value_and_grad
from micrograd.gradcheck import gradcheck
from micrograd.modes import detect_anomaly, no_grad
from micrograd.nn import MLP, Layer, Module, Neuron
from micrograd.optim import SGD, Adam, AdamW
from micrograd.tuning import tuned

__version__ = "0.2.0"
__all__ = [
    "Value",
    "no_grad",
    "detect_anomaly",
    "Module",
    "Neuron",
    "Layer",
    "MLP",
    "SGD",
    "Adam",
    "AdamW",
    "grad",
    "value_and_grad",
    "hessian",
    "gradcheck",
    "tuned",
    "__version__",
]
