# try: body, one region per handler (type, then the binding), else, finally.
# RUN: %ivc dump-ir %s | FileCheck %s
try:
    f()
except (ValueError, KeyError) as e:
    raise RuntimeError("x") from e
except OSError:
    pass
else:
    g()
finally:
    h()
# CHECK:      try @3:1-12:8 {
# CHECK:      } except {
# CHECK:        %[[T:[0-9]+]] = tuple
# CHECK-NEXT:   except "e" %[[T]]
# CHECK:        raise %{{[0-9]+}}, %{{[0-9]+}}
# CHECK:      } except {
# CHECK:        except %{{[0-9]+}} @7:1-8:9
# CHECK:      } else {
# CHECK:      } finally {
