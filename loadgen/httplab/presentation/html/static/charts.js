// httplab: draws every div.chart with Plotly from the figure (JSON) beside it, and fills
// div.toggles with one checkbox per framework that shows or hides it in every chart. Without
// Plotly (or JavaScript) nothing is drawn and each chart's table still has its figures.
(function () {
  "use strict";
  var CONFIG = {displaylogo: false, responsive: true};
  var charts = Array.prototype.slice.call(document.querySelectorAll("div.chart"));
  if (!window.Plotly || !charts.length) { return; }

  function figureOf(chart) {
    var json = chart.parentNode.querySelector('script[type="application/json"]');
    return JSON.parse(json.textContent);
  }

  function draw(chart, figure) {
    chart.hidden = false;  // hidden in the page, for a reader without Plotly
    return window.Plotly.newPlot(chart, figure.data, figure.layout, CONFIG).then(function () {
      chart.setAttribute("data-drawn", "true");
    });
  }

  // Each framework's group (a trace's legendgroup) and its name, in the order first seen.
  function frameworks(figures) {
    var found = [], seen = {};
    figures.forEach(function (figure) {
      figure.data.forEach(function (trace) {
        var group = trace.legendgroup;
        if (group && !seen[group]) { seen[group] = true; found.push({group: group, name: trace.name}); }
      });
    });
    return found;
  }

  function setShown(group, shown) {
    charts.forEach(function (chart) {
      if (!chart.data) { return; }
      var indices = [];
      chart.data.forEach(function (trace, index) {
        if (trace.legendgroup === group) { indices.push(index); }
      });
      if (indices.length) {
        window.Plotly.restyle(chart, {visible: shown ? true : "legendonly"}, indices);
      }
    });
  }

  function toggle(framework) {
    var label = document.createElement("label");
    label.style.marginRight = "1em";
    label.style.whiteSpace = "nowrap";
    var box = document.createElement("input");
    box.type = "checkbox";
    box.checked = true;
    box.setAttribute("data-group", framework.group);
    box.addEventListener("change", function () { setShown(framework.group, box.checked); });
    label.appendChild(box);
    label.appendChild(document.createTextNode(" " + framework.name));
    return label;
  }

  function fillToggles(found) {
    Array.prototype.forEach.call(document.querySelectorAll("div.toggles"), function (box) {
      if (found.length < 2) { return; }
      var title = document.createElement("span");
      title.textContent = "Frameworks shown: ";
      box.appendChild(title);
      found.forEach(function (framework) { box.appendChild(toggle(framework)); });
    });
  }

  // Chromium prints nothing of a closed <details>, whatever the print style says: each
  // chart's table is opened for print and closed again after.
  function openTablesForPrint() {
    var closed = document.querySelectorAll("figure.chart-figure details:not([open])");
    Array.prototype.forEach.call(closed, function (details) {
      details.open = true;
      window.addEventListener("afterprint", function () { details.open = false; }, {once: true});
    });
  }

  var figures = charts.map(figureOf);
  charts.forEach(function (chart, index) { draw(chart, figures[index]); });
  fillToggles(frameworks(figures));
  window.addEventListener("beforeprint", openTablesForPrint);
})();
