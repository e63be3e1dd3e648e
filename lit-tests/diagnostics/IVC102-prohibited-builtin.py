# IVC102: a reference to a builtin the policy prohibits is an error, whether
# called, aliased or passed as a value; getattr/setattr/delattr with a
# constant public name get a fix-it that spells the attribute access. A name
# the code binds itself, and names that only contain a builtin's name, are not
# the builtin.
# RUN: %ivc check --verify %s
# RUN: not %ivc check %s | FileCheck %s
import torch

run_code = eval


def load_prompt(path):
    return open(path).read()  # expected-error {{Function 'load_prompt' references prohibited builtin 'open'}}


with model.trace("The Eiffel Tower is in") as tracer:
    attn = getattr(model.transformer.h[3], "attn")  # expected-error {{Trace body references prohibited builtin 'getattr'. Code sent to NDIF servers}}
    setattr(model.transformer.h[3], "scale", 0.5)  # expected-error {{prohibited builtin 'setattr'}}
    delattr(model.transformer.h[3], "scale")  # expected-error {{prohibited builtin 'delattr'}}
    value = run_code("2 ** 10")  # expected-error {{prohibited builtin 'eval'}}
    shapes = list(map(getattr, [attn], ["output"]))  # expected-error {{prohibited builtin 'getattr'}}
    exec("x = 1")  # expected-error {{prohibited builtin 'exec'}}
    code = compile("1", "<s>", "eval")  # expected-error {{prohibited builtin 'compile'}}
    mod = __import__("math")  # expected-error {{prohibited builtin '__import__'}}
    names = vars(attn)  # expected-error {{prohibited builtin 'vars'}}
    g = globals()  # expected-error {{prohibited builtin 'globals'}}
    breakpoint()  # expected-error {{prohibited builtin 'breakpoint'}}
    view = memoryview(b"\x00")  # expected-error {{prohibited builtin 'memoryview'}}
    text = load_prompt("prompt.txt")

    # Not the builtins: a local binding that shadows one before it is read,
    # names that contain a builtin's name, a method and a keyword argument
    # with a builtin's name, a catalogued function.
    input = model.transformer.h[0].input
    first = input * 2
    evaluation = attn.output[0].mean()
    reopened = torch.softmax(evaluation, dim=-1)
    retrieval = hidden_open = evaluation.sum()
    compiled = torch.zeros(3).type(torch.float16)
    hidden = model.transformer.h[3].output[0].save()

# CHECK: attn = getattr(model.transformer.h[3], "attn")
# CHECK-NEXT: ^~~~~~~
# CHECK-NEXT: model.transformer.h[3].attn
# CHECK: setattr(model.transformer.h[3], "scale", 0.5)
# CHECK-NEXT: ^~~~~~~
# CHECK-NEXT: model.transformer.h[3].scale = 0.5
# CHECK: delattr(model.transformer.h[3], "scale")
# CHECK-NEXT: ^~~~~~~
# CHECK-NEXT: del model.transformer.h[3].scale
# CHECK: value = run_code("2 ** 10")
# CHECK: note: 'run_code' is bound here
