"""One module per command of the CLI; each wires the parts for its command. cli.py parses
the arguments and imports only the command it runs, so reading results never loads the
runner or a backend."""
