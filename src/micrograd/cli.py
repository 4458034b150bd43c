"""micrograd.app.cli under its first name: `import micrograd.cli` is that module."""

import sys

from micrograd.app import cli

sys.modules[__name__] = cli
