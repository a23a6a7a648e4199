"""pip's package index, told to uv (``make install`` with uv on the PATH).

uv installs the course's packages in parallel: a fresh environment in about a third of pip's time.
But uv reads none of pip's settings, so a mirror set up for pip (``PIP_INDEX_URL``, or ``pip
config set global.index-url ...``, as learners in mainland China do) would be passed over and
every package fetched from PyPI. ``make install`` therefore gives uv pip's own settings as uv's
options::

    $ python -m helpers.course.setup.install uv-options
    --index-url https://pypi.tuna.tsinghua.edu.cn/simple

Only the standard library is used: this runs before the course's packages are installed.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlparse

SETTINGS = ("index-url", "extra-index-url", "find-links")
"""pip's settings that say where packages come from, each passed to uv as the option of its name."""


def pip_settings(listed: str, environ=None) -> dict[str, list[str]]:
    """Where pip takes packages from: each of :data:`SETTINGS` from pip's environment variable
    (``PIP_INDEX_URL``...), else from pip's configuration as ``pip config list`` prints it
    (``listed``; a later file overrides an earlier one), split at spaces as pip splits them.

    >>> listed = "global.index-url='https://a/simple'\\nuser.index-url='https://b/simple'\\n"
    >>> pip_settings(listed, environ={"PIP_FIND_LINKS": "/w1 /w2"})
    {'index-url': ['https://b/simple'], 'find-links': ['/w1', '/w2']}
    """
    environ = os.environ if environ is None else environ
    found = {}
    for name in SETTINGS:
        value = environ.get("PIP_" + name.upper().replace("-", "_"), "").strip()
        if not value:
            in_files = re.findall(rf"^[\w-]+\.{name}='([^']*)'$", listed, flags=re.M)
            value = in_files[-1] if in_files else ""
        if value.split():
            found[name] = value.split()
    return found


def _missing_locally(location: str) -> bool:
    """A local folder or ``file:`` address that is not there: pip passes over it with a warning,
    uv stops."""
    parsed = urlparse(location)
    if parsed.scheme not in ("", "file") or (parsed.scheme == "" and "://" in location):
        return False
    return not Path(unquote(parsed.path) if parsed.scheme else location).exists()


def uv_options(settings: dict[str, list[str]]) -> list[str]:
    """uv's options for pip's ``settings`` (:func:`pip_settings`), without the local places that
    do not exist. With more than one index, uv is asked to choose among all of them as pip does
    (uv's own default takes a package only from the first index that has it).

    >>> uv_options({"index-url": ["https://b/simple"], "find-links": ["/no/such/folder"]})
    ['--index-url', 'https://b/simple']
    >>> uv_options({"extra-index-url": ["https://c/simple"]})
    ['--extra-index-url', 'https://c/simple', '--index-strategy', 'unsafe-best-match']
    """
    options = []
    for name, values in settings.items():
        for value in values:
            if not _missing_locally(value):
                options += [f"--{name}", value]
    if "--extra-index-url" in options:
        options += ["--index-strategy", "unsafe-best-match"]
    return options


def main(argv: list[str]) -> int:
    if argv != ["uv-options"]:
        print("usage: python -m helpers.course.setup.install uv-options", file=sys.stderr)
        return 2
    listed = subprocess.run(
        [sys.executable, "-m", "pip", "config", "list"],
        capture_output=True, text=True, encoding="utf-8", errors="replace",
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    ).stdout  # fmt: skip
    print(" ".join(uv_options(pip_settings(listed))))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
