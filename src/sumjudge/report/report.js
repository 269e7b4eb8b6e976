(function () {
  "use strict";
  var table = document.getElementById("items");
  if (!table) { return; }
  var headers = Array.prototype.slice.call(table.querySelectorAll("thead th"));

  function toggle(body, open) {
    var detail = body.querySelector("tr.detail");
    var button = body.querySelector("button.toggle");
    var show = open === undefined ? detail.hidden : open;
    detail.hidden = !show;
    button.setAttribute("aria-expanded", show ? "true" : "false");
  }

  // a verdict hovered lights the words it quotes, in its own item's texts
  function light(event, on) {
    var li = event.target.closest && event.target.closest("li[data-quote]");
    if (!li) { return; }
    var key = " " + li.getAttribute("data-quote") + " ";
    var marks = li.closest("tbody.item").querySelectorAll("mark.quote");
    Array.prototype.forEach.call(marks, function (m) {
      if ((" " + m.getAttribute("data-quotes") + " ").indexOf(key) >= 0) { m.classList.toggle("lit", on); }
    });
  }
  table.addEventListener("mouseover", function (event) { light(event, true); });
  table.addEventListener("mouseout", function (event) { light(event, false); });

  table.addEventListener("click", function (event) {
    var button = event.target.closest("button.toggle");
    if (button) { toggle(button.closest("tbody.item")); }
  });

  function sortBy(th) {
    var key = th.getAttribute("data-key");
    var numeric = th.getAttribute("data-type") === "num";
    var ascending = th.getAttribute("aria-sort") !== "ascending";
    var bodies = Array.prototype.slice.call(table.querySelectorAll("tbody.item"));
    bodies.sort(function (a, b) {
      var x = a.getAttribute("data-" + key), y = b.getAttribute("data-" + key), c;
      if (numeric) { c = parseFloat(x) - parseFloat(y); } else { c = x.localeCompare(y, undefined, { numeric: true }); }
      if (c === 0) { c = parseFloat(a.getAttribute("data-row")) - parseFloat(b.getAttribute("data-row")); }
      return ascending ? c : -c;
    });
    var fragment = document.createDocumentFragment();
    bodies.forEach(function (b) { fragment.appendChild(b); });
    table.appendChild(fragment);
    headers.forEach(function (h) { h.setAttribute("aria-sort", "none"); });
    th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
  }

  // report.html#ID (or #item-ID) opens that item and brings it into view
  function openLinked() {
    var want = decodeURIComponent(window.location.hash.slice(1));
    if (!want) { return; }
    var bodies = table.querySelectorAll("tbody.item");
    for (var i = 0; i < bodies.length; i++) {
      if (bodies[i].getAttribute("data-id") === want || bodies[i].id === want) {
        toggle(bodies[i], true);
        bodies[i].scrollIntoView();
        return;
      }
    }
  }
  window.addEventListener("hashchange", openLinked);
  openLinked();

  headers.forEach(function (th) {
    th.addEventListener("click", function () { sortBy(th); });
    th.addEventListener("keydown", function (event) {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); sortBy(th); }
    });
  });
})();
