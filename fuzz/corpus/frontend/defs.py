@dec.a(1)
class C(B, metaclass=M, **kw):
    async def g(self, a, /, b: int = 1, *args, c, d=2, **kw) -> int:
        async for x in y: pass
        async with a as (b, c): pass
        await z
        return [x async for x in y if x] or {k: v for k, v in d.items()}
try:
    pass
except* (A, B) as e:
    raise X from e
else:
    del a[0], b.c
finally:
    lambda x, *y, z=3: (yield from x)
