"""``python -m citeproof``: the same command line as the ``citeproof`` console script."""

import sys

from citeproof.cli import main

sys.exit(main())
