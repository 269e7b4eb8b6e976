"""Exams that can be kept: each source's coverage questions, drawn once and used by later runs.

The questions of the coverage step (B) are otherwise drawn anew by every run, so two runs made on
different days, or with different judges, are not graded on the same questions, and the spread of a
score mixes the questions drawn with the judge's noise. An :class:`Exam` holds, for each source (by
the sha256 of its text), the questions drawn for it, with the judge, the prompt version, the sample
(``seed``) and ``max_questions`` that drew them. ``sumjudge questions DATA --out exam.jsonl`` writes
one; ``sumjudge score --questions exam.jsonl`` and ``SummarizationOptions(questions=exam)`` use it
instead of drawing. A source whose digest is not in the exam is refused (:class:`ExamError`), or its
questions are drawn when ``draw_missing`` is set.

An exam file is JSON Lines, one object per source::

    {"source_sha256": "...", "questions": ["..."], "judge": "openai/gpt-4o-mini", "prompt_version": "3",
     "seed": 0, "max_questions": 10}

:attr:`Exam.digest` names the exam (the sha256 of its entries, whatever their order in the file): the
run store records it, and ``sumjudge compare`` says whether two runs sat the same exam.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from os import PathLike
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError, field_validator, model_validator

from ..errors import InputError
from ..guards.limits import MAX_QUESTIONS
from .question_text import question_problem


class ExamError(InputError):
    """An exam that cannot be read, or a source it does not hold."""


class ExamEntry(BaseModel):
    """One source's questions and what drew them."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    source_sha256: str
    questions: list[str]
    judge: str
    prompt_version: str
    seed: int = 0
    """The sample index the questions were drawn with (what the judge was asked under)."""
    max_questions: int

    @field_validator("source_sha256")
    @classmethod
    def _hex(cls, value: str) -> str:
        if len(value) != 64 or any(c not in "0123456789abcdef" for c in value):
            raise ValueError("not a sha256 hex digest")
        return value

    @field_validator("questions")
    @classmethod
    def _questions(cls, value: list[str]) -> list[str]:
        # an entry with no questions would score every summary of its source 0, with no warning
        if not value:
            raise ValueError("no questions (a source's entry holds at least one)")
        if len(value) > MAX_QUESTIONS:  # else every item fails at run time, past the judge's context
            raise ValueError(f"{len(value)} questions, more than the {MAX_QUESTIONS} a source may have")
        for number in range(1, len(value) + 1):  # blank (zero-width too), control, oversized, repeated
            problem = question_problem(value, number)
            if problem:
                raise ValueError(problem)
        return value

    @field_validator("max_questions")
    @classmethod
    def _max_questions(cls, value: int) -> int:
        if not 1 <= value <= MAX_QUESTIONS:
            raise ValueError(f"max_questions is from 1 to {MAX_QUESTIONS}, not {value}")
        return value

    @field_validator("seed")
    @classmethod
    def _seed(cls, value: int) -> int:
        if value < 0:
            raise ValueError(f"seed is 0 or more, not {value}")
        return value

    @model_validator(mode="after")
    def _within_its_bound(self) -> ExamEntry:
        if len(self.questions) > self.max_questions:
            raise ValueError(f"{len(self.questions)} questions, more than its max_questions ({self.max_questions})")
        return self

    def line(self) -> str:
        return json.dumps(self.model_dump(mode="json"), ensure_ascii=False, sort_keys=True)


def source_sha256(source: str) -> str:
    """The digest an exam keys a source by (the same as :func:`sumjudge.store.records.source_digest`)."""
    return hashlib.sha256(source.encode("utf-8")).hexdigest()


class Exam(BaseModel):
    """Each source's kept questions, by the digest of its text."""

    model_config = ConfigDict(frozen=True)

    entries: tuple[ExamEntry, ...]
    label: str = "the exam"
    """How messages name it (its path, when read from a file)."""

    @classmethod
    def of(cls, entries: Iterable[ExamEntry], label: str = "the exam") -> Exam:
        by_source: dict[str, ExamEntry] = {}
        for entry in entries:
            if entry.source_sha256 in by_source and by_source[entry.source_sha256] != entry:
                raise ExamError(f"{label}: source {entry.source_sha256[:12]} has two different sets of questions")
            by_source[entry.source_sha256] = entry
        return cls(entries=tuple(sorted(by_source.values(), key=lambda e: e.source_sha256)), label=label)

    @classmethod
    def read(cls, path: str | PathLike[str]) -> Exam:
        """An exam file (JSON Lines); :class:`ExamError` naming the line that is not an entry."""
        p = Path(path)
        try:
            text = p.read_text(encoding="utf-8")
        except OSError as exc:
            raise ExamError(f"cannot read the exam {p}: {exc.strerror or exc}") from None
        except UnicodeDecodeError:
            raise ExamError(f"the exam {p} is not UTF-8 text") from None
        return cls.parse(text, label=f"the exam {p}")

    @classmethod
    def parse(cls, text: str, label: str = "the exam") -> Exam:
        """An exam from its file's text (:meth:`text`)."""
        entries: list[ExamEntry] = []
        # lines end at "\n" alone: JSON may hold U+2028, U+0085, ... raw in a string, which splitlines() cuts at
        for number, line in enumerate(text.split("\n"), 1):
            if not line.strip():
                continue
            try:
                entries.append(ExamEntry.model_validate_json(line))
            except ValidationError as exc:
                problem = exc.errors()[0]
                where = ".".join(map(str, problem["loc"])) or "entry"
                said = str(problem["msg"]).removeprefix("Value error, ")
                raise ExamError(f"{label}: line {number} is not an exam entry ({where}: {said})") from None
        if not entries:
            raise ExamError(f"{label} holds no questions")
        return cls.of(entries, label=label)

    def text(self) -> str:
        """The exam file's content: one line per source, sorted by digest (the same exam, the same bytes)."""
        return "".join(e.line() + "\n" for e in self.entries)

    @property
    def digest(self) -> str:
        """The sha256 of :meth:`text`: what the run store records of the exam a run sat."""
        return hashlib.sha256(self.text().encode("utf-8")).hexdigest()

    def get(self, source: str) -> ExamEntry | None:
        digest = source_sha256(source)
        for entry in self.entries:
            if entry.source_sha256 == digest:
                return entry
        return None

    def check_rows(self, rows: Iterable[tuple[str, str]]) -> None:
        """Refuse (:class:`ExamError`) when a source of ``rows`` (``(id, source)`` pairs) is not in the
        exam, naming the first rows that lack one: before any judge call of a run that sits it."""
        held = {e.source_sha256 for e in self.entries}
        missing = [item_id for item_id, source in rows if source_sha256(source) not in held]
        if missing:
            shown = ", ".join(repr(m) for m in missing[:5]) + (f" and {len(missing) - 5} more" if len(missing) > 5 else "")
            raise ExamError(
                f"{len(missing)} item(s) have a source that is not in {self.label} (items {shown}): write the exam "
                "for this data (`sumjudge questions DATA --out EXAM`), or draw questions for the sources it lacks "
                "(--draw-missing)"
            )

    def questions_for(self, source: str, *, draw_missing: bool) -> list[str] | None:
        """The kept questions of ``source``; ``None`` where they are to be drawn (``draw_missing``).
        Raises :class:`ExamError` for a source the exam does not hold (without ``draw_missing``)."""
        entry = self.get(source)
        if entry is not None:
            return list(entry.questions)
        if draw_missing:
            return None
        raise ExamError(
            f"the source with sha256 {source_sha256(source)[:12]}... is not in {self.label} ({len(self.entries)} "
            "sources): write the exam for this data (`sumjudge questions DATA --out EXAM`), or draw questions "
            "for sources it lacks (--draw-missing; draw_missing=True)"
        )


def load_exam(questions: Exam | str | PathLike[str] | None) -> Exam | None:
    """``questions=`` as the options take it: an :class:`Exam`, a path to one, or ``None``."""
    if questions is None or isinstance(questions, Exam):
        return questions
    if isinstance(questions, (str, PathLike)):
        return Exam.read(questions)
    raise ExamError(f"questions must be an Exam or the path of an exam file, got {type(questions).__name__}")


__all__ = ["Exam", "ExamEntry", "ExamError", "load_exam", "source_sha256"]
