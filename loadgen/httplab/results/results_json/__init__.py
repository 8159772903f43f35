"""results.json, owned here: its format version (version.py), the writer of the whole file,
the model and every figure derived for its readers, in a fixed order (write.py), and the
reader of every format this lab wrote (read.py).

It lives in results/ rather than in presentation/ because results.json is also the stored
form of a run that `httplab report` and `httplab compare` read back, and results/ may not
import presentation/: writer and reader sit together so that the file's shape is said in
one place. The figures it derives are results' own (statistics, the bound of Little's law,
the bottleneck verdict, fairness, the database's and each step's figures); presentation's
JSON exporter only hands the text on."""
