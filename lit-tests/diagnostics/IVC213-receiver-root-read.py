# IVC213: a trace on `self.model` whose body reads `self` otherwise (an
# attribute of the experiment object) is an error: a runtime binds `self`
# only as the receiver's root. A body that reads nothing of `self` but its
# model, and one given plain names, are FAST.
# RUN: %ivc check --verify %s
from nnsight import LanguageModel


class Experiment:
    def __init__(self):
        self.model = LanguageModel("openai-community/gpt2")
        self.layer = 1

    def run(self, prompt):
        with self.model.trace(prompt):
            hidden = self.model.transformer.h[self.layer].output[0].save()  # expected-error {{Trace body reads 'self', which a runtime binds only as part of the trace's receiver 'self.model'; bind what the body needs of 'self' to plain names before the trace}}
        return hidden

    def model_only(self, prompt):
        with self.model.trace(prompt):
            hidden = self.model.transformer.h[0].output[0].save()
        return hidden

    def plain_names(self, prompt):
        model, layer = self.model, self.layer
        with model.trace(prompt):
            hidden = model.transformer.h[layer].output[0].save()
        return hidden
