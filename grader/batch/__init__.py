"""Batch grading (python -m grader grade): collect the inputs, grade each learner in a
sandbox, read back its results as a stranger's data, save state, write the gradebook.

On the instructor's machine: ``grade`` (grading one learner, and the batch here),
``pipeline`` (what local and cluster grading share), ``records`` (Submission, Exercises),
``state`` (saved results, resume), ``report`` (gradebook, report, feedback), ``inputs/``
(the arguments into learners), ``sandbox/`` (the host side of the walls) and ``cluster/``
(grading on a Dask cluster: the instructor's pool, the worker's task, its answer read back).
Behind the walls: only ``sandbox/inside/``, copied into the sandbox (standard library only).
"""
