# async def with await.
# RUN: %ivc dump-ir %s | FileCheck %s
async def fetch(x):
    return await x
# CHECK: def async "fetch"
# CHECK: %[[A:[0-9]+]] = await
# CHECK-NEXT: return %[[A]]
