"""micrograd.app.plot under its first name: `import micrograd.plot` is that module."""

import sys

from micrograd.app import plot

sys.modules[__name__] = plot
