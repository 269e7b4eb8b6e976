"""Hostile use: the viewer's ``POST /api/label`` answers 400 with a reason,
never 500, to an index that is not a whole number (``1e400`` is infinity, ``1.5``, ``true``) and to a body
nested 100,000 deep; nothing is written to the store."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from sumjudge.store.database import RunStore  # noqa: E402
from sumjudge.store.labels import LabelBook  # noqa: E402
from sumjudge.view.app import ViewSettings, create_app  # noqa: E402
from view_store import make_store  # noqa: E402


def client(tmp_path: Path):
    store, a, _ = make_store(tmp_path)
    settings = ViewSettings(store=store, data_roots=(tmp_path,))
    return TestClient(create_app(settings), raise_server_exceptions=False), settings, a


def _nothing_written(settings: ViewSettings, run: str) -> None:
    with RunStore(settings.store, readonly=True) as store:
        assert LabelBook(store).verdict_labels(run) == []


@pytest.mark.parametrize("index", ["1e400", "-1e400", "1.5", "true", "\"0\"", "null", "[0]"])
def test_an_index_that_is_not_a_whole_number_is_400(tmp_path: Path, index: str) -> None:
    c, settings, a = client(tmp_path)
    body = f'{{"run": "{a}", "item": "doc-1", "reviewer": "ann", "target": "claim", "index": {index}, "correct": true}}'
    r = c.post("/api/label", content=body, headers={"X-Sumjudge-Token": settings.token,
                                                     "Content-Type": "application/json"})
    assert r.status_code == 400 and r.json()["ok"] is False and r.json()["error"], index
    _nothing_written(settings, a)


@pytest.mark.parametrize("opening", ["[", '{"a":'])
def test_a_body_nested_100000_deep_is_400(tmp_path: Path, opening: str) -> None:
    c, settings, a = client(tmp_path)
    closing = "]" if opening == "[" else "}"
    body = opening * 100_000 + "1" + closing * 100_000
    r = c.post("/api/label", content=body, headers={"X-Sumjudge-Token": settings.token,
                                                     "Content-Type": "application/json"})
    assert r.status_code == 400 and "deeper" in r.json()["error"]
    _nothing_written(settings, a)


def test_brackets_inside_strings_do_not_count_as_depth(tmp_path: Path) -> None:
    c, settings, a = client(tmp_path)
    body = {"run": a, "item": "doc-1", "reviewer": "[[[[[[[[[[{{{{{{{{\\\"", "target": "claim", "index": 0,
            "correct": True}
    r = c.post("/api/label", json=body, headers={"X-Sumjudge-Token": settings.token})
    assert r.status_code == 200 and r.json()["ok"] is True


@pytest.mark.parametrize("reviewer", [{"a": 1}, ["ann"], 7, None])
def test_a_reviewer_that_is_not_a_string_is_400_and_never_stored_as_text(tmp_path: Path, reviewer: object) -> None:
    c, settings, a = client(tmp_path)
    body = {"run": a, "item": "doc-1", "reviewer": reviewer, "target": "claim", "index": 0, "correct": True}
    r = c.post("/api/label", json=body, headers={"X-Sumjudge-Token": settings.token})
    assert r.status_code == 400 and "string" in r.json()["error"]
    _nothing_written(settings, a)


@pytest.mark.parametrize("name", ["ghp_Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78", "hf_AbCdEfGhIjKlMnOpQrStUvWxYz012345"])
def test_a_reviewer_name_that_is_a_key_is_refused_in_every_write(tmp_path: Path, name: str) -> None:
    c, settings, a = client(tmp_path)
    body = {"run": a, "item": "doc-1", "reviewer": name, "target": "claim", "index": 0, "correct": True}
    r = c.post("/api/label", json=body, headers={"X-Sumjudge-Token": settings.token})
    assert r.status_code == 400 and "key" in r.json()["error"] and name not in r.text
    form = {"run": a, "item": "doc-1", "reviewer": name, "rating": "4", "note": "fine", "token": settings.token}
    r = c.post("/rate", data=form, follow_redirects=False)
    assert r.status_code == 400
    with RunStore(settings.store, readonly=True) as store:
        book = LabelBook(store)
        assert book.verdict_labels(a) == [] and book.item_labels(a) == []


def test_a_key_pasted_into_a_note_is_stored_hidden(tmp_path: Path) -> None:
    c, settings, a = client(tmp_path)
    key = "ghp_Ab12Cd34Ef56Gh78Ij90Kl12Mn34Op56Qr78"
    form = {"run": a, "item": "doc-1", "reviewer": "ann", "rating": "4", "note": f"see {key}", "token": settings.token}
    c.post("/rate", data=form, follow_redirects=False)
    with RunStore(settings.store, readonly=True) as store:
        (label,) = LabelBook(store).item_labels(a)
    assert key not in label.note and label.note.startswith("see ")
