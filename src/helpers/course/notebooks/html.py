"""The HTML copies ``make course`` writes beside the executed notebooks: pages that work offline.

An instructor keeps them open as the fallback for a live demo that fails, on a room machine that
may have no internet, so a copy loads nothing from another host. nbconvert's own ``lab`` template
loads require.js, MathJax and the widget renderer from public CDNs; the course's template
(``html/course.html.j2``) changes that:

* the widget renderer, the standalone build of ``@jupyter-widgets/html-manager`` (it draws every
  knob's default result, day 1's live view and the progress bars from the widget state saved in
  the notebook), is vendored in ``html/`` (``python -m helpers vendor`` fetches the pinned
  release from the npm registry and checks it) and inlined into each copy, with its loader for
  widget modules it does not bundle pointed at the copy's own folder;
* require.js and MathJax are left out: the standalone renderer needs no module loader, and the
  lessons hold no TeX (``tests/course/test_html.py`` keeps it so), nor Mermaid diagrams;
* a cell whose input is hidden in JupyterLab (the set-up cell) is folded, one line shown.

:func:`remote_requests` lists what a page would fetch from another host; the tests ask it of
every lesson's copy.
"""

from __future__ import annotations

import base64
import copy
import hashlib
import importlib.resources
import re
import shutil
import subprocess
import tarfile
import tempfile
from html.parser import HTMLParser
from pathlib import Path

import nbformat

TEMPLATES = Path(str(importlib.resources.files(__package__) / "html"))
RENDERER = TEMPLATES / "widgets-embed.js"
"""The widget renderer: ``dist/embed.js`` of the npm package below (its licences beside it)."""
RENDERER_PACKAGE = "@jupyter-widgets/html-manager@1.0.15"
RENDERER_INTEGRITY = (
    "sha512-5thBIV6ymNgmPVOHvzx+gGy8ZSKmSazhtGw4/c4xJDVz"
    "RhG9PTeQsRjF3FUTopvFi//SABeNz1yp47bCrJ3CQA=="
)
"""The registry's checksum of that release (``npm view <package> dist.integrity``)."""
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
WIDGET_MODULES = "./widget-modules/"
"""Where the renderer looks for a widget module it does not bundle: the copy's own folder, never
a CDN (the course's knobs use ipywidgets' own, which it bundles)."""


def export(nb: nbformat.NotebookNode) -> str:
    """The HTML copy of an executed notebook, complete in one file, loading nothing remote."""
    import markupsafe
    from nbconvert import HTMLExporter

    exporter = HTMLExporter(
        template_name="lab", extra_template_paths=[str(TEMPLATES)], template_file="course.html.j2"
    )
    renderer = markupsafe.Markup(RENDERER.read_text(encoding="utf-8"))  # noqa: S704 (our file)
    resources = {"course": {"widget_renderer": renderer, "widget_modules": WIDGET_MODULES}}
    body, _ = exporter.from_notebook_node(with_markdown_drawn(nb), resources=resources)
    return body


def with_markdown_drawn(nb: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """A copy of ``nb`` whose widgets' outputs carry their Markdown as HTML too: the widget
    renderer has no Markdown parser (a knob's result would show its ``**`` marks), so it is
    converted here, as nbconvert converts the Markdown of the cells' own outputs."""
    from nbconvert.filters.markdown_mistune import markdown2html_mistune

    nb = copy.deepcopy(nb)
    state = nb.metadata.get("widgets", {}).get(WIDGET_STATE, {}).get("state", {})
    for model in state.values():
        for output in model.get("state", {}).get("outputs", []):
            data = output.get("data", {})
            if "text/markdown" in data and "text/html" not in data:
                data["text/html"] = markdown2html_mistune(data["text/markdown"])
    return nb


# Attributes through which a page fetches something (an <a href> is a link a reader may follow).
_FETCHING = {"src", "href", "srcset", "poster", "data", "action", "background", "formaction"}
_REMOTE = re.compile(r"""^\s*(?:[a-z][a-z0-9+.-]*:)?//""", re.IGNORECASE)
_CSS_URL = re.compile(r"""url\(\s*['"]?([^'")\s]+)|@import\s+['"]([^'"]+)""", re.IGNORECASE)
_SCRIPT_URL = re.compile(r"""['"`]((?:https?:)?//[^'"`\s]+)""", re.IGNORECASE)
_RUNS = {"", "text/javascript", "module", "application/javascript"}


class _Requests(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.found: list[str] = []
        self._inside: str | None = None  # "style", or "script" when it runs

    def handle_starttag(self, tag, attrs) -> None:
        attrs = dict(attrs)
        for name, value in attrs.items():
            if value is None:
                continue
            if name == "style":
                self._css(value, f"<{tag} style>")
            elif name in _FETCHING and not (tag == "a" and name == "href"):
                for url in value.split(",") if name == "srcset" else [value]:
                    if _REMOTE.match(url):
                        self.found.append(f"<{tag} {name}={url.split()[0]}>")
            elif name.startswith("data-jupyter-widgets-cdn") and _REMOTE.match(value):
                self.found.append(f"<{tag} {name}={value}> (the widget renderer's module loader)")
        if tag == "style":
            self._inside = "style"
        elif tag == "script":
            self._inside = "script" if attrs.get("type", "").lower() in _RUNS else None

    def handle_endtag(self, tag) -> None:
        if tag in ("style", "script"):
            self._inside = None

    def handle_data(self, data) -> None:
        if self._inside == "style":
            self._css(data, "<style>")
        elif self._inside == "script":
            self.found += [f"<script> {url}" for url in _SCRIPT_URL.findall(data)]

    def _css(self, css: str, where: str) -> None:
        css = re.sub(r"/\*.*?\*/", "", css, flags=re.DOTALL)  # comments fetch nothing
        for match in _CSS_URL.finditer(css):
            url = match[1] or match[2]
            if _REMOTE.match(url):
                self.found.append(f"{where} {url}")


def remote_requests(page: str) -> list[str]:
    """What ``page`` (HTML) would fetch from another host: a script, style sheet, image or frame
    with a remote address, a remote ``url()`` or ``@import`` in its CSS, a remote address written
    in a script it runs, a widget loader pointed at one. Links (``<a href>``) are not requests;
    nor is text a page carries as data (a ``<script type="text/plain">``, JSON).

    >>> remote_requests('<script src="https://cdn.example/x.js"></script><a href="https://a.b">')
    ['<script src=https://cdn.example/x.js>']
    >>> remote_requests('<style>/* url(https://x) */ p { background: url(img.png) }</style>')
    []
    """
    parser = _Requests()
    parser.feed(page)
    parser.close()
    return parser.found


def vendor(folder: Path = TEMPLATES) -> Path:
    """Fetch the widget renderer from the npm registry (``npm pack``), check it against the pinned
    checksum, and write its ``dist/embed.js`` and licence notes into ``folder``."""
    npm = shutil.which("npm")
    if npm is None:
        raise RuntimeError("vendoring the widget renderer needs npm (Debian: apt-get install npm)")
    with tempfile.TemporaryDirectory() as tmp:
        result = subprocess.run(
            [npm, "pack", RENDERER_PACKAGE, "--pack-destination", tmp],
            capture_output=True, text=True, encoding="utf-8", check=False,
        )  # fmt: skip
        if result.returncode != 0:
            raise RuntimeError(f"npm pack {RENDERER_PACKAGE} failed: {result.stderr.strip()}")
        tarball = next(Path(tmp).glob("*.tgz"))
        digest = base64.b64encode(hashlib.sha512(tarball.read_bytes()).digest()).decode()
        if f"sha512-{digest}" != RENDERER_INTEGRITY:
            raise RuntimeError(f"{tarball.name} does not match the pinned checksum: not used")
        with tarfile.open(tarball) as archive:
            for member, target in (
                ("package/dist/embed.js", RENDERER),
                ("package/dist/embed.js.LICENSE.txt", RENDERER.with_suffix(".LICENSE.txt")),
            ):
                data = archive.extractfile(member).read()
                (folder / target.name).write_bytes(data)
    return folder / RENDERER.name
