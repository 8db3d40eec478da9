"""The instructor's arguments into learners (on the instructor's machine): ``collect`` (folders,
zips and notebooks into learners), ``files`` (a folder or zip listed and read, bounded), ``lms``
(Canvas and Moodle downloads), ``ids`` (a learner's id made safe and unique), ``reading`` (a
notebook's bytes parsed, and its lesson)."""
