// httplab: sort any table.sortable by the column whose header is clicked (or given
// Enter/Space): numerically when every filled cell of the column reads as a number
// ("115,433", "8.7 µs", "68.3 %", "12.9%"), as text otherwise; the page reads the same
// without it.
(function () {
  "use strict";
  var NUMBER = /^[-+]?[\d,]*\.?\d+(?:e[-+]?\d+)?/i;

  function cellValue(row, index) {
    var cell = row.cells[index];
    return cell ? (cell.getAttribute("data-sort") || cell.textContent).trim() : "";
  }

  function asNumber(text) {
    var found = NUMBER.exec(text.replace(/\u2212/g, "-"));
    return found ? parseFloat(found[0].replace(/,/g, "")) : NaN;
  }

  function isBlank(text) {
    return text === "" || text === "\u2014" || text === "-";
  }

  function comparator(rows, index) {
    var numeric = rows.every(function (row) {
      var text = cellValue(row, index);
      return isBlank(text) || !isNaN(asNumber(text));
    });
    return function (a, b) {
      var x = cellValue(a, index), y = cellValue(b, index);
      if (isBlank(x) || isBlank(y)) { return isBlank(x) - isBlank(y); }
      return numeric ? asNumber(x) - asNumber(y) : x.localeCompare(y, undefined, {numeric: true});
    };
  }

  function sortBy(table, header) {
    var body = table.tBodies[0];
    if (!body) { return; }
    var index = header.cellIndex;
    var descending = header.getAttribute("aria-sort") === "ascending";
    var rows = Array.prototype.slice.call(body.rows);
    var compare = comparator(rows, index);
    rows.sort(function (a, b) { return descending ? compare(b, a) : compare(a, b); });
    rows.forEach(function (row) { body.appendChild(row); });
    Array.prototype.forEach.call(header.parentNode.cells, function (cell) {
      cell.removeAttribute("aria-sort");
    });
    header.setAttribute("aria-sort", descending ? "descending" : "ascending");
  }

  function makeSortable(table) {
    var head = table.tHead;
    if (!head || !head.rows.length) { return; }
    Array.prototype.forEach.call(head.rows[0].cells, function (header) {
      header.tabIndex = 0;
      header.title = "Sort by this column";
      header.addEventListener("click", function () { sortBy(table, header); });
      header.addEventListener("keydown", function (event) {
        if (event.key === "Enter" || event.key === " ") { event.preventDefault(); sortBy(table, header); }
      });
    });
  }

  Array.prototype.forEach.call(document.querySelectorAll("table.sortable"), makeSortable);
})();
