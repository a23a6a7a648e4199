"""JupyterLab's file manager in ``make lab``: a lesson opens unmodified.

The course commits its notebooks with a short ``language_info`` (the language's name and lexer:
the Python version and the rest depend on the machine, and git's filter strips them). When a
lesson's kernel starts, JupyterLab writes the kernel's full ``language_info`` into the open
notebook, which then counts as modified: its tab shows the dot at once, and autosave rewrites a
lesson nobody changed. :class:`CourseContents` fills in, as a notebook is read, what the course's
kernel will report, so JupyterLab finds nothing to change.
"""

from __future__ import annotations

from functools import cache

from jupyter_server.services.contents.largefilemanager import AsyncLargeFileManager

KERNEL = "python3"
"""The kernel the lessons name: ipykernel's, in the environment that runs JupyterLab."""


@cache
def kernel_language_info() -> dict:
    """What the course's kernel reports about its language (ipykernel, this Python)."""
    from ipykernel.ipkernel import IPythonKernel

    return dict(IPythonKernel.language_info)


def as_the_kernel_reports(nb: dict) -> dict:
    """``nb`` (a notebook's content) with the ``language_info`` its kernel will report, when it
    names the course's kernel; other notebooks as they are."""
    metadata = nb.setdefault("metadata", {})
    if metadata.get("kernelspec", {}).get("name") == KERNEL:
        metadata["language_info"] = dict(kernel_language_info())
    return nb


class CourseContents(AsyncLargeFileManager):
    """JupyterLab's own file manager, with a notebook's ``language_info`` as its kernel reports
    it (``--ServerApp.contents_manager_class``, set by :func:`helpers.course.setup.lab.command`)."""

    async def get(self, path, content=True, type=None, format=None, **kwargs):  # noqa: A002
        model = await super().get(path, content=content, type=type, format=format, **kwargs)
        if model.get("type") == "notebook" and model.get("content"):
            as_the_kernel_reports(model["content"])
        return model
