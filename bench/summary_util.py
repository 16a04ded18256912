"""What the bench/summarize_*.py scripts share.

Each of those scripts reads the JSON objects that several runs of one
benchmark printed (one file per run) and prints Markdown tables of medians
over the runs. This module loads the runs, takes medians, and runs a
script's main(runs) as its command line: `summarize_X.py RUN1.json RUN2.json
...`, exiting 2 with the script's docstring when no file is named. A script
imports it from its own directory (bench/), which Python puts first on the
module path.
"""
import json
import statistics
import sys


def load_runs(paths):
    """The JSON object of each file in paths, in order."""
    runs = []
    for p in paths:
        with open(p) as f:
            runs.append(json.load(f))
    return runs


def med(values):
    """The median of values, None ignored; None if nothing is left."""
    values = [v for v in values if v is not None]
    return statistics.median(values) if values else None


def cli(main, doc):
    """Runs main(runs) on the files named on the command line and exits with
    what it returns (None: 0); without any file, prints doc and exits 2."""
    if len(sys.argv) < 2:
        print(doc, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(load_runs(sys.argv[1:])))
