"""Validates JSON on standard input against a JSON Schema file (draft-07)."""
import json
import sys

import jsonschema

schema = json.load(open(sys.argv[1], encoding="utf-8"))
document = json.load(sys.stdin)
validator = jsonschema.Draft7Validator(schema)
errors = sorted(validator.iter_errors(document), key=lambda e: list(e.path))
for e in errors:
    print("invalid at /%s: %s" % ("/".join(map(str, e.path)), e.message))
if errors:
    sys.exit(1)
print("valid")
