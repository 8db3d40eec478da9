"""Batch grading (python -m grader grade): collect the inputs, grade each learner in a
sandbox, read back its results as a stranger's data, save state, write the gradebook."""
