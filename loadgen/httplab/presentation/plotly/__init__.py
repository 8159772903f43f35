"""The interactive charts of a run's page: Plotly figures as data (ChartSpec), drawn in the
browser by html/static/charts.js; charts.py lists them from the chart catalogue. Pure, and
loads no plotting library."""
