"""micrograd.app.playground under its first name: `import micrograd.playground` is that module."""

import sys

from micrograd.app import playground

sys.modules[__name__] = playground
