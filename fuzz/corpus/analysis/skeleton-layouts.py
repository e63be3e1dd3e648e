from nnsight import LanguageModel
model = LanguageModel("gpt2")
len = eval
s = f"{x["k"]!r:>{w}} {h:=len} {{}}"

\

def unrelated():
    y = 1
\
    eval(y)
    # trailing

with model.tｒace("x") as tracer:
    n = 0 if 1else-len(tracer)
    out = model.lm_head.output.save()
    # more
case = eval
for a[0 in a], h in [(1, eval)]:
    pass
