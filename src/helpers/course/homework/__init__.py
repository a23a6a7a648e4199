"""The homework: its format, its student versions, the learners' self-checks, the copy handed in.

* :mod:`.markers`: the format (``# EXERCISE``, ``# TEST``, ``MANUAL`` and the regions);
* :mod:`.release`: student versions of the masters (``python -m helpers release``);
* :mod:`.checks`: ``check("day00.device")`` in a homework notebook;
* :mod:`.submit`: the copy a learner hands in (``python -m helpers submit``);
* :mod:`.doubles`: stand-ins the tests hand to answers (a pretend GPU, a model that tells
  whether autograd was on).
"""
