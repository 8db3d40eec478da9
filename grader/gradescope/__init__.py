"""python -m grader gradescope: the course's batch grader as a Gradescope autograder.

Gradescope's autograder specification (https://gradescope-autograders.readthedocs.io/en/latest/specs/):
a zip with ``setup.sh`` and ``run_autograder`` at its root, unpacked into /autograder/source when
Gradescope builds the image (``setup.sh`` runs then, as root, on Ubuntu); for each submission
``run_autograder`` runs as root with the learner's files in /autograder/submission and must
write /autograder/results/results.json.

- ``build``: the zip: the two scripts (``templates/``), the grader and the course's code, the
  grading requirements (``lock``), the assignment's settings and the instructor's secret.
- ``run``: inside Gradescope: the walls (namespaces, else ``--isolation uid``, else a refusal),
  the submission graded as one learner by ``grader.batch.grade``, results.json written.
- ``results``: a graded learner as results.json (a test per exercise, its words the feedback's).
"""
