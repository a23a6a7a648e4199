# The course's commands. Each sets up .venv by itself when it is missing or out of date.
#   make lab      open JupyterLab on the course, at day 0 (COURSE_LANG=zh or LANG=zh: in Chinese)
#   make test     run every test, including every notebook in fast mode
#   make course   execute every notebook in full mode into build/course/ (with HTML copies)
#   make student  write the student versions of the homework masters into notebooks/homework/
#   make grade SUBMISSIONS=folder [OUT=build/grades] [JOBS=2]   grade submitted homework
# Options: COURSE_LANG=zh (Chinese edition and messages)  PYTHON=python3.12  TORCH_SPEC=torch==2.13.0  TORCH_INDEX=https://download.pytorch.org/whl/cpu
#          TORCH_FIND_LINKS=<a page listing PyTorch wheels> (pip's -f: a wheel mirror)  INSTALLER=pip (not uv, though on the PATH)
#          LOCK= (install the newest versions pyproject.toml allows, not the tested set)
# Mirrors: pip's own settings reach every install, e.g. PIP_INDEX_URL=https://pypi.tuna.tsinghua.edu.cn/simple make lab

PYTHON ?= python3
# The environment: .venv in the course folder, unless that folder's path has a space. PyTorch's
# compiler (torch.compile) passes PyTorch's own path to the C++ compiler unquoted, so a space
# there breaks every compiled step (pytorch/pytorch#191010): such a folder gets its environment
# under ~/.cache/gpu-course/ instead, one per folder.
empty :=
ifneq (,$(findstring $(empty) $(empty),$(CURDIR)))
VENV ?= $(HOME)/.cache/gpu-course/venv-$(shell $(PYTHON) -c 'import hashlib, os; print(hashlib.sha1(os.getcwd().encode()).hexdigest()[:10])')
endif
VENV ?= .venv
TORCH_SPEC ?= torch==2.13.0
# Where PyTorch comes from besides the package index: TORCH_INDEX replaces the index for it (pip's
# --index-url, e.g. PyTorch's own https://download.pytorch.org/whl/cu128); TORCH_FIND_LINKS adds
# a page that lists wheel files (pip's -f), which is how the wheel mirrors in mainland China
# publish PyTorch's builds (README.zh-CN.md). Pin the build with it, TORCH_SPEC=torch==2.13.0+cpu
# or +cu128, so that pip fails rather than taking the index's other build when the page lacks it.
TORCH_INDEX ?=
TORCH_FIND_LINKS ?=
PY := $(VENV)/bin/python
# The installer of the course's packages: uv (https://docs.astral.sh/uv/, `pip install uv`), where
# it is on the PATH, downloads and installs them in parallel (a fresh install in about half pip's
# time), with pip's settings: uv reads none of them, so helpers.course.setup.install runs it with
# pip's index, extra indexes, find-links, trusted hosts, constraints and certificates (from PIP_*
# or pip's configuration) as uv's own. Else, or with INSTALLER=pip, pip. PyTorch comes through pip
# either way (TORCH_INDEX, TORCH_FIND_LINKS and pip's own settings apply to it as they are).
UV ?= $(shell command -v uv 2>/dev/null)
INSTALLER ?= $(if $(UV),uv,pip)
ifeq ($(INSTALLER),uv)
ifeq ($(UV),)
$(error INSTALLER=uv, but no uv is on the PATH: install it (pip install uv) or name it with UV=/path/to/uv)
endif
INSTALL := PYTHONPATH=src $(PY) -m helpers.course.setup.install $(UV)
else
INSTALL := $(PY) -m pip install
endif
STAMP := $(VENV)/.installed
# The exact versions the course is tested with (make lock refreshes them). They fit the tested
# PyTorch; with another TORCH_SPEC, its own dependencies may need other versions, so the ranges
# of pyproject.toml are used instead.
TESTED_TORCH := torch==$(shell sed -n 's/^TESTED_TORCH = "\(.*\)"/\1/p' src/helpers/config.py)
LOCK ?= requirements-lock.txt
# (a build of the tested release, torch==2.13.0+cu128, is the tested release too)
CONSTRAINTS := $(if $(and $(LOCK),$(filter $(TESTED_TORCH) $(TESTED_TORCH)+%,$(TORCH_SPEC))),-c $(LOCK))

.PHONY: help install lab test course student grade lint doctor lock clean

help:
	@sed -n 's/^#   //p' Makefile
	@echo "Also: make install (reinstall, e.g. with another TORCH_SPEC; sets up git's notebook filter), doctor, lint, lock, clean"

$(STAMP): pyproject.toml $(LOCK)
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 10))' || \
	  { echo "The course needs Python 3.10 or newer; run e.g. 'make PYTHON=python3.11 ...'."; exit 1; }
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@test "$(VENV)" = .venv || echo "The course's environment is $(VENV) (this folder's path has a space, which torch.compile cannot build under)."
	$(PY) -m pip install "$(TORCH_SPEC)" $(if $(TORCH_INDEX),--index-url $(TORCH_INDEX)) $(if $(TORCH_FIND_LINKS),-f $(TORCH_FIND_LINKS))
	$(INSTALL) -e ".[dev]" $(CONSTRAINTS)
	$(PY) -m helpers git-filter
	@touch $(STAMP)

install:
	@rm -f $(STAMP)
	@$(MAKE) --no-print-directory $(STAMP)

# make lab COURSE_LANG=zh (or LANG=zh) opens the Chinese edition; LANG=zh is not a locale, so it
# is not passed on as one. The Chinese edition also gets JupyterLab's own menus in Chinese: its
# language pack (0.2 MB, the zh extra of pyproject.toml) is installed the first time, only then;
# offline, JupyterLab stays in English and the course still opens.
LAB_LANG := $(if $(filter zh zh-CN zh_CN,$(LANG) $(COURSE_LANG)),zh,$(COURSE_LANG))
ZH_STAMP := $(VENV)/.installed-zh
$(ZH_STAMP): $(STAMP)
	@$(PY) -m pip install --disable-pip-version-check -q "jupyterlab-language-pack-zh-CN>=4.1" && touch $(ZH_STAMP) || \
	  echo "JupyterLab's language pack could not be installed: its menus stay in English (JupyterLab 的中文语言包未能安装，界面保持英文)."
lab: $(STAMP) $(if $(filter zh,$(LAB_LANG)),$(ZH_STAMP))
	$(if $(LAB_LANG),COURSE_LANG=$(LAB_LANG)) $(if $(filter zh zh-CN,$(LANG)),LANG=C.UTF-8) $(PY) -m helpers lab

test: $(STAMP)
	$(PY) -m pytest -n 2 --dist loadgroup --timeout=900 --durations=10

course: $(STAMP)
	$(PY) -m helpers course

student: $(STAMP)
	$(PY) -m helpers release

SUBMISSIONS ?=
OUT ?= build/grades
JOBS ?= 2
grade: $(STAMP)
	@test -n "$(SUBMISSIONS)" || { echo "Say which folder: make grade SUBMISSIONS=path/to/submissions"; exit 1; }
	$(PY) -m helpers grade "$(SUBMISSIONS)" --out "$(OUT)" --jobs $(JOBS)

doctor: $(STAMP)
	$(PY) -m helpers doctor

lint: $(STAMP)
	$(VENV)/bin/ruff check src tests notebooks instructor benchmarks

# Refresh requirements-lock.txt: the newest versions pyproject.toml allows today, with the tested
# PyTorch (torch itself is left out: TORCH_SPEC installs it). Run make test before committing it.
lock: $(STAMP)
	@mkdir -p build && echo "$(TESTED_TORCH)" > build/torch-pin.txt
	CUSTOM_COMPILE_COMMAND="make lock" $(VENV)/bin/pip-compile --quiet --upgrade --extra dev \
	  --strip-extras --no-emit-index-url --no-emit-find-links --unsafe-package torch \
	  --unsafe-package pip -c build/torch-pin.txt -o requirements-lock.txt pyproject.toml

clean:
	rm -rf build .pytest_cache .ruff_cache
