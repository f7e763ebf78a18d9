package cryptotest

import (
	"bytes"
	"crypto/cipher"
	"fmt"
	"testing"
)

// NewAEAD builds an AEAD from a key, like aead.New.
type NewAEAD func(key []byte) (cipher.AEAD, error)

// TestAEAD checks an AEAD against a reference (in this module,
// golang.org/x/crypto/chacha20poly1305): the checklist of Go's
// crypto/internal/cryptotest/aead.go, plus x/crypto's exact errors, panics
// and zeroed dst after a failed Open.
func TestAEAD(t *testing.T, ours, ref NewAEAD) {
	t.Run("Constructor", func(t *testing.T) { testAEADConstructor(t, ours, ref) })
	t.Run("Sizes", func(t *testing.T) { testAEADSizes(t, ours, ref) })
	t.Run("LengthsAndOffsets", func(t *testing.T) { testAEADLengths(t, ours, ref) })
	t.Run("Append", func(t *testing.T) { testAEADAppend(t, ours) })
	t.Run("InPlace", func(t *testing.T) { testAEADInPlace(t, ours, ref) })
	t.Run("Aliasing", func(t *testing.T) { testAEADAliasing(t, ours, ref) })
	t.Run("TagOverlap", func(t *testing.T) { testAEADTagOverlap(t, ours, ref) })
	t.Run("NonceLength", func(t *testing.T) { testAEADNonceLength(t, ours, ref) })
	t.Run("Tampering", func(t *testing.T) { testAEADTampering(t, ours, ref) })
	t.Run("Allocs", func(t *testing.T) { testAEADAllocs(t, ours) })
}

func mustAEAD(t *testing.T, f NewAEAD, key []byte) cipher.AEAD {
	t.Helper()
	a, err := f(key)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func testAEADConstructor(t *testing.T, ours, ref NewAEAD) {
	for _, n := range []int{0, 1, 16, 24, 31, 32, 33, 64} {
		key := make([]byte, n)
		a, err1 := ours(key)
		_, err2 := ref(key)
		if errText(err1) != errText(err2) {
			t.Errorf("key of %d bytes: error %q, want %q", n, errText(err1), errText(err2))
		}
		if err1 != nil && a != nil {
			t.Errorf("key of %d bytes: non-nil AEAD with an error", n)
		}
	}
}

func testAEADSizes(t *testing.T, ours, ref NewAEAD) {
	a, b := mustAEAD(t, ours, make([]byte, 32)), mustAEAD(t, ref, make([]byte, 32))
	if a.NonceSize() != b.NonceSize() || a.Overhead() != b.Overhead() {
		t.Errorf("NonceSize, Overhead = %d, %d; want %d, %d", a.NonceSize(), a.Overhead(), b.NonceSize(), b.Overhead())
	}
}

// testAEADLengths seals every length 0..maxLen at plaintext and dst offsets
// 0..maxOffset, compares with the reference, opens the result, and checks
// that no byte around the output is written.
func testAEADLengths(t *testing.T, ours, ref NewAEAD) {
	r := newRand(1)
	key := fill(r, make([]byte, 32))
	a, b := mustAEAD(t, ours, key), mustAEAD(t, ref, key)
	nonce := fill(r, make([]byte, a.NonceSize()))
	msg := fill(r, make([]byte, maxLen+maxOffset))
	ad := fill(r, make([]byte, 40))
	offsets := maxOffset
	if testing.Short() {
		offsets = 3
	}
	for n := 0; n <= maxLen; n++ {
		adn := ad[:n%len(ad)]
		for po := 0; po <= offsets; po++ {
			pt := msg[po : po+n]
			want := b.Seal(nil, nonce, pt, adn)
			for do := 0; do <= offsets; do++ {
				dst, intact := guarded(n+a.Overhead(), do)
				ct := a.Seal(dst[:0], nonce, pt, adn)
				if !bytes.Equal(ct, want) {
					t.Fatalf("len %d, plaintext offset %d, dst offset %d: Seal differs from the reference", n, po, do)
				}
				if &ct[0] != &dst[0] || !intact() {
					t.Fatalf("len %d, plaintext offset %d, dst offset %d: Seal wrote outside dst's capacity", n, po, do)
				}
				out, intact := guarded(n, do)
				got, err := a.Open(out[:0], nonce, ct, adn)
				if err != nil || !bytes.Equal(got, pt) {
					t.Fatalf("len %d, offsets %d/%d: Open = %v, %v", n, po, do, err, bytes.Equal(got, pt))
				}
				if !intact() {
					t.Fatalf("len %d, offsets %d/%d: Open wrote outside dst", n, po, do)
				}
			}
		}
	}
}

// testAEADAppend checks that Seal and Open append to dst, with and without
// spare capacity, and keep its prefix.
func testAEADAppend(t *testing.T, ours NewAEAD) {
	r := newRand(2)
	a := mustAEAD(t, ours, fill(r, make([]byte, 32)))
	nonce := fill(r, make([]byte, a.NonceSize()))
	for _, n := range []int{0, 1, 16, 64, 65, 1000} {
		pt := fill(r, make([]byte, n))
		ct := a.Seal(nil, nonce, pt, nil)
		for _, spare := range []int{0, 1, n + 16, 100} {
			prefix := []byte("prefix")
			dst := make([]byte, len(prefix), len(prefix)+spare)
			copy(dst, prefix)
			got := a.Seal(dst, nonce, pt, nil)
			if !bytes.Equal(got, append(prefix, ct...)) {
				t.Errorf("Seal len %d, spare %d: got %x", n, spare, got)
			}
			dst = make([]byte, len(prefix), len(prefix)+spare)
			copy(dst, prefix)
			got, err := a.Open(dst, nonce, ct, nil)
			if err != nil || !bytes.Equal(got, append(prefix, pt...)) {
				t.Errorf("Open len %d, spare %d: %v, %x", n, spare, err, got)
			}
		}
	}
}

// testAEADInPlace uses dst = plaintext[:0] and dst = ciphertext[:0].
func testAEADInPlace(t *testing.T, ours, ref NewAEAD) {
	r := newRand(3)
	key := fill(r, make([]byte, 32))
	a, b := mustAEAD(t, ours, key), mustAEAD(t, ref, key)
	nonce := fill(r, make([]byte, a.NonceSize()))
	for _, n := range []int{0, 1, 63, 64, 65, 300, 512, 1100} {
		pt := fill(r, make([]byte, n, n+16))
		ad := fill(r, make([]byte, 13))
		want := b.Seal(nil, nonce, pt, ad)
		buf := make([]byte, n, n+16)
		copy(buf, pt)
		ct := a.Seal(buf[:0], nonce, buf, ad)
		if !bytes.Equal(ct, want) {
			t.Fatalf("len %d: in-place Seal differs", n)
		}
		got, err := a.Open(ct[:0], nonce, ct, ad)
		if err != nil || !bytes.Equal(got, pt) {
			t.Fatalf("len %d: in-place Open = %v", n, err)
		}
	}
}

// testAEADAliasing checks every way dst can overlap the inputs: exact
// overlap with the plaintext is allowed, any other overlap panics with
// x/crypto's text.
func testAEADAliasing(t *testing.T, ours, ref NewAEAD) {
	key := make([]byte, 32)
	a, b := mustAEAD(t, ours, key), mustAEAD(t, ref, key)
	nonce := make([]byte, a.NonceSize())
	ct := b.Seal(nil, nonce, make([]byte, 64), make([]byte, 16))
	for _, c := range []struct {
		name      string
		dst, in   int // offsets into a shared buffer
		adOff     int // -1: separate additional data
		sealOrNot bool
	}{
		{"Seal: output after plaintext start", 1, 0, -1, true},
		{"Seal: output before plaintext start", 0, 1, -1, true},
		{"Seal: output overlaps additional data", 0, 200, 10, true},
		{"Seal: additional data at output end", 0, 200, 70, true},
		{"Open: output after ciphertext start", 1, 0, -1, false},
		{"Open: output before ciphertext start", 0, 1, -1, false},
		{"Open: output overlaps additional data", 0, 200, 10, false},
	} {
		run := func(x cipher.AEAD) func() {
			return func() {
				buf := make([]byte, 400)
				var ad []byte
				if c.adOff >= 0 {
					ad = buf[c.adOff : c.adOff+16]
				} else {
					ad = make([]byte, 16)
				}
				if c.sealOrNot {
					x.Seal(buf[c.dst:c.dst], nonce, buf[c.in:c.in+64], ad)
				} else {
					copy(buf[c.in:], ct)
					x.Open(buf[c.dst:c.dst], nonce, buf[c.in:c.in+len(ct)], ad)
				}
			}
		}
		samePanic(t, c.name, run(a), run(b))
	}
}

// testAEADTagOverlap opens with an output that overlaps the tag and nothing
// else of the ciphertext (dst starts where the tag does). The overlap
// checks allow it, and chachakit reads the tag before writing there on
// every path, so every genuine message opens; x/crypto's amd64 assembly
// writes plaintext over the tag before checking it and rejects most of
// them, so the reference here is the plaintext itself. The lengths reach
// every path of package aead.
func testAEADTagOverlap(t *testing.T, ours, ref NewAEAD) {
	key := make([]byte, 32)
	a, b := mustAEAD(t, ours, key), mustAEAD(t, ref, key)
	nonce := make([]byte, a.NonceSize())
	ad := []byte("additional data")
	for _, n := range []int{1, 15, 16, 17, 63, 64, 65, 191, 192, 193, 448, 449, 960, 961, 1023, 1024, 1025, 2047, 2048, 2049, 4096, 8191, 8192, 9000} {
		pt := make([]byte, n)
		for i := range pt {
			pt[i] = byte(i * 7)
		}
		ct := b.Seal(nil, nonce, pt, ad)
		buf := make([]byte, 2*n+a.Overhead())
		copy(buf, ct)
		got, err := a.Open(buf[n:n], nonce, buf[:len(ct)], ad)
		if err != nil || !bytes.Equal(got, pt) {
			t.Errorf("%d bytes, output over the tag: Open gives %v, plaintext equal: %v", n, err, bytes.Equal(got, pt))
		}
	}
}

func testAEADNonceLength(t *testing.T, ours, ref NewAEAD) {
	key := make([]byte, 32)
	a, b := mustAEAD(t, ours, key), mustAEAD(t, ref, key)
	ct := b.Seal(nil, make([]byte, b.NonceSize()), nil, nil)
	for _, n := range []int{0, 1, 8, 11, 12, 13, 16, 23, 24, 25, 32} {
		if n == a.NonceSize() {
			continue
		}
		nonce := make([]byte, n)
		samePanic(t, fmt.Sprintf("Seal with a %d-byte nonce", n),
			func() { a.Seal(nil, nonce, nil, nil) },
			func() { b.Seal(nil, nonce, nil, nil) })
		samePanic(t, fmt.Sprintf("Open with a %d-byte nonce", n),
			func() { a.Open(nil, nonce, ct, nil) },
			func() { b.Open(nil, nonce, ct, nil) })
	}
}

// testAEADTampering flips each byte of the ciphertext, the tag, the
// additional data and the nonce, truncates and extends the ciphertext, and
// checks that Open fails with the reference's error, returns nil and leaves
// dst's new region zeroed.
func testAEADTampering(t *testing.T, ours, ref NewAEAD) {
	r := newRand(4)
	key := fill(r, make([]byte, 32))
	a, b := mustAEAD(t, ours, key), mustAEAD(t, ref, key)
	nonce := fill(r, make([]byte, a.NonceSize()))
	_, refErr := b.Open(nil, nonce, make([]byte, 16), nil)
	if refErr == nil {
		t.Fatal("the reference opened a zero tag")
	}
	check := func(what string, nonce, ct, ad []byte) {
		t.Helper()
		dst := make([]byte, 3, 3+len(ct))
		copy(dst, "abc")
		// Fill the spare capacity so zeroing is visible.
		full := dst[:cap(dst)]
		for i := 3; i < len(full); i++ {
			full[i] = 0xEE
		}
		got, err := a.Open(dst, nonce, ct, ad)
		if err == nil || err.Error() != refErr.Error() || got != nil {
			t.Fatalf("%s: Open = %x, %v; want nil, %v", what, got, err, refErr)
		}
		if _, err := b.Open(nil, nonce, ct, ad); err == nil {
			t.Fatalf("%s: the reference opened it; the test is wrong", what)
		}
		if len(ct) >= 16 {
			region := full[3 : 3+len(ct)-16]
			if !bytes.Equal(region, make([]byte, len(region))) {
				t.Fatalf("%s: dst not zeroed after failed Open", what)
			}
		}
		if string(full[:3]) != "abc" {
			t.Fatalf("%s: dst prefix changed", what)
		}
	}
	for _, n := range []int{0, 1, 15, 16, 17, 64, 100} {
		pt := fill(r, make([]byte, n))
		ad := fill(r, make([]byte, 1+n%20))
		ct := a.Seal(nil, nonce, pt, ad)
		for i := range ct {
			for _, bit := range []byte{0x01, 0x80} {
				bad := bytes.Clone(ct)
				bad[i] ^= bit
				check(fmt.Sprintf("len %d, ciphertext byte %d ^ %#x", n, i, bit), nonce, bad, ad)
			}
		}
		for i := range ad {
			bad := bytes.Clone(ad)
			bad[i] ^= 1
			check(fmt.Sprintf("len %d, additional data byte %d", n, i), nonce, ct, bad)
		}
		for i := range nonce {
			bad := bytes.Clone(nonce)
			bad[i] ^= 1
			check(fmt.Sprintf("len %d, nonce byte %d", n, i), bad, ct, ad)
		}
		check(fmt.Sprintf("len %d, no additional data", n), nonce, ct, nil)
		check(fmt.Sprintf("len %d, extra additional data", n), nonce, ct, append(bytes.Clone(ad), 0))
		for cut := 1; cut <= len(ct) && cut <= 20; cut++ {
			check(fmt.Sprintf("len %d, truncated by %d", n, cut), nonce, ct[:len(ct)-cut], ad)
		}
		check(fmt.Sprintf("len %d, extended", n), nonce, append(bytes.Clone(ct), 0), ad)
		check(fmt.Sprintf("len %d, wrong key", n), nonce, mustAEAD(t, ours, make([]byte, 32)).Seal(nil, nonce, pt, ad), ad)
	}
}

func testAEADAllocs(t *testing.T, ours NewAEAD) {
	a := mustAEAD(t, ours, make([]byte, 32))
	nonce := make([]byte, a.NonceSize())
	ad := make([]byte, 13)
	for _, n := range []int{0, 1, 64, 1350, 16384} {
		pt := make([]byte, n)
		buf := make([]byte, 0, n+a.Overhead())
		ct := a.Seal(nil, nonce, pt, ad)
		if x := testing.AllocsPerRun(10, func() { a.Seal(buf[:0], nonce, pt, ad) }); x != 0 {
			t.Errorf("Seal of %d bytes: %v allocations", n, x)
		}
		if x := testing.AllocsPerRun(10, func() { a.Open(buf[:0], nonce, ct, ad) }); x != 0 {
			t.Errorf("Open of %d bytes: %v allocations", n, x)
		}
		bad := bytes.Clone(ct)
		bad[0] ^= 1
		if x := testing.AllocsPerRun(10, func() { a.Open(buf[:0], nonce, bad, ad) }); x != 0 {
			t.Errorf("failed Open of %d bytes: %v allocations", n, x)
		}
	}
}
