"""helpers.receipt_claims in Chinese: the verdicts and the variants' names a receipt keys its
figures by are shown in the course's language; the receipt keeps its English keys."""

from pathlib import Path

from helpers import receipt_claims, receipts
from helpers.claims import Judgement

RECEIPT = Path(__file__).parent / "fixtures" / "receipts" / "one_gpu" / "h100.json"
CPU_VERDICT = Judgement("issue", "supported (second half only)", "……")


def test_day05_beside_speaks_chinese_and_keeps_the_receipt_s_keys(monkeypatch):
    monkeypatch.setenv("COURSE_LANG", "zh")
    shelf = receipts.Shelf([receipts.load(RECEIPT)], [])
    found = receipt_claims.beside({"kept": 9.0e-5}, CPU_VERDICT, "cpu", shelf)
    assert "本机 *成立（仅后半部分）*" in found.text and "上 *成立*" in found.text
    assert "supported" not in found.text
    rows = " ".join(found.table.index)
    assert "课程循环，每个轮次调用一次 .item()" in rows and "lesson loop" not in rows
    assert shelf.receipts[0]["day05"]["lesson"] == "lesson loop, .item() every epoch"
