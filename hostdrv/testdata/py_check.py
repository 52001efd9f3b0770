"""py_check: the Python wrapper on the simulation backend, for hostdrv's tests.

    python3 py_check.py DRIVER_DIR LIB SPEC ROWS_CSV READOUT

Reads the rows from the CSV file (read_csv: a header of the design's feature
names), classifies them (lists, and a NumPy array when NumPy is installed),
encodes a few, reads the info and counters, loads the readout image,
classifies again, and prints one JSON object with everything.
"""
import json
import sys

driver, lib, spec, rows_csv, readout = sys.argv[1:6]
sys.path.insert(0, driver)
import hdlgen  # noqa: E402

out = {}
with hdlgen.Device(spec, lib=lib) as dev:
    rows = dev.read_csv(rows_csv)
    out["info"] = dev.info()
    out["features"], out["class_names"] = dev.features, dev.class_names
    out["classes"], out["scores"] = dev.classify(rows, scores=True)
    out["encoded"] = dev.encode(rows[:20])
    try:
        import numpy as np
        out["numpy_classes"] = [int(c) for c in dev.classify(np.array(rows))]
    except ImportError:
        out["numpy_classes"] = None
    out["counters"] = dev.counters()
    try:
        dev.classify([rows[0][:-1]])
        out["short_row"] = "accepted"
    except ValueError as e:
        out["short_row"] = str(e)
    dev.load_readout(readout)
    out["bank"] = dev.active_bank()
    out["classes2"], out["flags2"] = dev.classify(rows, flags=True)
try:
    hdlgen.Device(spec, lib=lib).load_readout(rows_csv)
    out["bad_image"] = "accepted"
except hdlgen.HdlgenError as e:
    out["bad_image"] = [e.status, str(e)]
print(json.dumps(out))
