"""micrograd.teach.messages under its first name: `import micrograd.messages` is that module."""

import sys

from micrograd.teach import messages

sys.modules[__name__] = messages
