"""The HTML pages: the report of a data set run (``sumjudge score --report``) and the comparison of two
runs (``sumjudge compare A B --report``)."""

from .compare_html import write_comparison_report
from .html import histogram_counts, histogram_svg, write_report

__all__ = ["histogram_counts", "histogram_svg", "write_comparison_report", "write_report"]
