"""helpers.peaks and helpers.datasheets: each number type's peak, measured on this CPU and read
from known GPUs' datasheets (faked CUDA devices), and MFU against the right one."""

import matplotlib

matplotlib.use("Agg")

import pytest  # noqa: E402
import torch  # noqa: E402

from helpers import peaks  # noqa: E402
from helpers.datasheets import DATASHEETS, NUMBER_TYPES, datasheet  # noqa: E402
from helpers.roofline import Roof, Workload  # noqa: E402


def test_the_precision_is_restored_even_after_an_error():
    assert torch.get_float32_matmul_precision() == "highest"
    with pytest.raises(RuntimeError), peaks.precision("high"):
        assert torch.get_float32_matmul_precision() == "high"
        raise RuntimeError("a failed step")
    assert torch.get_float32_matmul_precision() == "highest"


def test_a_cpu_has_no_tf32_to_allow():
    assert peaks.tf32_changes_bits("cpu") is False


def test_this_cpu_measures_float32_and_its_16_bit_type_only():
    found = peaks.measured("cpu", size=128, threads=1)
    assert set(found) == set(NUMBER_TYPES)
    assert found["fp32"] > 0 and found["bf16"] > 0  # autocast computes in bfloat16 on a CPU
    assert found["tf32"] is None and found["fp16"] is None
    assert peaks.sixteen_bit("cpu") == "bf16"


def test_an_nvidia_gpu_before_ampere_computes_16_bits_in_float16(fake_cuda, monkeypatch):
    monkeypatch.setattr(torch.cuda, "get_device_capability", lambda d=None: (7, 5))
    assert peaks.sixteen_bit("cuda") == "fp16"
    monkeypatch.setattr(torch.cuda, "get_device_capability", lambda d=None: (9, 0))
    assert peaks.sixteen_bit("cuda") == "bf16"


def test_a_known_gpu_promises_its_datasheets_dense_peaks(fake_cuda, monkeypatch):
    monkeypatch.setattr(torch.cuda, "get_device_name", lambda d=None: "NVIDIA H100 80GB HBM3")
    promised = peaks.promised("cuda")
    assert promised["fp32"] == pytest.approx(67e12) and promised["tf32"] == pytest.approx(494.7e12)
    assert promised["bf16"] == pytest.approx(989.4e12) and "H100" in promised["source"]
    monkeypatch.setattr(torch.cuda, "get_device_name", lambda d=None: "Tesla T4")
    t4 = peaks.promised("cuda")
    assert t4["tf32"] is None and t4["bf16"] is None and t4["fp16"] == pytest.approx(65e12)
    monkeypatch.setattr(torch.cuda, "get_device_name", lambda d=None: "NVIDIA Z999")
    assert peaks.promised("cuda") is None
    assert peaks.promised("cpu") is None


def test_every_datasheet_names_its_source_and_its_faster_types_are_faster():
    for sheet in DATASHEETS:
        assert sheet.source.startswith("NVIDIA"), sheet.name
        fast = [sheet.peak(kind) for kind in ("tf32", "bf16") if sheet.peak(kind)]
        assert all(p >= sheet.fp32 for p in fast), sheet.name
        if sheet.tf32 and sheet.bf16:
            assert sheet.bf16 >= sheet.tf32 and sheet.flops == sheet.tf32
        else:
            assert sheet.flops == sheet.fp32  # the float32 ceiling without TF32
    with pytest.raises(ValueError, match="not one of"):
        datasheet("NVIDIA A100-SXM4-80GB").peak("int8")


def test_mfu_divides_by_the_peak_given():
    assert peaks.mfu(1e12, 4e12) == 0.25 and peaks.mfu(1e12, None) is None


def test_the_roofline_draws_a_roof_per_number_type_with_units_and_the_machine():
    roofs = {"fp32": Roof(50e9, 20e9), "bf16": Roof(400e9, 20e9)}
    points = [(Workload("fp32", 2e9, 1e8, 0.5), "fp32"), (Workload("bf16", 2e9, 8e7, 0.3), "bf16")]
    ax = peaks.draw(roofs, points, title="This machine: a CPU")
    assert ax.get_title() == "This machine: a CPU"
    assert "FLOPs per byte" in ax.get_xlabel() and "FLOP/s" in ax.get_ylabel()
    legend = [t.get_text() for t in ax.get_legend().get_texts()]
    assert any("bf16" in t and "GFLOP/s" in t for t in legend) and "fp32 (fp32)" in legend
