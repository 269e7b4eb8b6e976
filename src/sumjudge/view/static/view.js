// sumjudge view: keyboard labelling on the item page. Served by the app itself (the CSP allows only
// this file); it reads nothing from the page but data attributes and the token's meta tag, and puts
// text into the page only with textContent.
(function () {
  "use strict";
  var body = document.body;
  if (body.getAttribute("data-page") !== "item") { return; }
  var tokenTag = document.querySelector('meta[name="sumjudge-token"]');
  var token = tokenTag ? tokenTag.getAttribute("content") : null;
  var reviewer = body.getAttribute("data-reviewer") || "";
  var rows = Array.prototype.slice.call(document.querySelectorAll("li.verdict"));
  var at = -1;
  var status = document.createElement("p");
  status.className = "status";
  status.setAttribute("role", "status");
  var firstList = document.querySelector("ol.verdicts");
  if (firstList) { firstList.parentNode.insertBefore(status, firstList.previousSibling); }

  function say(text) { status.textContent = text; }

  // a verdict hovered or focused lights the words it quotes (marks named by data-quotes)
  var quoteMarks = Array.prototype.slice.call(document.querySelectorAll("mark.quote"));
  function light(row, on) {
    var key = " " + (row.getAttribute("data-quote") || "") + " ";
    quoteMarks.forEach(function (m) {
      if ((" " + m.getAttribute("data-quotes") + " ").indexOf(key) >= 0) { m.classList.toggle("lit", on); }
    });
  }
  rows.forEach(function (r) {
    r.addEventListener("mouseenter", function () { light(r, true); });
    r.addEventListener("mouseleave", function () { light(r, r.classList.contains("focused")); });
  });
  // the first verdict is selected on load, so y / n label it at once (j moves on from it); the page
  // keeps its scroll and the reviewer field its focus
  if (rows.length) { at = 0; rows[0].classList.add("focused"); light(rows[0], true); }

  function focusRow(n) {
    if (!rows.length) { return; }
    at = Math.max(0, Math.min(rows.length - 1, n));
    rows.forEach(function (r, i) { r.classList.toggle("focused", i === at); light(r, i === at); });
    rows[at].focus({ preventScroll: true });
    rows[at].scrollIntoView({ block: "nearest" });
  }

  function mark(row, correct) {
    if (!token) { say("read-only: labels cannot be written"); return; }
    if (!reviewer) { say("type your name as reviewer first"); var r = document.getElementById("reviewer"); if (r) { r.focus(); } return; }
    var payload = {
      run: body.getAttribute("data-run"), item: body.getAttribute("data-item"), reviewer: reviewer,
      target: row.getAttribute("data-target"), index: Number(row.getAttribute("data-index")), correct: correct
    };
    fetch("/api/label", {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-Sumjudge-Token": token },
      body: JSON.stringify(payload)
    }).then(function (res) { return res.json().then(function (data) { return [res.ok, data]; }); })
      .then(function (r) {
        if (!r[0]) { say("not saved: " + (r[1].error || "error")); return; }
        var label = r[1].label || "";
        row.setAttribute("data-label", label);
        row.querySelector(".label").textContent = label;
        say("saved: " + (label || "unmarked"));
      })
      .catch(function () { say("not saved: the viewer did not answer"); });
  }

  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (!form.classList || !form.classList.contains("mark")) { return; }
    ev.preventDefault();
    var button = ev.submitter;
    var row = form.closest("li.verdict");
    focusRow(rows.indexOf(row));
    mark(row, button && button.value === "wrong" ? false : true);
  });

  document.addEventListener("keydown", function (ev) {
    if (ev.ctrlKey || ev.metaKey || ev.altKey) { return; }
    var tag = (ev.target && ev.target.tagName) || "";
    if (tag === "INPUT" || tag === "TEXTAREA" || tag === "SELECT") { return; }
    var key = ev.key;
    if (key === "j") { focusRow(at + 1); }
    else if (key === "k") { focusRow(at < 0 ? 0 : at - 1); }
    else if ((key === "y" || key === "n" || key === "u") && at >= 0) {
      mark(rows[at], key === "u" ? null : key === "y");
      if (key !== "u") { focusRow(at + 1); }
    }
    else if (key >= "1" && key <= "5") {
      var rating = document.querySelector("form.rate select[name=rating]");
      if (!rating) { return; }
      rating.value = key;
      rating.form.submit();
    }
    else if (key === "]" || key === "[") {
      // "]" goes on through the review queue when there is one (a reviewer is set), else to the next item
      var go = key === "]" ? (document.querySelector("a.queue-next") || document.querySelector("a[rel=next]"))
                           : document.querySelector("a[rel=prev]");
      if (go) { window.location.href = go.href; }
    }
    else { return; }
    ev.preventDefault();
  });
})();
