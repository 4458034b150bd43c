"""micrograd: a tiny scalar autograd engine and neural-net library, written to be read."""

from micrograd.engine import Value, detect_anomaly, no_grad

__version__ = "0.2.0"
__all__ = ["Value", "no_grad", "detect_anomaly", "__version__"]
