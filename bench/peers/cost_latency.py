"""Cost and latency, side by side: sumjudge against DeepEval's SummarizationMetric.

Both tools score the same items against the same simulated OpenAI-compatible judge
(:class:`sumjudge.testing.judge_server.JudgeServer` on 127.0.0.1, answering with
:class:`SizedBrain` of bench/common/sim_brain.py), each in its own process and its own environment:

    python bench/peers/cost_latency.py                      # everything, about 15 minutes on 2 cores
    python bench/peers/cost_latency.py --items 40 --quick   # a smoke run

DeepEval runs from ``bench/peers/.venv-deepeval`` (``bash bench/peers/setup_deepeval.sh`` creates it);
``--no-deepeval`` measures sumjudge alone.

Two item sets of ``--items`` summaries each:

- ``one-per-source``: every summary has its own source (SummEval's 100 documents, then
  REALSumm's), so sumjudge's question cache never hits;
- ``16-per-source``: SummEval in file order, 16 system summaries per document, so sumjudge
  asks each document's questions once.

Measured per tool and item set:

- judge calls, prompt and completion tokens per evaluation (counted by this script on the
  requests the server recorded: four UTF-8 bytes a token, over the messages' text plus the
  JSON of ``response_format``; completion tokens over the reply text);
- sequential rounds per evaluation (its critical path in judge calls): evaluations run one at a
  time against a server that answers every request ``--round-latency`` seconds after it
  arrives; a request that arrived at least that long after another of the same evaluation may
  have waited for it, and the longest such chain is the number of rounds (client CPU time
  between calls does not count, unlike wall time divided by the latency);
- wall time for all items at ``--concurrency`` evaluations in flight, with the server
  answering after ``--latency`` seconds plus ``--token-delay`` per completion token;
- CPU seconds of the tool's own process per evaluation: through HTTP (the client side of the
  run above, the server being in this process) and with an instant in-process judge (no HTTP,
  no waiting: the tool's own work).

Results go to ``--out`` as JSON and to standard output as Markdown tables.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]  # the repository (this file is bench/peers/)
sys.path[:0] = [str(HERE), str(HERE.parent / "common")]

from sim_brain import SizedBrain, prompt_text  # noqa: E402

from sumjudge.testing.judge_server import JudgeServer, RecordedRequest  # noqa: E402

DEFAULT_DATA = Path(os.environ.get("SUMJUDGE_DATA_DIR") or ROOT.parent / "shared" / "data")
DEEPEVAL_PYTHON = HERE / ".venv-deepeval" / "bin" / "python"


def count_tokens(text: str) -> int:
    return math.ceil(len(text.encode("utf-8")) / 4) if text else 0


def request_prompt_tokens(r: RecordedRequest) -> int:
    rf = r.response_format
    return count_tokens(prompt_text(r.messages) + (json.dumps(rf, ensure_ascii=False) if rf else ""))


# -- items ------------------------------------------------------------------------------------------


def _jsonl(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def item_sets(data_dir: Path, n: int) -> dict[str, list[dict[str, str]]]:
    se_docs = {d["doc_id"]: d["source"] for d in _jsonl(data_dir / "summeval_docs.jsonl")}
    se_rows = _jsonl(data_dir / "summeval_summaries.jsonl")
    rs_docs = {d["doc_id"]: d["source"] for d in _jsonl(data_dir / "realsumm_docs.jsonl")}
    rs_rows = _jsonl(data_dir / "realsumm_keyfact_labels.jsonl")
    one: list[dict[str, str]] = []
    seen: set[str] = set()
    for docs, rows in ((se_docs, se_rows), (rs_docs, rs_rows)):
        for r in rows:
            if r["doc_id"] not in seen and docs.get(r["doc_id"], "").strip() and r["summary"].strip():
                seen.add(r["doc_id"])
                one.append({"source": docs[r["doc_id"]], "summary": r["summary"]})
    many = [{"source": se_docs[r["doc_id"]], "summary": r["summary"]} for r in se_rows if r["summary"].strip()]
    if len(one) < n:
        raise SystemExit(f"only {len(one)} distinct sources in {data_dir}; ask for --items {len(one)} or fewer")
    return {"one-per-source": one[:n], "16-per-source": many[:n]}


# -- running one side --------------------------------------------------------------------------------


def side_command(tool: str, python: str) -> list[str]:
    script = HERE / ("side_sumjudge.py" if tool == "sumjudge" else "side_deepeval.py")
    return [python, str(script)]


def offline_env() -> dict[str, str]:
    """Telemetry and update checks off, no proxies, no real keys (the sides also install offline_guard)."""
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    env.update(
        DEEPEVAL_TELEMETRY_OPT_OUT="YES", DEEPEVAL_UPDATE_WARNING_OPT_IN="NO", DEEPEVAL_NO_INSPECT_PROMPT="1",
        DEEPEVAL_RESULTS_FOLDER="", OPENAI_API_KEY="sk-bench", CONFIDENT_API_KEY="", ERROR_REPORTING="NO",
        TOKENIZERS_PARALLELISM="false",
    )
    env.pop("OPENAI_BASE_URL", None)
    return env


def run_side(cmd: list[str], items: list[dict[str, str]], extra: list[str], workdir: Path, timeout: float) -> dict[str, Any]:
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", dir=workdir, delete=False, encoding="utf-8") as f:
        for it in items:
            f.write(json.dumps(it) + "\n")
        path = f.name
    proc = subprocess.run([*cmd, "--items", path, *extra], capture_output=True, text=True, env=offline_env(),
                          cwd=workdir, timeout=timeout)
    os.unlink(path)
    lines = [ln for ln in proc.stdout.splitlines() if ln.startswith("{")]
    if proc.returncode != 0 or not lines:
        raise RuntimeError(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stdout[-3000:]}\n{proc.stderr[-3000:]}")
    return json.loads(lines[-1])


class TimedBrain:
    """The benchmark brain, noting when each request reached it (its arrival)."""

    def __init__(self, brain: SizedBrain) -> None:
        self.brain = brain
        self.arrivals: list[float] = []

    def __call__(self, request: RecordedRequest) -> Any:
        self.arrivals.append(time.time())
        return self.brain(request)


def rounds(arrivals: list[float], spans: list[list[float]], latency: float) -> list[int]:
    """Longest chain of requests per evaluation, where a request follows one that arrived >= latency before it."""
    out = []
    for start, end in spans:
        ts = sorted(t for t in arrivals if start <= t <= end)
        depth: list[int] = []
        for j, t in enumerate(ts):
            depth.append(1 + max((depth[i] for i in range(j) if t - ts[i] >= 0.98 * latency), default=0))
        out.append(max(depth, default=0))
    return out


def server_counts(server: JudgeServer, n_items: int) -> dict[str, Any]:
    calls = server.chat_requests()
    prompt = sum(request_prompt_tokens(r) for r in calls)
    completion = server.usage["completion_tokens"]
    return {
        "calls": len(calls),
        "calls_per_eval": len(calls) / n_items,
        "calls_by_step": dict(Counter(str(r.step) for r in calls)),
        "prompt_tokens_per_eval": prompt / n_items,
        "completion_tokens_per_eval": completion / n_items,
        "peak_in_flight": server.peak_in_flight,
    }


# -- the whole benchmark -------------------------------------------------------------------------------


def machine() -> dict[str, Any]:
    model = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"nproc": os.cpu_count(), "cpu": model, "python": platform.python_version(),
            "platform": platform.platform(), "date": time.strftime("%Y-%m-%d %H:%M"), "commit": git_commit()}


def git_commit() -> str:
    """The checkout's commit, with '+dirty' when tracked files differ from it."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                              timeout=10).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                               capture_output=True, text=True, timeout=10).stdout.strip()
        return head + ("+dirty" if dirty else "") if head else "unknown"
    except OSError:
        return "unknown"


def deepeval_version(python: str) -> str | None:
    try:
        out = subprocess.run([python, "-c", "import importlib.metadata as m; print(m.version('deepeval'))"],
                             capture_output=True, text=True, timeout=60, env=offline_env())
        return out.stdout.strip() or None
    except OSError:
        return None


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--data-dir", type=Path, default=DEFAULT_DATA)
    p.add_argument("--items", type=int, default=200)
    p.add_argument("--concurrency", type=int, default=8)
    p.add_argument("--max-questions", type=int, default=10, help="sumjudge max_questions = DeepEval n")
    p.add_argument("--latency", type=float, default=0.5, help="simulated seconds per request")
    p.add_argument("--token-delay", type=float, default=0.01, help="simulated seconds per completion token")
    p.add_argument("--round-latency", type=float, default=1.0, help="seconds per request when counting rounds")
    p.add_argument("--round-items", type=int, default=6, help="evaluations timed one by one to count rounds")
    p.add_argument("--price-in", type=float, default=0.15, help="USD per million prompt tokens")
    p.add_argument("--price-out", type=float, default=0.60, help="USD per million completion tokens")
    p.add_argument("--deepeval-python", default=str(DEEPEVAL_PYTHON))
    p.add_argument("--no-deepeval", action="store_true")
    p.add_argument("--deepeval-shared-client", action="store_true",
                   help="give DeepEval's OpenAIModel one async_http_client (by default it builds a client per call)")
    p.add_argument("--quick", action="store_true", help="skip the timed runs at --latency (counts and CPU only)")
    p.add_argument("--cpu-only", action="store_true", help="only the instant in-process judge runs (own CPU)")
    p.add_argument("--out", type=Path, default=ROOT / "bench" / "results" / "cost_latency.json")
    args = p.parse_args()

    tools = {"sumjudge": side_command("sumjudge", sys.executable)}
    if not args.no_deepeval:
        if not Path(args.deepeval_python).exists():
            raise SystemExit(f"{args.deepeval_python} not found: run `bash bench/peers/setup_deepeval.sh` or pass --no-deepeval")
        tools["deepeval"] = side_command("deepeval", args.deepeval_python)
        if args.deepeval_shared_client:
            tools["deepeval"].append("--shared-http-client")

    sets = item_sets(args.data_dir, args.items)
    sized = SizedBrain(questions=args.max_questions)
    for items in sets.values():
        for it in items:
            sized.register(it["source"], it["summary"])
    brain = TimedBrain(sized)

    common = ["--max-questions", str(args.max_questions)]
    report: dict[str, Any] = {
        "machine": machine(),
        "command": " ".join([Path(sys.executable).name, *sys.argv]),
        "settings": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()},
        "deepeval_version": None if args.no_deepeval else deepeval_version(args.deepeval_python),
        "results": {},
    }
    with tempfile.TemporaryDirectory(prefix="sumjudge-bench-") as tmp, JudgeServer(brain) as server:
        work = Path(tmp)
        url = ["--base-url", server.base_url]
        for set_name, items in sets.items():
            for tool, cmd in tools.items():
                row: dict[str, Any] = {"blocked_connections": []}
                if args.cpu_only:
                    own_cpu(row, cmd, items, common, args, work, tool, set_name)
                    report["results"].setdefault(set_name, {})[tool] = row
                    continue
                print(f"[{set_name}] {tool}: rounds", file=sys.stderr, flush=True)
                # 1. rounds: one evaluation at a time, every request takes round_latency seconds
                server.reset()
                brain.arrivals.clear()
                server.latency, server.token_delay = args.round_latency, 0.0
                k = min(args.round_items, len(items))
                # in the cached set, the first evaluation of a document fills the cache: time the later ones
                timed = items[:k] if set_name == "one-per-source" else items[: k + 1]
                one = run_side(cmd, timed, [*url, *common, "--one-by-one"], work, timeout=600)
                spans = one["per_item_spans"] if set_name == "one-per-source" else one["per_item_spans"][1:]
                walls = one["per_item_wall_s"] if set_name == "one-per-source" else one["per_item_wall_s"][1:]
                row["rounds_per_eval"] = rounds(brain.arrivals, spans, args.round_latency)
                row["wall_per_eval_in_latencies"] = [round(w / args.round_latency, 2) for w in walls]
                row["blocked_connections"] += one.get("blocked_connections", [])
                # 2. counts and wall time at the set concurrency
                print(f"[{set_name}] {tool}: {len(items)} items at concurrency {args.concurrency}", file=sys.stderr, flush=True)
                server.reset()
                server.latency, server.token_delay = (0.0, 0.0) if args.quick else (args.latency, args.token_delay)
                full = run_side(cmd, items, [*url, *common, "--concurrency", str(args.concurrency)], work, timeout=3600)
                row.update(server_counts(server, len(items)))
                row["wall_s"] = None if args.quick else full["wall_s"]
                row["client_cpu_s_per_eval_http"] = full["cpu_s"] / len(items)
                row["evaluated"] = full["evaluated"]
                row["blocked_connections"] += full.get("blocked_connections", [])
                row["mean_score"] = full["mean_score"]
                row["cost_usd_per_1000_evals"] = 1000 * (
                    row["prompt_tokens_per_eval"] * args.price_in + row["completion_tokens_per_eval"] * args.price_out
                ) / 1e6
                own_cpu(row, cmd, items, common, args, work, tool, set_name)
                report["results"].setdefault(set_name, {})[tool] = row
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(markdown(report))


def own_cpu(row: dict[str, Any], cmd: list[str], items: list[dict[str, str]], common: list[str],
            args: argparse.Namespace, work: Path, tool: str, set_name: str) -> None:
    """The tool's own CPU: an instant judge in process, the simulated judge's own CPU taken out."""
    print(f"[{set_name}] {tool}: instant judge", file=sys.stderr, flush=True)
    inst = run_side(cmd, items, ["--instant", *common, "--concurrency", str(args.concurrency)], work, timeout=1800)
    judge_cpu = inst.get("judge_cpu_s") or 0.0
    row["own_cpu_s_per_eval_instant"] = (inst["cpu_s"] - judge_cpu) / len(items)
    row["simulated_judge_cpu_s_per_eval"] = judge_cpu / len(items)
    row["instant_usage_per_eval"] = {k: v / len(items) for k, v in (inst.get("reported_usage") or {}).items()}
    row["instant_evaluated"] = inst["evaluated"]
    row["blocked_connections"] += inst.get("blocked_connections", [])


def markdown(report: dict[str, Any]) -> str:
    s = report["settings"]
    lines = []
    for set_name, tools in report["results"].items():
        lines.append(f"\n**{set_name}** ({s['items']} items, concurrency {s['concurrency']}, "
                     f"{s['max_questions']} questions)\n")
        names = list(tools)
        lines.append("| | " + " | ".join(names) + " |")
        lines.append("|---|" + "---|" * len(names))

        def row(label: str, fmt: Any) -> None:
            try:
                cells = [fmt(tools[n]) for n in names]
            except KeyError:
                return  # not measured in this mode
            lines.append(f"| {label} | " + " | ".join(cells) + " |")

        row("judge calls / evaluation", lambda r: f"{r['calls_per_eval']:.2f}")
        row("calls by step (total)", lambda r: ", ".join(f"{k} {v}" for k, v in sorted(r["calls_by_step"].items())))
        row("sequential rounds / evaluation", lambda r: f"{statistics.median(r['rounds_per_eval']):g}"
            f" (min {min(r['rounds_per_eval'])}, max {max(r['rounds_per_eval'])})")
        row("prompt tokens / evaluation", lambda r: f"{r['prompt_tokens_per_eval']:.0f}")
        row("completion tokens / evaluation", lambda r: f"{r['completion_tokens_per_eval']:.0f}")
        row(f"USD / 1000 evaluations at ${s['price_in']}/${s['price_out']} per M tokens",
            lambda r: f"{r['cost_usd_per_1000_evals']:.2f}")
        row(f"wall time, {s['items']} items", lambda r: "n/a (--quick)" if r["wall_s"] is None else f"{r['wall_s']:.1f} s")
        row("client CPU / evaluation, through HTTP", lambda r: f"{1000 * r['client_cpu_s_per_eval_http']:.1f} ms")
        row("own CPU / evaluation, instant in-process judge (its CPU taken out)",
            lambda r: f"{1000 * r['own_cpu_s_per_eval_instant']:.2f} ms")
        row("evaluations completed with the instant judge", lambda r: f"{r['instant_evaluated']}/{s['items']}")
        row("evaluations completed", lambda r: f"{r['evaluated']}/{s['items']}")
        row("non-loopback connections refused", lambda r: str(len(r["blocked_connections"])))
    return "\n".join(lines)


if __name__ == "__main__":
    main()
