# IVC302: a try statement that may catch what stops a mediator, or whose
# handler keeps more of the exception than its message, is a remark and
# makes the mediator ISOLATE: a finally clause, except*, a bare except,
# BaseException, OS errors, a name that is not the builtin, and reads of the
# caught exception beyond str/repr/print/f-strings/isinstance/raise.
# try/except of the errors user code and torch raise is FAST.
# RUN: %ivc check --verify %s
import json

import torch


def safe_layer(index):
    try:  # expected-remark {{Function 'safe_layer' has a try block with a 'finally' clause}}
        return model.transformer.h[index]
    finally:
        pass


def norm_or_zero(x):
    try:
        return x.norm()
    except (RuntimeError, ValueError) as err:
        print(f"norm failed: {err!r}", str(err), repr(err), isinstance(err, ValueError))
        raise TypeError("no norm") from err


with model.trace("The Eiffel Tower is in") as tracer:
    try:  # expected-remark {{Trace body has a try block with 'except*'}}
        pass
    except* ValueError:
        pass
    try:  # expected-remark {{Trace body has a try block with a bare 'except'}}
        pass
    except:
        pass
    try:  # expected-remark {{Trace body has a try block that catches 'BaseException'}}
        pass
    except (ValueError, BaseException):
        pass
    try:  # expected-remark {{Trace body has a try block that catches 'OSError'}}
        pass
    except OSError:
        pass
    try:  # expected-remark {{Trace body has a try block that catches 'json.JSONDecodeError'}}
        pass
    except json.JSONDecodeError:  # expected-remark {{uses 'json.JSONDecodeError' as a value}}
        pass
    try:  # expected-remark {{Trace body has a try block whose handler reads more of 'missing' than its message}}
        model.transformer.h[0].no_such_submodule
    except AttributeError as missing:
        unwrapped = missing.obj
    try:  # expected-remark {{Trace body has a try block whose handler reads more of 'kept' than its message}}
        pass
    except KeyError as kept:
        errors = [kept]
    block = safe_layer(3)

with model.trace("The Colosseum is in") as tracer:
    # FAST: the builtin errors, read for their message.
    try:
        hidden = model.transformer.h[40].output[0].save()
    except IndexError:
        hidden = model.transformer.h[-1].output[0].save()
    else:
        found = True
    try:
        norm = norm_or_zero(model.transformer.h[0].output[0]).save()
    except Exception as e:
        print("skipped:", e)
