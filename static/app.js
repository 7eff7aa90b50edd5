// Companion: small progressive enhancements. Every essential action works without this file.
(function () {
  "use strict";
  var lastForm = null;
  // Controls that only work with this file (Copy buttons) stay hidden until it runs.
  document.documentElement.classList.add("js");

  document.addEventListener("click", function (ev) {
    var btn = ev.target.closest("[data-copy]");
    if (!btn) return;
    var input = document.getElementById(btn.getAttribute("data-copy"));
    if (!input) return;
    // the words come from the page, in the reader's language: data-copied (the button's own text is put back)
    if (!btn.hasAttribute("data-label")) btn.setAttribute("data-label", btn.textContent);
    var label = btn.getAttribute("data-label"), copied = btn.getAttribute("data-copied") || "\u2713";
    var done = function () { btn.textContent = copied; setTimeout(function () { btn.textContent = label; }, 1500); };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(input.value).then(done, function () { input.select(); });
    } else { input.select(); try { document.execCommand("copy"); done(); } catch (e) { /* selected for manual copy */ } }
  });

  // A tap that never reached the server: say so, and retry with the same idempotency key.
  document.addEventListener("htmx:beforeRequest", function (ev) {
    var elt = ev.detail.elt;
    if (elt && elt.tagName === "FORM") lastForm = elt;
    var banner = document.getElementById("net-error");
    if (banner && !(ev.detail.requestConfig && ev.detail.requestConfig.verb === "get")) banner.hidden = true;
  });
  document.addEventListener("htmx:sendError", function (ev) {
    var verb = ev.detail.requestConfig && ev.detail.requestConfig.verb;
    if (verb === "get" && ev.detail.elt && ev.detail.elt.id === "live") return; // polling retries by itself
    var banner = document.getElementById("net-error");
    if (banner) banner.hidden = false;
  });
  document.addEventListener("click", function (ev) {
    if (!ev.target.closest("#net-retry")) return;
    document.getElementById("net-error").hidden = true;
    if (lastForm && document.body.contains(lastForm)) {
      if (lastForm.requestSubmit) lastForm.requestSubmit(); else lastForm.submit();
    }
  });

  // Dentro: buzz once per team and game the moment it appears on this phone.
  function buzz() {
    var alerts = document.querySelectorAll("[data-dentro]");
    alerts.forEach(function (el) {
      var key = "dentro:" + el.getAttribute("data-dentro");
      var seen = false;
      try { seen = sessionStorage.getItem(key) === "1"; sessionStorage.setItem(key, "1"); } catch (e) { /* private mode */ }
      if (!seen && navigator.vibrate) navigator.vibrate([300, 120, 300, 120, 300]);
    });
  }
  document.addEventListener("DOMContentLoaded", buzz);
  document.addEventListener("htmx:afterSettle", buzz);

  // After a swap the next step's buttons appear under the finger that just tapped: for 400 ms a tap
  // where the tap that sent the request was is ignored, so a double tap records one step (taps elsewhere,
  // and taps that send nothing, like the card keypad, go through; the server also refuses a step already
  // recorded).
  var coolUntil = 0, lastTap = null, sentBy = null;
  document.addEventListener("htmx:afterSwap", function (ev) {
    var xhr = ev.detail && ev.detail.xhr;
    if (xhr && xhr.getResponseHeader("HX-Reswap") === "none") return;   // an unchanged poll: nothing moved
    coolUntil = Date.now() + 400;
  });
  document.addEventListener("htmx:beforeRequest", function (ev) {
    if (ev.detail.elt && ev.detail.elt.id === "live") return;           // a live poll: no finger
    sentBy = lastTap;
  });
  document.addEventListener("click", function (ev) {
    if (ev.detail === 0) return;            // the keyboard, not a finger
    var hit = ev.target.closest("#live button, #live a[href], #live [type=submit]");
    if (!hit) return;
    var near = sentBy && Math.abs(ev.clientX - sentBy.x) < 40 && Math.abs(ev.clientY - sentBy.y) < 40;
    if (Date.now() < coolUntil && near) {
      ev.preventDefault();
      ev.stopImmediatePropagation();
      return;
    }
    lastTap = {x: ev.clientX, y: ev.clientY};
  }, true);

  // Keep the reader where they were: a submit that comes back to the same page keeps the scroll
  // position; a new page starts at its top.
  var before = null;
  document.addEventListener("htmx:beforeRequest", function (ev) {
    var cfg = ev.detail.requestConfig || {};
    if (ev.detail.elt && ev.detail.elt.id === "live") return;   // a live poll
    before = {y: window.scrollY, path: location.pathname, boosted: !!cfg.boosted};
  });
  document.addEventListener("htmx:afterSettle", function () {
    if (!before) return;
    var same = location.pathname === before.path;
    var y = same ? before.y : 0;
    before = null;
    window.scrollTo(0, y);
    requestAnimationFrame(function () { window.scrollTo(0, y); });
  });

  // "done=..." asks the page for the one-line toast; the address keeps no trace of it (a reload must
  // not show it again).
  function forgetDone() {
    if (!/[?&]done=/.test(location.search) || !history.replaceState) return;
    var kept = location.search.slice(1).split("&").filter(function (p) {
      return p && !/^(done|step|n)=/.test(p);
    });
    history.replaceState(history.state, "", location.pathname + (kept.length ? "?" + kept.join("&") : "") + location.hash);
  }
  document.addEventListener("DOMContentLoaded", forgetDone);
  document.addEventListener("htmx:afterSettle", forgetDone);

  // A phone lying on the table must not go dark mid-hand: scoring pages hold a screen wake lock while
  // visible. The toggle (shown only where the API exists) lets the table turn it off on this phone.
  var lock = null;
  function wakeWanted() {
    try { return localStorage.getItem("wake") !== "off"; } catch (e) { return true; }
  }
  // The toggle's words come from the page, in the reader's language: data-on / data-off; without them,
  // the button's own text (marked ✓ when on: aria-pressed says the state either way).
  function wakeText(toggle, on) {
    var given = toggle.getAttribute(on ? "data-on" : "data-off");
    if (given) return given;
    if (!toggle.hasAttribute("data-label")) toggle.setAttribute("data-label", toggle.textContent.replace(/\s*\u2713$/, ""));
    var own = toggle.getAttribute("data-label");
    return on ? own + " \u2713" : own;
  }
  function wake() {
    var root = document.documentElement;
    var page = document.querySelector("[data-wake]");
    var toggle = document.querySelector("[data-wake-toggle]");
    if (!("wakeLock" in navigator)) { root.setAttribute("data-wake", "unsupported"); return; }
    if (toggle) { toggle.hidden = false; toggle.setAttribute("aria-pressed", wakeWanted() ? "true" : "false");
      toggle.textContent = wakeText(toggle, wakeWanted()); }
    if (!page || !wakeWanted() || document.visibilityState !== "visible") {
      if (lock && (!page || !wakeWanted())) { lock.release(); lock = null; root.setAttribute("data-wake", "off"); }
      return;
    }
    if (lock) return;
    root.setAttribute("data-wake", "requested");
    navigator.wakeLock.request("screen").then(function (l) {
      lock = l;
      root.setAttribute("data-wake", "on");
      l.addEventListener("release", function () { if (lock === l) lock = null; });
    }, function () { root.setAttribute("data-wake", "refused"); });
  }
  document.addEventListener("DOMContentLoaded", wake);
  document.addEventListener("htmx:afterSettle", wake);
  document.addEventListener("visibilitychange", wake);
  document.addEventListener("click", function (ev) {
    if (!ev.target.closest("[data-wake-toggle]")) return;
    try { localStorage.setItem("wake", wakeWanted() ? "off" : "on"); } catch (e) { /* private mode */ }
    wake();
  });

  // A phone that wakes up: refresh the live region at once rather than at the next tick.
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState !== "visible" || !window.htmx) return;
    var live = document.getElementById("live");
    if (live && live.getAttribute("hx-get")) window.htmx.ajax("GET", live.getAttribute("hx-get"), {target: live, swap: "outerHTML"});
  });
})();

// == the card picker ==
// The card picker: rank keypad buttons fill the four hands (text fields that also work without JS).
(function () {
  "use strict";
  function clean(v) { return (v || "").toUpperCase().replace(/[^RCS765432AKQJ1]/g, ""); }
  function setup() {
    document.querySelectorAll("[data-picker]").forEach(function (form) {
      if (form.getAttribute("data-ready")) return;
      form.setAttribute("data-ready", "1");
      var pad = form.querySelector("[data-keypad]");
      var inputs = Array.prototype.slice.call(form.querySelectorAll("input[data-cards]"));
      if (!pad || !inputs.length) return;
      pad.hidden = false;
      inputs.forEach(function (inp) { inp.setAttribute("inputmode", "none"); });
      var active = null;
      function mark(inp) {
        active = inp;
        inputs.forEach(function (i) {
          var row = i.closest("[data-cards-row]");
          if (row) row.classList.toggle("is-active", i === inp);
        });
      }
      function nextOpen(from) {
        var start = inputs.indexOf(from);
        for (var k = 1; k <= inputs.length; k++) {
          var i = inputs[(start + k) % inputs.length];
          if (clean(i.value).length < 4) return i;
        }
        return null;
      }
      mark(inputs.filter(function (i) { return clean(i.value).length < 4; })[0] || inputs[0]);
      inputs.forEach(function (i) {
        i.addEventListener("focus", function () { mark(i); });
        i.addEventListener("click", function () { mark(i); });
      });
      pad.addEventListener("click", function (ev) {
        var b = ev.target.closest("[data-card]");
        if (!b || !active) return;
        ev.preventDefault();
        var c = b.getAttribute("data-card");
        var v = clean(active.value);
        if (c === "back") {
          if (!v.length) {
            var k = inputs.indexOf(active);
            if (k > 0) { mark(inputs[k - 1]); v = clean(active.value); }
          }
          active.value = v.slice(0, -1);
          return;
        }
        if (v.length >= 4) {
          var n = nextOpen(active);
          if (!n) return;
          mark(n);
          v = clean(active.value);
        }
        active.value = v + c;
        if (v.length + 1 >= 4) { var nx = nextOpen(active); if (nx) mark(nx); }
      });
    });
  }
  document.addEventListener("DOMContentLoaded", setup);
  document.addEventListener("htmx:afterSettle", setup);
})();
