package poly1305

import (
	"bytes"
	"encoding/binary"
	"math/big"
	"math/rand/v2"
	"testing"

	"github.com/chachakit/chachakit/internal/cryptotest"
	//lint:ignore SA1019 the deprecated package is the reference this one is tested against
	xpoly "golang.org/x/crypto/poly1305"
)

// Edge cases of the accumulator, the clamping and the final addition,
// compared with golang.org/x/crypto/poly1305 under every implementation.

var (
	bigP     = new(big.Int).Sub(new(big.Int).Lsh(big.NewInt(1), 130), big.NewInt(5)) // 2^130 - 5
	big2_128 = new(big.Int).Lsh(big.NewInt(1), 128)
	big2_130 = new(big.Int).Lsh(big.NewInt(1), 130)
)

// stateValue returns h0 + h1·2^64 + h2·2^128 as it is, unreduced.
func stateValue(st *state) *big.Int {
	v := new(big.Int).SetUint64(st.h[2])
	v.Lsh(v, 64).Or(v, new(big.Int).SetUint64(st.h[1]))
	return v.Lsh(v, 64).Or(v, new(big.Int).SetUint64(st.h[0]))
}

// le16 is x (< 2^128) as 16 little-endian bytes.
func le16(x *big.Int) []byte {
	if x.Sign() < 0 || x.Cmp(big2_128) >= 0 {
		panic("le16: out of range")
	}
	b := make([]byte, 16)
	x.FillBytes(b)
	for i := 0; i < 8; i++ {
		b[i], b[15-i] = b[15-i], b[i]
	}
	return b
}

// accTarget is a two-block message that leaves the accumulator at exactly
// want (unreduced), under a key with r = r.
type accTarget struct {
	name string
	r    uint64 // r0; r1 = 0
	want *big.Int
	msg  []byte
}

// accTargets crafts messages that drive the accumulator, after the last
// block and before the final reduction, to p - 2 ... p + 2, 2^130 - 1 and
// 2^130 ... 2^130 + 4 (the largest value the block functions leave, with
// h2 = 4).
//
// With r = 1 the block function only adds: after blocks m1, m2 (each plus
// 2^128) h = m1 + m2 + 2^129, exact below 2^130. With r = 2 the first block
// leaves 2·m1 + 2^129, the second h_in = 2·m1 + m2 + 3·2^128 and the product
// 2·h_in, whose bits from 2^130 up fold back times 5: with 2·h_in = 2^130·q
// + low the block leaves low + 5q, which reaches past 2^130 when low is
// within 5q of it. Odd targets use q = 1, even ones q = 2.
func accTargets() []accTarget {
	var l []accTarget
	max := new(big.Int).Sub(big2_128, big.NewInt(1))
	add := func(name string, base *big.Int, off int64, r uint64) {
		want := new(big.Int).Add(base, big.NewInt(off))
		// h is the second block's h_in, rest = h_in - (r+1)·2^128 = r·m1 + m2.
		var h *big.Int
		switch {
		case r == 1:
			h = new(big.Int).Set(want)
		case want.Bit(0) == 1: // q = 1: want = 2·h_in - 2^130 + 5
			h = new(big.Int).Add(want, big2_130)
			h.Sub(h, big.NewInt(5)).Rsh(h, 1)
		default: // q = 2: want = 2·h_in - 2^131 + 10
			h = new(big.Int).Rsh(want, 1)
			h.Add(h, big2_130).Sub(h, big.NewInt(5))
		}
		rest := new(big.Int).Sub(h, new(big.Int).Mul(big.NewInt(int64(r+1)), big2_128))
		m2 := new(big.Int).Set(max)
		if rest.Cmp(m2) < 0 {
			m2.Set(rest)
		}
		m1 := new(big.Int).Sub(rest, m2)
		if r == 2 {
			if m1.Bit(0) == 1 {
				m1.Add(m1, big.NewInt(1))
				m2.Sub(m2, big.NewInt(1))
			}
			m1.Rsh(m1, 1)
		}
		if m1.Sign() < 0 || m1.Cmp(max) > 0 || m2.Sign() < 0 {
			panic("accTargets: no message for " + name)
		}
		l = append(l, accTarget{
			name: name + big.NewInt(off).String() + ", r=" + big.NewInt(int64(r)).String(),
			r:    r,
			want: want,
			msg:  append(le16(m1), le16(m2)...),
		})
	}
	for off := int64(-2); off <= 2; off++ {
		add("p", bigP, off, 1)
		add("p", bigP, off, 2)
	}
	add("2^130", big2_130, -2, 1)
	for off := int64(-1); off <= 4; off++ {
		add("2^130", big2_130, off, 2)
	}
	return l
}

// TestEdgeAccumulator checks first that the portable code's state really
// reaches each crafted value, then that every implementation leaves the same
// state and computes x/crypto's tag from it, with s values whose addition
// carries across the words and out of 2^128.
func TestEdgeAccumulator(t *testing.T) {
	targets := accTargets()
	for _, c := range targets {
		st := state{r: [2]uint64{c.r, 0}}
		blocksGeneric(&st, c.msg, true)
		if got := stateValue(&st); got.Cmp(c.want) != 0 {
			t.Fatalf("%s: portable code leaves h = %#x, want %#x", c.name, got, c.want)
		}
	}
	sValues := [][2]uint64{{0, 0}, {^uint64(0), ^uint64(0)}, {^uint64(0), 0}, {0xFFFFFFFFFFFFFFF0, ^uint64(0)}, {5, 0}}
	cryptotest.Run(t, "poly1305", func(t *testing.T) {
		for _, c := range targets {
			st := state{r: [2]uint64{c.r, 0}}
			blocks(&st, c.msg, true)
			if got := stateValue(&st); got.Cmp(c.want) != 0 {
				t.Errorf("%s: h = %#x, want %#x", c.name, got, c.want)
			}
			for _, s := range sValues {
				var key [KeySize]byte
				binary.LittleEndian.PutUint64(key[0:], c.r)
				binary.LittleEndian.PutUint64(key[16:], s[0])
				binary.LittleEndian.PutUint64(key[24:], s[1])
				var got, want [TagSize]byte
				Sum(&got, c.msg, &key)
				xpoly.Sum(&want, c.msg, &key)
				if got != want {
					t.Errorf("%s, s = %x: tag %x, want %x", c.name, s, got, want)
				}
			}
		}
	})
}

// TestEdgeClamp uses keys whose r has every bit set (so clamping leaves
// r0 = 2^60 - 2^32 - 1 … its largest values), single bits at the edges of
// the clamp masks, and the all-ones message, the largest m.
func TestEdgeClamp(t *testing.T) {
	var keys [][KeySize]byte
	for _, r := range [][2]uint64{
		{^uint64(0), ^uint64(0)},
		{0x0FFFFFFC0FFFFFFF, 0x0FFFFFFC0FFFFFFC},
		{0xF000000300000000 | 1<<27, 0xF000000300000003 | 1<<59},
		{1 << 59, 1 << 59},
		{1<<32 | 1<<28, 1<<2 | 1<<34},
		{0x0FFFFFFF0FFFFFFF, 0x0FFFFFFF0FFFFFFF},
	} {
		for _, s := range [][2]uint64{{^uint64(0), ^uint64(0)}, {1, 0}} {
			var k [KeySize]byte
			binary.LittleEndian.PutUint64(k[0:], r[0])
			binary.LittleEndian.PutUint64(k[8:], r[1])
			binary.LittleEndian.PutUint64(k[16:], s[0])
			binary.LittleEndian.PutUint64(k[24:], s[1])
			keys = append(keys, k)
		}
	}
	ones := bytes.Repeat([]byte{0xFF}, 2048)
	lengths := []int{0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 143, 144, 255, 256, 257, 1023, 1024, 2047, 2048}
	cryptotest.Run(t, "poly1305", func(t *testing.T) {
		for _, k := range keys {
			for _, n := range lengths {
				var got, want [TagSize]byte
				Sum(&got, ones[:n], &k)
				xpoly.Sum(&want, ones[:n], &k)
				if got != want {
					t.Fatalf("key %x, %d bytes of 0xFF: tag %x, want %x", k, n, got, want)
				}
			}
		}
	})
}

// TestEdgeOffsets compares every length 0..1100 at every offset 0..7 of the
// message in memory with x/crypto, under every implementation.
func TestEdgeOffsets(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	buf := make([]byte, 1100+8)
	for i := range buf {
		buf[i] = byte(r.Uint32())
	}
	var key [KeySize]byte
	for i := range key {
		key[i] = byte(r.Uint32())
	}
	cryptotest.Run(t, "poly1305", func(t *testing.T) {
		for off := 0; off < 8; off++ {
			for n := 0; n <= 1100; n++ {
				msg := buf[off : off+n]
				var got, want [TagSize]byte
				Sum(&got, msg, &key)
				xpoly.Sum(&want, msg, &key)
				if got != want {
					t.Fatalf("offset %d, length %d: tag %x, want %x", off, n, got, want)
				}
			}
		}
	})
}

// TestEdgeAllocs checks that no implementation allocates.
func TestEdgeAllocs(t *testing.T) {
	var k [KeySize]byte
	msg := make([]byte, 1350)
	var tag [TagSize]byte
	cryptotest.Run(t, "poly1305", func(t *testing.T) {
		if n := testing.AllocsPerRun(10, func() {
			var m MAC
			m.Init(&k)
			m.Write(msg[:7])
			m.Write(msg[7:])
			m.Sum(&tag)
		}); n != 0 {
			t.Errorf("%v allocations", n)
		}
	})
}
