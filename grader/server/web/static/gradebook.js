// The staff gradebook as a tool (the pages' policy runs no inline script): each heading a button that sorts
// the rows by its column (numbers as numbers, again to reverse), a search of the students' ids and emails,
// and a filter by status. The live page (live.js) replaces the table as grades come in; the sort, search
// and filter chosen are applied again to the new one.
"use strict";
(() => {
  const search = document.getElementById("gradebook-search");
  const status = document.getElementById("gradebook-status");
  const shown = document.getElementById("gradebook-shown");
  if (!search || !status) return;
  let sorted = null;      // {key, ascending}
  document.getElementById("gradebook-tools").addEventListener("submit", (event) => event.preventDefault());

  const table = () => document.getElementById("gradebook");
  const column = (key) => [...table().tHead.rows[0].cells].findIndex((cell) => cell.dataset.key === key);
  const text = (row, index) => (index >= 0 && row.cells[index] ? row.cells[index].textContent.trim() : "");

  function compare(a, b) {
    const x = Number(a), y = Number(b);
    if (a !== "" && b !== "" && !Number.isNaN(x) && !Number.isNaN(y)) return x - y;
    if (a === "" || b === "") return a === "" ? (b === "" ? 0 : 1) : -1;   // empty cells last
    return a.localeCompare(b, undefined, {numeric: true, sensitivity: "base"});
  }

  function arrange() {
    const body = table().tBodies[0];
    const rows = [...body.rows];
    if (sorted) {
      const index = column(sorted.key);
      rows.sort((a, b) => (sorted.ascending ? 1 : -1) * compare(text(a, index), text(b, index)));
      rows.forEach((row) => body.appendChild(row));
    }
    for (const cell of table().tHead.rows[0].cells) {
      const order = sorted && cell.dataset.key === sorted.key ? (sorted.ascending ? "ascending" : "descending") : "none";
      cell.setAttribute("aria-sort", order);   // what a screen reader says; the arrow is for the eye
      const arrow = cell.querySelector(".arrow");
      if (arrow) arrow.textContent = {ascending: " ▲", descending: " ▼", none: ""}[order];
    }
    const wanted = search.value.trim().toLowerCase(), chosen = status.value;
    const who = [column("student_id"), column("email")], state = column("status");
    let count = 0;
    for (const row of rows) {
      const found = !wanted || who.some((index) => text(row, index).toLowerCase().includes(wanted));
      const visible = found && (!chosen || text(row, state) === chosen);
      row.hidden = !visible;
      count += visible ? 1 : 0;
    }
    shown.textContent = `${count} of ${rows.length} shown`;
  }

  function prepare() {
    const statuses = new Set([...table().tBodies[0].rows].map((row) => text(row, column("status"))));
    for (const each of [...statuses].sort()) {
      if (each && ![...status.options].some((option) => option.value === each)) status.add(new Option(each, each));
    }
    for (const cell of table().tHead.rows[0].cells) {
      if (cell.querySelector("button")) continue;
      const button = document.createElement("button");
      button.type = "button";
      button.className = "sort";
      const arrow = document.createElement("span");
      arrow.className = "arrow";
      arrow.setAttribute("aria-hidden", "true");
      button.append(cell.textContent, arrow);
      button.addEventListener("click", () => {
        sorted = {key: cell.dataset.key, ascending: !(sorted && sorted.key === cell.dataset.key && sorted.ascending)};
        arrange();
      });
      cell.replaceChildren(button);
    }
    arrange();
  }

  search.addEventListener("input", arrange);
  status.addEventListener("change", arrange);
  document.addEventListener("hog:refreshed", prepare);
  prepare();
})();
