"""How notebooks are executed: the environment their kernels get."""

import nbformat
from nbformat.v4 import new_notebook

from helpers import paths
from helpers.course import execute as execute_module


class FakeClient:
    """Records the environment a kernel would get, runs nothing."""

    seen: list[dict] = []

    def __init__(self, nb, **kwargs):
        self.nb = nb

    def execute(self, env):
        FakeClient.seen.append(env)


def run_with(monkeypatch, tmp_path, **kwargs):
    FakeClient.seen.clear()
    monkeypatch.setattr(execute_module, "NotebookClient", FakeClient)
    path = tmp_path / "day99_x.ipynb"
    nbformat.write(new_notebook(), path)
    execute_module.execute(path, **kwargs)
    return FakeClient.seen[-1]


def test_kernels_share_one_compile_cache_under_build(monkeypatch, tmp_path):
    monkeypatch.setattr(execute_module, "_CALLER_CACHE", None)
    # what torch._dynamo writes into os.environ when this process creates its first optimiser
    monkeypatch.setenv("TORCHINDUCTOR_CACHE_DIR", "/tmp/torchinductor_someone")
    env = run_with(monkeypatch, tmp_path, fast=True)
    assert env["TORCHINDUCTOR_CACHE_DIR"] == str(paths.COMPILE_CACHE)
    assert paths.COMPILE_CACHE.parent == paths.BUILD
    assert env["COURSE_FAST"] == "1"
    assert run_with(monkeypatch, tmp_path, fast=False)["COURSE_FAST"] == "0"


def test_a_cache_folder_chosen_by_the_caller_wins(monkeypatch, tmp_path):
    monkeypatch.setattr(execute_module, "_CALLER_CACHE", str(tmp_path / "mine"))
    env = run_with(monkeypatch, tmp_path, fast=True)
    assert env["TORCHINDUCTOR_CACHE_DIR"] == str(tmp_path / "mine")
    env = run_with(monkeypatch, tmp_path, fast=True, env={"TORCHINDUCTOR_CACHE_DIR": "/x"})
    assert env["TORCHINDUCTOR_CACHE_DIR"] == "/x"
