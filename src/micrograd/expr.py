"""micrograd.teach.expr under its first name: `import micrograd.expr` is that module."""

import sys

from micrograd.teach import expr

sys.modules[__name__] = expr
