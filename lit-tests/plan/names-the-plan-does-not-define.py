# A name is a plan definition only when the plan binds it: its one def,
# class or `name = lambda ...`, or a pinned constant. A name the file binds
# to one of its functions some other way (twice, through a subscript) is the
# caller's free name, never dropped: a dropped name would fall through to a
# builtin of its spelling at run time. One the trace body binds before its
# invokes is pinned for them, as nnsight runs that part first.
# A lambda is carried as `name = lambda ...` alone, never with a statement
# around it.
# RUN: %ivc plan %s | FileCheck %s
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")


def ident(x):
    return x


eval = ident
eval = ident
pick = [lambda s: s, print("never judged")][0]
double = lambda s: s * 2

# CHECK:      "definitions": [
# CHECK-DAG:      "name": "ident",
# CHECK-DAG:      "source": "double = lambda s: s * 2\n"
# CHECK-NOT:      never judged
# CHECK:      "free_names": [
# CHECK-NEXT:   "eval",
# CHECK-NEXT:   "pick",
# CHECK-NEXT:   "s"
# CHECK-NEXT: ],
with model.trace("The Eiffel Tower is in"):
    x = double(pick(eval(s)))

# CHECK:          "source": "run = (ident)\n"
# CHECK:      "free_names": [],
# CHECK-NEXT: "free_types"
# CHECK:      "kind": "invoke"
with model.trace() as tracer:
    run = ident
    with tracer.invoke("The Eiffel Tower is in"):
        y = run(model.lm_head.output).save()
