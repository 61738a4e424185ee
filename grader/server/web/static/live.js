// Live updates of a course server page, without reloading it (the pages' policy runs no inline script).
// The element with data-live-source names a JSON address to look at every data-live-every seconds and the
// field of its answer to watch (data-live-key), as the page was made (data-live-now). When that field
// changes, the page is fetched again and each element marked data-live-part is replaced by its new version,
// inside a region marked aria-live, so a screen reader says what changed. Looking stops once the field is
// one of data-live-until. After data-live-patience seconds of looking (a long queue), it looks every
// data-live-slower seconds instead, and not at all while the page is hidden (another tab): a student's
// page looks every 250 ms while a grade is pending, and a deadline's queue is not asked 4 times a second
// by every page left open. A failed look (the server restarting, a 503) is tried again at the next turn.
"use strict";
(() => {
  const root = document.querySelector("[data-live-source]");
  if (!root) return;
  const every = 1000 * Number(root.dataset.liveEvery || "5");
  const slower = 1000 * Number(root.dataset.liveSlower || root.dataset.liveEvery || "5");
  const patience = 1000 * Number(root.dataset.livePatience || "0");
  const until = (root.dataset.liveUntil || "").split(",").filter(Boolean);
  const started = Date.now();
  let seen = root.dataset.liveNow;
  let waiting = null;   // the next look, once planned
  let looking = false;  // a look under way

  async function refresh() {
    const page = await fetch(window.location.href, {credentials: "same-origin", cache: "no-store"});
    if (!page.ok) return false;
    const fresh = new DOMParser().parseFromString(await page.text(), "text/html");
    for (const part of document.querySelectorAll("[data-live-part]")) {
      const newer = fresh.getElementById(part.id);
      if (newer) part.replaceWith(document.importNode(newer, true));
    }
    document.dispatchEvent(new CustomEvent("hog:refreshed"));   // times.js shows the new parts' times
    return true;
  }

  function plan() {
    waiting = null;
    if (until.includes(seen) || document.hidden) return;
    waiting = window.setTimeout(look, Date.now() - started < patience ? every : slower);
  }

  async function look() {
    looking = true;
    try {
      const answer = await fetch(root.dataset.liveSource,
                                 {credentials: "same-origin", cache: "no-store", headers: {Accept: "application/json"}});
      if (answer.ok) {
        const now = String((await answer.json())[root.dataset.liveKey]);
        if (now !== seen && await refresh()) seen = now;
      }
    } catch (error) {
      // out of reach for now: look again at the next turn
    }
    looking = false;
    plan();
  }

  document.addEventListener("visibilitychange", () => {
    if (!document.hidden && waiting === null && !looking && !until.includes(seen)) look();
  });
  plan();
})();
