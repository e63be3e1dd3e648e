s = f"{a!r:>{w}.3}c{{d}}{e=}" rb'\x00' "\N{LOW LINE}" '\u00e9'
t = b"abc" b'\101'
