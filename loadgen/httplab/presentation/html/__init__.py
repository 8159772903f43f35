"""The HTML pages of a run: index.html per run, the list of runs, compare.html. Pure:
each renderer turns the model (and the names of the files it links to) into the text of
one page, from the Jinja2 templates in templates/; presentation/publish.py writes them."""
