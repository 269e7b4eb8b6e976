"""Time of one evaluation by the offline lexical judge on a 1,000-word source (all three steps).

    python bench/offline_speed.py [--pure]     # --pure: hide PyStemmer, use pure-Python Snowball

Each evaluation uses a fresh judge (no memo of the source), the worst case; the scorer's
question cache would make repeated sources cheaper.
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
words = []
i = 0
while len(words) < 1000:
    words += BASE.replace("Millbrook", f"Millbrook{i}").replace("40", str(40 + i)).split()
    i += 1
source = " ".join(words[:1000])
summary = (
    "Millbrook0's council voted to build a $4.2 million library on Elm Street, opening in September 2026. "
    "Mayor Helen Ortiz said the old library cannot hold the collection; the new one has 41 computers."
)
times = []
for _ in range(30):
    j = LexicalJudge()
    t = time.perf_counter()
    j.align(source, summary)
    qs = j.questions(source, 10).questions
    j.cover(qs, summary)
    times.append((time.perf_counter() - t) * 1000)
print(f"1,000-word source, fresh judge each time: median {statistics.median(times):.1f} ms, "
      f"max {max(times):.1f} ms over {len(times)} evaluations")
