package cryptotest

import (
	"bytes"
	"crypto/cipher"
	"fmt"
	"math"
	"testing"
)

// Stream is the part of the chacha20.Cipher API the stream suite exercises.
type Stream interface {
	cipher.Stream
	SetCounter(uint32)
}

// NewStream builds a stream from a key and a nonce, like
// chacha20.NewUnauthenticatedCipher.
type NewStream func(key, nonce []byte) (Stream, error)

// TestStream checks a ChaCha20 implementation against a reference (in this
// module, golang.org/x/crypto/chacha20): the checklist of Go's
// crypto/internal/cryptotest/stream.go, plus ChaCha20's counter rules.
func TestStream(t *testing.T, ours, ref NewStream) {
	t.Run("KeyAndNonceSizes", func(t *testing.T) { testStreamSizes(t, ours, ref) })
	for _, nonceSize := range []int{12, 24} {
		t.Run(fmt.Sprintf("Nonce%d", nonceSize), func(t *testing.T) {
			t.Run("LengthsAndOffsets", func(t *testing.T) { testStreamLengths(t, ours, ref, nonceSize) })
			t.Run("Chunks", func(t *testing.T) { testStreamChunks(t, ours, ref, nonceSize) })
			t.Run("SetCounter", func(t *testing.T) { testStreamSetCounter(t, ours, ref, nonceSize) })
			t.Run("CounterEdge", func(t *testing.T) { testStreamCounterEdge(t, ours, ref, nonceSize) })
		})
	}
	t.Run("Panics", func(t *testing.T) { testStreamPanics(t, ours, ref) })
	t.Run("InPlace", func(t *testing.T) { testStreamInPlace(t, ours, ref) })
	t.Run("Allocs", func(t *testing.T) { testStreamAllocs(t, ours) })
}

func mustStream(t *testing.T, f NewStream, key, nonce []byte) Stream {
	t.Helper()
	s, err := f(key, nonce)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func errText(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

func testStreamSizes(t *testing.T, ours, ref NewStream) {
	for _, k := range []int{0, 16, 31, 32, 33, 64} {
		for _, n := range []int{0, 8, 11, 12, 13, 16, 23, 24, 25, 32} {
			key, nonce := make([]byte, k), make([]byte, n)
			_, err1 := ours(key, nonce)
			_, err2 := ref(key, nonce)
			if errText(err1) != errText(err2) {
				t.Errorf("key %d nonce %d: error %q, want %q", k, n, errText(err1), errText(err2))
			}
		}
	}
}

// testStreamLengths compares every length 0..maxLen at every src and dst
// offset 0..maxOffset with the reference, and checks that nothing around
// dst[:len(src)] is written.
func testStreamLengths(t *testing.T, ours, ref NewStream, nonceSize int) {
	r := newRand(uint64(nonceSize))
	key, nonce := fill(r, make([]byte, 32)), fill(r, make([]byte, nonceSize))
	msg := fill(r, make([]byte, maxLen+maxOffset))
	want := make([]byte, maxLen)
	offsets := maxOffset
	if testing.Short() {
		offsets = 3
	}
	for n := 0; n <= maxLen; n++ {
		for so := 0; so <= offsets; so++ {
			src := msg[so : so+n]
			mustStream(t, ref, key, nonce).XORKeyStream(want[:n], src)
			for do := 0; do <= offsets; do++ {
				dst, intact := guarded(n, do)
				// The spare capacity past n must stay untouched too.
				mustStream(t, ours, key, nonce).XORKeyStream(dst, src)
				if !bytes.Equal(dst, want[:n]) {
					t.Fatalf("len %d, src offset %d, dst offset %d: wrong output", n, so, do)
				}
				if !intact() {
					t.Fatalf("len %d, src offset %d, dst offset %d: wrote outside dst[:len(src)]", n, so, do)
				}
			}
		}
	}
}

// testStreamChunks feeds the same message in random chunks, so partial blocks
// are carried across calls at every position.
func testStreamChunks(t *testing.T, ours, ref NewStream, nonceSize int) {
	r := newRand(100 + uint64(nonceSize))
	key, nonce := fill(r, make([]byte, 32)), fill(r, make([]byte, nonceSize))
	msg := fill(r, make([]byte, 4096))
	want := make([]byte, len(msg))
	mustStream(t, ref, key, nonce).XORKeyStream(want, msg)
	for trial := range 300 {
		s := mustStream(t, ours, key, nonce)
		got := make([]byte, len(msg))
		for i := 0; i < len(msg); {
			var n int
			switch trial % 3 {
			case 0:
				n = r.IntN(70)
			case 1:
				n = r.IntN(600)
			default:
				n = 1 + r.IntN(3)*64 + r.IntN(2)
			}
			n = min(n, len(msg)-i)
			s.XORKeyStream(got[i:i+n], msg[i:i+n])
			i += n
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("trial %d: chunked output differs", trial)
		}
	}
}

// testStreamSetCounter seeks forward, within and beyond buffered keystream,
// and checks rollbacks panic like the reference.
func testStreamSetCounter(t *testing.T, ours, ref NewStream, nonceSize int) {
	r := newRand(200 + uint64(nonceSize))
	key, nonce := fill(r, make([]byte, 32)), fill(r, make([]byte, nonceSize))
	msg := fill(r, make([]byte, 2048))
	for trial := range 500 {
		a, b := mustStream(t, ours, key, nonce), mustStream(t, ref, key, nonce)
		for step := range 4 {
			n := r.IntN(300)
			if trial%2 == 0 {
				n = r.IntN(3) * 64
			}
			got, want := make([]byte, n), make([]byte, n)
			a.XORKeyStream(got, msg[:n])
			b.XORKeyStream(want, msg[:n])
			if !bytes.Equal(got, want) {
				t.Fatalf("trial %d step %d: output differs", trial, step)
			}
			c := uint32(r.IntN(40))
			pa := panicText(func() { a.SetCounter(c) })
			pb := panicText(func() { b.SetCounter(c) })
			if pa != pb {
				t.Fatalf("trial %d step %d: SetCounter(%d) panic %q, want %q", trial, step, c, pa, pb)
			}
			if pa != "" {
				break
			}
		}
	}
}

// testStreamCounterEdge runs up to the last block, 2^32-1, and one byte past
// it. Whether a call must panic follows RFC 8439's rule (no block past
// 2^32-1), which is what x/crypto's portable code does; the output is compared
// with the reference.
//
// golang.org/x/crypto v0.59 on arm64, loong64, ppc64 and s390x buffers 4
// blocks at a time and, when such a buffer ends exactly at block 2^32-1,
// lets the counter wrap to 0 without noticing: a later call then reuses the
// keystream of block 0 instead of panicking. This suite does not follow it
// there, and logs where the reference disagrees with the rule.
func testStreamCounterEdge(t *testing.T, ours, ref NewStream, nonceSize int) {
	r := newRand(300 + uint64(nonceSize))
	key, nonce := fill(r, make([]byte, 32)), fill(r, make([]byte, nonceSize))
	msg := fill(r, make([]byte, 64*20))
	for start := uint32(math.MaxUint32 - 17); start != 0; start++ {
		left := 64 * (uint64(math.MaxUint32-start) + 1) // keystream bytes that exist
		for _, steps := range [][]int{{64 * 20}, {1, 63, 64, 1}, {10, 200, 2000}, {int(left)}, {int(left) - 1, 1, 1}, {64, 65}, {100, 100}, {64, 64, 64}} {
			a, b := mustStream(t, ours, key, nonce), mustStream(t, ref, key, nonce)
			a.SetCounter(start)
			b.SetCounter(start)
			var used uint64
			for i, n := range steps {
				n = min(n, len(msg))
				mustPanic := (used+uint64(n)+63)/64*64 > left
				got, want := make([]byte, n), make([]byte, n)
				pa := panicText(func() { a.XORKeyStream(got, msg[:n]) })
				pb := panicText(func() { b.XORKeyStream(want, msg[:n]) })
				if mustPanic {
					if pa != "chacha20: counter overflow" {
						t.Fatalf("counter %#x, steps %v, step %d: panic %q, want the counter overflow panic", start, steps, i, pa)
					}
					if pb != pa {
						t.Logf("counter %#x, steps %v, step %d: the reference panics with %q (see the x/crypto note above)", start, steps, i, pb)
					} else if !bytes.Equal(got, want) {
						// What was written before the panic, too.
						t.Fatalf("counter %#x, steps %v, step %d: dst after the panic differs", start, steps, i)
					}
					break
				}
				if pa != "" || pb != "" {
					t.Fatalf("counter %#x, steps %v, step %d: panic %q, reference %q, want none", start, steps, i, pa, pb)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("counter %#x, steps %v, step %d: output differs", start, steps, i)
				}
				used += uint64(n)
			}
			// After the last block, even a SetCounter to 2^32-1 is a rollback.
			if pa := panicText(func() { a.SetCounter(math.MaxUint32) }); used > left-64 && pa != "chacha20: SetCounter attempted to rollback counter" {
				t.Fatalf("counter %#x, steps %v: SetCounter after the last block: panic %q", start, steps, pa)
			}
		}
	}
}

func testStreamPanics(t *testing.T, ours, ref NewStream) {
	key, nonce := make([]byte, 32), make([]byte, 12)
	buf := make([]byte, 200)
	cases := []struct {
		name     string
		dst, src []byte
	}{
		{"short dst", buf[:99], buf[100:200]},
		{"inexact overlap forward", buf[1:101], buf[0:100]},
		{"inexact overlap backward", buf[0:100], buf[1:101]},
		{"empty dst", nil, buf[:1]},
	}
	for _, c := range cases {
		samePanic(t, c.name,
			func() { mustStream(t, ours, key, nonce).XORKeyStream(c.dst, c.src) },
			func() { mustStream(t, ref, key, nonce).XORKeyStream(c.dst, c.src) })
	}
	// Empty src needs nothing, not even a long enough dst.
	mustStream(t, ours, key, nonce).XORKeyStream(nil, nil)
	mustStream(t, ours, key, nonce).XORKeyStream(nil, buf[:0])
}

func testStreamInPlace(t *testing.T, ours, ref NewStream) {
	r := newRand(400)
	key, nonce := fill(r, make([]byte, 32)), fill(r, make([]byte, 12))
	for _, n := range []int{1, 63, 64, 65, 255, 256, 511, 512, 513, 1100} {
		msg := fill(r, make([]byte, n))
		want := make([]byte, n)
		mustStream(t, ref, key, nonce).XORKeyStream(want, msg)
		mustStream(t, ours, key, nonce).XORKeyStream(msg, msg)
		if !bytes.Equal(msg, want) {
			t.Errorf("len %d: in-place output differs", n)
		}
	}
}

func testStreamAllocs(t *testing.T, ours NewStream) {
	s := mustStream(t, ours, make([]byte, 32), make([]byte, 12))
	buf := make([]byte, 16384)
	for _, n := range []int{1, 64, 100, 1350, 16384} {
		if a := testing.AllocsPerRun(10, func() { s.XORKeyStream(buf[:n], buf[:n]) }); a != 0 {
			t.Errorf("XORKeyStream of %d bytes: %v allocations", n, a)
		}
	}
}
