"""Does an alignment judge catch these errors: reversed decisions, moved places, unlike
numbers, changed circumstances? Each case is a short news source, a faithful one-sentence summary and
the same sentence with one error of its kind; the judge is at its defaults. A case is caught when the
faithful claim is supported and the edited one is not; the P of each is printed beside its verdict.

    python bench/quality/reader_cases.py                        # local/reader
    python bench/quality/reader_cases.py --judge offline/lexical

The cases are written for this script (not taken from a data set), three of each kind, in the shape of
the issue's examples; they are not the issue's sentences, which stay kept aside.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import NamedTuple

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "src"))

from sumjudge.judges.base import JudgeRequest, ReplyBounds, StepInputs  # noqa: E402
from sumjudge.judges.registry import resolve_judge  # noqa: E402
from sumjudge.summarization import prompts  # noqa: E402
from sumjudge.summarization.verdicts import ALIGNMENT_STEP, AlignmentOutput, AlignmentVerdict  # noqa: E402


class Case(NamedTuple):
    kind: str
    source: str
    faithful: str
    edited: str


CASES = [
    Case("reversed decision",
         "Members of the regional planning board approved a plan for 300 new homes on the edge of Millford on "
         "Thursday, despite objections from residents about traffic. The developer will also pay for a new school.",
         "The planning board approved a plan for 300 homes in Millford.",
         "The planning board refused a plan for 300 homes in Millford."),
    Case("reversed decision",
         "The jury found the former bank manager guilty of fraud after a six-week trial. He will be sentenced in "
         "May, the court said.",
         "A former bank manager was found guilty of fraud.",
         "A former bank manager was acquitted of fraud."),
    Case("reversed decision",
         "Shareholders voted to accept the takeover offer from Dorran Group at a meeting in London on Monday. "
         "The deal values the company at 2 billion pounds.",
         "Shareholders accepted Dorran Group's takeover offer.",
         "Shareholders rejected Dorran Group's takeover offer."),
    Case("moved place",
         "A fire broke out at a paper factory in Leeds early on Sunday. Forty firefighters worked for six hours "
         "to bring it under control, and no one was hurt.",
         "A fire broke out at a paper factory in Leeds.",
         "A fire broke out at a paper factory in Glasgow."),
    Case("moved place",
         "The festival, held every summer in Lisbon, drew a record 80,000 visitors this year, its organisers said.",
         "The festival in Lisbon drew a record 80,000 visitors.",
         "The festival in Madrid drew a record 80,000 visitors."),
    Case("moved place",
         "Two climbers were rescued from Mount Snowdon on Saturday after one of them broke an ankle near the summit.",
         "Two climbers were rescued from Mount Snowdon.",
         "Two climbers were rescued from Ben Nevis."),
    Case("unlike numbers",
         "The new bridge over the river Tay cost 4.2 million pounds and took two years to build. It opened to "
         "traffic last week.",
         "The bridge over the Tay cost 4.2 million pounds.",
         "The bridge over the Tay cost 9.5 million pounds."),
    Case("unlike numbers",
         "The airline cut 1,200 jobs last year as passenger numbers fell, its annual report showed.",
         "The airline cut 1,200 jobs last year.",
         "The airline cut 12,000 jobs last year."),
    Case("unlike numbers",
         "Police said the driver was travelling at 70 mph in a 30 mph zone when the car hit a wall.",
         "The driver was travelling at 70 mph in a 30 mph zone.",
         "The driver was travelling at 40 mph in a 30 mph zone."),
    Case("changed circumstance",
         "A hiker missing for two days in a snowstorm on the moors was found alive on Tuesday, suffering from "
         "frostbite, and was taken to hospital.",
         "A hiker missing in a snowstorm was found alive with frostbite.",
         "A hiker missing in thick fog was found unhurt."),
    Case("changed circumstance",
         "The match was called off an hour before kick-off because the pitch was flooded after heavy rain.",
         "The match was called off because the pitch was flooded.",
         "The match was called off because of crowd trouble."),
    Case("changed circumstance",
         "The singer cancelled the rest of her tour on doctors' advice after injuring her back in a fall on stage.",
         "The singer cancelled her tour after injuring her back.",
         "The singer cancelled her tour after losing her voice."),
]


def verdict(judge: object, source: str, summary: str) -> AlignmentVerdict:
    request = JudgeRequest(
        step=ALIGNMENT_STEP, messages=prompts.alignment_messages(source, summary), output_type=AlignmentOutput,
        inputs=StepInputs(source=source, summary=summary), bounds=ReplyBounds(min_items=1),
    )
    answer = getattr(judge, "answer", None)
    reply = answer(request) if answer is not None else __import__("asyncio").run(judge.generate(request))  # type: ignore[attr-defined]
    verdicts = reply.output.alignment
    # one claim each; a judge that splits a sentence in two is caught when any part is unsupported
    return min(verdicts, key=lambda v: (v.supported, v.probability if v.probability is not None else 1.0))


def _shown(v: AlignmentVerdict) -> str:
    p = "" if v.probability is None else f" P {v.probability:.2f}"
    return ("supported" if v.supported else "UNSUPPORTED") + p


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--judge", default="local/reader")
    args = ap.parse_args()
    judge = resolve_judge(args.judge)
    caught: dict[str, list[bool]] = {}
    t0 = time.perf_counter()
    for case in CASES:
        good, bad = verdict(judge, case.source, case.faithful), verdict(judge, case.source, case.edited)
        ok = good.supported and not bad.supported
        caught.setdefault(case.kind, []).append(ok)
        print(f"{'caught ' if ok else 'MISSED '} {case.kind:20} faithful {_shown(good):18} edited {_shown(bad):18} {case.edited}")
    print(f"{args.judge}: " + "; ".join(f"{kind} {sum(v)} of {len(v)}" for kind, v in caught.items())
          + f"; all {sum(sum(v) for v in caught.values())} of {len(CASES)} ({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
