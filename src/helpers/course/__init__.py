"""The tooling that runs the course: homework, grading, notebooks, the command line.

Maintainers and instructors use it through ``python -m helpers <command>`` (:mod:`.cli`). Lesson
modules (``helpers.*`` outside this package) never import it. Learners import one thing from it,
in their homework notebooks::

    from helpers.course import check
    check("day00.device")

Grouped by job:

* :mod:`.homework`: the homework format, student versions, the learners' self-checks, submitting;
* :mod:`.grading`: grading submissions (the grader, its examiner, the sandbox and its bounds);
* :mod:`.notebooks`: cleaning, executing and outlining notebooks, the guide, the translations;
* :mod:`.setup`: checking a setup, cloud bootstrap, JupyterLab, git;
* :mod:`.cli`: the command line; :mod:`.paths`: the tooling's paths;
* :mod:`.receipt` (with :mod:`.receipt_days`): a device's measurements in one file, a receipt;
  :mod:`.gpu_check`: that receipt on an NVIDIA GPU, the course's GPU reference.
"""

from helpers.course.homework.checks import borrowed, check, install_wall_clock

install_wall_clock()  # a test cell run as it is reads wall_seconds as check() gives it

__all__ = ["borrowed", "check"]
