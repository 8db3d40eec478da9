"""The learner's side: check(fn) and hint(fn), run in the learner's own kernel."""
