# `except A, B:` reads as Python 2's "catch A, bind it to B", but Python 3.14
# (PEP 758) reads it as `except (A, B):`: B is a reference, and binds
# nothing, so a blocked builtin named there is an escape, and every later
# `eval` is still the builtin.
# Known from: PEP 758 changing what an old spelling means.
# RUN: %ivc check --verify %s
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Handlers"):
    try:  # expected-remark {{try block}}
        hidden = model.transformer.h[0].output[0]
    except ZeroDivisionError, eval:  # expected-error {{prohibited builtin 'eval'}}
        pass
    eval("1 + 1")  # expected-error {{prohibited builtin 'eval'}}
    try:  # expected-remark {{try block}}
        pass
    except ValueError, exec as err:  # expected-error {{must be parenthesized}} expected-error {{prohibited builtin 'exec'}}
        pass
