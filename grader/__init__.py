"""The course's grader: check() in notebooks, and `python -m grader` for instructors."""
from .check import check

__all__ = ["check"]
