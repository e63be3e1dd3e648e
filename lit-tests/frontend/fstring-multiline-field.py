# A replacement field may span lines in a triple-quoted f-string (in any
# f-string since Python 3.12), whatever the lines' indentation. The grammar's
# scanner forgets it is inside an f-string once a string nested in it ends, so
# a continuation line indented less than its block read as a dedent: a false
# syntax error, until grammar/ScannerStringEnd.c restored the flag.
# RUN: %ivc check %s | FileCheck %s
# RUN: %ivc dump-ir %s | FileCheck %s --check-prefix=IR
from nnsight import LanguageModel
model = LanguageModel("gpt2")
with model.trace("hi"):
    if True:
        h = model.transformer.h[0].output[0]
        label = f'''{'layer'}: {
h.shape}'''
        nested = f"""{f'{h}'} {
h.norm()}"""
    after = 1
# CHECK: checked 1 file: 0 errors, 0 warnings; 1 mediator: 1 fast
# IR: str "layer"
# IR: attr "shape" %{{[0-9]+}} @14:1-14:8
# IR: name.store "label"
# IR: attr "norm" %{{[0-9]+}} @16:1-16:7
# IR: name.store "nested"
# IR: name.store "after"
# IR-NOT: error
