"""The HTML report of a batch run (``sumjudge score --report FILE.html``)."""

from .html import histogram_counts, histogram_svg, write_report

__all__ = ["histogram_counts", "histogram_svg", "write_report"]
