"""sarif_check.py SCHEMA FILE...: validate SARIF files against the
official SARIF 2.1.0 JSON schema (draft-04) with python3-jsonschema;
prints each error and exits 1 when one is invalid."""
import json
import sys

import jsonschema

schema = json.load(open(sys.argv[1]))
validator = jsonschema.Draft4Validator(schema)
bad = 0
for path in sys.argv[2:]:
    for e in validator.iter_errors(json.load(open(path))):
        print(f"{path}: {'/'.join(map(str, e.absolute_path))}: {e.message}")
        bad = 1
sys.exit(bad)
