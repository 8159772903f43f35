"""What every output shows, as figures and selections: which cells, servers and points a
table or chart takes, their numbers, and the chart catalogue (charts.py: which charts a run
has and their PNG names). Pure: no text, no matplotlib, no Plotly."""
