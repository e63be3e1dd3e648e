# IVC311: a with statement whose context manager ivc cannot confirm is a
# remark that makes the mediator ISOLATE. Catalogued torch context managers,
# thread-local modes a with restores (autocast, set_grad_enabled), tracer
# helpers, backward() and nnsight's own invoke blocks are not.
# RUN: %ivc check --verify %s
import torch


def scoped(hidden, context):
    with context:  # expected-remark {{Function 'scoped' enters a context manager ivc cannot confirm: 'context'}}
        return hidden * 2


with model.trace() as tracer:
    with tracer.invoke("The Eiffel Tower is in"):
        hidden = model.transformer.h[2].output[0]
        with torch.autograd.detect_anomaly():  # expected-remark {{Invoke body enters a context manager ivc cannot confirm: 'torch.autograd.detect_anomaly()'}} expected-remark {{uses 'torch.autograd.detect_anomaly' (global-state)}}
            doubled = scoped(hidden, torch.no_grad())

    # Confirmed context managers: not reported.
    with tracer.invoke("The Colosseum is in"):
        with torch.no_grad():
            scaled = model.transformer.h[2].output[0] * 2
        with torch.inference_mode(), torch.enable_grad():
            logits = model.lm_head.output.save()
        with tracer.all():
            norms = model.transformer.h[3].output[0].norm().save()
        with logits.sum().backward():
            grad = model.transformer.h[2].output[0].grad.save()
