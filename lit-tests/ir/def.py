# def: decorators, then every parameter kind, then the return annotation.
# RUN: %ivc dump-ir %s | FileCheck %s
@functools.lru_cache(maxsize=2)
def f(a, b=1, /, c: int = 2, *args, d, e=3, **kw) -> int:
    return a
# CHECK: %[[D:[0-9]+]] = decorator
# CHECK: %[[A:[0-9]+]] = param.store posonly "a" _, _
# CHECK: %[[B:[0-9]+]] = param.store posonly "b" %{{[0-9]+}}, _
# CHECK: %[[C:[0-9]+]] = param.store "c" %{{[0-9]+}}, %{{[0-9]+}}
# CHECK: %[[ARGS:[0-9]+]] = param.store varargs "args"
# CHECK: %[[DD:[0-9]+]] = param.store kwonly "d" _, _
# CHECK: %[[E:[0-9]+]] = param.store kwonly "e"
# CHECK: %[[KW:[0-9]+]] = param.store varkw "kw"
# CHECK: %[[R:[0-9]+]] = returns
# CHECK: def "f" %[[D]], %[[A]], %[[B]], %[[C]], %[[ARGS]], %[[DD]], %[[E]], %[[KW]], %[[R]] @3:1-5:13 {
# CHECK-NEXT: %[[RA:[0-9]+]] = name "a"
# CHECK-NEXT: return %[[RA]]
def g(x, *, y):
    pass
# CHECK: param.store kwonly "y"
