"""Time of one evaluation by the offline lexical judge on a 1,000-word source (all three steps).

    python bench/speed/offline_speed.py [--pure]     # --pure: hide PyStemmer, use pure-Python Snowball

Each evaluation uses a fresh judge and a source it has not seen (the town's names carry the
evaluation's number), so no memo of a source can serve it: the worst case, a new document each
time. The process-wide memos of single words (stems, weights) are warm after the first evaluation,
as in any run of more than one item; the first evaluation, which also reads the wordfreq list, is
reported apart. The scorer's question cache would make repeated sources cheaper still.
"""
import json
import os
import statistics
import sys
import time

if "--pure" in sys.argv:
    sys.modules["Stemmer"] = None  # type: ignore[assignment]

from sumjudge.summarization.offline.lexical import LexicalJudge  # noqa: E402

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


def timed(pairs: list[tuple[str, str]]) -> tuple[list[float], dict[str, list[float]]]:
    """Milliseconds per evaluation, and per step: the source's analysis (sentences, units, names:
    every step reads it, and a judge keeps it), the questions step after it, then alignment and
    coverage."""
    times: list[float] = []
    steps: dict[str, list[float]] = {}
    for source, summary in pairs:
        j = LexicalJudge()
        t = time.perf_counter()
        j.reading.document(source)
        t0 = time.perf_counter()
        qs = j.questions(source, 10).questions
        t1 = time.perf_counter()
        j.align(source, summary)
        t2 = time.perf_counter()
        j.cover(qs, summary)
        t3 = time.perf_counter()
        times.append((t3 - t) * 1000)
        for step, sec in (("the source's analysis", t0 - t), ("questions after it", t1 - t0),
                          ("alignment", t2 - t1), ("coverage", t3 - t2)):
            steps.setdefault(step, []).append(sec * 1000)
    return times, steps


def per_step(steps: dict[str, list[float]]) -> str:
    """Each step's median, the first evaluation left out (it warms the process's word memos)."""
    return "; ".join(f"{k} {statistics.median(v[1:] or v):.1f} ms" for k, v in steps.items())


(first, *times), steps = timed([(make_source(run), summary) for run in range(31)])
print(f"1,000-word source, fresh judge and new source each time: median {statistics.median(times):.1f} ms, "
      f"max {max(times):.1f} ms over {len(times)} evaluations (the first in the process: {first:.0f} ms)")
print(f"  median per step: {per_step(steps)}")

# Real news text, where fewer words repeat than in the source above: 30 SummEval articles, each
# run on into the next ones up to 1,000 words, with one of its summaries (skipped without the data).
data = os.environ.get("SUMJUDGE_DATA_DIR", os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "data"))
if os.path.exists(os.path.join(data, "summeval_docs.jsonl")):
    docs = [json.loads(line) for line in open(os.path.join(data, "summeval_docs.jsonl"))]
    summaries = {}
    for line in open(os.path.join(data, "summeval_summaries.jsonl")):
        row = json.loads(line)
        summaries.setdefault(row["doc_id"], row["summary"])
    pairs = []
    for k in range(30):
        text = " ".join(d["source"] for d in docs[k : k + 4]).split()[:1000]
        pairs.append((" ".join(text), summaries[docs[k]["doc_id"]]))
    times, steps = timed(pairs)
    print(f"SummEval articles run on to 1,000 words, a new one each time: median {statistics.median(times):.1f} ms, "
          f"max {max(times):.1f} ms over {len(times)} evaluations")
    print(f"  median per step: {per_step(steps)}")
