"""The tooling that runs the course: homework, grading, notebooks, the command line.

Maintainers and instructors use it through ``python -m helpers <command>`` (:mod:`.cli`). Lesson
modules (``helpers.*`` outside this package) never import it. Learners import one thing from it,
in their homework notebooks::

    from helpers.course import check
    check("day00.device")

* :mod:`.markers`: the homework format (``# EXERCISE``, ``# TEST``, ``MANUAL`` and the regions).
* :mod:`.release`: student versions of the masters.
* :mod:`.checks`: the learners' self-checks.
* :mod:`.grading`, :mod:`.judge`, :mod:`.sandbox`: grading submissions.
* :mod:`.submit`: the copy a learner hands in.
* :mod:`.execute`: running notebooks (tests, ``make course``).
* :mod:`.outline`: navigation, slides and the course map.
* :mod:`.doctor`: checking a setup.
"""

from helpers.course.checks import borrowed, check

__all__ = ["borrowed", "check"]
