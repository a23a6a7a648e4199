"""``python -m helpers <command>``: the course's command line, in :mod:`helpers.course.cli`."""

import sys

from helpers.course.cli import main

sys.exit(main())
