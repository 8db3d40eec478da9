"""The student edition's runtime: the modules the release copies into its `gpt2course/`
package (bundle.RUNTIME_FILES), beside the rewritten numpy_gpt and the other modules
whose exercises call the learner's own code (``from . import student as _student``).

- ``student``: the learner's exercises, read from their saved exercise notebooks;
- ``student_cells``: the IPython guard that shows a lesson cell's stored output while
  an exercise it needs is unfinished (and ``cell_key``, the hash those outputs are
  stored under, which lesson_cells uses at build time);
- ``cell_names``: which names a cell assigns, and which it reads first.

They work only inside the release (next to its edition.json and stored_outputs.json);
the full course never imports them.
"""
