"""A small character-level transformer and the text it learns (day 7b, sections 1 and 6).

The text is the course's copy of 唐诗三百首 (Three Hundred Tang Poems, public domain), one poem a
line, read by :func:`helpers.data.load_poems`. Every character is a token:

* :class:`Vocabulary` turns text into token numbers and back;
* :func:`windows` cuts ``batch`` random windows of ``context`` tokens out of the text: the inputs,
  and the same windows one character later, the targets;
* :class:`CharTransformer` predicts the next character at every position: token and position
  embeddings, ``layers`` blocks (layer norm, causal self-attention written out so that its
  ``T x T`` scores are visible, layer norm, a 4x wide MLP with GELU), a last layer norm and the
  output layer, one score per character of the vocabulary. Its sizes are a :class:`Shape`;
* :func:`flops_per_token` counts the arithmetic of one training token (forward and backward), the
  numerator of model FLOP utilisation; :func:`generate` writes new text, character by character;
  :func:`frequency_loss` is the loss of a model that knows only how common each character is,
  the bar a model must pass to show it uses the context.

>>> vocab = Vocabulary("白日依山尽，黄河入海流。\\n")
>>> vocab.decode(vocab.encode("黄河")), len(vocab)
('黄河', 13)
>>> shape = Shape(vocab=len(vocab), context=16, width=32, heads=4, layers=2)
>>> model = CharTransformer(shape)
>>> tuple(model(vocab.encode("白日依山").unsqueeze(0)).shape)
(1, 4, 13)
>>> flops_per_token(shape) == 6 * (12 * 2 * 32**2 + 32 * 13) + 12 * 2 * 16 * 32
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.checkpoint import checkpoint


class Vocabulary:
    """The characters of a text, numbered in sorted order: ``encode`` and ``decode``."""

    def __init__(self, text: str) -> None:
        if not text:
            raise ValueError("a vocabulary needs a text with at least one character")
        self.chars = sorted(set(text))
        self.index = {c: i for i, c in enumerate(self.chars)}

    def __len__(self) -> int:
        return len(self.chars)

    def encode(self, text: str) -> torch.Tensor:
        """The token numbers of ``text`` (int64); a character not in the vocabulary is an error
        that names it."""
        unknown = "".join(dict.fromkeys(c for c in text if c not in self.index))
        if unknown:
            raise ValueError(f"characters not in the vocabulary: {unknown[:10]!r}")
        return torch.tensor([self.index[c] for c in text], dtype=torch.int64)

    def decode(self, tokens) -> str:
        return "".join(self.chars[int(t)] for t in tokens)


def windows(
    tokens: torch.Tensor, batch: int, context: int, generator: torch.Generator
) -> tuple[torch.Tensor, torch.Tensor]:
    """``batch`` windows of ``context`` tokens starting at random places (drawn with
    ``generator``), and the same windows shifted by one: the next character at every position.
    Both ``(batch, context)`` int64 tensors, on the device of ``tokens``."""
    if len(tokens) <= context:
        raise ValueError(f"the text ({len(tokens)} tokens) must be longer than context={context}")
    starts = torch.randint(len(tokens) - context, (batch,), generator=generator)
    offsets = torch.arange(context + 1)
    cut = tokens[(starts[:, None] + offsets).to(tokens.device)]
    return cut[:, :-1].contiguous(), cut[:, 1:].contiguous()


@dataclass(frozen=True)
class Shape:
    """The sizes of a :class:`CharTransformer`."""

    vocab: int
    """Characters the model can read and write."""
    context: int
    """The longest window it reads, in characters (its position embeddings)."""
    width: int
    """Numbers per character inside the model (``d``); a multiple of ``heads``."""
    heads: int
    layers: int

    def __post_init__(self) -> None:
        if min(self.vocab, self.context, self.width, self.heads, self.layers) < 1:
            raise ValueError(f"every size must be at least 1: {self}")
        if self.width % self.heads:
            raise ValueError(f"width ({self.width}) must be a multiple of heads ({self.heads})")


class Block(nn.Module):
    """One transformer block: ``x + attention(norm(x))``, then ``x + mlp(norm(x))``."""

    def __init__(self, shape: Shape) -> None:
        super().__init__()
        d, self.heads = shape.width, shape.heads
        self.norm1, self.norm2 = nn.LayerNorm(d), nn.LayerNorm(d)
        self.qkv, self.out = nn.Linear(d, 3 * d), nn.Linear(d, d)
        self.up, self.down = nn.Linear(d, 4 * d), nn.Linear(4 * d, d)
        future = torch.ones(shape.context, shape.context, dtype=torch.bool).triu(1)
        self.register_buffer("future", future, persistent=False)  # what a position may not see

    def attention(self, x: torch.Tensor) -> torch.Tensor:
        batch, length, d = x.shape
        split = (batch, length, self.heads, d // self.heads)
        q, k, v = (t.view(split).transpose(1, 2) for t in self.qkv(x).split(d, dim=-1))
        scores = q @ k.transpose(-2, -1) / math.sqrt(d // self.heads)  # (B, heads, T, T)
        scores = scores.masked_fill(self.future[:length, :length], float("-inf"))
        mixed = scores.softmax(dim=-1) @ v
        return self.out(mixed.transpose(1, 2).reshape(batch, length, d))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.attention(self.norm1(x))
        return x + self.down(F.gelu(self.up(self.norm2(x))))


class CharTransformer(nn.Module):
    """Scores for the next character at every position of ``(batch, length)`` token numbers."""

    def __init__(self, shape: Shape) -> None:
        super().__init__()
        self.shape = shape
        self.tokens = nn.Embedding(shape.vocab, shape.width)
        self.positions = nn.Embedding(shape.context, shape.width)
        self.blocks = nn.ModuleList(Block(shape) for _block in range(shape.layers))
        self.norm = nn.LayerNorm(shape.width)
        self.head = nn.Linear(shape.width, shape.vocab)

    def forward(self, idx: torch.Tensor, recompute: bool = False) -> torch.Tensor:
        """``recompute=True`` keeps only each block's input for the backward pass and runs the
        block again there (activation checkpointing, ``torch.utils.checkpoint``)."""
        length = idx.shape[1]
        if length > self.shape.context:
            raise ValueError(f"{length} tokens is more than the context ({self.shape.context})")
        x = self.tokens(idx) + self.positions(torch.arange(length, device=idx.device))
        for block in self.blocks:
            x = checkpoint(block, x, use_reentrant=False) if recompute else block(x)
        return self.head(self.norm(x))


def loss_of(model: nn.Module, x: torch.Tensor, y: torch.Tensor, **options) -> torch.Tensor:
    """The mean cross-entropy of the model's next-character scores against ``y``."""
    return F.cross_entropy(model(x, **options).flatten(0, 1), y.flatten())


def parameters(shape: Shape) -> int:
    """The model's parameters, counted from its shape (embeddings, blocks, norms, output layer).

    >>> shape = Shape(vocab=100, context=8, width=16, heads=2, layers=1)
    >>> parameters(shape) == sum(p.numel() for p in CharTransformer(shape).parameters())
    True
    """
    d, v = shape.width, shape.vocab
    block = 2 * 2 * d + (3 * d * d + 3 * d) + (d * d + d) + (4 * d * d + 4 * d) + (4 * d * d + d)
    return v * d + shape.context * d + shape.layers * block + 2 * d + d * v + v


def flops_per_token(shape: Shape) -> int:
    """Floating-point operations to train on one token, forward and backward: 6 per weight of a
    matrix product (2 forward, 4 backward), ``12 * layers * width**2`` weights in the blocks and
    ``width * vocab`` in the output layer, plus the attention scores and their weighted sum,
    ``12 * layers * context * width`` (the whole ``T x T`` square is computed, then masked).
    Embeddings are looked up, not multiplied; norms, GELU and softmax are left out (a few per
    cent), as model FLOP utilisation usually counts."""
    d, t, layers = shape.width, shape.context, shape.layers
    return 6 * (12 * layers * d * d + d * shape.vocab) + 12 * layers * t * d


def frequency_loss(tokens: torch.Tensor) -> float:
    """The cross-entropy (nats per character) of predicting every character of ``tokens`` by how
    common it is in them, ignoring what comes before: the entropy of the characters' frequencies.

    >>> round(frequency_loss(torch.tensor([0, 0, 1, 1])), 4)  # two characters, equally common
    0.6931
    """
    counts = torch.bincount(tokens.flatten().cpu()).double()
    shares = counts[counts > 0] / counts.sum()
    return float(-(shares * shares.log()).sum())


@torch.no_grad()
def generate(
    model: CharTransformer,
    vocab: Vocabulary,
    prompt: str,
    characters: int,
    *,
    temperature: float = 0.8,
    seed: int = 0,
) -> str:
    """``prompt`` followed by ``characters`` new ones, each drawn from the model's scores for the
    next character (divided by ``temperature``: lower is safer, higher more surprising)."""
    if temperature <= 0:
        raise ValueError(f"temperature must be positive, got {temperature}")
    was_training = model.training
    model.eval()
    device = next(model.parameters()).device
    generator = torch.Generator().manual_seed(seed)
    idx = vocab.encode(prompt).unsqueeze(0).to(device)
    for _step in range(characters):
        scores = model(idx[:, -model.shape.context :])[0, -1].float().cpu()
        drawn = torch.multinomial((scores / temperature).softmax(-1), 1, generator=generator)
        idx = torch.cat([idx, drawn.to(device).unsqueeze(0)], dim=1)
    model.train(was_training)
    return vocab.decode(idx[0])
