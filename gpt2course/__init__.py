"""The course's own reference code: GPT-2 configs, the NumPy model and checkpoint loading."""
from .config import GPT2_SMALL, GPT2_FAMILY, TINY, GPTConfig

__all__ = ["GPTConfig", "GPT2_SMALL", "GPT2_FAMILY", "TINY"]
