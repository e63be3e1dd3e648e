# --verify compares diagnostics with `# expected-...` comments: this file's
# expectations match, so the check passes; verify-mismatch.test shows a failure.
# RUN: %ivc check --verify %s
import os

with model.trace("x") as tracer:
    a = os.getcwd()  # expected-error {{references prohibited module 'os'}}
    # expected-error@+1 {{prohibited builtin 'eval'}}
    b = eval("1")
    c = hasattr(a, "__class__")  # expected-error {{with the private attribute '__class__'}}
    d = 1 if a else 2
# expected-error@-1 0 {{never matches: a count of zero}}
