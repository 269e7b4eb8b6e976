"""How many of sumjudge's modules scoring one pair with `sumjudge check` loads, by package.

    python bench/speed/check_modules.py

Runs `check` in this process on the bundled report (examples/report.txt) with the default judge, then
counts the `sumjudge.*` modules in `sys.modules`, grouped by the package that holds them. The library's
own count (`create_summarization_scorer` and one evaluation, no CLI) is printed beside it.
"""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CLI = f"""
import sys
from click.testing import CliRunner
from sumjudge.cli import main
r = CliRunner().invoke(main, ["check", "--source", {str(ROOT / 'examples' / 'report.txt')!r},
                              "--summary", "The council approved the plan."])
assert r.exit_code in (0, 1), r.output
"""
LIBRARY = f"""
import sys
from sumjudge import create_summarization_scorer
create_summarization_scorer("offline/lexical").run_sync(
    input=open({str(ROOT / 'examples' / 'report.txt')!r}, encoding="utf-8").read(), output="The council approved the plan.")
"""
COUNT = """
from collections import Counter
names = [m for m in sys.modules if m.startswith("sumjudge")]
by = Counter(".".join(m.split(".")[:3 if m.startswith("sumjudge.summarization.") else 2]) for m in names)
print(len(names), " ".join(f"{k}={v}" for k, v in by.most_common()))
"""

for name, code in (("check", CLI), ("library", LIBRARY)):
    out = subprocess.run([sys.executable, "-c", code + COUNT], capture_output=True, text=True, check=True).stdout.strip()
    print(f"{name:8} {out}")
