# A runtime binds a free name spelled like an allowed module to that module,
# whether the file imports it or binds it to something else (`torch = 1`),
# and refuses a caller's value for it: ivc judges the name as the module
# too, so what is read from it is judged.
# Known from: a red team of ivc's classifier (2026-11-27).
# RUN: %ivc check --verify %s
with model.trace("The Eiffel Tower is in"):
    env = torch.serialization.os.environ  # expected-error {{references prohibited module 'os'}}

math = 1

with model.trace("The Eiffel Tower is in"):
    env = math.sys  # expected-error {{references prohibited module 'sys'}}
