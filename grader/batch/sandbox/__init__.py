"""The host side of the sandbox: what the grader runs on its own machine to build the walls,
start the grading processes behind them and read back what comes out.

``workspace`` (the batch's workspace and one learner's turn on a grading slot), ``processes``
(a grading process and one exercise's descriptors), ``isolation`` (bubblewrap, identities, the
probe), ``cgroups`` (limits per learner), ``limits`` (Limits), ``results`` (a child's frames read
as a stranger's data), ``pieces`` (reference pieces as source, for the oracle).

What runs behind the walls is in ``inside/`` (copied there; never imported by learner code).
"""
