# A method of an object ivc cannot type is data as often as a method when it
# is read (`cfg.layer`), but map, filter, sort keys, functools.reduce and
# defaultdict call what they are given, and print(file=f) calls f.write:
# each is judged as the call it becomes, as a direct call already was.
# Known from: a red team of ivc's classifier (2026-11-24).
# RUN: %ivc check --verify %s
import functools

from nnsight import LanguageModel
from transformers import AutoTokenizer

model = LanguageModel("openai-community/gpt2")
tokenizer = AutoTokenizer.from_pretrained("openai-community/gpt2")
log = open("/tmp/ivc-log.txt", "w")

with model.trace("map"):
    saved = list(map(tokenizer.save_pretrained, ["/tmp/tok"]))  # expected-remark {{'tokenizer.save_pretrained' as a value (what receives it calls it)}}

with model.trace("sort key"):
    order = sorted(["a", "b"], key=log.write)  # expected-remark {{'log.write' as a value}}

with model.trace("reduce"):
    total = functools.reduce(tokenizer.push_to_hub, ["a", "b"])  # expected-remark {{'tokenizer.push_to_hub' as a value}}

with model.trace("print to a file"):
    hidden = model.transformer.h[0].output[0]
    print(hidden.norm(), file=log)  # expected-remark {{'print' with a file (it calls the file's write method)}}

with model.trace("print with keyword splat"):
    options = {"file": log}
    print("x", **options)  # expected-remark {{'print' with a file}}

with model.trace("called directly, as before"):
    tokenizer.save_pretrained("/tmp/tok")  # expected-remark {{calls 'tokenizer.save_pretrained', which is not in the op catalog}}
