"""Scorers, one package each. A scorer meets :class:`sumjudge.evals.Scorer`: an ``id`` and
``async run(input, output, *, run_id=None)`` returning a result with a ``score``."""
