"""Screenshots of `sumjudge view`'s pages (docs/view/*.png), from a store made here and now.

    .venv/bin/python docs/view_screenshots.py            # writes docs/view/{runs,run,item,compare,report}.png
    .venv/bin/python docs/view_screenshots.py --out /tmp/shots

What it does: scores the bundled examples (examples/summaries.jsonl) with the default offline judge
(run A), then a "better system" where each invented-number and wrong-name summary is replaced by the
faithful one of its document (run B; same ids and sources, so the runs compare); labels run A's library
and rescue stories as two demo reviewers ("ann", "bob"); serves the store with `sumjudge view` on 127.0.0.1; and photographs each
page in headless Chromium (Debian's chromium + chromium-driver; nothing is downloaded). The item page
is the library story with an invented number, its unsupported claim selected: the passage that
disproves it in its own colour, the words that differ marked in the summary and the source (issue
45). report.png is the HTML report of run A (`sumjudge score --report`) with that item opened.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CHROMEDRIVER = "/usr/bin/chromedriver"


def score(cwd: Path, data: str) -> str:
    """Score DATA into cwd/.sumjudge/runs.db with the offline judge; the new run's id."""
    subprocess.run([sys.executable, "-m", "sumjudge.cli", "score", data, "--fresh", "--quiet", "--model", "offline/lexical"],
                   cwd=cwd, check=True, stdout=subprocess.DEVNULL)
    listed = subprocess.run([sys.executable, "-m", "sumjudge.cli", "runs", "list", "--json", "--limit", "1"], cwd=cwd,
                            check=True, capture_output=True, text=True).stdout
    return json.loads(listed.splitlines()[0])["id"]


def make_store(cwd: Path) -> tuple[str, str]:
    rows = [json.loads(line) for line in (ROOT / "examples" / "summaries.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    keep = ("id", "source", "summary")
    (cwd / "system-a.jsonl").write_text("".join(json.dumps({k: r[k] for k in keep}) + "\n" for r in rows), encoding="utf-8")
    faithful = {r["doc"]: r["summary"] for r in rows if r["kind"] == "faithful"}
    better = [{**{k: r[k] for k in keep}, "summary": faithful[r["doc"]] if r["kind"] in ("invented_number", "wrong_name") else r["summary"]}
              for r in rows]
    (cwd / "system-b.jsonl").write_text("".join(json.dumps(r) + "\n" for r in better), encoding="utf-8")
    a, b = score(cwd, "system-a.jsonl"), score(cwd, "system-b.jsonl")

    from sumjudge.store import LabelBook, RunStore, ScoredItem

    kinds = {r["id"]: r["kind"] for r in rows}
    ratings = {"faithful": 5, "verbatim": 5, "half": 3, "invented_number": 2, "wrong_name": 2, "empty": 1}
    with RunStore(cwd / ".sumjudge" / "runs.db") as store:
        book = LabelBook(store)
        for item in store.iter_items(a):
            o = item.outcome
            if not isinstance(o, ScoredItem) or o.verdicts is None or item.item_id.startswith("subway"):
                continue
            kind = kinds[item.item_id]
            # a demo reviewer: takes the judge to be right, except that a claim it passed in a summary
            # with a wrong name or number is wrong when it is the summary's last claim (where the
            # examples put the changed fact); bob agrees with ann except on the rescue story's answers
            for who in ("ann", "bob"):
                for i, c in enumerate(o.verdicts.alignment):
                    wrong = kind in ("wrong_name", "invented_number") and c.supported and i == len(o.verdicts.alignment) - 1
                    book.mark(a, item.item_id, who, "claim", i, text=c.claim, judge_says=c.supported, correct=not wrong)
                for i, (q, ans) in enumerate(zip(o.verdicts.questions, o.verdicts.coverage)):
                    disagree = who == "bob" and item.item_id.startswith("rescue") and i == 0
                    book.mark(a, item.item_id, who, "answer", i, text=q, judge_says=ans.answered, correct=not disagree)
                book.rate(a, item.item_id, who, rating=ratings[kind], note="")
    return a, b


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", type=Path, default=ROOT / "docs" / "view")
    ap.add_argument("--width", type=int, default=1100)
    ap.add_argument("--height", type=int, default=820)
    args = ap.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)

    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.common.action_chains import ActionChains

    with tempfile.TemporaryDirectory() as tmp:
        cwd = Path(tmp)
        a, b = make_store(cwd)
        server = subprocess.Popen([sys.executable, "-m", "sumjudge.cli", "view", "--port", "0"], cwd=cwd,
                                  stderr=subprocess.PIPE, text=True)
        try:
            address = None
            for line in server.stderr:  # type: ignore[union-attr]
                if m := re.search(r"sumjudge view: (http://\S+/)", line):
                    address = m.group(1)
                    break
            if address is None:
                raise SystemExit("sumjudge view did not start")
            os.environ["SE_OFFLINE"] = "true"
            opts = webdriver.ChromeOptions()
            for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--hide-scrollbars",
                         "--disable-background-networking", "--disable-component-update", "--disable-dev-shm-usage",
                         f"--window-size={args.width},{args.height}", f"--user-data-dir={cwd / 'profile'}"):
                opts.add_argument(flag)
            driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER, log_output=subprocess.DEVNULL), options=opts)
            try:
                shots = {
                    "runs": address,
                    "run": f"{address}run/{a}?sort=score",
                    "item": f"{address}run/{a}/item?id=library-invented_number&reviewer=ann",
                    "compare": f"{address}compare?a={a}&b={b}",
                }
                for name, page in shots.items():
                    driver.get(page)
                    if name == "item":
                        ActionChains(driver).send_keys("j").perform()  # the second claim: the invented number
                    time.sleep(0.3)  # let the focus ring paint
                    path = args.out / f"{name}.png"
                    driver.save_screenshot(str(path))
                    print(f"{path}  {path.stat().st_size // 1024} KiB")
                report_shot(driver, cwd, args.out)
            finally:
                driver.quit()
        finally:
            server.terminate()
            server.wait(timeout=30)


def report_shot(driver, cwd: Path, out: Path) -> None:  # type: ignore[no-untyped-def]
    """The HTML report of the examples (a run of its own, in a store of its own), the library story
    with an invented number opened, its unsupported claim hovered."""
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    where = cwd / "report"
    where.mkdir()
    subprocess.run([sys.executable, "-m", "sumjudge.cli", "score", str(cwd / "system-a.jsonl"), "--fresh", "--quiet",
                    "--model", "offline/lexical", "--report", "report.html"], cwd=where, check=True, stdout=subprocess.DEVNULL)
    driver.get((where / "report.html").as_uri())
    item = driver.find_element(By.CSS_SELECTOR, 'tbody.item[data-id="library-invented_number"]')
    item.find_element(By.CSS_SELECTOR, "button.toggle").click()
    wrong = item.find_element(By.CSS_SELECTOR, 'li.unsupported[data-quote="claim-1"]')
    texts = item.find_element(By.CSS_SELECTOR, "div.texts")
    driver.set_window_size(1100, 1300)
    ActionChains(driver).move_to_element(wrong).perform()  # lights its passage and words
    driver.execute_script("arguments[0].scrollIntoView({block: 'end'})", texts)
    time.sleep(0.3)
    path = out / "report.png"
    driver.save_screenshot(str(path))
    print(f"{path}  {path.stat().st_size // 1024} KiB")


if __name__ == "__main__":
    main()
