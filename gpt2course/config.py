"""Model sizes: GPT-2 small as released and the course's tiny model."""
from __future__ import annotations

from dataclasses import asdict, dataclass


@dataclass(frozen=True)
class GPTConfig:
    """The five numbers that fix a GPT-2 architecture."""

    vocab_size: int  # V: rows of wte; the tied head scores every one of them
    block_size: int  # T: rows of wpe, so the longest sequence the model can read
    n_layer: int     # L: pre-LN blocks stacked on the residual stream
    n_embd: int      # d: width of the residual stream, LayerNorms and attention
    n_head: int      # h: attention heads; each gets n_embd // n_head features

    def __post_init__(self) -> None:
        for name, value in asdict(self).items():
            if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
                raise ValueError(f"GPTConfig.{name} must be a positive int, got {value!r}")
        if self.n_embd % self.n_head:
            raise ValueError(
                f"n_embd={self.n_embd} is not divisible by n_head={self.n_head}: "
                "every head needs the same head size n_embd // n_head"
            )

    @property
    def head_size(self) -> int:
        return self.n_embd // self.n_head

    @property
    def mlp_width(self) -> int:
        return 4 * self.n_embd

    def to_dict(self) -> dict:
        return asdict(self)

    def n_params(self, tied: bool = True, biases: bool = True) -> int:
        """The closed-form parameter count; tests check it against real models.

        biases=False is nanoGPT's bias=False: no bias in any linear layer nor in
        any LayerNorm, whose gains stay (2d per block, d for the final one).
        """
        d, L = self.n_embd, self.n_layer
        per_block = 12 * d * d + (13 * d if biases else 2 * d)
        final_ln = 2 * d if biases else d
        head = 0 if tied else self.vocab_size * d
        return self.vocab_size * d + self.block_size * d + L * per_block + final_ln + head


GPT2_SMALL = GPTConfig(vocab_size=50257, block_size=1024, n_layer=12, n_embd=768, n_head=12)
TINY = GPTConfig(vocab_size=56, block_size=64, n_layer=2, n_embd=64, n_head=4)

GPT2_FAMILY = {
    "gpt2": GPT2_SMALL,
    "gpt2-medium": GPTConfig(vocab_size=50257, block_size=1024, n_layer=24, n_embd=1024, n_head=16),
    "gpt2-large": GPTConfig(vocab_size=50257, block_size=1024, n_layer=36, n_embd=1280, n_head=20),
    "gpt2-xl": GPTConfig(vocab_size=50257, block_size=1024, n_layer=48, n_embd=1600, n_head=25),
}

# GPT-3's largest model (Brown et al., 2020, table 2.1), for counting only: the
# same block as GPT-2 at d = 12288, 96 layers of 96 heads and a 2048-token context.
GPT3_175B = GPTConfig(vocab_size=50257, block_size=2048, n_layer=96, n_embd=12288, n_head=96)
