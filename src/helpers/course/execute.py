"""The old home of :mod:`helpers.course.notebooks.execute`, kept only for ``gpu_check``'s import.

Remove it once ``gpu_check`` imports ``build_course`` from :mod:`helpers.course.notebooks.execute`.
"""

from helpers.course.notebooks.execute import build_course

__all__ = ["build_course"]
