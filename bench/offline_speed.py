"""Time of one evaluation by the offline lexical judge on a 1,000-word source (all three steps).

    python bench/offline_speed.py [--pure]     # --pure: hide PyStemmer, use pure-Python Snowball

Each evaluation uses a fresh judge and a source it has not seen (the town's names carry the
evaluation's number), so no memo of a source can serve it: the worst case, a new document each
time. The process-wide memos of single words (stems, weights) are warm after the first evaluation,
as in any run of more than one item; the first evaluation, which also reads the wordfreq list, is
reported apart. The scorer's question cache would make repeated sources cheaper still.
"""
import statistics
import sys
import time

if "--pure" in sys.argv:
    sys.modules["Stemmer"] = None  # type: ignore[assignment]

from sumjudge.scorers.summarization.offline.lexical import LexicalJudge  # noqa: E402

BASE = (
    "The town council of Millbrook voted on Tuesday to build a new public library on Elm Street. "
    "The building will cost $4.2 million and is expected to open in September 2026. "
    "Mayor Helen Ortiz said the old library, built in 1958, can no longer hold the growing collection. "
    "The new library will have a children's wing, a café and 40 computers for public use. "
)


def make_source(run: int) -> str:
    words: list[str] = []
    i = 0
    while len(words) < 1000:
        words += BASE.replace("Millbrook", f"Millbrook{i}r{run}" if i else "Millbrook0").replace("40", str(40 + i)).split()
        i += 1
    return " ".join(words[:1000])


summary = (
    "Millbrook0's council voted to build a $4.2 million library on Elm Street, opening in September 2026. "
    "Mayor Helen Ortiz said the old library cannot hold the collection; the new one has 41 computers."
)
times = []
for run in range(31):
    source = make_source(run)
    j = LexicalJudge()
    t = time.perf_counter()
    j.align(source, summary)
    qs = j.questions(source, 10).questions
    j.cover(qs, summary)
    times.append((time.perf_counter() - t) * 1000)
first, times = times[0], times[1:]
print(f"1,000-word source, fresh judge and new source each time: median {statistics.median(times):.1f} ms, "
      f"max {max(times):.1f} ms over {len(times)} evaluations (the first in the process: {first:.0f} ms)")
