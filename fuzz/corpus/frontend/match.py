match p:
    case -1 | 2+3j | "s" | a.b: pass
    case Point(x=_, y=[1, *rest]) as q if q: pass
    case {"k": v, **kw}: pass
    case _: pass
