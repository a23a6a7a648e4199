"""``python -m helpers <command>``: the course's command line, in :mod:`helpers.course.cli`."""

import sys

if sys.version_info < (3, 10):  # noqa: UP036 - said before anything needing 3.10 is imported
    found = ".".join(map(str, sys.version_info[:3]))
    print(
        f"ERROR: the course needs Python 3.10 or newer; this is Python {found} "
        f"({sys.executable}). Choose an image or environment with a newer Python.\n"
        f"错误：课程需要 Python 3.10 或更新版本，这里是 Python {found}（{sys.executable}）。"
        "请换一个 Python 更新的镜像或环境。",
        flush=True,
    )
    sys.exit(1)

from helpers.course.cli import main  # noqa: E402

sys.exit(main())
