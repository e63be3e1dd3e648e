# Identifiers are NFKC-normalized as CPython does.
# RUN: %ivc dump-ir %s | FileCheck %s
ｅval("1")
x.__𝒸lass__
ﬁle = 1
# CHECK: name "eval" @3:1-3:7
# CHECK: attr "__class__"
# CHECK: name.store "file"
