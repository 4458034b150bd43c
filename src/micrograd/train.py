"""micrograd.app.train under its first name: `import micrograd.train` is that module."""

import sys

from micrograd.app import train

sys.modules[__name__] = train
