# async for, async with and async comprehensions carry the async flag.
# RUN: %ivc dump-ir %s | FileCheck %s
async def g(xs):
    async for x in xs:
        pass
    async with lock:
        pass
    return [y async for y in xs]
# CHECK: def async "g"
# CHECK: for async
# CHECK: with async
# CHECK: comp_for async
