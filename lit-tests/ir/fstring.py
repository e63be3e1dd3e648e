# f-strings: literal parts, conversions, nested format specs, {{ }}, and x=.
# RUN: %ivc dump-ir %s | FileCheck %s
d = f"x={x!r:>{width}.3f} {{lit}} {y=}"
# CHECK:      %[[L1:[0-9]+]] = str "x="
# CHECK-NEXT: %[[X:[0-9]+]] = name "x"
# CHECK-NEXT: %[[GT:[0-9]+]] = str ">"
# CHECK-NEXT: %[[W:[0-9]+]] = name "width"
# CHECK-NEXT: %[[WF:[0-9]+]] = format %[[W]], _
# CHECK-NEXT: %[[P:[0-9]+]] = str ".3f"
# CHECK-NEXT: %[[SPEC:[0-9]+]] = fstring %[[GT]], %[[WF]], %[[P]]
# CHECK-NEXT: %[[XF:[0-9]+]] = format "r" %[[X]], %[[SPEC]]
# CHECK-NEXT: %[[L2:[0-9]+]] = str " {lit} y="
# CHECK-NEXT: %[[Y:[0-9]+]] = name "y"
# CHECK-NEXT: %[[YF:[0-9]+]] = format "r" %[[Y]], _
# CHECK-NEXT: fstring %[[L1]], %[[XF]], %[[L2]], %[[YF]]
