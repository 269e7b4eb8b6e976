"""JUnit XML of a data set run (``sumjudge score --junit FILE.xml``), for CI test views.

One ``<testcase>`` per item, named by the item's id: an item that scored below ``--threshold``
is a ``<failure>`` whose text is the scorer's reason (the axis that set the score and the claims or
questions behind it); an item whose evaluation failed is an ``<error>``. Each test case carries its
score and axes as properties. The run's gates are a second suite of one test case, failed with
every reason the run failed.

Items are written one at a time, so a run of any size is written in flat memory. Text from the
judge or the data is untrusted: it is escaped by ElementTree, and characters XML 1.0 cannot hold
(control characters) are dropped.
"""

from __future__ import annotations

import datetime as dt
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any
from xml.sax.saxutils import quoteattr

from ..store.records import FailedItem
from ..store.database import ItemRecord, RunRecord

_NOT_XML = re.compile("[^\t\n\r\u0020-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def xml_text(value: Any) -> str:
    """``value`` as text that XML 1.0 can hold."""
    return _NOT_XML.sub("", "" if value is None else str(value))


def item_verdict(item: ItemRecord, threshold: float | None) -> tuple[str, str, str] | None:
    """``(kind, message, text)`` for an item that did not pass (kind ``failure`` or ``error``), else ``None``."""
    outcome = item.outcome
    if isinstance(outcome, FailedItem):
        error = outcome.error or "the evaluation failed"
        return "error", error.splitlines()[0], error
    if threshold is not None and outcome.score < threshold:
        return "failure", f"score {outcome.score:.2f} is below the threshold {threshold:g}", outcome.reason
    return None


def _properties(parent: ET.Element, pairs: Iterable[tuple[str, Any]]) -> None:
    props = ET.SubElement(parent, "properties")
    for name, value in pairs:
        if value is not None:
            ET.SubElement(props, "property", name=name, value=xml_text(value))


def _testcase(item: ItemRecord, classname: str, threshold: float | None) -> ET.Element:
    case = ET.Element("testcase", classname=classname, name=xml_text(item.item_id), time="0")
    _properties(
        case,
        [
            ("score", item.outcome.score),
            ("alignment_score", item.outcome.alignment_score),
            ("coverage_score", item.outcome.coverage_score),
            ("row", item.row_number),
        ],
    )
    verdict = item_verdict(item, threshold)
    if verdict is not None:
        kind, message, text = verdict
        kind_type = "below_threshold" if kind == "failure" else message.split(":", 1)[0]
        element = ET.SubElement(case, kind, message=xml_text(message), type=xml_text(kind_type))
        element.text = xml_text(text)
    return case


def write_junit(
    path: str | Path,
    run: RunRecord,
    items: Callable[[], Iterable[ItemRecord]] | Sequence[ItemRecord],
    *,
    threshold: float | None = None,
    gate_failures: Sequence[str] = (),
    gate_inconclusive: Sequence[str] = (),
) -> None:
    """Write the run's items (and its gates) to ``path`` as JUnit XML (inconclusive gates, when none
    failed: the gates case is ``skipped`` with their lines).

    ``items`` is read twice (counts first, then the cases): pass a callable that returns a fresh
    iterator (``lambda: store.iter_items(run.id)``) or a list.
    """
    make_items = items if callable(items) else (lambda: items)
    tests = failures = errors = 0
    for item in make_items():
        tests += 1
        verdict = item_verdict(item, threshold)
        failures += verdict is not None and verdict[0] == "failure"
        errors += verdict is not None and verdict[0] == "error"
    gates_failed = 1 if gate_failures else 0
    stamp = dt.datetime.fromtimestamp(run.created_at, tz=dt.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S")
    classname = "sumjudge." + (Path(run.data).stem or "data").replace(" ", "_")
    suite_properties = ET.Element("suite")
    _properties(
        suite_properties,
        [("run", run.id), ("judge", run.model), ("data", run.data), ("threshold", threshold)]
        + [(f"option.{k}", v) for k, v in sorted(run.options.items())],
    )
    gates = ET.Element("testsuite", name="sumjudge gates", tests="1", failures=str(gates_failed), errors="0")
    gate_case = ET.SubElement(gates, "testcase", classname="sumjudge.gates", name="run gates", time="0")
    if gate_failures:
        failure = ET.SubElement(gate_case, "failure", message=xml_text(gate_failures[0]), type="gate_failed")
        failure.text = xml_text("\n".join(gate_failures))
    elif gate_inconclusive:
        gates.set("skipped", "1")
        skipped = ET.SubElement(gate_case, "skipped", message=xml_text("inconclusive: " + gate_inconclusive[0]))
        skipped.text = xml_text("\n".join(gate_inconclusive))

    Path(path).parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write('<?xml version="1.0" encoding="utf-8"?>\n')
        fh.write(
            _open_tag(
                "testsuites",
                name="sumjudge",
                tests=tests + 1,
                failures=failures + gates_failed,
                errors=errors,
            )
        )
        fh.write(
            _open_tag(
                "testsuite",
                name=f"sumjudge score {run.data}",
                tests=tests,
                failures=failures,
                errors=errors,
                skipped=0,
                timestamp=stamp,
            )
        )
        fh.write(ET.tostring(suite_properties[0], encoding="unicode") + "\n")
        for item in make_items():
            fh.write(ET.tostring(_testcase(item, classname, threshold), encoding="unicode") + "\n")
        fh.write("</testsuite>\n")
        fh.write(ET.tostring(gates, encoding="unicode") + "\n")
        fh.write("</testsuites>\n")


def _open_tag(tag: str, **attrs: Any) -> str:
    return "<" + tag + "".join(f" {k}={quoteattr(xml_text(v))}" for k, v in attrs.items()) + ">\n"


__all__ = ["item_verdict", "write_junit", "xml_text"]
