# With only invokes in the trace body, there is no extra body mediator; an
# invoke of some other object is not a mediator.
# RUN: %ivc dump-ir %s | FileCheck %s
with model.trace() as tracer:
    with tracer.invoke("a"):
        pass
    with other.invoke("b"):
        pass
# CHECK:      mediator #0.0 invoke
# CHECK-NEXT: mediator #0.1 body
with model.trace() as tracer:
    with tracer.invoke("a"):
        pass
    """A docstring-like string is not code."""
# CHECK:      trace #1
# CHECK-NEXT: mediator #1.0 invoke
# CHECK-NOT:  mediator #1.1
