# class: bases (starred too), keywords such as metaclass=, **kwargs; the body is a region.
# RUN: %ivc dump-ir %s | FileCheck %s
@dataclass
class C(Base, *mixins, metaclass=Meta, **opts):
    attr = 1
# CHECK: %[[D:[0-9]+]] = decorator
# CHECK: %[[B:[0-9]+]] = name "Base"
# CHECK: %[[S:[0-9]+]] = starred
# CHECK: %[[M:[0-9]+]] = keyword "metaclass"
# CHECK: %[[K:[0-9]+]] = kwsplat
# CHECK: class "C" %[[D]], %[[B]], %[[S]], %[[M]], %[[K]] @3:1-5:13 {
# CHECK-NEXT: int 1
