// Companion: small progressive enhancements. Every essential action works without this file.
(function () {
  "use strict";
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

  // (taps, the outbox and the kept scroll: see the second part of this file)

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

// == a control that has just appeared ==
// The second tap of a double tap, or a tap begun before an answer came, lands on the next screen's
// control that appeared under the finger: a new form with its own key, so the key cannot stop it. A control
// an htmx swap brings in is not live until it has been on screen for LIVE_AFTER_MS (the time a person needs
// to see the new screen) and ignores a tap whose finger went down before then; meanwhile it is dimmed and
// aria-disabled (tests and assistive tech read it). Controls that stay put (the tally's +1…+5) are never
// swapped by their own taps, so every deliberate tap counts. Without JavaScript nothing changes.
(function () {
  "use strict";
  var LIVE_AFTER_MS = 250;
  var CONTROLS = "button, a[href], input[type=submit], input[type=button], input[type=checkbox], input[type=radio]";
  var shownAt = new WeakMap();     // control -> when it was first on screen (Infinity until painted)
  var downAt = -Infinity;          // when the finger (or button) of the pointer's last press went down

  function arm(el) {
    if (el === document.body || !el.querySelectorAll) return;        // a whole page load: nothing was under a finger
    var found = Array.prototype.slice.call(el.querySelectorAll(CONTROLS));
    if (el.matches(CONTROLS)) found.push(el);
    var armed = found.filter(function (c) {
      return !c.disabled && c.getAttribute("aria-disabled") !== "true";
    });
    if (!armed.length) return;
    armed.forEach(function (c) {
      shownAt.set(c, Infinity);
      c.setAttribute("aria-disabled", "true");
      c.setAttribute("data-arming", "");
    });
    // two frames: the first one in which the new screen has been painted
    requestAnimationFrame(function () { requestAnimationFrame(function () {
      var now = performance.now();
      armed.forEach(function (c) { shownAt.set(c, now); });
      setTimeout(function () {
        armed.forEach(function (c) { c.removeAttribute("aria-disabled"); c.removeAttribute("data-arming"); });
      }, LIVE_AFTER_MS);
    }); });
  }
  // armed as they are inserted (a mutation's callback runs before the next input event): htmx's own
  // htmx:load comes only after its settle delay, and a tap in between would land on a live control
  var inserted = new MutationObserver(function (records) {
    records.forEach(function (r) { r.addedNodes.forEach(function (n) { if (n.nodeType === 1) arm(n); }); });
  });
  function watch() { inserted.observe(document.documentElement, {childList: true, subtree: true}); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", watch); else watch();

  // before every other listener (window, capture): the press, then the click it makes
  window.addEventListener("pointerdown", function (ev) { if (ev.isPrimary) downAt = ev.timeStamp; }, true);
  window.addEventListener("click", function (ev) {
    var c = ev.target && ev.target.closest ? ev.target.closest(CONTROLS) : null;
    var at = c && shownAt.get(c);
    if (at === undefined || at === null) return;
    // a pointer's click began when its press did; a key's (detail 0) when it is dispatched
    var began = ev.detail > 0 && downAt <= ev.timeStamp ? downAt : ev.timeStamp;
    if (began >= at + LIVE_AFTER_MS) return;
    ev.preventDefault();
    ev.stopImmediatePropagation();
  }, true);
})();

// == taps ==
// Every tap counts, once. A write form carries its idempotency key (the hidden field "k", new on every
// render): two taps on the same rendered control send one request; a tap on the next screen's control is
// a new step however soon. A tap that gets no answer waits in an outbox (this page and localStorage, so a
// reload keeps it) and is sent again by itself, in order, with its original key and every field it had
// (the button that sent it included): the server recognises a key it already stored and answers its result.
(function () {
  "use strict";
  var STORE = "companion.outbox";
  var root = document.documentElement;
  var inFlight = {};      // key -> true while htmx sends it
  var answered = {};      // key -> true once the server answered it (its form is stale until replaced)
  var outbox = load();
  var flushing = false, retryTimer = null, offline = false;
  // Any 5xx is no answer: the server (or a gateway) could not say whether the tap landed, so it is sent
  // again with its key, and a key already stored answers with what it wrote (never recorded twice).
  function noAnswer(status) { return status >= 500 && status <= 599; }

  function load() {
    try { var v = JSON.parse(localStorage.getItem(STORE) || "[]"); return Array.isArray(v) ? v : []; }
    catch (e) { return []; }
  }
  function save() {
    try { localStorage.setItem(STORE, JSON.stringify(outbox)); } catch (e) { /* private mode: this page keeps it */ }
  }
  function banner() { return document.getElementById("net-error"); }
  function words(name, n) {
    var b = banner();
    var text = (b && b.getAttribute("data-" + name)) || "";
    return text.replace("{n}", String(n));
  }
  // What the table reads: how many taps wait, whether the score is up to date, what became of a tap.
  var note = "";          // what became of the last tap that waited, or "reconnected" (until the next tap)
  function show(said) {
    if (said !== undefined) note = said;
    var b = banner();
    if (!b) return;
    var text = b.querySelector(".net-text");
    var retry = document.getElementById("net-retry");
    var n = outbox.length;
    if (n) {
      text.textContent = words(n === 1 ? "waiting-one" : "waiting-many", n);
      if (retry) retry.hidden = false;
      b.hidden = false;
    } else if (note) {
      text.textContent = note;
      if (retry) retry.hidden = true;
      b.hidden = false;
    } else if (offline) {
      text.textContent = words("reconnecting");
      if (retry) retry.hidden = true;
      b.hidden = false;
    } else {
      b.hidden = true;
    }
    if (!b.hidden) {
      var bar = document.getElementById("thumb");
      b.style.setProperty("--net-above", (bar ? Math.max(0, window.innerHeight - bar.getBoundingClientRect().top) : 0) + "px");
    }
    root.classList.toggle("net-offline", offline || n > 0);
    root.setAttribute("data-outbox", String(n));
    var stale = words("stale");
    document.querySelectorAll(".scorebar").forEach(function (bar) {
      if (offline || n) bar.setAttribute("data-stale", stale); else bar.removeAttribute("data-stale");
    });
  }

  function fieldsOf(detail) {
    var out = [];
    var fd = detail.formData || detail.parameters;
    if (fd && typeof fd.forEach === "function") fd.forEach(function (v, k) { if (typeof v === "string") out.push([k, v]); });
    return out;
  }
  function keyOf(fields) {
    for (var i = 0; i < fields.length; i++) if (fields[i][0] === "k") return fields[i][1];
    return null;
  }
  function isPoll(elt) { return elt && elt.id === "live"; }

  // A write about to be sent: the same key twice (a double tap, or a tap on a screen the answer has not
  // replaced yet) is dropped; behind taps that wait, it waits too (the order is kept).
  var GIVE_UP_MS = 12000;  // no answer by then (Wi-Fi gone, not refused): the tap waits in the outbox
  document.addEventListener("htmx:configRequest", function (ev) {
    var d = ev.detail;
    if (!d) return;
    if (!d.timeout) d.timeout = GIVE_UP_MS;
    if (d.verb === "get") return;
    var fields = fieldsOf(d);
    var key = keyOf(fields);
    if (!key) return;
    if (inFlight[key] || answered[key] || outbox.some(function (e) { return e.key === key; })) {
      ev.preventDefault();
      return;
    }
    if (outbox.length) {
      ev.preventDefault();
      enqueue({key: key, path: d.path, fields: fields});
      flush();
      return;
    }
    inFlight[key] = true;
    d.headers["X-Companion-Key"] = key;     // (the key is also in the form: this names the request in events)
  });
  function keyOfRequest(d) {
    var h = d && d.requestConfig && d.requestConfig.headers;
    return h && h["X-Companion-Key"];
  }
  document.addEventListener("htmx:beforeRequest", function (ev) {
    if (!isPoll(ev.detail.elt) && note) show("");           // a new tap: the last note has been read
  });
  document.addEventListener("htmx:sendAbort", function (ev) {
    var key = keyOfRequest(ev.detail);
    if (key) delete inFlight[key];
  });
  document.addEventListener("htmx:afterRequest", function (ev) {
    var d = ev.detail, key = keyOfRequest(d);
    if (d && d.xhr && noAnswer(d.xhr.status)) {   // no answer (see htmx:beforeSwap)
      if (key) delete inFlight[key];
      return;
    }
    if (key && d.xhr && d.xhr.status) {
      delete inFlight[key];
      // answered: its form is replaced by the answer (one that replaces nothing leaves the form usable)
      if (d.xhr.status !== 204 && d.xhr.getResponseHeader("HX-Reswap") !== "none") answered[key] = true;
    }
    if (d && d.xhr && d.xhr.status && offline) { offline = false; show(words("reconnected")); }
    if (d && d.xhr && d.xhr.status && outbox.length) flush();
  });
  // A 5xx (the app's database lost for a moment, or a gateway answering for an app that is down) is no
  // answer: the tap waits, the error page is not shown.
  document.addEventListener("htmx:beforeSwap", function (ev) {
    var d = ev.detail, key = keyOfRequest(d);
    if (!d.xhr || !noAnswer(d.xhr.status)) return;
    d.shouldSwap = false;
    if (key) {
      delete answered[key];
      enqueue({key: key, path: d.requestConfig.path, fields: fieldsOf(d.requestConfig)});
    }
    offline = true;
    show();
    later();
  });
  function lost(ev) {
    var d = ev.detail, key = keyOfRequest(d);
    if (key && inFlight[key]) {
      delete inFlight[key];
      var cfg = d.requestConfig;
      enqueue({key: key, path: cfg.path, fields: fieldsOf(cfg)});
    }
    offline = true;
    show();
    later();
  }
  document.addEventListener("htmx:sendError", lost);
  document.addEventListener("htmx:timeout", lost);

  function enqueue(entry) {
    if (outbox.some(function (e) { return e.key === entry.key; })) return;
    outbox.push(entry);
    save();
    show();
  }
  function later() {
    if (retryTimer || (!outbox.length && !offline)) return;
    retryTimer = setTimeout(function () { retryTimer = null; flush(); }, 2000);
  }

  // Send what waits, first in first out. An answer (whatever it says) takes the tap out of the outbox;
  // no answer leaves it there for the next try. The last answer is the screen shown.
  function flush() {
    if (flushing) return;
    if (!outbox.length) {
      if (offline) ping();
      return;
    }
    flushing = true;
    var entry = outbox[0];
    var body = new URLSearchParams();
    entry.fields.forEach(function (f) { body.append(f[0], f[1]); });
    fetch(entry.path, {method: "POST", body: body, credentials: "same-origin", redirect: "follow",
                       headers: {"Content-Type": "application/x-www-form-urlencoded"}})
      .then(function (res) {
        return res.text().then(function (html) {
          if (noAnswer(res.status)) { flushing = false; offline = true; show(); later(); return; }
          outbox = outbox.filter(function (e) { return e.key !== entry.key; });
          save();
          answered[entry.key] = true;
          offline = false;
          flushing = false;
          var note = res.status === 409 ? words("moved-on") : res.status >= 400 ? words("refused") : words("landed");
          if (outbox.length) { show(); flush(); return; }
          var url = res.headers.get("HX-Replace-Url") || res.url;
          if (!/<body/i.test(html)) { location.assign(url); return; }
          replacePage(html, url);
          show(note);
        });
      }, function () {
        flushing = false;
        offline = true;
        show();
        later();
      });
  }
  function ping() {
    var live = document.getElementById("live");
    var url = (live && live.getAttribute("hx-get")) || location.pathname;
    fetch(url, {credentials: "same-origin", headers: {"HX-Request": "true"}}).then(function () {
      offline = false;
      show(words("reconnected"));
      if (live && window.htmx) window.htmx.trigger(live, "companion:refresh");
      refreshLive();
    }, function () { later(); });
  }
  function refreshLive() {
    var live = document.getElementById("live");
    if (!live || !window.htmx) return;
    var url = live.getAttribute("hx-get");
    if (url) window.htmx.ajax("GET", url.replace(/since=\d+/, "since=0"), {source: live, target: live, swap: "outerHTML"});
  }
  // The answer to a tap that waited: the page it leads to (or the refusal), as a boosted page change would.
  function replacePage(html, url) {
    var y = window.scrollY;
    if (window.htmx && window.htmx.swap) {
      window.htmx.swap(document.body, html, {swapStyle: "innerHTML"});
    } else {
      var doc = new DOMParser().parseFromString(html, "text/html");
      document.body.innerHTML = doc.body.innerHTML;
    }
    if (url && history.replaceState) history.replaceState(history.state, "", url);
    document.dispatchEvent(new CustomEvent("companion:replaced", {detail: {y: y}}));
  }

  document.addEventListener("click", function (ev) {
    if (!ev.target.closest("#net-retry")) return;
    if (retryTimer) { clearTimeout(retryTimer); retryTimer = null; }
    flush();
  });
  window.addEventListener("online", function () { flush(); });
  function start() { show(); if (outbox.length) flush(); }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start); else start();
  document.addEventListener("htmx:afterSettle", function () { show(); });

  // A link tapped twice (the same rendered link, its page not there yet): one page change.
  var following = null;
  document.addEventListener("click", function (ev) {
    var a = ev.target.closest("a[href]");
    if (!a || a.closest("[hx-boost=false]") || a.target || a.hasAttribute("data-tally-add")) return;
    if (following === a && document.body.contains(a)) { ev.preventDefault(); ev.stopImmediatePropagation(); return; }
    following = a;
  }, true);
  document.addEventListener("htmx:afterSettle", function () { following = null; });
  document.addEventListener("htmx:sendError", function () { following = null; });
})();

// == scroll ==
// Keep the reader where they were: a tap that comes back to the same page keeps the scroll position (a
// step of rows to fill in, "everyone passes" or who has pares, included: the page does not jump under the
// finger); a new page starts at its top. Put back when the swap has settled and the page's stylesheets
// apply (a boosted page brings its game's stylesheet in the body), never after a guessed delay.
// <html data-busy> is there from the tap until the position is back (tests wait for it to go).
(function () {
  "use strict";
  var root = document.documentElement;
  var before = null;
  document.addEventListener("htmx:beforeRequest", function (ev) {
    var elt = ev.detail.elt;
    if (elt && elt.id === "live") return;                    // a live poll: nobody tapped
    if (elt && elt.getAttribute && elt.getAttribute("hx-swap") === "none") return;   // (the beacon)
    before = {y: window.scrollY, path: location.pathname, xhr: ev.detail.xhr};
    root.setAttribute("data-busy", "1");
  });
  function idle() {
    if (!before) root.removeAttribute("data-busy");
  }
  document.addEventListener("htmx:afterRequest", function (ev) {
    // no swap will follow (an error with no answer, a 204): nothing to put back
    var xhr = ev.detail.xhr;
    if (!before || xhr !== before.xhr) return;                  // (another request: a live poll)
    if (!xhr || !xhr.status || xhr.status === 204 || xhr.status >= 500) { before = null; idle(); }   // 5xx: not swapped (the outbox)
  });
  function sheetsReady(done) {
    var waiting = Array.prototype.filter.call(document.querySelectorAll("link[rel=stylesheet]"),
                                              function (l) { return !l.sheet; });
    if (!waiting.length) { done(); return; }
    var left = waiting.length;
    waiting.forEach(function (l) {
      var one = function () { l.removeEventListener("load", one); l.removeEventListener("error", one);
                              if (--left === 0) done(); };
      l.addEventListener("load", one);
      l.addEventListener("error", one);
    });
  }
  function restore(y) {
    root.classList.add("restoring");                           // no scroll anchoring while the page settles
    window.scrollTo(0, y);
    sheetsReady(function () {
      window.scrollTo(0, y);
      requestAnimationFrame(function () {
        window.scrollTo(0, y);
        rowsInSight();
        root.classList.remove("restoring");
        idle();
        root.setAttribute("data-settled", String((+root.getAttribute("data-settled") || 0) + 1));
      });
    });
  }
  // A step of rows to fill in (who has pares and juego) keeps the page where it was while one of its rows
  // shows between the score and the bar; only when none does (a narrow screen, long words, the page
  // scrolled past them) is the form brought under the score: its controls are never all out of sight.
  function rowsInSight() {
    var form = document.querySelector("[data-step-form]");
    var bar = document.getElementById("thumb");
    if (!form || !bar) return;
    var top = document.querySelector(".score-top");
    var lo = top ? top.getBoundingClientRect().bottom - 1 : 0, hi = bar.getBoundingClientRect().top;
    var controls = form.querySelectorAll("input:not([type=hidden]), select, button");
    if (!controls.length || Array.prototype.some.call(controls, function (c) {
      var at = (c.closest("label") || c).getBoundingClientRect().top;
      return at >= lo && at < hi;
    })) return;
    for (var pass = 0; pass < 2; pass++) {    // (the header scrolls away on the first: the score sticks then)
      var under = top ? top.getBoundingClientRect().bottom + 4 : 0;
      var at = form.getBoundingClientRect().top;
      if (Math.abs(at - under) > 2) window.scrollBy(0, at - under);
    }
  }
  function settled() {
    if (!before) return;
    var y = location.pathname === before.path ? before.y : 0;
    before = null;
    restore(y);
  }
  document.addEventListener("htmx:afterSettle", function (ev) {
    // the swap of the tap's own answer (a live poll's swap, even in the middle of a tap, changes nothing here)
    if (!before || (ev.detail && ev.detail.xhr && ev.detail.xhr !== before.xhr)) return;
    settled();
  });
  document.addEventListener("companion:replaced", function (ev) { before = null; restore(ev.detail.y); });
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

// The tally: each +1…+5 adds to the hand on this phone at once (nothing is sent, so no tap can be lost
// or swallowed however fast the stones are counted); "Count the hand" sends the whole tally as one hand.
// The address keeps the tally (a reload shows it) and every link of the tally screen carries it.
(function () {
  "use strict";
  function form() { return document.querySelector("[data-tally-form]"); }
  function read(f) {
    try { var v = JSON.parse(f.querySelector("input[name=tally]").value || "[]"); return Array.isArray(v) ? v : []; }
    catch (e) { return []; }
  }
  function withTally(href, awards) {
    var u = new URL(href, location.href);
    if (awards.length) u.searchParams.set("tally", JSON.stringify(awards)); else u.searchParams.delete("tally");
    return u.pathname + u.search + u.hash;
  }
  function write(f, awards, added) {
    var raw = JSON.stringify(awards);
    f.querySelector("input[name=tally]").value = raw;
    ["A", "B"].forEach(function (t) {
      var sum = 0;
      awards.forEach(function (a) { if (a[0] === t) sum += a[1]; });
      document.querySelectorAll("[data-tally-sum=" + t + "]").forEach(function (el) { el.textContent = t + " +" + sum; });
    });
    var live = document.getElementById("live") || document;
    live.querySelectorAll("a[href*='mode=tally']").forEach(function (a) {
      if (a.hasAttribute("data-tally-add")) return;
      a.setAttribute("href", withTally(a.getAttribute("href"), a.hasAttribute("data-tally-drop") ? awards.slice(0, -1) : awards));
    });
    live.querySelectorAll("form input[name=tally]").forEach(function (i) { i.value = raw; });
    var list = document.querySelector("[data-tally-list]");
    if (list && added) {
      var li = document.createElement("li");
      li.className = "team-" + added[0].toLowerCase();
      var strong = document.createElement("strong");
      strong.textContent = "+" + added[1] + " " + added[0];
      li.appendChild(strong);
      var on = document.querySelector("[data-tally-lances] a[aria-current]");
      if (added[2] && on) li.appendChild(document.createTextNode(" " + on.textContent.trim()));
      list.appendChild(li);
      list.hidden = false;
      var empty = document.querySelector("[data-tally-empty]");
      if (empty) empty.hidden = true;
    }
    if (history.replaceState) history.replaceState(history.state, "", withTally(location.href, awards));
  }
  document.addEventListener("click", function (ev) {
    var b = ev.target.closest("[data-tally-add]");
    var f = b && form();
    if (!f) return;
    ev.preventDefault();
    ev.stopImmediatePropagation();
    var awards = read(f);
    if (awards.length >= (+f.getAttribute("data-tally-max") || 30)) return;
    var parts = b.getAttribute("data-tally-add").split(":");
    var added = [parts[0], parseInt(parts[1], 10), f.getAttribute("data-tally-lance") || null];
    awards.push(added);
    write(f, awards, added);
    b.classList.remove("tapped"); void b.offsetWidth; b.classList.add("tapped");   // a flash: the tap was seen
  }, true);
  // The address follows the tally the page shows: a screen that came back without it (a refused stale
  // count, the next hand brought by the live poll) must not bring the old tally back on a reload.
  document.addEventListener("htmx:afterSettle", function () {
    if (!history.replaceState || !/[?&]tally=/.test(location.search)) return;
    var f = form();
    history.replaceState(history.state, "", withTally(location.href, f ? read(f) : []));
  });
})();

// The four hands opened: the rows and the keypad come into view above the bar (the bar's button sends them).
(function () {
  "use strict";
  document.addEventListener("toggle", function (ev) {
    var d = ev.target;
    if (!d.matches || !d.matches("details[data-cards-entry]") || !d.open) return;
    // the keypad's last row just above the bar (the rows of names above it, under the score)
    var pad = d.querySelector("[data-keypad]:not([hidden])") || d;
    var bar = document.getElementById("thumb");
    var limit = bar ? bar.getBoundingClientRect().top - 6 : window.innerHeight;
    var by = pad.getBoundingClientRect().bottom - limit;
    if (by > 0) window.scrollBy(0, by);
  }, true);
})();
