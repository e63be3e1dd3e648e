# Modules that import a prohibited module under another name expose it as a
# public attribute of that name: `enum.bltns` is the builtins module, and
# `tarfile.bltn_open` the builtin open (reached here through
# torch.serialization). Reading one is as prohibited as reading `builtins`.
# RUN: %ivc check --verify %s
import enum
import json

import torch
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Renamed"):
    hidden = model.transformer.h[0].output[0]
    run = enum.bltns.exec  # expected-error {{prohibited module 'builtins'}}
    reader = torch.serialization.tarfile.bltn_open  # expected-error {{prohibited module 'builtins'}}
    workers = torch.utils.data.dataloader.python_multiprocessing  # expected-error {{prohibited module 'multiprocessing'}}
    logits = model.lm_head.output.save()

# codecs opens files (codecs.open): a prohibited module, however reached.
with model.trace("Codecs"):
    opener = json.codecs.open  # expected-error {{prohibited module 'codecs'}}
