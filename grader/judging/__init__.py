"""Judging, shared by check(), the batch grader and the student release: the exercise
registry, the judge and its outcomes, naming a mistake, seeds, the statistical judges and
the plain-data wire format."""
