# A type alias statement (Python 3.12) binds a lazily evaluated alias: its
# value and its type parameters' bounds run when `__value__` is read. ivc does
# not model the statement, but the names inside it are still references, so
# a blocked builtin there is an escape, not an unconfirmed construct.
# Known from: analyzers that skip statements they do not model.
# RUN: %ivc check --verify %s
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

with model.trace("Aliases"):
    type Hidden = eval  # expected-error {{prohibited builtin 'eval'}} expected-remark {{'type_alias_statement'}}
    logits = model.lm_head.output.save()

with model.trace("Bounds"):
    type Bounded[T: breakpoint] = list[T]  # expected-error {{prohibited builtin 'breakpoint'}} expected-remark {{'type_alias_statement'}}
