"""Hand-written ivc-plan/v1 documents (docs/plan.md), the way the analyzer
will emit them, for testing the runtime before and apart from it."""

import json
import textwrap


def mediator(source, tier="fast", index=0, kind="body", saves=(), free_names=(),
             definitions=(), line=10, **extra):
    m = {
        "index": index,
        "kind": kind,
        "tier": tier,
        "differentiate": False,
        "touches_weights": False,
        "reasons": [],
        "modules": [],
        "saves": list(saves),
        "free_names": list(free_names),
        "definitions": [{"name": n, "source": textwrap.dedent(s)} for n, s in definitions],
        "invoke_arguments": None,
        "source": textwrap.dedent(source).lstrip("\n"),
        "range": {"start": {"line": line - 1, "column": 1, "offset": 0},
                  "end": {"line": line + 5, "column": 1, "offset": 0}},
        "body_range": {"start": {"line": line, "column": 5, "offset": 0},
                       "end": {"line": line + 5, "column": 1, "offset": 0}},
    }
    m.update(extra)
    return m


def plan(*mediators, file="experiment.py", receiver="model", tracer="tracer", as_json=False):
    doc = {
        "schema": "ivc-plan/v1",
        "file": file,
        "source_sha256": "0" * 64,
        "policy": {"name": "test", "fingerprint": "sha256:0"},
        "diagnostics": [],
        "traces": [{
            "index": 0,
            "kind": "trace",
            "parent": None,
            "receiver": receiver,
            "tracer": tracer,
            "range": {"start": {"line": 1, "column": 1, "offset": 0},
                      "end": {"line": 2, "column": 1, "offset": 0}},
            "mediators": [dict(m, index=i) for i, m in enumerate(mediators)],
        }],
    }
    return json.dumps(doc, sort_keys=True) if as_json else doc
