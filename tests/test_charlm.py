"""helpers.charlm and the poems it learns (helpers.data.load_poems): day 7b's model and text."""

import pytest
import torch

from helpers import charlm
from helpers.data import POEMS_SHA256, DataFileError, load_poems
from helpers.paths import POEMS

SMALL = charlm.Shape(vocab=40, context=12, width=16, heads=4, layers=2)


def test_the_poems_are_the_courses_copy_one_poem_a_line():
    text = load_poems()
    lines = text.splitlines()
    assert len(lines) == 320 and text.endswith("\n")
    assert lines[1] == "白日依山尽，黄河入海流。欲穷千里目，更上一层楼。"
    assert not any(c in text for c in "()（）,?! ")  # notes, half-width marks and spaces gone
    assert len(set(text)) == 2488


def test_a_changed_or_missing_text_says_how_to_restore_it(tmp_path):
    mine = tmp_path / "诗 copy.txt"
    mine.write_text(POEMS.read_text(encoding="utf-8") + "床前明月光\n", encoding="utf-8")
    with pytest.raises(DataFileError, match="not the course's copy.*git checkout -- data/tang300"):
        load_poems(mine)
    assert load_poems(mine, verify=False).endswith("床前明月光\n")  # a text of one's own
    with pytest.raises(DataFileError, match="not found"):
        load_poems(tmp_path / "absent.txt")
    (tmp_path / "gbk.txt").write_bytes("白日依山尽".encode("gbk"))
    with pytest.raises(DataFileError, match="not UTF-8"):
        load_poems(tmp_path / "gbk.txt", verify=False)
    (tmp_path / "empty.txt").write_text("\n", encoding="utf-8")
    with pytest.raises(DataFileError, match="holds no text"):
        load_poems(tmp_path / "empty.txt", verify=False)
    assert len(POEMS_SHA256) == 64


def test_the_vocabulary_round_trips_and_names_unknown_characters():
    vocab = charlm.Vocabulary("春眠不觉晓，处处闻啼鸟。\n")
    assert vocab.decode(vocab.encode("处处闻啼鸟")) == "处处闻啼鸟"
    assert vocab.encode("春").dtype == torch.int64 and len(vocab) == 12
    with pytest.raises(ValueError, match="not in the vocabulary: '夜来风雨声'"):
        vocab.encode("夜来风雨声")
    with pytest.raises(ValueError, match="at least one character"):
        charlm.Vocabulary("")


def test_windows_are_the_text_and_the_text_one_character_later():
    tokens = torch.arange(100)
    x, y = charlm.windows(tokens, 5, 8, torch.Generator().manual_seed(0))
    assert x.shape == y.shape == (5, 8) and x.is_contiguous() and y.is_contiguous()
    assert torch.equal(y[:, :-1], x[:, 1:]) and torch.equal(y[:, -1], x[:, -1] + 1)
    again, _ = charlm.windows(tokens, 5, 8, torch.Generator().manual_seed(0))
    assert torch.equal(x, again)
    with pytest.raises(ValueError, match="longer than context"):
        charlm.windows(torch.arange(8), 1, 8, torch.Generator())


def test_a_shape_refuses_sizes_that_cannot_build_a_model():
    with pytest.raises(ValueError, match="multiple of heads"):
        charlm.Shape(vocab=10, context=4, width=10, heads=4, layers=1)
    with pytest.raises(ValueError, match="at least 1"):
        charlm.Shape(vocab=10, context=0, width=8, heads=2, layers=1)


@pytest.mark.parametrize(
    "shape", [SMALL, charlm.Shape(vocab=2488, context=64, width=64, heads=8, layers=2)]
)
def test_parameters_counted_from_the_shape_are_the_models(shape):
    model = charlm.CharTransformer(shape)
    assert charlm.parameters(shape) == sum(p.numel() for p in model.parameters())


def test_flops_per_token_is_six_per_matrix_weight_plus_attention():
    shape = charlm.Shape(vocab=2488, context=64, width=64, heads=8, layers=2)
    matrix_weights = 2 * (3 + 1 + 4 + 4) * 64 * 64 + 64 * 2488
    assert charlm.flops_per_token(shape) == 6 * matrix_weights + 12 * 2 * 64 * 64


def test_the_model_is_causal_and_refuses_a_window_longer_than_its_context():
    torch.manual_seed(0)
    model = charlm.CharTransformer(SMALL).eval()
    idx = torch.randint(SMALL.vocab, (2, 10))
    changed = idx.clone()
    changed[:, 6:] = (changed[:, 6:] + 1) % SMALL.vocab
    with torch.no_grad():
        a, b = model(idx), model(changed)
    assert torch.allclose(a[:, :6], b[:, :6]) and not torch.allclose(a[:, 6:], b[:, 6:])
    with pytest.raises(ValueError, match="more than the context"):
        model(torch.zeros(1, 13, dtype=torch.int64))


def test_recomputing_blocks_gives_the_same_loss_and_gradients():
    torch.manual_seed(0)
    model = charlm.CharTransformer(SMALL)
    x, y = (torch.randint(SMALL.vocab, (3, 12)) for _xy in "xy")
    charlm.loss_of(model, x, y).backward()
    plain = [p.grad.clone() for p in model.parameters()]
    model.zero_grad()
    charlm.loss_of(model, x, y, recompute=True).backward()
    pairs = zip(plain, model.parameters(), strict=True)
    assert all(torch.allclose(g, p.grad, atol=1e-6) for g, p in pairs)


def test_generate_continues_the_prompt_reproducibly():
    vocab = charlm.Vocabulary("白日依山尽，黄河入海流。\n")
    shape = charlm.Shape(vocab=len(vocab), context=8, width=8, heads=2, layers=1)
    model = charlm.CharTransformer(shape)
    one = charlm.generate(model, vocab, "白日", 20, seed=3)
    assert one.startswith("白日") and len(one) == 22 and set(one) <= set(vocab.chars)
    assert charlm.generate(model, vocab, "白日", 20, seed=3) == one
    assert model.training  # left as it was found
    with pytest.raises(ValueError, match="temperature"):
        charlm.generate(model, vocab, "白", 2, temperature=0)


def test_the_frequency_loss_is_the_entropy_of_the_characters():
    assert charlm.frequency_loss(torch.tensor([3, 3, 3])) == 0
    text = load_poems()
    loss = charlm.frequency_loss(charlm.Vocabulary(text).encode(text))
    assert 5.5 < loss < torch.log(torch.tensor(2488.0)).item()  # common characters are common
