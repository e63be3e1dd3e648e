with model.trace("x") as tracer:
    c = eval("1")  # expected-error 18446744073709551615 {{eval}}
    d = eval("2")  # expected-error@+99999999999999999999 {{eval}}
    e = eval("3")  # expected-error@-9223372036854775808 {{eval}}
