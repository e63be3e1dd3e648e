# An envoy's attributes are its submodules, but torch.nn.Module's own
# methods reach the shared module: hooks that outlive the request, weights
# loaded or moved, files written by Hugging Face's save methods. A call to
# one (or passing it as a value) is not FAST; calling a submodule is.
# Known from: a red team of ivc's classifier (2026-11-24).
# RUN: %ivc check --verify %s
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Module methods"):
    model.transformer.h[0].register_forward_hook(print)  # expected-remark {{calls 'model.transformer.h.0.register_forward_hook'}}
    model.transformer.h[1].load_state_dict({})  # expected-remark {{calls 'model.transformer.h.1.load_state_dict'}}
    model.config.to_json_file("/tmp/config.json")  # expected-remark {{calls 'model.config.to_json_file'}}
    applied = list(map(model.transformer.h[2].apply, [print]))  # expected-remark {{'model.transformer.h.2.apply' as a value}}
    # Submodules called on activations stay FAST (the logit lens).
    logits = model.lm_head(model.transformer.ln_f(model.transformer.h[5].output[0])).save()
