"""Compiled training steps, priced end to end: compile time counted, cold and warm cache (day 5b,
sections 4 and 5).

``torch.compile`` makes each epoch cheaper but costs seconds before the first one: tens with an
empty cache (a fresh machine, a first run), a few with a warm one (the cache a previous run
filled). Whether it pays depends on how many epochs follow:

* :func:`variants` lists day 5's compiled variants (their steps are in :mod:`helpers.loops`);
* :func:`compile_seconds` times their first calls (the compilation) in a fresh Python process,
  with a given cache folder: an empty one for a cold cache, the same one again for a warm cache;
* :func:`end_to_end` prices a whole training (compile plus epochs) for each variant, and
  :func:`break_even` the epochs after which a compiled variant overtakes a baseline;
* :func:`fastest_end_to_end` finds the variant to use for a training of a given length, from that
  table;
* :func:`graphs_skipped` counts the times Inductor declined to use CUDA graphs;
* :func:`build_problem` says why ``torch.compile`` cannot build C++ here, when a folder it
  builds against has a space in its path, and :func:`first_call` compiles one function (the
  fused chain of the roofline: (day 5b, section 3)) or says why not.

>>> break_even(compile_s=20.0, epoch_s=50e-6, baseline_epoch_s=550e-6)
40000.0
>>> break_even(compile_s=20.0, epoch_s=600e-6, baseline_epoch_s=550e-6)
inf
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable, Mapping
from pathlib import Path

import pandas as pd
import torch

from helpers import loops, paths, standard_fixes
from helpers.i18n import N_, _, pgettext
from helpers.show import localised

MakeStep = Callable[[torch.nn.Module], object]
"""Builds a compiled variant for a model: a :class:`helpers.standard_fixes.Compiled` (standard
code), or a compiled step for :func:`helpers.loops.handwritten_loop` (a ceiling)."""


def variants(device: torch.device | str, per_call: int) -> dict[str, tuple[MakeStep, int | None]]:
    """Day 5b's compiled variants: name -> (a function that builds it for a model, epochs per
    call; ``None`` for a standard-code variant, which trains the model itself). CUDA graphs only
    on an NVIDIA GPU."""
    found: dict[str, tuple[MakeStep, int | None]] = {
        N_("model and step compiled"): (lambda model: standard_fixes.Compiled(model), None),
        N_("hand-written step, torch.compile"): (lambda _model: loops.compiled_step(), 1),
        f"amortised: {per_call} epochs per compiled call": (
            lambda _model: loops.amortised_step(per_call),
            per_call,
        ),
    }
    if torch.device(device).type == "cuda":
        found[N_("model and step compiled, reduce-overhead")] = (
            lambda model: standard_fixes.Compiled(model, mode="reduce-overhead"),
            None,
        )
        graphs = N_("hand-written step, CUDA graphs")
        found[graphs] = (lambda _model: loops.compiled_step("reduce-overhead"), 1)
    return found


def graphs_skipped() -> int:
    """How many times Inductor has declined CUDA graphs in this process (it logs why, e.g.
    "skipping cudagraphs due to mutated inputs"): compare before and after compiling."""
    from torch._dynamo.utils import counters

    return int(counters["inductor"]["cudagraph_skips"])


def build_problem() -> str | None:
    """Why ``torch.compile`` cannot build its C++ code here, or None when nothing is known to stop
    it. Inductor builds C++ (every kernel on a CPU; the ``cpp_wrapper`` calls on a GPU) in its
    cache folder, against PyTorch's folder and Python's, and passes those paths to the compiler
    unquoted (PyTorch 2.13; pytorch/pytorch#191010): a space in one of them splits it, and every
    build fails."""
    folders = [
        Path(torch.__file__).parent,
        sysconfig.get_paths()["include"],
        sysconfig.get_config_var("LIBDIR") or "",
        os.environ.get("TORCHINDUCTOR_CACHE_DIR", ""),
    ]
    spaced = [str(f) for f in folders if any(c.isspace() for c in str(f))]
    return (
        _(
            "`torch.compile` cannot build C++ under a folder whose path has a "
            "space ({folder}): PyTorch passes that path to the compiler unquoted "
            "(pytorch/pytorch#191010). The fix: PyTorch, Python and the compile "
            "cache (`TORCHINDUCTOR_CACHE_DIR`) at paths without spaces (`make` and "
            "the course's own runs put them there by themselves when the course "
            "folder's path has one)"
        ).format(folder=spaced[0])
        if spaced
        else None
    )


def unavailable(err: Exception) -> str:
    """The note on a variant that did not compile: the error, or its known cause when the C++
    build failed where :func:`build_problem` knows why."""
    failed_build = "CppCompileError" in f"{type(err).__name__}: {err}"
    why = (failed_build and build_problem()) or str(err)[:120]
    return _("not available here ({error}: {why})").format(error=type(err).__name__, why=why)


def first_call(fn: Callable, *args) -> tuple[Callable | None, str]:
    """Call a ``torch.compile``'d ``fn`` once (it compiles then): ``(fn, "")`` when that worked,
    ``(None, note)`` with :func:`unavailable`'s note when it did not (no C++ compiler, a space in
    a path...), so that a lesson can go on without it."""
    try:
        fn(*args)
    except Exception as err:  # noqa: BLE001 - said in the note; the lesson goes on without it
        return None, unavailable(err)
    return fn, ""


def first_calls(make: MakeStep, k: int | None, model, X, y) -> tuple[object, float]:
    """Build a compiled variant and run its first two calls (where it compiles): the variant
    and the seconds they took. CUDA graphs need the weights' addresses fixed
    (``static_weights``)."""
    start = time.perf_counter()
    made = make(model)
    if k is None:
        made.loop(X, y, 2)
    else:
        loops.handwritten_loop(
            model, X, y, 2 * k, step=made, epochs_per_call=k, static_weights=True
        )
    return made, time.perf_counter() - start


def compile_all(
    device: torch.device | str, per_call: int, fresh: Callable[[], torch.nn.Module], X, y
) -> tuple[dict[str, tuple[loops.Step, int, float]], dict[str, str]]:
    """Compile every variant of :func:`variants` in this process (``fresh()`` gives a new model
    for the first calls; a standard-code variant keeps it): the ready ones, name -> (the variant,
    epochs per call, seconds the first calls took), and a note on each (its
    first calls' seconds, or why it is left out: no C compiler, CUDA graphs declined...)."""
    ready, notes = {}, {}
    for name, (make, k) in variants(device, per_call).items():
        skips = graphs_skipped()
        try:
            step, seconds = first_calls(make, k, fresh(), X, y)
        except Exception as err:  # noqa: BLE001 - reported; the other variants still run
            notes[name] = unavailable(err)
            continue
        if ("CUDA graphs" in name or "reduce-overhead" in name) and graphs_skipped() > skips:
            notes[name] = _("Inductor declined CUDA graphs (its warning says why): left out")
            continue
        ready[name] = (step, k, seconds)
        notes[name] = _("first calls {seconds:.1f} s in this process").format(seconds=seconds)
    if torch.device(device).type != "cuda":
        for name in ("model and step compiled, reduce-overhead", "hand-written step, CUDA graphs"):
            notes[name] = _("needs an NVIDIA GPU: not measured here")
    return ready, notes


def _child(arguments: str) -> None:
    """In a fresh process: compile each named variant once, print the seconds as JSON."""
    from helpers.data import load_iris_split
    from helpers.models import IrisMLP

    args = json.loads(arguments)
    torch.set_num_threads(1)
    device = torch.device(args["device"])
    X, _X_test, y, _y_test = load_iris_split(device=device)
    made = variants(device, args["per_call"])
    seconds = {}
    for name in args["names"]:
        make, k = made[name]
        torch.manual_seed(0)
        seconds[name] = first_calls(make, k, IrisMLP().to(device), X, y)[1]
    print(json.dumps(seconds))


def compile_seconds(
    names: list[str], *, device: torch.device | str, per_call: int, cache: str, timeout: int = 600
) -> dict[str, float]:
    """Seconds each named variant (:func:`variants`) takes to compile, each in a fresh Python
    process (as a training run would: the first compile in a process also loads the compiler)
    whose ``torch.compile`` cache is the folder ``cache``: empty, that is a cold cache (a first
    run); filled by an earlier call, a warm one. Raises ``RuntimeError`` with the child's error
    when it fails."""
    env = {**os.environ, "TORCHINDUCTOR_CACHE_DIR": str(cache), "OMP_NUM_THREADS": "1"}
    seconds = {}
    for name in names:
        arguments = json.dumps({"names": [name], "device": str(device), "per_call": per_call})
        code = f"from helpers.compiled import _child; _child({arguments!r})"
        done = subprocess.run(
            [sys.executable, "-c", code],
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
            encoding="utf-8",
        )
        if done.returncode != 0:
            raise RuntimeError(f"compiling in a fresh process failed: {done.stderr[-800:]}")
        seconds |= json.loads(done.stdout.strip().splitlines()[-1])
    return seconds


def cold_and_warm(
    names: list[str],
    *,
    device: torch.device | str,
    per_call: int,
    cold: bool,
    in_process: Mapping[str, float] | None = None,
    warm_cache: str | None = None,
) -> tuple[dict[str, float], dict[str, float]]:
    """Compile times with a cold cache (a fresh process and an empty temporary cache) and with a
    warm one (a fresh process whose cache that run filled). Both take tens of seconds, so only
    when ``cold``; otherwise no cold time, and as the warm one the seconds ``in_process`` gives
    (the first calls in this process, whose cache is warm once a run has filled it) or, without
    them, a fresh process using ``warm_cache`` (by default the cache this process uses)."""
    if not cold:
        if in_process is not None:
            return {}, {name: in_process[name] for name in names}
        if warm_cache is None:  # torch sets it once it has compiled (or the caller did)
            warm_cache = os.environ.get("TORCHINDUCTOR_CACHE_DIR", str(paths.COMPILE_CACHE))
        return {}, compile_seconds(names, device=device, per_call=per_call, cache=warm_cache)
    with tempfile.TemporaryDirectory(prefix="course-cold-cache-") as empty:
        first = compile_seconds(names, device=device, per_call=per_call, cache=empty)
        again = compile_seconds(names, device=device, per_call=per_call, cache=empty)
    return first, again


def break_even(compile_s: float, epoch_s: float, baseline_epoch_s: float) -> float:
    """Epochs after which a variant that compiles for ``compile_s`` seconds and then takes
    ``epoch_s`` per epoch has caught up with a baseline taking ``baseline_epoch_s`` per epoch
    (nothing to compile); ``inf`` when its epochs are no faster."""
    saved = baseline_epoch_s - epoch_s
    return compile_s / saved if saved > 0 else math.inf


def end_to_end(
    epoch_s: Mapping[str, float],
    cold_s: Mapping[str, float],
    warm_s: Mapping[str, float],
    epochs: int,
    baseline: str,
) -> pd.DataFrame:
    """One row per variant: seconds per epoch, compile seconds (cold and warm cache; 0 for a
    variant that compiles nothing, NaN where not measured), the whole training of ``epochs``
    epochs with each, and the break-even epochs against ``baseline`` (a variant in ``epoch_s``;
    0 for itself; ``inf`` for a variant that never catches up)."""
    rows = {}
    for name, per_epoch in epoch_s.items():
        compiled = name in cold_s or name in warm_s
        cold = cold_s.get(name, math.nan) if compiled else 0.0
        warm = warm_s.get(name, math.nan) if compiled else 0.0
        rows[name] = {
            N_("µs per epoch"): per_epoch * 1e6,
            N_("compile, cold cache (s)"): cold,
            N_("compile, warm cache (s)"): warm,
            f"{epochs:,} epochs, cold cache (s)": cold + epochs * per_epoch,
            f"{epochs:,} epochs, warm cache (s)": warm + epochs * per_epoch,
            N_("break-even, cold (epochs)"): break_even(cold, per_epoch, epoch_s[baseline]),
            N_("break-even, warm (epochs)"): break_even(warm, per_epoch, epoch_s[baseline]),
        }
        if name == baseline:  # it does not catch up with itself
            rows[name]["break-even, cold (epochs)"] = rows[name]["break-even, warm (epochs)"] = 0.0
    return pd.DataFrame(rows).T


def styled(table: pd.DataFrame):
    """:func:`end_to_end`'s table for a notebook: seconds to a tenth, epochs whole, a
    break-even that never comes as "never", what was not measured said so, the headers and the
    variants' names in the course's language (:func:`helpers.show.localised`; the table keeps
    its English keys)."""

    def epochs(value: float) -> str:
        if math.isnan(value):
            return _("not measured")
        return pgettext("compile cache", "never") if math.isinf(value) else f"{value:,.0f}"

    even = [c for c in table.columns if c.startswith("break-even")]
    missing = _("not measured")
    return localised(table, "{:,.1f}", na_rep=missing).format(epochs, subset=even)


def fastest_end_to_end(table: pd.DataFrame, epochs: int, cache: str) -> tuple[str, float] | None:
    """The variant of :func:`end_to_end`'s table that trains ``epochs`` epochs soonest, compile
    included, with a ``'cold'`` or ``'warm'`` cache, and the seconds it takes in all; ``None``
    when that cache's compile times were not measured.

    >>> table = end_to_end({"eager": 150e-6, "compiled": 30e-6}, {"compiled": 30.0},
    ...                    {"compiled": 3.0}, 20_000, baseline="eager")
    >>> [(name, round(s, 1)) for name, s in (fastest_end_to_end(table, 20_000, "warm"),
    ...                                      fastest_end_to_end(table, 10**6, "cold"))]
    [('eager', 3.0), ('compiled', 60.0)]
    """
    compile_s = table[f"compile, {cache} cache (s)"]
    if compile_s.isna().any():
        return None
    whole = compile_s + epochs * table["µs per epoch"] / 1e6
    best = whole.idxmin()
    return best, float(whole[best])
