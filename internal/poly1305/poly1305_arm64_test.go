//go:build gc && !purego

package poly1305

import (
	"flag"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/chachakit/chachakit/internal/impl"
	xpoly "golang.org/x/crypto/poly1305"
)

// polyIcount makes BenchmarkPolyCount yield after every operation, for
// instruction counting under qemu (bench/scripts/qemu-icount.sh): without it
// the scheduler's preemption request can land in a counted prologue.
var polyIcount = flag.Bool("polyicount", false, "yield between operations (for qemu-icount.sh)")

// BenchmarkPolyCount is the benchmark that bench/scripts/arm64-poly1305.sh
// counts: one Sum per iteration, by x/crypto/poly1305 (lib=xcrypto) or by
// this package under one implementation (impl=NAME).
func BenchmarkPolyCount(b *testing.B) {
	for _, size := range []int{64, 1350, 16384} {
		msg := make([]byte, size)
		for i := range msg {
			msg[i] = byte(i * 7)
		}
		var key [KeySize]byte
		for i := range key {
			key[i] = byte(i + 1)
		}
		var tag [TagSize]byte
		names := []string{"xcrypto", impl.Portable}
		for _, i := range impl.List("poly1305") {
			if i.Available {
				names = append(names, i.Name)
			}
		}
		for _, name := range names {
			b.Run("size="+itoa(size)+"/impl="+name, func(b *testing.B) {
				b.SetBytes(int64(size))
				b.ReportAllocs()
				if name != "xcrypto" {
					if !impl.Select("poly1305", name) {
						b.Fatalf("cannot select %s", name)
					}
					defer impl.Reset("poly1305")
				}
				runtime.Gosched()
				for i := 0; i < b.N; i++ {
					if name == "xcrypto" {
						xpoly.Sum(&tag, msg, &key)
					} else {
						Sum(&tag, msg, &key)
					}
					if *polyIcount {
						runtime.Gosched()
					}
				}
			})
		}
	}
}

// TestScalar64Twin compares blocksScalar64 with its Go twin blocksGeneric
// block by block, from states the MAC never reaches as well as ordinary ones:
// every limb of h at its largest (h2 up to 7, the portable code's bound),
// clamped r at its largest and smallest, and both values of hibit. The two
// leave h in different partly reduced forms, so they are compared modulo
// 2^130 - 5; the assembly's own bound, h2 <= 4, is checked too.
func TestScalar64Twin(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	msg := make([]byte, 16*40)
	const clamp0, clamp1 = 0x0FFFFFFC0FFFFFFF, 0x0FFFFFFC0FFFFFFC
	rs := [][2]uint64{{clamp0, clamp1}, {0, 0}, {1, 0}, {0, 4}, {clamp0, 0}, {0, clamp1}}
	hs := [][3]uint64{{0, 0, 0}, {^uint64(0), ^uint64(0), 7}, {^uint64(0), ^uint64(0), 4}, {0xFFFFFFFFFFFFFFFB, ^uint64(0), 3}}
	for trial := 0; trial < 3000; trial++ {
		var st state
		switch trial % 3 {
		case 0:
			st.r = rs[trial/3%len(rs)]
		default:
			st.r = [2]uint64{rng.Uint64() & clamp0, rng.Uint64() & clamp1}
		}
		if trial%2 == 0 {
			st.h = hs[trial/2%len(hs)]
		} else {
			st.h = [3]uint64{rng.Uint64(), rng.Uint64(), rng.Uint64N(8)}
		}
		for i := range msg {
			msg[i] = byte(rng.Uint32())
		}
		if trial%5 == 0 {
			for i := range msg {
				msg[i] = 0xFF
			}
		}
		n := 16 * (1 + rng.IntN(40))
		full := trial%7 != 0
		var hibit uint64
		if full {
			hibit = 1
		}
		want, got := st, st
		blocksGeneric(&want, msg[:n], full)
		blocksScalar64(&got, msg[:n], hibit)
		if got.h[2] > 4 {
			t.Fatalf("trial %d: h2 = %d after blocksScalar64, want <= 4", trial, got.h[2])
		}
		g, w := stateValue(&got), stateValue(&want)
		if g.Mod(g, bigP).Cmp(w.Mod(w, bigP)) != 0 {
			t.Fatalf("trial %d (r %x, h %x, %d bytes, full %v): h = %#x mod p, want %#x", trial, st.r, st.h, n, full, g, w)
		}
		if got.r != st.r || got.s != st.s {
			t.Fatalf("trial %d: r or s changed", trial)
		}
	}
}
