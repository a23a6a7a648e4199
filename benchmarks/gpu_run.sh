#!/usr/bin/env bash
# The course's GPU reference, measured on a machine with an NVIDIA GPU. From the repository root:
#
#     bash benchmarks/gpu_run.sh                  # uses .venv/bin/python
#     PYTHON=python3 NOTEBOOKS=1 bash benchmarks/gpu_run.sh
#
# 1. a fast trial of gpu-check (about a minute: a broken setup shows before the long run);
# 2. gpu-check in full mode: this GPU's receipt, checked against its bounds, with its one-screen
#    summary (and, with NOTEBOOKS=1, every lesson executed in fast mode into $OUT). Besides the
#    days' figures it records the host that holds the GPU (its CPU, usable CPUs, whether it is a
#    virtual machine, its JPEG decoding rate), day 6's points in several blocks each (a spread
#    for every point) with the host CPU's curve beside the GPU's, a 16-bit matrix product for
#    day 6's ImageNet estimate, and day 7's steps timed back to back as day 5 times its loop;
# 3. the host CPU's receipt, beside it;
# 4. the GPU's receipt copied to data/gpu_reference.json, the reference the lessons show.
# Then commit data/gpu_reference.json. Nothing here needs Jupyter unless NOTEBOOKS=1.
set -euo pipefail

PYTHON=${PYTHON:-.venv/bin/python}
OUT=${OUT:-build/gpu}

"$PYTHON" - <<'PY'
import sys

import torch

if not torch.cuda.is_available():
    sys.exit(
        f"No CUDA GPU is visible to this PyTorch ({torch.__version__}): install a CUDA build "
        "(README, 'Getting the right PyTorch') or run where `nvidia-smi` lists a GPU."
    )
print(f"{torch.cuda.device_count()} x {torch.cuda.get_device_name()}, torch {torch.__version__}")
PY

"$PYTHON" -m helpers gpu-check --fast --out "$OUT/fast"
"$PYTHON" -m helpers gpu-check --out "$OUT" ${NOTEBOOKS:+--notebooks}
"$PYTHON" -m helpers receipt --device cpu --out "$OUT/cpu_receipt.json"
cp "$OUT/gpu_reference.json" data/gpu_reference.json
echo "data/gpu_reference.json is this GPU's receipt; $OUT/cpu_receipt.json is its host CPU's."
