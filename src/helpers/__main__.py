"""``python -m helpers <command>``: see :mod:`helpers.cli`."""

import sys

from helpers.cli import main

sys.exit(main())
