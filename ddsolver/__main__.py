"""``python -m ddsolver``: the same command line as the ``ddsolver`` console script."""

import sys

from .cli import main

sys.exit(main())
