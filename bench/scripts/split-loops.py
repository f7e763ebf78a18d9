#!/usr/bin/env python3
# split-loops.py DIS OUT TRIPS: split one function of an llvm-objdump-19
# disassembly (DIS) into llvm-mca inputs, for bench/scripts/arm64-mca.sh and
# arm64-aead-mca.sh. The outer loop is the widest backward branch, the round
# loops are the other backward branches inside it (TRIPS: their trip counts,
# comma-separated, one per round loop, checked against what is found);
# OUT.loopK.s gets round loop K and OUT.rest.s the rest of the outer loop.
# A function with a single loop has no outer loop: the rest is the whole
# function.
import re, sys
dis, out, trips = sys.argv[1], sys.argv[2], sys.argv[3].split(",")
ins = []  # (addr, text, branch target or None)
for line in open(dis):
    m = re.match(r"\s*([0-9a-f]+):\s+(\S.*)$", line)
    if not m:
        continue
    addr, text = int(m.group(1), 16), m.group(2).split("//")[0].strip()
    text = re.sub(r"\s*<[^>]*>", "", text)
    tgt = None
    b = re.match(r"(b\.\w+|b|cbz|cbnz|tbz|tbnz)\s+(.*)$", text)
    if b:
        tgt = int(b.group(2).split(",")[-1].strip(), 16)
    ins.append((addr, text, tgt))
back = [(t, a) for a, _, t in ins if t is not None and t <= a]
if not back:
    sys.exit(f"{dis}: no loop")
# Outer loop: the widest backward branch; round loops: the others inside it.
# A function with a single loop (blockGeneric) has no outer loop: the rest is
# the whole function.
back.sort(key=lambda r: r[1] - r[0], reverse=True)
if len(back) == 1:
    outer, inner = (ins[0][0], ins[-1][0]), back
else:
    outer, inner = back[0], sorted(r for r in back[1:] if back[0][0] <= r[0] and r[1] <= back[0][1])
if len(inner) != len(trips):
    sys.exit(f"{dis}: found {len(inner)} round loops, expected {len(trips)}")

def asm(lines):
    # Branches point at a label defined at the top: llvm-mca does not follow
    # them, it only needs them to assemble. adrp loses its symbol likewise.
    body = []
    for _, text, tgt in lines:
        if tgt is not None:
            text = re.sub(r"0x[0-9a-f]+$", "Ltop", text)
        elif text.startswith("adrp"):
            text = re.sub(r",\s*0x[0-9a-f]+$", ", Ltop", text)
        body.append("\t" + text)
    return "Ltop:\n" + "\n".join(body) + "\n"

for k, (lo, hi) in enumerate(inner):
    open(f"{out}.loop{k}.s", "w").write(asm([i for i in ins if lo <= i[0] <= hi]))
rest = [i for i in ins if outer[0] <= i[0] <= outer[1] and not any(lo <= i[0] <= hi for lo, hi in inner)]
open(f"{out}.rest.s", "w").write(asm(rest))
print(f"{out}: outer {len([i for i in ins if outer[0] <= i[0] <= outer[1]])} instructions, "
      + ", ".join(f"round loop {k}: {len([i for i in ins if lo <= i[0] <= hi])}" for k, (lo, hi) in enumerate(inner))
      + f", rest {len(rest)}", file=sys.stderr)
