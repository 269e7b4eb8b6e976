"""The import path ``sumjudge.stats`` of sumjudge 0.1, kept so that code written against it still runs.
It lives in :mod:`sumjudge.figures.stats` (the numbers a run reports); new code imports from there.
The old path is that very module, private names included."""

import sys

from .figures import stats as _module

sys.modules[__name__] = _module
