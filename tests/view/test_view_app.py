"""sumjudge view through Starlette's TestClient: every page, the filters, escaping of hostile text in
each field, the write token, read-only mode, the security headers and the review queue."""

from __future__ import annotations

import hashlib
import re
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

from starlette.testclient import TestClient  # noqa: E402

from sumjudge.store.database import RunStore  # noqa: E402
from sumjudge.store.labels import LabelBook  # noqa: E402
from sumjudge.view.app import CSP, ViewSettings, create_app  # noqa: E402
from view_store import EVIL, make_store  # noqa: E402

SHORT_EVIL = "<script>alert(1)</script>"  # fits a reviewer name (64 characters at most)


def client(tmp_path: Path, *, evil: bool = False, read_only: bool = False, **kw):
    store, a, b = make_store(tmp_path, evil=evil)
    settings = ViewSettings(store=store, read_only=read_only, data_roots=(tmp_path,), **kw)
    return TestClient(create_app(settings)), settings, a, b


def item_url(run: str, item: str, reviewer: str | None = None) -> str:
    from sumjudge.view.markup import link

    return link(f"/run/{run}/item", id=item, reviewer=reviewer)


def test_runs_page_lists_runs_with_mean_interval_failures_and_filters(tmp_path):
    c, _, a, b = client(tmp_path)
    html = c.get("/").text
    assert a in html and b in html
    assert "openai/gpt-4o-mini" in html and "docs.jsonl" in html
    row = re.search(rf'<tr class="run" data-run="{a}".*?</tr>', html).group(0)
    assert "0.510" in row  # mean of A's five scores
    assert re.search(r'<span class="ci">\[0\.\d+, 0\.\d+\]</span>', row)  # its bootstrap interval
    assert re.search(r'<td class="num bad">1</td>', row)  # one failure
    assert a not in c.get("/", params={"q": "no such thing"}).text
    assert a in c.get("/", params={"q": a[-6:]}).text


def test_run_page_draws_charts_and_sorts_and_filters_items(tmp_path):
    c, _, a, _ = client(tmp_path)
    html = c.get(f"/run/{a}").text
    assert '<svg class="histogram"' in html and '<svg class="scatter"' in html
    assert html.count('<circle class="dot"') == 5  # one per scored item
    ids = lambda h: re.findall(r'<tr class="item[^"]*" data-id="([^"]+)"', h)  # noqa: E731
    assert ids(html) == ["doc-1", "doc-2", "doc-3", "doc-4", "doc-5", "doc-failed"]
    by_score = ids(c.get(f"/run/{a}", params={"sort": "score", "order": "desc"}).text)
    assert by_score == ["doc-1", "doc-4", "doc-2", "doc-3", "doc-5", "doc-failed"]  # failed last
    assert ids(c.get(f"/run/{a}", params={"status": "failed"}).text) == ["doc-failed"]
    assert ids(c.get(f"/run/{a}", params={"score_min": "0.3", "score_max": "0.75"}).text) == ["doc-2", "doc-3", "doc-4"]
    # coverage = alignment + 0.25 (capped at 1) in these records: alignment sets every score
    assert ids(c.get(f"/run/{a}", params={"axis": "coverage"}).text) == []
    assert len(ids(c.get(f"/run/{a}", params={"axis": "alignment"}).text)) == 5


def test_item_page_highlights_evidence_and_shows_verdicts_samples_usage_and_neighbours(tmp_path):
    c, _, a, _ = client(tmp_path)
    html = c.get(item_url(a, "doc-4")).text
    assert '<mark class="evidence" data-claims="0" title="evidence for claim 1">The council approved the budget on Monday.</mark>' in html
    assert '<mark class="evidence" data-claims="1" title="evidence for claim 2">The new library opens in June.</mark>' in html
    assert "The library opens in May." in html and "the source says June" in html
    assert "Do taxes stay flat?" in html and "✘ not answered" in html
    assert '<table class="samples">' in html and 'data-figure="spread">0.200<' in html
    assert 'data-figure="tokens">120<' in html
    assert 'rel="prev"' in html and "id=doc-3" in html and 'rel="next"' in html and "id=doc-5" in html


def test_item_page_says_why_the_source_is_missing(tmp_path):
    c, _, a, _ = client(tmp_path)
    (tmp_path / "docs.jsonl").write_text('{"id": "doc-1", "source": "another text", "summary": "s"}\n')
    html = c.get(item_url(a, "doc-1")).text
    assert "changed since the run" in html and "<mark" not in html


def test_compare_page_gives_the_verdict_the_differences_and_the_moved_items(tmp_path):
    c, _, a, b = client(tmp_path)
    html = c.get("/compare", params={"a": a, "b": b}).text
    # 5 pairs all one way: exact p = 0.0625, so not "better" at 0.05 and not inside +-0: inconclusive
    assert 'data-verdict="inconclusive"' in html or 'data-verdict="better"' in html
    assert "minimum detectable difference" in html
    assert html.count('<circle class="pair up"') == 5  # every item scored higher in B
    assert "moved most" in html and "doc-5" in html  # +0.3, the largest move
    problem = c.get("/compare", params={"a": a, "b": "nope"}).text
    assert "no run" in problem


PAGES = ["/", "/run/{a}", "ITEM", "/compare?a={a}&b={b}", "/run/{a}?status=failed"]


def test_hostile_text_in_every_field_is_escaped(tmp_path):
    c, settings, a, b = client(tmp_path, evil=True)
    token = {"X-Sumjudge-Token": settings.token}
    # a reviewer name and a note with markup, written through the app
    assert c.post("/api/label", json={"run": a, "item": EVIL, "reviewer": SHORT_EVIL, "target": "claim", "index": 0,
                                      "correct": False}, headers=token).status_code == 200
    assert c.post("/rate", data={"token": settings.token, "run": a, "item": EVIL, "reviewer": SHORT_EVIL,
                                 "rating": "2", "note": EVIL}, follow_redirects=False).status_code == 303
    pages = [p.format(a=a, b=b) for p in PAGES if p != "ITEM"]
    pages += [item_url(a, EVIL), item_url(a, EVIL, SHORT_EVIL), item_url(a, "doc-failed")]
    for path in pages:
        html = c.get(path).text
        assert EVIL not in html and SHORT_EVIL not in html, path
        assert "<script>" not in html and "onerror=" not in html.replace('onerror=&quot;', ""), path
    item = c.get(item_url(a, EVIL, SHORT_EVIL)).text
    escaped = "&lt;/script&gt;&lt;script&gt;document.title=&quot;pwned&quot;&lt;/script&gt;"
    assert item.count(escaped) >= 6  # id, claim, reason, source, summary, note (at least)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in item  # the reviewer name
    assert "JudgeUnavailableError: &lt;/script&gt;" in c.get(item_url(a, "doc-failed")).text


def test_every_response_carries_a_strict_csp_and_pages_load_nothing_from_elsewhere(tmp_path):
    c, _, a, b = client(tmp_path)
    for path in ["/", f"/run/{a}", item_url(a, "doc-1", "ann"), f"/compare?a={a}&b={b}", "/static/view.js"]:
        r = c.get(path)
        assert r.headers["content-security-policy"] == CSP
        assert "'unsafe-inline'" not in CSP and "default-src 'none'" in CSP
        assert r.headers["x-frame-options"] == "DENY"
        for ref in re.findall(r'(?:src|href|action)="([^"]*)"', r.text):
            assert ref.startswith("/") or ref == "", (path, ref)
        assert "<script>" not in r.text and " style=" not in r.text


def test_writes_without_the_token_are_refused(tmp_path):
    c, settings, a, _ = client(tmp_path)
    body = {"run": a, "item": "doc-1", "reviewer": "ann", "target": "claim", "index": 1, "correct": False}
    assert c.post("/api/label", json=body).status_code == 403
    assert c.post("/api/label", json=body, headers={"X-Sumjudge-Token": "guess"}).status_code == 403
    form = {"run": a, "item": "doc-1", "reviewer": "ann", "target": "claim", "index": "1", "correct": "wrong"}
    assert c.post("/label", data=form, follow_redirects=False).status_code == 403
    assert c.post("/rate", data={"run": a, "item": "doc-1", "reviewer": "ann", "rating": "3"}).status_code == 403
    with RunStore(settings.store, readonly=True) as store:
        assert LabelBook(store).verdict_labels(a) == [] and LabelBook(store).item_labels(a) == []
    # with it, both ways land in the store, with the verdict as the judge gave it
    assert c.post("/api/label", json=body, headers={"X-Sumjudge-Token": settings.token}).json() == {"ok": True, "label": "wrong"}
    r = c.post("/label", data={**form, "index": "0", "correct": "right", "token": settings.token}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == item_url(a, "doc-1", "ann")
    with RunStore(settings.store, readonly=True) as store:
        labels = LabelBook(store).verdict_labels(a)
    assert [(x.index, x.correct, x.judge_says, x.text) for x in labels] == [
        (0, True, True, "The council approved the budget."), (1, False, False, "The library opens in May.")]
    page = c.get(item_url(a, "doc-1", "ann")).text
    assert f'<meta name="sumjudge-token" content="{settings.token}">' in page
    assert 'data-index="0" data-judge="supported" data-label="right"' in page
    assert 'data-index="1" data-judge="unsupported" data-label="wrong"' in page


def test_bad_labels_are_refused_with_a_reason(tmp_path):
    c, settings, a, _ = client(tmp_path)
    h = {"X-Sumjudge-Token": settings.token}
    base = {"run": a, "item": "doc-1", "reviewer": "ann", "target": "claim", "index": 0, "correct": True}
    for change, words in [({"index": 9}, "no claim 9"), ({"target": "item"}, "target"), ({"reviewer": " "}, "reviewer"),
                          ({"item": "doc-failed"}, "no scored item"), ({"correct": "yes"}, "correct")]:
        r = c.post("/api/label", json={**base, **change}, headers=h)
        assert r.status_code == 400 and words in r.json()["error"], change
    r = c.post("/rate", data={"token": settings.token, "run": a, "item": "doc-1", "reviewer": "ann", "rating": "7"})
    assert r.status_code == 400 and "1 to 5" in r.text


def test_read_only_refuses_writes_even_with_the_token_and_leaves_the_store_as_it_was(tmp_path):
    c, settings, a, _ = client(tmp_path, read_only=True)
    wal = settings.store.with_name("runs.db-wal")
    before = hashlib.sha256(settings.store.read_bytes()).hexdigest()
    r = c.post("/api/label", json={"run": a, "item": "doc-1", "reviewer": "ann", "target": "claim", "index": 0,
                                   "correct": True}, headers={"X-Sumjudge-Token": settings.token})
    assert r.status_code == 403 and "read-only" in r.json()["error"]
    r = c.post("/label", data={"token": settings.token, "run": a, "item": "doc-1", "reviewer": "ann", "target": "claim",
                               "index": "0", "correct": "right"})
    assert r.status_code == 403
    page = c.get(item_url(a, "doc-1", "ann")).text
    assert "sumjudge-token" not in page and settings.token not in page and 'class="mark"' not in page
    assert hashlib.sha256(settings.store.read_bytes()).hexdigest() == before
    assert not wal.exists() or wal.stat().st_size == 0


def test_the_queue_puts_the_least_sure_items_first_then_a_seeded_order(tmp_path):
    c, settings, a, _ = client(tmp_path)

    def next_item(reviewer: str = "ann") -> str:
        r = c.get(f"/run/{a}/queue", params={"reviewer": reviewer}, follow_redirects=False)
        assert r.status_code == 303
        return re.search(r"id=([^&]+)", r.headers["location"]).group(1)

    assert next_item() == "doc-4"  # its samples disagree (spread 0.2)
    h = {"X-Sumjudge-Token": settings.token}
    c.post("/api/label", json={"run": a, "item": "doc-4", "reviewer": "ann", "target": "claim", "index": 0, "correct": True}, headers=h)
    assert next_item() == "doc-2"  # 0.5, on the gate
    assert next_item("bob") == "doc-4"  # each reviewer has a queue of their own
    for item in ("doc-2", "doc-1", "doc-3", "doc-5"):
        c.post("/api/label", json={"run": a, "item": item, "reviewer": "ann", "target": "answer", "index": 0, "correct": True}, headers=h)
    assert "the queue is done" in c.get(f"/run/{a}/queue", params={"reviewer": "ann"}).text
    assert c.get(f"/run/{a}/queue").status_code == 400  # no reviewer


def test_requests_for_another_host_are_refused(tmp_path):
    c, _, _, _ = client(tmp_path, allowed_hosts=("127.0.0.1", "localhost"))
    assert c.get("/", headers={"host": "attacker.example"}).status_code == 400
    assert c.get("/", headers={"host": "127.0.0.1:8765"}).status_code == 200


def test_unknown_runs_and_items_are_404s(tmp_path):
    c, _, a, _ = client(tmp_path)
    assert c.get("/run/nope").status_code == 404
    assert c.get(item_url(a, "nope")).status_code == 404
    assert c.get("/static/../app.py").status_code == 404


def test_probe_runs_are_listed_with_a_link_and_left_to_their_command(tmp_path):
    store, a, _ = make_store(tmp_path)
    with RunStore(store) as s:
        run, _ = s.open_run(model="offline/lexical", options={"kind": "probe", "scale": 1}, data="probe.jsonl",
                            fingerprint="p" * 64, total_items=0)
    probe = run.id
    c = TestClient(create_app(ViewSettings(store=store, data_roots=(tmp_path,))))
    row = re.search(rf'<tr class="run" data-run="{probe}" data-kind="probe">.*?</tr>', c.get("/").text).group(0)
    assert f'href="/run/{probe}"' in row and '<span class="kind">probe</span>' in row
    page = c.get(f"/run/{probe}").text
    assert "is a probe run" in page and "sumjudge probe" in page


def test_a_mark_is_not_shown_on_a_verdict_that_changed_since(tmp_path):
    from view_store import record

    c, settings, a, _ = client(tmp_path)
    c.post("/api/label", json={"run": a, "item": "doc-1", "reviewer": "ann", "target": "claim", "index": 0, "correct": True},
           headers={"X-Sumjudge-Token": settings.token})
    assert 'data-index="0" data-judge="supported" data-label="right"' in c.get(item_url(a, "doc-1", "ann")).text
    with RunStore(settings.store) as store:  # the item scored again, with another first claim
        store.record_item(a, 1, record("doc-1", 0.9, claim="The council met on Monday."))
    assert 'data-index="0" data-judge="supported" data-label=""' in c.get(item_url(a, "doc-1", "ann")).text


def test_a_large_table_shows_its_first_rows_and_a_link_to_all(tmp_path):
    c, _, a, _ = client(tmp_path)
    html = c.get(f"/run/{a}", params={"sort": "score", "show": "2"}).text
    assert re.findall(r'<tr class="item[^"]*" data-id="([^"]+)"', html) == ["doc-5", "doc-3"]
    link = re.search(r'<a class="show-all" href="([^"]+)">', html).group(1).replace("&amp;", "&")
    assert "show=0" in link and "sort=score" in link
    assert len(re.findall(r'<tr class="item', c.get(link).text)) == 6


def test_a_run_scored_with_renamed_fields_shows_its_texts(tmp_path, monkeypatch):
    """`score --source-field/--summary-field/--id-field`: the store keeps the names, the viewer reads the
    data file with them."""
    import json

    from click.testing import CliRunner

    from sumjudge.cli import main

    source, summary = "The bridge opened in 1932. It cost 4 million dollars.", "The bridge opened in 1932."
    (tmp_path / "news.jsonl").write_text(
        json.dumps({"doc": "n-1", "article": source, "highlights": summary}) + "\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("SUMJUDGE_MODEL", raising=False)
    store = tmp_path / ".sumjudge" / "runs.db"
    done = CliRunner().invoke(main, ["score", "news.jsonl", "--source-field", "article", "--summary-field",
                                     "highlights", "--id-field", "doc", "--quiet", "--store", str(store)])
    assert done.exit_code == 0, done.output
    with RunStore(store, readonly=True) as s:
        run = s.get_run("latest")
    assert run.fields == {"source": "article", "summary": "highlights", "id": "doc"}
    c = TestClient(create_app(ViewSettings(store=store, read_only=True, data_roots=(tmp_path,))))
    page = c.get(item_url(run.id, "n-1")).text
    assert "missing field" not in page
    assert 'class="source text-block"' in page and "It cost 4 million dollars." in page


def test_a_labelled_run_shows_the_calibrate_command(tmp_path):
    c, settings, a, _ = client(tmp_path)
    assert "sumjudge calibrate" not in c.get(f"/run/{a}").text
    with RunStore(settings.store) as store:
        LabelBook(store).rate(a, "doc-1", "ana", rating=5)
    html = c.get(f"/run/{a}").text
    assert f"<code>sumjudge calibrate {a} --out calibration.json</code>" in html
