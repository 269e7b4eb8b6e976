"""Hostile use: the environment's API key, and key-shaped strings
(``ghp_``, ``AKIA``), inside the data are hidden in the HTML report even where a quote's ``<mark>`` would
cut them in two (the text is redacted first, then marked), and in the run store; a key a judge echoes
percent-encoded (``sk%2D...``) is hidden as the key itself is."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from sumjudge.guards.redact import MASK, redact, secret_spans
from sumjudge.report.evidence import highlight
from sumjudge.testing.brains import SummarizationBrain
from sumjudge.testing.judge_server import JudgeServer

from cli_invoke import invoke

ENV_KEY = "sk-proj-envKey0123456789abcdefXYZ"
GITHUB = "ghp_abcdefghijklmnopqrstuvwxyz0123456789"
AWS = "AKIAIOSFODNN7EXAMPLE"
SOURCE = f"The council approved 120 homes. The deploy key is {ENV_KEY}, the token {GITHUB} and the id {AWS}."
SUMMARY = f"The council approved 120 homes with key {ENV_KEY} and {GITHUB}."


def untagged(html: str) -> str:
    """The report's text as a reader (or a grep after stripping tags) sees it."""
    return re.sub(r"<[^>]*>", "", html)


def written(tmp_path: Path) -> str:
    return "".join(p.read_bytes().decode("utf-8", "replace") for p in tmp_path.rglob("*") if p.is_file()
                   and p.name != "d.jsonl")


def test_a_mark_that_cuts_a_key_does_not_show_it_in_two_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOME_PROVIDER_API_KEY", ENV_KEY)
    at = SOURCE.index(ENV_KEY)
    quotes = [(0, at + 10, "claim-0"), (at + 10, len(SOURCE), "claim-1")]  # a boundary inside the key
    html = highlight(SOURCE, [(at + 5, at + 20, 0)], quotes)
    for secret in (ENV_KEY, GITHUB, AWS, ENV_KEY[10:], ENV_KEY[:10]):
        assert secret not in untagged(html) and secret not in html, secret
    assert untagged(html).count(MASK) == 3
    assert 'data-quotes="claim-0"' in html and 'data-quotes="claim-1"' in html  # the marks are kept


def test_key_shaped_strings_and_percent_encoded_keys_are_hidden(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOME_PROVIDER_API_KEY", ENV_KEY)
    encoded = quote(ENV_KEY, safe="").replace("-", "%2D")
    for text in (f"id {AWS}.", f"token {GITHUB}", f"echo {encoded} back", f"twice {quote(encoded, safe='')}",
                 "sk%2Dabcdefghijklmnopqrstuvwx1234"):
        hidden = redact(text)
        assert MASK in hidden and "%2D" not in hidden and "%252D" not in hidden, hidden
        assert secret_spans(text)
    assert redact("100% sure, 50%off, a%20b") == "100% sure, 50%off, a%20b"
    assert redact("AKIA is a prefix") == "AKIA is a prefix"


@pytest.mark.integration
def test_keys_in_the_data_are_hidden_in_the_report_and_the_store(tmp_path: Path) -> None:
    data = tmp_path / "d.jsonl"
    data.write_text(json.dumps({"id": "a", "source": SOURCE, "summary": SUMMARY}) + "\n")
    env = {"SOME_PROVIDER_API_KEY": ENV_KEY}
    code, text = invoke("score", str(data), "--model", "offline/lexical", "--store", str(tmp_path / "runs.db"),
                        "--out", str(tmp_path / "out.jsonl"), "--report", str(tmp_path / "r.html"), "--quiet", env=env)
    assert code in (0, 1), text
    report = (tmp_path / "r.html").read_text()
    assert "text-block" in report  # the texts are shown, with their marks
    for secret in (ENV_KEY, GITHUB, AWS):
        assert secret not in untagged(report), secret
        assert secret not in written(tmp_path) and secret not in text, secret
    code, exported = invoke("runs", "export", "latest", "--store", str(tmp_path / "runs.db"), env=env)
    assert code == 0 and ENV_KEY not in exported and GITHUB not in exported


def _echoing(key: str) -> Any:
    brain = SummarizationBrain(claims=1, questions=1)

    def answer(request: Any) -> Any:
        reply = brain(request)
        for name in ("alignment", "coverage"):
            for verdict in reply.get(name, []):
                verdict["reason"] += f" (sent with key={key.replace('-', '%2D')}, or {quote(key, safe='')})"
        return reply

    return answer


@pytest.mark.integration
def test_a_key_the_judge_echoes_percent_encoded_is_hidden_before_it_is_stored(tmp_path: Path) -> None:
    key = "sk-test-echoedKey0123456789abcdef"
    data = tmp_path / "d.jsonl"
    data.write_text(json.dumps({"id": "a", "source": "The council approved 120 homes.",
                                "summary": "The council approved homes."}) + "\n")
    with JudgeServer(_echoing(key), api_key=key) as server:
        env = {"VLLM_BASE_URL": server.base_url, "VLLM_API_KEY": key}
        code, text = invoke("score", str(data), "--model", "vllm/test-model", "--store", str(tmp_path / "runs.db"),
                            "--out", str(tmp_path / "out.jsonl"), "--report", str(tmp_path / "r.html"), "--timeout",
                            "5", "--quiet", env=env)
    assert code == 0, text
    everything = written(tmp_path) + text
    assert key.replace("-", "%2D") not in everything and key not in everything
    assert "sk%2D" not in everything


def test_the_probe_pages_change_mark_does_not_cut_a_key_either(monkeypatch: pytest.MonkeyPatch) -> None:
    from sumjudge.report.probe_html import marked

    monkeypatch.setenv("SOME_PROVIDER_API_KEY", ENV_KEY)
    at = SUMMARY.index(ENV_KEY)
    for span in ((at + 4, at + 12), (0, at + 4), (at + 20, len(SUMMARY))):
        html = marked(SUMMARY, span, "del")
        assert ENV_KEY[4:12] not in untagged(html) and ENV_KEY[:8] not in html and GITHUB[:12] not in html, span
        assert '<del class="change">' in html


async def test_a_key_in_a_faithful_summary_is_hidden_after_its_quote_is_located() -> None:
    from scripted import judge, questions

    from sumjudge import create_summarization_scorer

    claim = f"The council approved 120 homes with key {GITHUB}"
    said = {"alignment": [{"claim": claim, "quote": f"The deploy key is {ENV_KEY}, the token {GITHUB}",
                           "supported": True, "reason": "the source says so"}]}

    def answered(request: Any) -> dict[str, Any]:
        return {"coverage": [{"question": q, "quote": f"key {ENV_KEY} and {GITHUB}", "answered": True, "reason": "r"}
                             for q in request.inputs.questions or []]}

    scorer = create_summarization_scorer(judge(said, questions("Does the source name a token?"), answered),
                                         {"strict_evidence": True})
    result = await scorer.run(input=SOURCE, output=SUMMARY)
    assert result.score == 1.0, result.reason
    (a,), (c,) = result.preprocess_step_result.alignment, result.analyze_step_result.coverage
    assert a.verified is True and c.verified is True and a.quote_offsets and c.quote_offsets
    dumped = json.dumps(result.model_dump())
    assert GITHUB not in dumped and MASK in dumped


def test_a_key_in_an_item_id_reaches_no_output_the_store_or_the_terminal(tmp_path: Path) -> None:
    data = tmp_path / "d.jsonl"
    data.write_text(json.dumps({"id": f"id-{ENV_KEY}", "source": SOURCE, "summary": SUMMARY}) + "\n"
                    + json.dumps({"id": f"other-{GITHUB}", "source": SOURCE, "summary": SUMMARY}) + "\n")
    env = {"OPENAI_API_KEY": ENV_KEY}
    store = str(tmp_path / "runs.db")
    code, text = invoke("score", str(data), "--model", "offline/lexical", "--store", store, "--out",
                        str(tmp_path / "out.jsonl"), "--report", str(tmp_path / "r.html"), "--junit",
                        str(tmp_path / "j.xml"), env=env)
    assert code in (0, 1), text
    shown = [text]
    for args in (["runs", "show", "latest", "--worst", "2"], ["runs", "export", "latest", "--format", "csv"],
                 ["runs", "export", "latest"], ["runs", "list"]):
        code, out = invoke(*args, "--store", store, env=env)
        assert code == 0, out
        shown.append(out)
    everything = written(tmp_path) + "".join(shown)
    for secret in (ENV_KEY, GITHUB):
        assert secret not in everything, secret
    assert f"id-{MASK}" in (tmp_path / "out.jsonl").read_text()


def test_two_ids_that_differ_only_in_their_keys_stay_two_items_and_show_no_key(tmp_path: Path) -> None:
    keys = ("ghp_Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78", "ghp_Zz12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr99")
    data = tmp_path / "d.jsonl"
    data.write_text("".join(json.dumps({"id": f"id-{k}", "source": "The bridge opened in 1932.",
                                        "summary": "The bridge opened."}) + "\n" for k in keys))
    out = tmp_path / "out.jsonl"
    code, text = invoke("score", str(data), "--model", "offline/lexical", "--store", str(tmp_path / "runs.db"),
                        "--out", str(out), "--quiet")
    assert code in (0, 1) and "duplicate" not in text, text
    ids = [json.loads(line)["id"] for line in out.read_text().splitlines()]
    assert len(set(ids)) == 2 and all(i.startswith(f"id-{MASK}~") for i in ids)
    assert not any(k[4:12] in out.read_text() for k in keys)
    data.write_text(data.read_text().splitlines()[0] + "\n" + data.read_text().splitlines()[0] + "\n")
    code, text = invoke("score", str(data), "--model", "offline/lexical", "--store", str(tmp_path / "runs.db"))
    assert code == 2 and "duplicate id" in text and keys[0] not in text  # the same id twice is still refused
