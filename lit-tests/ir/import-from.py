# from-import: relative levels, as-names, wildcard, __future__.
# RUN: %ivc dump-ir %s | FileCheck %s
from __future__ import annotations
from . import sibling
from ..pkg.mod import x as y, z
from m import *
# CHECK: import_from "annotations" from "__future__"
# CHECK: import_from "sibling" from .""
# CHECK: import_from "x" from .."pkg.mod" as "y"
# CHECK: import_from "z" from .."pkg.mod"
# CHECK: import_from "*" from "m"
