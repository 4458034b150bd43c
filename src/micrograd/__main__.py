"""`python -m micrograd`: the same as the `micrograd` command."""

import sys

from micrograd.app.cli import main

sys.exit(main())
