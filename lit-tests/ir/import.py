# import: one op per name, dotted names and as-names kept.
# RUN: %ivc dump-ir %s | FileCheck %s
import a.b.c
import os.path as p, sys
# CHECK: import "a.b.c" @3:8-3:13
# CHECK: import "os.path" as "p" @4:8-4:20
# CHECK: import "sys" @4:22-4:25
