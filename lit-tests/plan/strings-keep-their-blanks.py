# A mediator's `source` is its body moved to column 0, but a line that
# starts inside a string keeps its blanks: they are the string's, and the
# runtime must run the text the analyzer checked (`backward.    __globals__`
# is an attribute no object has; without the blanks it would reach a
# function's globals). The same holds for definitions.
# RUN: %ivc plan %s | FileCheck %s
import nnsight
from nnsight import LanguageModel

model = LanguageModel("openai-community/gpt2")

if True:

    def fmt(t):
        return "{0.backward.\
    __globals__}".format(t)


with model.trace("hi"):
    h = model.transformer.h[0].output[0]
    s = nnsight.save("{0.backward.\
    __globals__}".format(h))
    doc = nnsight.save("""a
    b""")
    f = nnsight.save(f"""{len(doc)}
    {len(s)}""")
    u = nnsight.save(fmt(h))

# CHECK:      "name": "fmt",
# CHECK-NEXT: "source": "def fmt(t):\n    return \"{0.backward.\\\n    __globals__}\".format(t)\n"
# CHECK:      "source": "h = model.transformer.h[0].output[0]\ns = nnsight.save(\"{0.backward.\\\n    __globals__}\".format(h))\ndoc = nnsight.save(\"\"\"a\n    b\"\"\")\nf = nnsight.save(f\"\"\"{len(doc)}\n    {len(s)}\"\"\")\nu = nnsight.save(fmt(h))\n"
