"""The processes a benchmarked command started, read from /proc (Linux): its workers, so that their CPU
time and memory are counted with the command's.

    from procs import tree   # bench/speed/ on sys.path (the scripts add it)
"""

from __future__ import annotations

from pathlib import Path


def tree(pid: int) -> set[int]:
    """Every descendant of ``pid`` that is alive now (children of each of its threads, recursively)."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        for task in Path(f"/proc/{todo.pop()}/task").glob("*"):
            try:
                children = {int(c) for c in (task / "children").read_text().split()}
            except OSError:
                continue
            todo.extend(children - found)
            found |= children
    return found
