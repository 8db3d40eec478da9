"""Building what learners get: stub notebooks from solutions/ (stubs), the sentences that
differ between the editions (edition) and the student bundle (bundle)."""
