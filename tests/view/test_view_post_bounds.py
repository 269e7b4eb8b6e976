"""Hostile use: the viewer's ``/label`` and ``/rate`` check the token
before they read a body, and read a body only up to its bound, so a page that POSTs 100 MB to 127.0.0.1
costs nothing; the labels API takes ``true``, ``false`` or ``null`` for ``correct``, and refuses ``1``."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from sumjudge.errors import InputError  # noqa: E402
from sumjudge.store.database import RunStore  # noqa: E402
from sumjudge.store.labels import LabelBook  # noqa: E402
from sumjudge.view.app import ViewSettings, create_app  # noqa: E402
from sumjudge.view.security import MAX_BODY_BYTES  # noqa: E402
from view_store import make_store  # noqa: E402

MB = 1024 * 1024


def client(tmp_path: Path, **settings_kw: object):
    store, a, _ = make_store(tmp_path)
    settings = ViewSettings(store=store, data_roots=(tmp_path,), **settings_kw)  # type: ignore[arg-type]
    return TestClient(create_app(settings), raise_server_exceptions=False), settings, a


def _labels(settings: ViewSettings, run: str) -> list[object]:
    with RunStore(settings.store, readonly=True) as store:
        return list(LabelBook(store).verdict_labels(run))


@pytest.mark.parametrize("path", ["/label", "/rate"])
def test_a_100_mb_form_declared_without_a_token_is_refused_unread(tmp_path: Path, path: str) -> None:
    c, settings, a = client(tmp_path)
    body = b"x=" + b"a" * (100 * MB)
    r = c.post(path, content=body, headers={"Content-Type": "application/x-www-form-urlencoded"})
    assert r.status_code in (403, 413)
    assert _labels(settings, a) == []


async def _post_streamed(app: object, path: str, query: str = "", total: int = 100 * MB,
                         chunk: int = 64 * 1024) -> tuple[int, int]:
    """POST ``total`` bytes to ``app`` (ASGI) in chunks, with no Content-Length: the status, and how many
    bytes the app asked for before it answered (the test client would read the whole body first)."""
    asked = 0
    status = 0

    async def receive() -> dict[str, object]:
        nonlocal asked
        asked += chunk
        return {"type": "http.request", "body": b"a" * chunk, "more_body": asked < total}

    async def send(message: dict[str, object]) -> None:
        nonlocal status
        if message["type"] == "http.response.start":
            status = int(message["status"])  # type: ignore[call-overload]

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "POST", "scheme": "http",
             "path": path, "raw_path": path.encode(), "query_string": query.encode(), "root_path": "",
             "headers": [(b"host", b"127.0.0.1:8765"), (b"content-type", b"application/x-www-form-urlencoded"),
                         (b"transfer-encoding", b"chunked")],
             "client": ("127.0.0.1", 5000), "server": ("127.0.0.1", 8765)}
    await app(scope, receive, send)  # type: ignore[operator]
    return status, asked


@pytest.mark.parametrize("path", ["/label", "/rate"])
async def test_a_streamed_body_is_read_no_further_than_its_bound(tmp_path: Path, path: str) -> None:
    _, settings, a = client(tmp_path)
    app = create_app(settings)
    status, asked = await _post_streamed(app, path)
    assert status in (403, 413) and asked <= MAX_BODY_BYTES + 2 * 64 * 1024  # not 100 MB
    # with a token in the action URL, a wrong one is refused before a byte of the body is read
    status, asked = await _post_streamed(app, path, "token=guess")
    assert status == 403 and asked == 0
    assert _labels(settings, a) == []


def test_the_right_token_still_writes_and_a_big_body_with_it_is_413(tmp_path: Path) -> None:
    c, settings, a = client(tmp_path)
    form = {"run": a, "item": "doc-1", "reviewer": "ann", "target": "claim", "index": "0", "correct": "right"}
    r = c.post(f"/label?token={settings.token}", data=form, follow_redirects=False)
    assert r.status_code == 303, r.text
    r = c.post("/label", data={**form, "token": settings.token, "correct": "wrong"}, follow_redirects=False)
    assert r.status_code == 303, r.text  # a form that carries the token in its fields (an older page)
    r = c.post(f"/label?token={settings.token}", data={**form, "note": "n" * (MAX_BODY_BYTES + 1)})
    assert r.status_code == 413
    r = c.post("/api/label", content=b"{" + b" " * (MAX_BODY_BYTES + 1) + b"}",
               headers={"X-Sumjudge-Token": settings.token, "Content-Type": "application/json"})
    assert r.status_code == 413 and r.json()["ok"] is False


def test_the_item_pages_forms_carry_the_token_in_their_action(tmp_path: Path) -> None:
    c, settings, a = client(tmp_path)
    page = c.get(f"/run/{a}/item", params={"id": "doc-1", "reviewer": "ann"}).text
    assert f'action="/label?token={settings.token}"' in page and f'action="/rate?token={settings.token}"' in page


async def test_a_read_only_viewer_refuses_a_form_before_reading_it(tmp_path: Path) -> None:
    _, settings, a = client(tmp_path, read_only=True)
    status, asked = await _post_streamed(create_app(settings), "/label")
    assert status == 403 and asked == 0


@pytest.mark.parametrize("correct", ["1", "0", '"true"', "1.0", "[]"])
def test_the_labels_api_takes_only_true_false_or_null(tmp_path: Path, correct: str) -> None:
    c, settings, a = client(tmp_path)
    body = f'{{"run": "{a}", "item": "doc-1", "reviewer": "ann", "target": "claim", "index": 0, "correct": {correct}}}'
    r = c.post("/api/label", content=body, headers={"X-Sumjudge-Token": settings.token,
                                                     "Content-Type": "application/json"})
    assert r.status_code == 400 and "true, false or null" in r.json()["error"], correct
    assert _labels(settings, a) == []


def test_the_label_book_refuses_1_for_correct(tmp_path: Path) -> None:
    store, a, _ = make_store(tmp_path)
    with RunStore(store) as s, pytest.raises(InputError, match="true, false or null"):
        LabelBook(s).mark(a, "doc-1", "ann", "claim", 0, text="c", judge_says=True, correct=1)  # type: ignore[arg-type]
