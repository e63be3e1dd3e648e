# except* marks the try and its handlers.
# RUN: %ivc dump-ir %s | FileCheck %s
try:
    f()
except* TypeError as eg:
    pass
# CHECK: try star
# CHECK: except star "eg"
