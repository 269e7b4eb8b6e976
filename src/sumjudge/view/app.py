"""The viewer's ASGI app (Starlette): its routes and their handlers, over one run store.

Every response carries the security headers, and every write is checked for this process's token and
refused in read-only mode (:mod:`.security`, where the defences are told). The CLI lets through only
requests addressed to the host it binds (``allowed_hosts``), so a page elsewhere cannot reach the app
through a DNS name that points at 127.0.0.1.

The store is opened for each request (a SQLite open is cheap) on the event loop's thread: the
handlers are ``async`` and never hand the connection to another thread.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from urllib.parse import parse_qs

from ..analysis.compare import compare_runs
from ..analysis.run_items import ComparisonError, run_items_from_store
from ..analysis.review_queue import review_order
from ..errors import InputError, MissingDependencyError, SumjudgeError
from ..figures.stats import DEFAULT_SEED
from ..store.database import RunRecord, RunStore
from ..store.item_lookup import get_item, item_rows, neighbours
from ..store.labels import TARGETS, LabelBook, check_reviewer
from ..store.records import ScoredItem
from ..store.run_stats import RunStats
from .markup import link, message_page, page
from .pages.compare import compare_body
from .pages.item import ItemContext, item_body
from .pages.run import ItemFilter, run_body
from .pages.runs import matches, run_kind, runs_body
from .security import CSP, TOKEN_HEADER, BodyTooLarge, SecurityHeaders, bounded_body, json_body, write_refusal
from .sources import SourceFinder

try:
    from starlette.applications import Starlette
    from starlette.middleware import Middleware
    from starlette.middleware.trustedhost import TrustedHostMiddleware
    from starlette.requests import Request
    from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse, Response
    from starlette.routing import Route
except ImportError:  # pragma: no cover - exercised only without the extra
    raise MissingDependencyError("the viewer (starlette)", 'pip install "sumjudge[view]"') from None

_STATIC = {"view.js": "text/javascript; charset=utf-8", "view.css": "text/css; charset=utf-8", "icon.svg": "image/svg+xml"}


@dataclass(frozen=True)
class ViewSettings:
    """What the app serves and how."""

    store: Path
    read_only: bool = False
    token: str = field(default_factory=lambda: secrets.token_urlsafe(32), repr=False)
    allowed_hosts: tuple[str, ...] | None = None
    """Host headers let through; ``None`` lets every one through (tests)."""
    data_roots: tuple[Path, ...] = (Path("."),)
    """Where the runs' data files are looked for (their paths are as ``sumjudge score`` was given them)."""
    seed: int = DEFAULT_SEED
    """The seed of the review queue's random order."""
    max_runs: int = 200


def create_app(settings: ViewSettings) -> Starlette:
    """The viewer over ``settings.store`` (which must exist: the viewer never creates a store)."""
    if not settings.store.is_file():
        raise InputError(f"no run store at {settings.store} (runs are recorded by `sumjudge score`)")
    view = View(settings)  # fails now, not on the first request, when the store cannot be read
    routes = [
        Route("/", view.runs_page),
        Route("/run/{run_id}", view.run_page),
        Route("/run/{run_id}/item", view.item_page),
        Route("/run/{run_id}/queue", view.queue),
        Route("/compare", view.compare_page),
        Route("/api/label", view.api_label, methods=["POST"]),
        Route("/label", view.form_label, methods=["POST"]),
        Route("/rate", view.form_rate, methods=["POST"]),
        Route("/static/{name}", view.static),
    ]
    middleware = [Middleware(SecurityHeaders)]
    if settings.allowed_hosts is not None:
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=list(settings.allowed_hosts)))
    return Starlette(routes=routes, middleware=middleware)


Handler = Callable[[Request], Awaitable[Response]]


def _verdict_texts(outcome: object) -> dict[tuple[str, int], str]:
    """(target, index) -> the claim or question, as a label stores it."""
    v = outcome.verdicts if isinstance(outcome, ScoredItem) else None
    if v is None:
        return {}
    return {**{("claim", i): c.claim for i, c in enumerate(v.alignment)},
            **{("answer", i): q for i, q in enumerate(v.questions)}}


class View:
    """The request handlers, over one store."""

    def __init__(self, settings: ViewSettings) -> None:
        self.s = settings
        self.sources = SourceFinder(list(settings.data_roots))
        self._stats: dict[tuple[str, float, int], RunStats] = {}  # a run's bootstrap is paid once per state of it
        with self._read() as store:
            store.list_runs(1)

    # -- plumbing -----------------------------------------------------------------------------

    def _run_stats(self, store: RunStore, run: RunRecord) -> RunStats:
        key = (run.id, run.updated_at, run.done)
        if key not in self._stats:
            self._stats[key] = store.stats(run.id, axes=False)  # the pages show the score's interval only
        return self._stats[key]

    def _read(self) -> RunStore:
        return RunStore(self.s.store, readonly=True)

    def _html(self, title: str, body: str, kind: str, status: int = 200, data: Mapping[str, str] | None = None) -> HTMLResponse:
        token = None if self.s.read_only else self.s.token
        return HTMLResponse(page(title, body, token=token, read_only=self.s.read_only, page_kind=kind, data=data),
                            status_code=status)

    def _message(self, title: str, text: str, status: int) -> HTMLResponse:
        token = None if self.s.read_only else self.s.token
        return HTMLResponse(message_page(title, text, token=token, read_only=self.s.read_only), status_code=status)

    def _refusal(self, request: Request, given: str | None) -> str | None:
        """Why a write is refused, or ``None`` when it may go ahead."""
        return write_refusal(read_only=self.s.read_only, token=self.s.token,
                             sent=request.headers.get(TOKEN_HEADER) or given)

    # -- pages --------------------------------------------------------------------------------

    async def runs_page(self, request: Request) -> Response:
        q, judge = request.query_params.get("q", ""), request.query_params.get("judge", "")
        with self._read() as store:
            runs = store.list_runs(self.s.max_runs)
            shown = [(r, self._run_stats(store, r)) for r in runs if matches(r, q, judge)]
        judges = sorted({r.model for r in runs})
        return self._html("runs", runs_body(shown, judges=judges, q=q, judge=judge, total=len(runs)), "runs")

    async def run_page(self, request: Request) -> Response:
        with self._read() as store:
            try:
                run = store.get_run(request.path_params["run_id"])
            except KeyError as exc:
                return self._message("no such run", str(exc.args[0]), 404)
            if run_kind(run) != "score":  # the hook for other kinds of run (probe): their page is their command's
                return self._message(f"{run_kind(run)} run", f"run {run.id} is a {run_kind(run)} run of {run.model} over "
                                     f"{run.data}: its page is made by `sumjudge {run_kind(run)}`", 200)
            stats = self._run_stats(store, run)
            items = item_rows(store, run.id)
            counts: dict[str, int] = {}
            for lab in LabelBook(store).verdict_labels(run.id):
                counts[lab.item_id] = counts.get(lab.item_id, 0) + 1
            labelled = bool(counts) or any(lab.rating is not None for lab in LabelBook(store).item_labels(run.id))
            correction = None
            if counts:  # people labelled verdicts here: the run's rates corrected for the judge's errors
                from ..analysis.corrected import correction_from_store

                correction = correction_from_store(store, run.id)
        flt = ItemFilter.from_query(request.query_params)
        scale = float(run.options.get("scale", 1) or 1)
        body = run_body(run, stats, items, flt=flt, labels=counts, reviewer=request.query_params.get("reviewer", ""),
                        scale=scale, correction=correction, labelled=labelled)
        return self._html(f"run {run.id}", body, "run", data={"run": run.id})

    async def item_page(self, request: Request) -> Response:
        item_id, reviewer = request.query_params.get("id", ""), request.query_params.get("reviewer", "").strip()
        with self._read() as store:
            try:
                run = store.get_run(request.path_params["run_id"])
            except KeyError as exc:
                return self._message("no such run", str(exc.args[0]), 404)
            item = get_item(store, run.id, item_id)
            if item is None:
                return self._message("no such item", f"run {run.id} holds no item {item_id!r}", 404)
            prev_id, next_id = neighbours(store, run.id, item.row_number)
            book = LabelBook(store)
            texts = _verdict_texts(item.outcome)
            marks = {  # a mark whose verdict has changed since (the item was scored again) is not shown on it
                (lab.target, lab.index): lab.correct for lab in book.verdict_labels(run.id, item_id, reviewer)
                if texts.get((lab.target, lab.index)) == lab.text
            } if reviewer else {}
            ratings = book.item_labels(run.id, item_id, reviewer) if reviewer else []
            others = sorted({lab.reviewer for lab in book.verdict_labels(run.id, item_id)} - {reviewer})
        ctx = ItemContext(
            run=run, item=item, prev_id=prev_id, next_id=next_id,
            texts=self.sources.texts(run.data, item.item_id, item.outcome.source_sha256, run.fields),
            reviewer=reviewer, marks=marks, rating=ratings[0] if ratings else None, others=others,
            read_only=self.s.read_only, token=None if self.s.read_only else self.s.token,
        )
        data = {"run": run.id, "item": item.item_id, "reviewer": reviewer}
        return self._html(f"item {item.item_id}", item_body(ctx), "item", data=data)

    async def queue(self, request: Request) -> Response:
        try:
            reviewer = check_reviewer(request.query_params.get("reviewer", ""))
        except InputError as exc:
            return self._message("a reviewer is needed", str(exc), 400)
        with self._read() as store:
            try:
                run = store.get_run(request.path_params["run_id"])
            except KeyError as exc:
                return self._message("no such run", str(exc.args[0]), 404)
            scale = float(run.options.get("scale", 1) or 1)
            try:
                gate = float(request.query_params.get("gate") or scale / 2)
            except ValueError:
                return self._message("bad gate", "the gate is a number, such as 0.5", 400)
            order = review_order(((i.item_id, i.score, i.spread, i.unverified) for i in item_rows(store, run.id)), gate=gate,
                                 scale=scale, seed=self.s.seed)
            done = LabelBook(store).labelled_items(run.id, reviewer)
        nxt = next((i for i in order if i not in done), None)
        if nxt is None:
            return self._message("the queue is done", f"{reviewer} has labelled every scored item of run {run.id}", 200)
        return RedirectResponse(link("/run/" + run.id + "/item", id=nxt, reviewer=reviewer), 303)

    async def compare_page(self, request: Request) -> Response:
        a, b = request.query_params.get("a", ""), request.query_params.get("b", "")
        result, problem = None, None
        with self._read() as store:
            runs = store.list_runs(self.s.max_runs)
            if a and b:
                try:
                    result = compare_runs(run_items_from_store(store, a), run_items_from_store(store, b))
                except ComparisonError as exc:
                    problem = str(exc)
        if not (a and b) and len(runs) >= 2:
            a, b = a or runs[1].id, b or runs[0].id
        return self._html("compare", compare_body(runs, a, b, result, problem), "compare")

    async def static(self, request: Request) -> Response:
        name = request.path_params["name"]
        if name not in _STATIC:
            return Response("not found", 404, media_type="text/plain")
        text = resources.files(__package__).joinpath("static", name).read_text(encoding="utf-8")
        return Response(text, media_type=_STATIC[name])

    # -- writes -------------------------------------------------------------------------------

    def _label(self, run_ref: str, item_id: str, reviewer: str, target: str, index: int, correct: bool | None) -> None:
        if target not in TARGETS:
            raise InputError(f"a label's target is one of {', '.join(TARGETS)}")
        with RunStore(self.s.store) as store:
            run = store.get_run(run_ref)
            item = get_item(store, run.id, item_id)
            if item is None or not isinstance(item.outcome, ScoredItem) or item.outcome.verdicts is None:
                raise InputError(f"run {run.id} holds no scored item {item_id!r} with verdicts")
            v = item.outcome.verdicts
            if target == "claim":
                if not 0 <= index < len(v.alignment):
                    raise InputError(f"item {item_id!r} has no claim {index}")
                text, says = v.alignment[index].claim, v.alignment[index].supported
            else:
                if not 0 <= index < min(len(v.questions), len(v.coverage)):
                    raise InputError(f"item {item_id!r} has no answer {index}")
                text, says = v.questions[index], v.coverage[index].answered
            LabelBook(store).mark(run.id, item_id, reviewer, target, index, text=text, judge_says=says,  # type: ignore[arg-type]
                                  correct=correct)

    async def api_label(self, request: Request) -> Response:
        refusal = self._refusal(request, None)
        if refusal:
            return JSONResponse({"ok": False, "error": refusal}, 403)
        try:
            body = json_body(await bounded_body(request))
            correct = body.get("correct")
            if not (correct is None or isinstance(correct, bool)):  # 1 == True, but 1 is no answer
                raise InputError("correct is true, false or null")
            index = body["index"]
            if isinstance(index, bool) or not isinstance(index, int):  # 1e400 is inf, 1.5 is no claim
                raise InputError("index is a whole number")
            texts = [body[k] for k in ("run", "item", "reviewer", "target")]
            if not all(isinstance(t, str) for t in texts):  # {"a": 1} is no name: never stored as its text
                raise InputError("run, item, reviewer and target are strings")
            self._label(*texts, index, correct)
        except (KeyError, TypeError, ValueError, AttributeError, SumjudgeError) as exc:
            text = str(exc.args[0]) if isinstance(exc, KeyError) and exc.args else str(exc)
            return JSONResponse({"ok": False, "error": text}, 413 if isinstance(exc, BodyTooLarge) else 400)
        return JSONResponse({"ok": True, "label": None if correct is None else ("right" if correct else "wrong")})

    async def _form(self, request: Request) -> tuple[dict[str, str], Response | None]:
        """A form write's fields, or the response that refuses it: the token of the header or of the
        action URL is checked before the body is read, and the body is read only up to its bound."""
        outside = request.headers.get(TOKEN_HEADER) or request.query_params.get("token")
        if outside is not None or self.s.read_only:
            refusal = self._refusal(request, outside)
            if refusal:
                return {}, self._message("refused", refusal, 403)
        try:
            raw = (await bounded_body(request)).decode("utf-8", errors="replace")
        except SumjudgeError as exc:
            return {}, self._message("refused", str(exc), 413 if isinstance(exc, BodyTooLarge) else 400)
        form = {k: v[-1] for k, v in parse_qs(raw, keep_blank_values=True).items()}
        refusal = None if outside is not None else self._refusal(request, form.get("token"))
        return form, (self._message("refused", refusal, 403) if refusal else None)

    def _back(self, form: Mapping[str, str]) -> Response:
        target = link("/run/" + form.get("run", "") + "/item", id=form.get("item"), reviewer=form.get("reviewer"))
        return RedirectResponse(target, 303)

    async def form_label(self, request: Request) -> Response:
        form, refused = await self._form(request)
        if refused is not None:
            return refused
        mark = {"right": True, "wrong": False, "clear": None}
        try:
            if form.get("correct") not in mark:
                raise InputError("a mark is right, wrong or clear")
            self._label(form.get("run", ""), form.get("item", ""), form.get("reviewer", ""), form.get("target", ""),
                        int(form.get("index", "-1")), mark[form["correct"]])
        except (KeyError, ValueError, SumjudgeError) as exc:
            return self._message("not labelled", str(exc.args[0]) if isinstance(exc, KeyError) else str(exc), 400)
        return self._back(form)

    async def form_rate(self, request: Request) -> Response:
        form, refused = await self._form(request)
        if refused is not None:
            return refused
        try:
            rating = int(form["rating"]) if form.get("rating", "").strip() else None
            with RunStore(self.s.store) as store:
                run = store.get_run(form.get("run", ""))
                if get_item(store, run.id, form.get("item", "")) is None:
                    raise InputError(f"run {run.id} holds no item {form.get('item')!r}")
                LabelBook(store).rate(run.id, form.get("item", ""), form.get("reviewer", ""), rating=rating,
                                      note=form.get("note", ""))
        except (KeyError, ValueError, SumjudgeError) as exc:
            return self._message("not saved", str(exc.args[0]) if isinstance(exc, KeyError) else str(exc), 400)
        return self._back(form)


__all__ = ["CSP", "TOKEN_HEADER", "ViewSettings", "create_app"]
