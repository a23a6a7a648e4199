"""``make install`` through uv, with pip's settings (when uv is on the PATH).

uv installs the course's packages in parallel: a fresh environment in about half of pip's time.
But uv reads none of pip's settings, so a mirror set up for pip (``PIP_INDEX_URL``, or ``pip
config set global.index-url ...``, as learners in mainland China do) would be passed over and
every package fetched from PyPI. This runs uv with pip's own settings, as uv's options::

    $ python -m helpers.course.setup.install /usr/bin/uv -e ".[dev]" -c requirements-lock.txt
    /usr/bin/uv pip install --python .venv/bin/python --index-url https://pypi.tuna... -e ...

Only the standard library is used: this runs before the course's packages are installed.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlparse

OPTIONS = {
    "index-url": "--index-url",
    "extra-index-url": "--extra-index-url",
    "find-links": "--find-links",
    "trusted-host": "--allow-insecure-host",
    "constraint": "--constraint",
}
"""pip's settings that say where packages come from, and uv's option for each."""
PLACES = ("index-url", "extra-index-url", "find-links")
"""The settings that name places to take packages from: a local one may be missing."""
SECTIONS = ("global", "install")
"""The sections of pip's configuration that ``pip install`` reads (the later one wins)."""


def pip_settings(listed: str, environ=None) -> dict[str, list[str]]:
    """pip's settings for ``pip install`` (:data:`OPTIONS`, ``no-index`` and ``cert``): each from
    pip's environment variable (``PIP_INDEX_URL``...), else from its configuration as ``pip
    config list`` prints it (``listed``: one line per section; ``install`` overrides ``global``),
    split at spaces as pip splits them.

    >>> listed = "global.index-url='https://a/simple'\\ninstall.index-url='https://b/simple'\\n"
    >>> listed += "list.index-url='https://c/simple'\\n"  # pip list's, not pip install's
    >>> pip_settings(listed, environ={"PIP_FIND_LINKS": "/w1 /w2"})
    {'index-url': ['https://b/simple'], 'find-links': ['/w1', '/w2']}
    """
    environ = os.environ if environ is None else environ
    found = {}
    for name in [*OPTIONS, "no-index", "cert"]:
        value = environ.get("PIP_" + name.upper().replace("-", "_"), "").strip()
        if not value:
            for section in SECTIONS:
                in_file = re.findall(rf"^{section}\.{name}='([^']*)'$", listed, flags=re.M)
                value = in_file[-1] if in_file else value
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


def uv_arguments(settings: dict[str, list[str]]) -> tuple[list[str], dict[str, str]]:
    """uv's options for pip's ``settings`` (:func:`pip_settings`), and the environment variables
    uv reads instead of an option (pip's certificate bundle, as ``SSL_CERT_FILE``). Local places
    that do not exist are left out; with more than one index, uv is asked to choose among all of
    them as pip does (uv's own default takes a package only from the first index that has it).

    >>> uv_arguments({"index-url": ["https://b/simple"], "find-links": ["/no/such/folder"]})
    (['--index-url', 'https://b/simple'], {})
    >>> uv_arguments({"extra-index-url": ["https://c/simple"], "cert": ["/etc/ca.pem"]})
    (['--extra-index-url', 'https://c/simple', '--index-strategy', 'unsafe-best-match'], \
{'SSL_CERT_FILE': '/etc/ca.pem'})
    """
    options = []
    for name, values in settings.items():
        for value in values if name in OPTIONS else []:
            if name not in PLACES or not _missing_locally(value):
                options += [OPTIONS[name], value]
    if settings.get("no-index", ["false"])[0].lower() in ("1", "true", "yes", "on"):
        options.append("--no-index")
    if "--extra-index-url" in options:
        options += ["--index-strategy", "unsafe-best-match"]
    return options, ({"SSL_CERT_FILE": settings["cert"][0]} if "cert" in settings else {})


def main(argv: list[str]) -> int:
    """``UV [pip install's arguments]``: install them into this Python with uv and pip's
    settings; uv's exit status."""
    if not argv or argv[0].startswith("-"):
        print("usage: python -m helpers.course.setup.install UV [ARGUMENTS...]", file=sys.stderr)
        return 2
    listed = subprocess.run(
        [sys.executable, "-m", "pip", "config", "list"],
        capture_output=True, text=True, encoding="utf-8", errors="replace", check=True,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    ).stdout  # fmt: skip
    options, env = uv_arguments(pip_settings(listed))
    command = [argv[0], "pip", "install", "--python", sys.executable, *options, *argv[1:]]
    print(" ".join(command), flush=True)
    return subprocess.run(command, env={**os.environ, **env}).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
