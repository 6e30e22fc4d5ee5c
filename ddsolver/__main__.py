"""``python -m ddsolver``: the same command line as the ``ddsolver`` console script."""

import sys

from ._launch import main

sys.exit(main())
