"""The course's grader, one folder per thing a user does:

- ``checking``: the learner's ``check()`` and ``hint()`` inside a notebook;
- ``batch``: ``python -m grader grade`` (inputs, sandbox, the learner's process,
  results, saved state, gradebook and feedback);
- ``release``: ``python -m grader stubs`` and ``release`` (stub notebooks, the
  edition's sentences, the student bundle);
- ``judging``: what every verb shares (the registry, the judge, naming a mistake,
  outcomes, seeds, the statistical judges, plain data across processes);
- ``lessons``: the exercises themselves, one module per lesson.

``notebook`` is the one reading of a notebook that they all use.
"""
from .checking.check import check
from .checking.hints import hint, hint_reset
from .checking.mine import from_my_notebook

__all__ = ["check", "from_my_notebook", "hint", "hint_reset"]
