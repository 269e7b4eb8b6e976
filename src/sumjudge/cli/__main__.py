"""``python -m sumjudge.cli``: the ``sumjudge`` command."""

from . import main

main()
