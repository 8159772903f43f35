"""The sentences and number formats that more than one output says the same way (results.md,
the CSV, the charts, the pages, the terminal). Pure."""
