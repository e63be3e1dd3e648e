# Syntax errors are explained the way CPython words them where the tokens allow.
# RUN: not %ivc dump-ir %s 2>&1 >/dev/null | FileCheck %s
x = [1, 2
# CHECK: missing-token.py:3:5: error: '[' was never closed [IVC001]
