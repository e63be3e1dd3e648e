# `print >> f, x` is Python 2's redirected print, but also valid Python 3:
# the tuple `(print >> f, x)`. It is lowered as the expression Python 3
# reads, so it is no syntax error and what it names is checked.
# RUN: %ivc dump-ir %s | FileCheck %s
# RUN: %ivc check --verify %s
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Redirect"):
    h = model.transformer.h[0].output
    print >> h
    # CHECK: %[[P:[0-9]+]] = name "print" @12:5-12:10
    # CHECK-NEXT: %[[H:[0-9]+]] = name "h" @12:14-12:15
    # CHECK-NEXT: %[[S:[0-9]+]] = binop >> %[[P]], %[[H]] @12:5-12:15
    # CHECK-NEXT: expr %[[S]] @12:5-12:15
    print >> h, 1,
    # CHECK: %[[S2:[0-9]+]] = binop >> {{.*}} @17:5-17:15
    # CHECK-NEXT: %[[ONE:[0-9]+]] = int 1 @17:17-17:18
    # CHECK-NEXT: %[[T:[0-9]+]] = tuple %[[S2]], %[[ONE]] @17:5-17:19
    # CHECK-NEXT: expr %[[T]] @17:5-17:19
    print >> eval, h  # expected-error {{prohibited builtin 'eval'}}
