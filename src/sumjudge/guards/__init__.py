"""The guards on what comes in and what goes out: the most a count may ask for (:mod:`.limits`)
and the one redactor of secrets (:mod:`.redact`). Neither imports anything of sumjudge."""
