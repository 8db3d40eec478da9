"""The course's grader: check() and hint() in notebooks, and `python -m grader` for instructors."""
from .check import check, hint, hint_reset

__all__ = ["check", "hint", "hint_reset"]
