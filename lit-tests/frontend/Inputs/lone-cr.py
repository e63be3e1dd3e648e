from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("x"):
    s = """a
b"""
    h = model.transformer.h[0].output[0]
    if h is not None:
        t = h.__class__.__bases__
