package poly1305

import (
	"bytes"
	"encoding/binary"
	"math/rand/v2"
	"testing"

	"github.com/chachakit/chachakit/internal/cryptotest"
	"github.com/chachakit/chachakit/vectors"
	//lint:ignore SA1019 the deprecated package is the reference this one is tested against
	xpoly "golang.org/x/crypto/poly1305"
)

// TestVectors checks RFC 8439 Section 2.5.2 and Appendix A.3.
func TestVectors(t *testing.T) {
	cryptotest.Run(t, "poly1305", func(t *testing.T) {
		for _, v := range vectors.RFC8439MACs {
			var got [TagSize]byte
			Sum(&got, v.Msg, (*[KeySize]byte)(v.Key))
			if !bytes.Equal(got[:], v.Tag) {
				t.Errorf("%s: tag %x, want %x", v.Source, got, v.Tag)
			}
		}
	})
}

func TestExpectedImplementation(t *testing.T) {
	cryptotest.CheckExpected(t, "poly1305")
}

// edgeKeys are keys at the clamping boundaries and with s values that make
// the final addition carry, plus the all-ones and all-zero keys.
func edgeKeys() [][KeySize]byte {
	var keys [][KeySize]byte
	for _, r := range [][2]uint64{{0, 0}, {^uint64(0), ^uint64(0)}, {0x0FFFFFFC0FFFFFFF, 0x0FFFFFFC0FFFFFFC}, {1, 0}, {0, 4}} {
		for _, s := range [][2]uint64{{0, 0}, {^uint64(0), ^uint64(0)}, {^uint64(0), 0}, {1, 0}} {
			var k [KeySize]byte
			binary.LittleEndian.PutUint64(k[0:], r[0])
			binary.LittleEndian.PutUint64(k[8:], r[1])
			binary.LittleEndian.PutUint64(k[16:], s[0])
			binary.LittleEndian.PutUint64(k[24:], s[1])
			keys = append(keys, k)
		}
	}
	return keys
}

// edgeMessages drive the accumulator towards 2^130 − 5: all-ones blocks
// (the largest m), and blocks that make h + m land on p.
func edgeMessages(n int) [][]byte {
	ones := bytes.Repeat([]byte{0xFF}, n)
	zeros := make([]byte, n)
	alt := make([]byte, n)
	for i := range alt {
		if i%16 < 8 {
			alt[i] = 0xFF
		}
	}
	return [][]byte{ones, zeros, alt}
}

// TestDifferential compares every length 0..4096 with x/crypto/poly1305,
// on random and edge keys and messages, in one call and in pieces, under
// every implementation.
func TestDifferential(t *testing.T) {
	cryptotest.Run(t, "poly1305", testDifferential)
}

func testDifferential(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	msg := make([]byte, 4096)
	for i := range msg {
		msg[i] = byte(r.Uint32())
	}
	keys := edgeKeys()
	maxLen := 4096
	if testing.Short() {
		maxLen = 1100
	}
	for n := 0; n <= maxLen; n++ {
		var key [KeySize]byte
		for i := range key {
			key[i] = byte(r.Uint32())
		}
		msgs := [][]byte{msg[:n]}
		ks := [][KeySize]byte{key}
		if n%61 == 0 || n < 64 {
			ks = append(ks, keys...)
			msgs = append(msgs, edgeMessages(n)...)
		}
		for _, k := range ks {
			for _, m := range msgs {
				var got, want [TagSize]byte
				Sum(&got, m, &k)
				xpoly.Sum(&want, m, &k)
				if got != want {
					t.Fatalf("len %d, key %x: tag %x, want %x", n, k, got, want)
				}
				// In pieces, through the buffer.
				var mac MAC
				mac.Init(&k)
				for rest := m; len(rest) > 0; {
					c := min(len(rest), 1+r.IntN(40))
					mac.Write(rest[:c])
					rest = rest[c:]
				}
				mac.Sum(&got)
				if got != want {
					t.Fatalf("len %d, in pieces: tag %x, want %x", n, got, want)
				}
			}
		}
	}
}

func TestWritePadded(t *testing.T) {
	for _, n := range []int{0, 1, 15, 16, 17, 100} {
		ad := bytes.Repeat([]byte{3}, n)
		var k [KeySize]byte
		k[0] = 9
		var m MAC
		m.Init(&k)
		m.WritePadded(ad)
		var got, want [TagSize]byte
		m.Sum(&got)
		padded := append(bytes.Clone(ad), make([]byte, (16-n%16)%16)...)
		xpoly.Sum(&want, padded, &k)
		if got != want {
			t.Errorf("len %d: %x, want %x", n, got, want)
		}
	}
}

func TestSumWipes(t *testing.T) {
	var k [KeySize]byte
	for i := range k {
		k[i] = 0xAA
	}
	var m MAC
	m.Init(&k)
	m.Write([]byte("abc"))
	var tag [TagSize]byte
	m.Sum(&tag)
	if m != (MAC{}) {
		t.Errorf("MAC state after Sum: %+v", m)
	}
}

func TestAllocs(t *testing.T) {
	var k [KeySize]byte
	msg := make([]byte, 1000)
	var tag [TagSize]byte
	if n := testing.AllocsPerRun(10, func() { Sum(&tag, msg, &k) }); n != 0 {
		t.Errorf("Sum: %v allocations", n)
	}
}

func BenchmarkSum(b *testing.B) {
	for _, size := range []int{64, 1350, 16384} {
		msg := make([]byte, size)
		var k [KeySize]byte
		var tag [TagSize]byte
		b.Run("lib=chachakit/size="+itoa(size), func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				Sum(&tag, msg, &k)
			}
		})
		b.Run("lib=xcrypto/size="+itoa(size), func(b *testing.B) {
			b.SetBytes(int64(size))
			b.ReportAllocs()
			for b.Loop() {
				xpoly.Sum(&tag, msg, &k)
			}
		})
	}
}

func itoa(n int) string {
	b := []byte{}
	for {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
		if n == 0 {
			return string(b)
		}
	}
}
