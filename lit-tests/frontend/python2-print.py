# Python 2 print statements are errors in Python 3.
# RUN: not %ivc dump-ir %s 2>&1 >/dev/null | FileCheck %s
print "hello"
# CHECK: python2-print.py:3:1: error: missing parentheses in call to 'print'; Python 3 has no print statement [IVC001]
# CHECK-NEXT: print "hello"
# CHECK-NEXT: ^~~~~~~~~~~~~
# CHECK-NOT: error
