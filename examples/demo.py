"""Score the bundled example summaries with the default judge and print what it found.

    python examples/demo.py [--data examples/summaries.jsonl] [--out out/demo.jsonl] [--model M]

Each row of the data is ``{id, source, summary, ...}``: a few short documents (English and
Korean), each with summaries that differ in ways a reader can see: faithful and complete, a
verbatim copy, one invented number, one wrong name, half the facts left out, an empty one.
With no ``--model`` (and no ``SUMJUDGE_MODEL``) the offline lexical judge is used: no key, no
network, no model download.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from sumjudge import create_summarization_scorer, run_evals_sync

HERE = Path(__file__).resolve().parent


def load(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def score_examples(rows: list[dict[str, Any]], model: str | None = None) -> list[dict[str, Any]]:
    """Score each row; one record per row with its score, both axes, the reason and the verdicts."""
    scorer = create_summarization_scorer(model)
    result = run_evals_sync(
        [{"input": r["source"], "output": r["summary"]} for r in rows], [scorer], concurrency=4
    )
    records = []
    for row, item in zip(rows, result.items):
        res = item.results[scorer.id]
        records.append(
            {
                "id": row["id"],
                "kind": row.get("kind"),
                "score": res.score,
                "alignment": round(res.alignment_score, 2),
                "coverage": round(res.coverage_score, 2),
                "reason": res.reason,
                "result": res.model_dump(mode="json"),
            }
        )
    return records


def print_table(records: list[dict[str, Any]]) -> None:
    """The figures, one row per summary, then what the judge found wrong with each, in full."""
    from rich.console import Console
    from rich.table import Table

    console = Console(highlight=False, markup=False)
    table = Table(title="sumjudge demo: summarization scores", show_lines=False)
    table.add_column("item", no_wrap=True)
    table.add_column("kind")
    table.add_column("score", justify="right")
    table.add_column("alignment", justify="right")
    table.add_column("coverage", justify="right")
    for r in records:
        table.add_row(r["id"], r.get("kind") or "", f"{r['score']:.2f}", f"{r['alignment']:.2f}", f"{r['coverage']:.2f}")
    console.print(table)
    for r in records:  # plain print: a verdict is never cut or wrapped
        found = _findings(r["result"])
        print(f"\n{r['id']} ({r['score']:.2f}): {r['reason'] if not found else ''}".rstrip())
        for line in found:
            print(f"  {line}")


def _findings(result: dict[str, Any]) -> list[str]:
    """The verdicts that set the score: unsupported claims and unanswered questions, with reasons."""
    lines = []
    for v in result["preprocess_step_result"]["alignment"]:
        if not v["supported"]:
            lines.append(f"unsupported claim: {v['claim']}" + (f" ({v['reason']})" if v["reason"] else ""))
    for v in result["analyze_step_result"]["coverage"]:
        if not v["answered"]:
            lines.append(f"left out: {v['question']}")
    return lines


NEXT_STEPS = """
Next ({how}):
  {sumjudge} check --source examples/report.txt --summary examples/summary.txt
      one pair from the shell, with every verdict (a file or the text itself)
  {sumjudge} score examples/summaries.jsonl --out results.jsonl --report report.html
      many items, resumable, with an HTML report
  {sumjudge} score examples/summaries.jsonl --model openai/gpt-4o-mini
      a capable LLM judge (OPENAI_API_KEY), or --model ollama/qwen2.5:7b on your own hardware
See docs/guide.md, "Choosing a judge".
"""


def sumjudge_command() -> tuple[str, str]:
    """How to call the ``sumjudge`` command from here: (command, what to know about it).

    ``make demo`` runs this script with ``.venv/bin/python`` without activating the environment, so a
    bare ``sumjudge`` is "command not found" in the user's shell: name the script in the environment
    that runs this demo, relative to the working folder when it is inside it.
    """
    import shutil

    here = Path(sys.executable).parent / "sumjudge"
    if not here.exists():  # sumjudge imported from a source tree: the module runs the command too
        return f"{sys.executable} -m sumjudge.cli", "the sumjudge command of this Python"
    found = shutil.which("sumjudge")
    if found and Path(found).resolve() == here.resolve():
        return "sumjudge", "sumjudge is on your PATH"
    try:
        shown = str(here.relative_to(Path.cwd()))
    except ValueError:
        shown = str(here)
    activate = here.parent / "activate"
    try:
        act = str(activate.relative_to(Path.cwd()))
    except ValueError:
        act = str(activate)
    return shown, f"copy as is, or run `source {act}` first and type plain `sumjudge`"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--data", type=Path, default=HERE / "summaries.jsonl")
    p.add_argument("--out", type=Path, default=Path("out/demo.jsonl"))
    p.add_argument("--model", default=None, help="judge 'provider/model' (default: the offline lexical judge)")
    args = p.parse_args(argv)
    records = score_examples(load(args.data), args.model)
    print_table(records)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", encoding="utf-8") as fh:
        for r in records:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    print(f"\nwrote {len(records)} results to {args.out}")
    command, how = sumjudge_command()
    print(NEXT_STEPS.format(sumjudge=command, how=how))
    return 0


if __name__ == "__main__":
    sys.exit(main())
