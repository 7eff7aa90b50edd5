// The sala: the round clock ticks between polls, pages of tables turn every 15 s, and a lost
// connection says "reconnecting" and greys the scores out instead of showing them as if current.
// ?page=<data-page> holds one page (a second screen kept on the bracket: ?page=br0).
(function () {
  "use strict";
  var skew = 0, failures = 0, lastOk = Date.now(), page = 0;
  var hold = new URLSearchParams(window.location.search).get("page");

  function tick() {
    var c = document.querySelector(".clock[data-ends]");
    if (c) {
      var left = Math.max(0, Number(c.dataset.ends) - (Date.now() + skew));
      var min = Math.ceil(left / 60000);
      c.querySelector(".min").textContent = String(min);
      c.classList.toggle("last", left > 0 && left <= 300000);
      c.classList.toggle("over", left === 0);
    }
    var stale = Date.now() - lastOk > 5000;
    document.body.classList.toggle("stale", stale);
    document.getElementById("reconnecting").hidden = !stale;
  }

  function fresh() {
    var c = document.querySelector(".clock[data-now]");
    if (c) skew = Number(c.dataset.now) - Date.now();
    showPage();
  }

  function showPage() {
    var pages = document.querySelectorAll(".sala-tables");
    if (!pages.length) return;
    page = page % pages.length;
    var held = hold && document.querySelector('.sala-tables[data-page="' + CSS.escape(hold) + '"]');
    pages.forEach(function (p, i) {
      var on = held ? p === held : i === page;
      p.classList.toggle("shown", on);
      p.classList.toggle("hidden", !on);
    });
  }

  document.addEventListener("htmx:afterRequest", function (e) {
    var xhr = e.detail.xhr;
    if (e.detail.successful && xhr && xhr.status === 200) {
      failures = 0;
      lastOk = Date.now();
    } else {
      failures += 1;
    }
    tick();
  });
  document.addEventListener("htmx:sendError", function () { failures += 1; tick(); });
  document.addEventListener("htmx:afterSettle", fresh);
  document.addEventListener("DOMContentLoaded", function () {
    fresh();
    tick();
    setInterval(tick, 1000);
    setInterval(function () { page += 1; showPage(); }, 15000);
  });
})();
