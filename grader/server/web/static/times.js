// Times in the reader's own time zone (the pages' policy runs no inline script). Each <time datetime>
// holds its ISO form, shown as it is where scripts do not run; here it becomes a date and time by the
// browser's language and zone (Intl), its ISO form kept as its title, and "(in 2 days)", "(3 seconds ago)"
// after it where it is marked data-relative. Parts a live page replaces (live.js) are shown again, and the
// relative forms are brought up to date every 15 seconds.
"use strict";
(() => {
  const absolute = new Intl.DateTimeFormat(undefined, {weekday: "short", year: "numeric", month: "short", day: "numeric",
                                                      hour: "numeric", minute: "2-digit", timeZoneName: "short"});
  const relative = new Intl.RelativeTimeFormat(undefined, {numeric: "auto"});
  const UNITS = [["year", 31536000], ["month", 2592000], ["week", 604800], ["day", 86400], ["hour", 3600],
                 ["minute", 60], ["second", 1]];

  function since(moment) {
    const seconds = (moment.getTime() - Date.now()) / 1000;
    const [unit, size] = UNITS.find(([, size]) => Math.abs(seconds) >= size) || UNITS[UNITS.length - 1];
    return relative.format(Math.round(seconds / size), unit);
  }

  function show() {
    for (const element of document.querySelectorAll("time[datetime]")) {
      const moment = new Date(element.dateTime);
      if (Number.isNaN(moment.getTime())) continue;   // not a time this browser reads: the ISO form stays
      element.title = element.dateTime;
      element.textContent = absolute.format(moment) + ("relative" in element.dataset ? ` (${since(moment)})` : "");
    }
  }

  show();
  document.addEventListener("hog:refreshed", show);
  window.setInterval(show, 15000);
})();
