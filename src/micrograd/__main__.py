"""`python -m micrograd`: the same as the `micrograd` command."""

import sys

from micrograd.cli import main

sys.exit(main())
