# match: one region per case: the pattern's ops, then `case pattern, guard`, then the body.
# RUN: %ivc dump-ir %s | FileCheck %s
match command:
    case [x, *rest] if x > 0:
        pass
    case {"k": 1, **kw}:
        pass
    case Point(1, y=2) | None:
        pass
    case -1 | 2.5 | 1+2j | "s" | Color.RED:
        pass
    case (a, b) as pair:
        pass
    case _:
        pass
# CHECK:      match %{{[0-9]+}} @3:1-15:13 case {
# CHECK-NEXT:   %[[X:[0-9]+]] = match_as "x" _
# CHECK-NEXT:   %[[R:[0-9]+]] = match_star "rest"
# CHECK-NEXT:   %[[SEQ:[0-9]+]] = match_sequence %[[X]], %[[R]]
# CHECK:        %[[G:[0-9]+]] = compare >
# CHECK-NEXT:   case %[[SEQ]], %[[G]]
# CHECK:      } case {
# CHECK:        match_mapping "kw"
# CHECK:      } case {
# CHECK:        %[[KW:[0-9]+]] = match_keyword "y"
# CHECK-NEXT:   %[[CLS:[0-9]+]] = match_class %{{[0-9]+}}, %{{[0-9]+}}, %[[KW]]
# CHECK-NEXT:   %[[NONE:[0-9]+]] = match_singleton "None"
# CHECK-NEXT:   match_or %[[CLS]], %[[NONE]]
# CHECK:      } case {
# CHECK:        %[[NEG:[0-9]+]] = unary - %{{[0-9]+}} @10:10-10:12
# CHECK-NEXT:   match_value %[[NEG]]
# CHECK:        %[[CX:[0-9]+]] = binop + %{{[0-9]+}}, %{{[0-9]+}} @10:21-10:25
# CHECK-NEXT:   match_value %[[CX]]
# CHECK:        attr "RED"
# CHECK:      } case {
# CHECK:        match_as "pair" %{{[0-9]+}}
# CHECK:      } case {
# CHECK-NEXT:   %[[W:[0-9]+]] = match_as _
# CHECK-NEXT:   case %[[W]], _
