# Under `with self.model.trace(...)` the runtime binds `self` to the
# receiver's path, so `self` read as `self.model...` is no free name; read
# otherwise (`self.scale`) it is, and the runtime refuses the plan.
# RUN: %ivc plan %s | FileCheck %s
class Probe:
    def last_logits(self, prompt):
        with self.model.trace(prompt):
            h = self.model.transformer.h[0].output[0]
            self.model.transformer.h[0].output[0][:] = h * factor
            logits = self.model.lm_head.output.save()
        return logits

    def scaled(self, prompt):
        with self.model.trace(prompt):
            logits = (self.model.lm_head.output * self.scale).save()
        return logits

# CHECK:      "free_names": [
# CHECK-NEXT:   "factor"
# CHECK-NEXT: ],
# CHECK:      "receiver": "self.model",
# CHECK:      "free_names": [
# CHECK-NEXT:   "self"
# CHECK-NEXT: ],
# CHECK:      "receiver": "self.model",
