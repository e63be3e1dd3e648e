# IVC101 notes: for a name bound by an assignment to a prohibited module's
# member, the note should point at that assignment ("'run' is bound here"),
# as it does for an aliased builtin (IVC102), not at the import of the module.
# RUN: %ivc check --verify %s
import subprocess as sp  # expected-note@+2 {{'run' is bound here}}

run = sp.run

with model.trace("The Eiffel Tower is in") as tracer:
    hidden = model.transformer.h[5].output[0].save()
    run(["nvidia-smi"])  # expected-error {{references prohibited module 'subprocess'}}
