"""A key in the texts being scored is hidden in everything the product writes about them, however a
judge cuts it into words: the offline judge reads "ghp_Ab12..." as "ghp" and "Ab12...", and its reason
would print "'Ab12...' does not occur in the source", which no key pattern knows."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from sumjudge import create_summarization_scorer
from sumjudge.guards.redact import shaped_secrets

from cli_invoke import invoke

SOURCE = "The bridge opened in 1932 and cost 4 million dollars."
KEYS = (
    "ghp_Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78",
    "gho_Zy98Xw76Vu54Ts32Rq10Po98Nm76Lk54Ji32",
    "github_pat_11ABCDEFG0abcdefghijkl_MNOPQRSTUVWXyz0123456789abcdefghij",
    "hf_AbCdEfGhIjKlMnOpQrStUvWxYz012345",
    "sk_live_51Hxyzabcdefghijklmnopqrst",
    "xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx",
)


def pieces_of(key: str, text: str) -> list[str]:
    """Every eight characters of ``key`` that ``text`` holds (case folded)."""
    folded = text.casefold()
    return sorted({key[i : i + 8] for i in range(len(key) - 7) if key[i : i + 8].casefold() in folded})


@pytest.mark.parametrize("key", KEYS)
def test_a_key_in_the_summary_is_hidden_in_every_reason_however_the_judge_cuts_it(key: str) -> None:
    result = create_summarization_scorer("offline/lexical").run_sync(
        input=SOURCE, output=f"The bridge opened in 1932. The token is {key}.")
    assert pieces_of(key, result.model_dump_json()) == []
    assert result.preprocess_step_result.alignment  # judged, not refused


def test_a_key_in_the_source_is_hidden_in_the_questions_drawn_from_it() -> None:
    key = KEYS[0]
    result = create_summarization_scorer("offline/lexical").run_sync(
        input=f"The bridge opened in 1932. Its maintainer token is {key}.", output="The bridge opened in 1932.")
    assert pieces_of(key, result.model_dump_json()) == []


def test_a_key_in_a_scored_file_is_in_no_output_file_nor_the_store(tmp_path: Path) -> None:
    key = KEYS[2]
    data = tmp_path / "d.jsonl"
    data.write_text(json.dumps({"id": "a", "source": SOURCE, "summary": f"The bridge opened in 1932 ({key})."}) + "\n")
    store = tmp_path / "runs.db"
    code, text = invoke("score", str(data), "--model", "offline/lexical", "--store", str(store), "--out",
                        str(tmp_path / "out.jsonl"), "--report", str(tmp_path / "r.html"), "--junit",
                        str(tmp_path / "j.xml"))
    assert code in (0, 1), text
    outputs = ("out.jsonl", "r.html", "j.xml")
    written = text + "".join((tmp_path / name).read_text("utf-8") for name in outputs)
    with sqlite3.connect(store) as db:
        written += " ".join(str(row) for row in db.execute("SELECT * FROM items"))
    assert "does not occur in the source" in written  # the reason that printed the key's body is there
    assert pieces_of(key, written) == []


def test_the_parts_of_a_key_are_known_as_secrets() -> None:
    parts = shaped_secrets("token xoxb-123456789012-1234567890123-AbCdEfGhIjKlMnOpQrStUvWx here")
    assert {"123456789012", "AbCdEfGhIjKlMnOpQrStUvWx", "abcdefghijklmnopqrstuvwx"} <= set(parts)
    assert shaped_secrets("no key, a sk-learn model and ghp_short") == []


@pytest.mark.parametrize("key", [*KEYS, "ghu_Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78", "ghr_Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56",
                                 "ghs_Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78", "npm_Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78",
                                 "pypi-AgEIcHlwaS5vcmcCJGFiY2RlZmdoaWprbG1ub3Bx", "xapp-1-A0123456789-0123456789012-abcdef"])
def test_every_common_token_shape_is_hidden_whole(key: str) -> None:
    from sumjudge.guards.redact import MASK, redact

    assert redact(f"token: {key}.", environment=False) == f"token: {MASK}."
