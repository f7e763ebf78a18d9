#!/usr/bin/env bash
# x86-latency.sh: the latency of dependent chains of the vector
# instructions the row code's rounds use, in cycles of a chain of
# dependent 64-bit ADDs (one cycle on every x86 core), and that clock;
# then how many VPADDD and VPROLD zmm instructions issue per cycle from
# eight independent chains (AMD Zen 5 with full-width 512-bit units about
# 3 and 2, Zen 5 issuing them as 256-bit halves 2 and 1: bench/README.md,
# "AMD EPYC Zen 5: two batches per keystream pass").
#
# Usage: bench/scripts/x86-latency.sh   (needs gcc and an AVX-512VL CPU)
#
# The latency-bound paths (one or two keystream blocks in a row set,
# HChaCha20, the small AEAD kernels' rounds) scale with these figures;
# two machines with the same CPUID have differed by a factor of two
# (bench/README.md, "AMD EPYC Zen 5, re-measured 2026-12-02").
set -euo pipefail
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat >"$dir/lat.c" <<'C'
#include <stdio.h>
#include <time.h>

static double now(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

#define N 100000000L
/* A loop of four dependent copies of insn; seconds per instruction. */
#define CHAIN(name, setup, insn)                                              \
	static double name(void) {                                            \
		double t = now();                                             \
		long n = N;                                                   \
		__asm__ volatile(setup "\n1:\n" insn "\n" insn "\n" insn "\n" \
		                 insn "\n dec %0\n jnz 1b"                    \
		                 : "+r"(n)::"rax", "xmm0", "xmm1", "cc");     \
		return (now() - t) / (4.0 * N);                               \
	}

CHAIN(add, "xor %%eax,%%eax", "add $1,%%rax")
CHAIN(paddx, "vpxor %%xmm0,%%xmm0,%%xmm0", "vpaddd %%xmm0,%%xmm0,%%xmm0")
CHAIN(paddy, "vpxor %%ymm0,%%ymm0,%%ymm0", "vpaddd %%ymm0,%%ymm0,%%ymm0")
CHAIN(paddz, "vpxord %%zmm0,%%zmm0,%%zmm0", "vpaddd %%zmm0,%%zmm0,%%zmm0")
CHAIN(xorz, "vpxord %%zmm0,%%zmm0,%%zmm0", "vpxord %%zmm1,%%zmm0,%%zmm0")
CHAIN(slld, "vpxor %%xmm0,%%xmm0,%%xmm0", "vpslld $7,%%xmm0,%%xmm0")
CHAIN(shufd, "vpxor %%xmm0,%%xmm0,%%xmm0", "vpshufd $0x39,%%xmm0,%%xmm0")
CHAIN(shufb, "vpxor %%xmm0,%%xmm0,%%xmm0", "vpshufb %%xmm1,%%xmm0,%%xmm0")
CHAIN(prold, "vpxor %%xmm0,%%xmm0,%%xmm0", "vprold $7,%%xmm0,%%xmm0")
CHAIN(tern, "vpxor %%xmm0,%%xmm0,%%xmm0", "vpternlogd $0x96,%%xmm1,%%xmm1,%%xmm0")

/* Eight independent chains of insn (a format with %%zmmN), twice per
   iteration; seconds per instruction. */
#define Z8(i) i(0) i(1) i(2) i(3) i(4) i(5) i(6) i(7)
#define ADDZ(n) "vpaddd %%zmm" #n ",%%zmm" #n ",%%zmm" #n "\n"
#define ROLZ(n) "vprold $7,%%zmm" #n ",%%zmm" #n "\n"
#define WIDE(name, insn)                                                      \
	static double name(void) {                                            \
		double t = now();                                             \
		long n = N / 4;                                               \
		__asm__ volatile("1:\n" Z8(insn) Z8(insn) " dec %0\n jnz 1b"  \
		                 : "+r"(n)::"xmm0", "xmm1", "xmm2", "xmm3",   \
		                   "xmm4", "xmm5", "xmm6", "xmm7", "cc");     \
		return (now() - t) / (16.0 * (N / 4));                        \
	}

WIDE(addw, ADDZ)
WIDE(rolw, ROLZ)

int main(void) {
	struct {
		const char *name;
		double (*f)(void);
	} t[] = {
		{"VPADDD xmm", paddx}, {"VPADDD ymm", paddy}, {"VPADDD zmm", paddz},
		{"VPXORD zmm", xorz}, {"VPSLLD xmm", slld}, {"VPSHUFD xmm", shufd},
		{"VPSHUFB xmm", shufb}, {"VPROLD xmm", prold}, {"VPTERNLOGD xmm", tern},
	};
	double a = add();
	a = add(); /* the second run, after the clock has settled */
	printf("ADD r64: 1 cycle at %.2f GHz\n", 1 / a / 1e9);
	for (unsigned i = 0; i < sizeof t / sizeof t[0]; i++) {
		double x = t[i].f();
		x = t[i].f();
		printf("%s: %.2f\n", t[i].name, x / a);
	}
	printf("VPADDD zmm, 8 chains: %.2f per cycle\n", a / addw());
	printf("VPROLD zmm, 8 chains: %.2f per cycle\n", a / rolw());
	return 0;
}
C
gcc -O1 -o "$dir/lat" "$dir/lat.c"
"$dir/lat"
