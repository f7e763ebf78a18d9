package subtle_test

import (
	"bytes"
	stdsubtle "crypto/subtle"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/chachakit/chachakit/internal/cryptotest"
	"github.com/chachakit/chachakit/subtle"
)

// These tests check XORBytes as users call it, through the face. The
// sweeps of every implementation over every length and offset, the
// portable code on its own and the benchmarks are in internal/xorbytes.

// TestXORBytesFace compares XORBytes with crypto/subtle.XORBytes, under
// every implementation, at a spread of lengths with dst, x and y at
// different offsets, in place (dst == x) and apart.
func TestXORBytesFace(t *testing.T) {
	cryptotest.Run(t, "subtle", func(t *testing.T) {
		r := rand.New(rand.NewPCG(5, 6))
		x, y := make([]byte, 600), make([]byte, 600)
		for i := range x {
			x[i], y[i] = byte(r.Uint32()), byte(r.Uint32())
		}
		got, want := make([]byte, 600), make([]byte, 600)
		for _, n := range []int{0, 1, 7, 8, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 255, 256, 511} {
			clear(got)
			clear(want)
			o := n % 8
			if m := subtle.XORBytes(got[o:], x[3:3+n], y[o:o+n+1]); m != n {
				t.Fatalf("n=%d: returned %d", n, m)
			}
			stdsubtle.XORBytes(want[o:], x[3:3+n], y[o:o+n+1])
			if !bytes.Equal(got, want) {
				t.Fatalf("n=%d: dst differs from crypto/subtle's", n)
			}
			copy(got, x)
			subtle.XORBytes(got[:n], got[:n], y[1:1+n])
			stdsubtle.XORBytes(want[:n], x[:n], y[1:1+n])
			if !bytes.Equal(got[:n], want[:n]) {
				t.Fatalf("n=%d: in place, dst differs from crypto/subtle's", n)
			}
		}
	})
}

// panicText runs f and returns the text of its panic, or "" if it returned.
func panicText(f func()) (msg string) {
	defer func() {
		if r := recover(); r != nil {
			msg = fmt.Sprint(r)
		}
	}()
	f()
	return ""
}

// TestXORBytesPanics checks the panic texts against crypto/subtle's actual
// panics (and the documented strings), and that a panicking call leaves dst
// untouched.
func TestXORBytesPanics(t *testing.T) {
	const (
		short   = "subtle.XORBytes: dst too short"
		overlap = "subtle.XORBytes: invalid overlap"
	)
	buf := make([]byte, 100)
	cases := []struct {
		name string
		want string
		dst  []byte
		x, y []byte
	}{
		{"nil dst", short, nil, make([]byte, 1), make([]byte, 1)},
		{"dst 1, n 2", short, make([]byte, 1), make([]byte, 2), make([]byte, 3)},
		{"dst 31, n 32", short, make([]byte, 31), make([]byte, 32), make([]byte, 40)},
		{"dst 1000, n 1001", short, make([]byte, 1000), make([]byte, 1001), make([]byte, 1001)},
		{"x = dst[1:]", overlap, buf[:3], buf[1:3], make([]byte, 2)},
		{"y = dst[1:]", overlap, buf[:3], make([]byte, 2), buf[1:3]},
		{"dst = x[1:]", overlap, buf[1:64], buf[:63], make([]byte, 63)},
		{"dst = y[7:]", overlap, buf[7:57], make([]byte, 50), buf[:50]},
		{"last byte shared", overlap, buf[:50], buf[49:99], make([]byte, 50)},
	}
	cryptotest.Run(t, "subtle", func(t *testing.T) {
		for _, c := range cases {
			for i := range buf {
				buf[i] = byte(i)
			}
			for i := range c.dst {
				c.dst[i] = byte(i)
			}
			before, beforeBuf := string(c.dst), string(buf)
			got := panicText(func() { subtle.XORBytes(c.dst, c.x, c.y) })
			if string(c.dst) != before || string(buf) != beforeBuf {
				t.Errorf("%s: a panicking call wrote to memory", c.name)
			}
			ref := panicText(func() { stdsubtle.XORBytes(c.dst, c.x, c.y) })
			if got != ref || got != c.want {
				t.Errorf("%s: panic %q; crypto/subtle panics %q; want %q", c.name, got, ref, c.want)
			}
		}
		// Nothing to do: no panic even with a nil dst, like crypto/subtle.
		if n := subtle.XORBytes(nil, nil, make([]byte, 5)); n != 0 {
			t.Errorf("XORBytes(nil, nil, y) = %d", n)
		}
		if n := subtle.XORBytes(nil, make([]byte, 5), []byte{}); n != 0 {
			t.Errorf("XORBytes(nil, x, empty) = %d", n)
		}
	})
}

// TestXORBytesFaceAllocs checks that a call through the face allocates
// nothing.
func TestXORBytesFaceAllocs(t *testing.T) {
	if testing.CoverMode() != "" {
		t.Skip("coverage instrumentation allocates")
	}
	d, x := make([]byte, 300), make([]byte, 300)
	if a := testing.AllocsPerRun(100, func() { subtle.XORBytes(d, x, d) }); a != 0 {
		t.Fatalf("%v allocations per call", a)
	}
}
