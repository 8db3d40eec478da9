"""Judging, shared by check(), the batch grader and the student release: the exercise
registry, the answers judged, comparing an answer with the expected one, the judge and its
outcomes, naming a mistake, seeds, the statistical judges and the plain-data wire format.

Its modules import one another at the top only, and without a cycle: each imports only
modules of the lines above its own.
    wire, outcomes, forms, registry, details   the plain data, the exercises, a dtype's fix
    stats                                      summaries of an initialisation
    seeds, answers                             the seed rule; calling a function on a case
    compare                                    why an answer fails a case
    sampling_judge, naming                     lesson 08's judges; naming a mistake
    judge                                      the verdict on an exercise
The registry finds the lessons package by name (importlib) when first asked for an
exercise: the lessons import the registry to register their exercises.
"""
