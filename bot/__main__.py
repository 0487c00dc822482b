"""`python -m bot`: the same as the `memorybot` command."""

import sys

from .cli import main

sys.exit(main())
