"""Grading on a Dask cluster: ``pool`` (the instructor's side: the pool of tasks, the workers'
check, ``--workers N``), ``task`` (what runs on a worker: one learner graded there), ``remote``
(a worker's answer, read back on the instructor's machine as a stranger's data)."""
