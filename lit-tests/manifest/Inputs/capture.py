"""Builds manifests from live functions of notebook.py with ivc_capture."""
import json
import os
import sys

sys.path.insert(0, sys.argv[1])
import ivc_capture  # noqa: E402

here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, here)
import notebook  # noqa: E402


def uses_everything():
    return notebook.helper(1), notebook.reader("f"), notebook.alias("1"), json.dumps({})


out = sys.argv[2]
m = ivc_capture.manifest({
    "helper": ivc_capture.describe(notebook.helper),
    "reader": ivc_capture.describe(notebook.reader),
    "alias": ivc_capture.describe(notebook.alias),
    "clean": ivc_capture.describe(notebook.clean),
    "json": ivc_capture.describe(json),
})
with open(out + ".all.json", "w") as f:
    f.write(ivc_capture.dumps(m))
with open(out + ".clean.json", "w") as f:
    f.write(ivc_capture.dumps(ivc_capture.manifest({"clean": ivc_capture.describe(notebook.clean)})))
# capture_function: the free names of one function.
with open(out + ".fn.json", "w") as f:
    f.write(ivc_capture.dumps(ivc_capture.capture_function(notebook.helper)))
