"""What runs behind the sandbox's walls: the grading process (``zygote``), what its walled
children run (``harness``), their walls (``walls``, with the seccomp filter's tables in
``syscalls``), the audit hook (``hook``) and the frames they write (``frames``).

The rule for this folder: standard library only. Every .py file here but this one is copied
flat into the sandbox's /grader folder (``sandbox.workspace.ZYGOTE_FILES`` lists this folder,
so a new file is copied automatically) and loaded there by path, under names like
``_grader_walls``; the grader package does not exist there. Nothing here may import grader,
NumPy or anything else outside the standard library and this folder. What learner code
uses comes by name from the grader: the zygote imports the libraries the grader's setup names
(NumPy; torch when a learner's cells import it) from the read-only Python installation before
it forks any child.

Two more files are copied in beside these: ``grader/judging/wire.py`` (the values' encoding,
which uses NumPy; it lives in judging/, as the learner's check uses it too) and the course's
``gpt2course/config.py``. The grader imports ``frames`` on its own side as well
(``grader.batch.sandbox.inside.frames``).
"""
