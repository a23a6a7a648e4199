"""Shared code for the course "Training with PyTorch on a GPU".

Two layers:

* the lesson modules here, which the notebooks import and learners read: one idea each, e.g.::

      from helpers.device import get_device
      from helpers.data import load_iris_split
      from helpers.models import IrisMLP
      from helpers.training import train

* :mod:`helpers.course`, the tooling that runs the course (homework, grading, notebook execution,
  the command line ``python -m helpers``). Lesson modules never import it; homework notebooks
  import one thing from it, ``from helpers.course import check``.

Nothing here prints or touches the GPU on import.
"""

__version__ = "0.1.0"
