package ct_test

import (
	"bytes"
	"flag"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/chachakit/chachakit/aead"
	"github.com/chachakit/chachakit/aead/tls13"
	"github.com/chachakit/chachakit/chacha20"
	"github.com/chachakit/chachakit/internal/ct"
	"github.com/chachakit/chachakit/internal/impl"
)

// The harness runs natively as an ordinary test (Secret and Public do
// nothing there, so it only checks that every call round-trips), and under
// valgrind for scripts/ct-valgrind.sh, which chooses the path and the
// lengths with these flags.
var (
	flagImpl  = flag.String("ct.impl", "", "force implementations by name before the run: pkg=Name,...")
	flagMax   = flag.Int("ct.max", 1100, "Seal, Open and XORKeyStream run at every length 0..max")
	flagStep  = flag.Int("ct.step", 1, "the other operations run at every step-th length 0..max, and at the block and lane boundaries")
	flagLong  = flag.String("ct.long", "1536,2048,4096,8191,16384,16397,65543", "longer lengths every operation runs at")
	flagShort = flag.Bool("ct.short", false, "one operation per length, for a quick native run")
)

// lengths returns the lengths the core operations run at (every length up to
// max and the long ones) and those the others run at (every step-th one,
// the lengths around multiples of 64 and 256 bytes, and the long ones).
func lengths(t *testing.T) (all, some []int) {
	var long []int
	for _, f := range strings.Split(*flagLong, ",") {
		if f = strings.TrimSpace(f); f == "" {
			continue
		}
		n, err := strconv.Atoi(f)
		if err != nil || n < 0 {
			t.Fatalf("-ct.long: bad length %q", f)
		}
		long = append(long, n)
	}
	step := max(*flagStep, 1)
	for n := 0; n <= *flagMax; n++ {
		all = append(all, n)
		if r := n % 64; n%step == 0 || r == 0 || r == 1 || r == 63 || n%256 == 255 {
			some = append(some, n)
		}
	}
	return append(all, long...), append(some, long...)
}

// secretCopy returns a copy of b marked secret: the harness keeps its
// reference values public and hands the library secret copies.
func secretCopy(b []byte) []byte {
	c := bytes.Clone(b)
	ct.Secret(c)
	return c
}

// pattern fills b with bytes that vary with seed, so that every length sees
// another key and message; the values do not matter to valgrind, which
// tracks whether they are secret, not what they are.
func pattern(b []byte, seed int) []byte {
	x := uint32(seed)*0x9e3779b9 + 1
	for i := range b {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b[i] = byte(x)
	}
	return b
}

// check declassifies got (a result the caller would see, such as a
// plaintext returned by Open) and compares it with want. It compares byte
// by byte rather than with bytes.Equal, whose short-length path loads whole
// words and may read the secret bytes that follow got in its buffer (the
// padding of a TLS record): valgrind would report the harness itself.
func check(t *testing.T, what string, n int, got, want []byte) {
	t.Helper()
	ct.Public(got)
	if len(got) != len(want) {
		t.Fatalf("%s, length %d: %d bytes, want %d", what, n, len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("%s, length %d: wrong result at byte %d", what, n, i)
		}
	}
}

// TestValgrind runs every operation of the library with its key, its
// plaintext and therefore its keystream secret, and declassifies what is
// public by nature (ciphertexts, tags, the error of Open) before the
// harness looks at it. Under valgrind, any report inside the library is a
// branch or an address that depends on a secret.
func TestValgrind(t *testing.T) {
	if *flagImpl != "" {
		if err := impl.Force(*flagImpl); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("valgrind instances: %d; paths: chacha20=%s poly1305=%s aead=%s subtle=%s",
		ct.Running(), impl.Preferred("chacha20"), impl.Preferred("poly1305"), impl.Preferred("aead"), impl.Preferred("subtle"))
	all, some := lengths(t)
	buf := newBuffers(all[len(all)-1] + 1024)
	for _, n := range all {
		sealOpen(t, buf, n, false)
		xorKeyStream(t, buf, n)
	}
	if *flagShort {
		return
	}
	for _, n := range some {
		sealOpen(t, buf, n, true)
		hchacha(t, n)
		batch(t, buf, n)
		record(t, buf, n)
		packet(t, buf, n)
	}
}

// buffers are the harness's working memory, allocated once so that the
// library's calls do not allocate (the allocator's own reports under
// valgrind would be noise).
type buffers struct {
	pt, ad, out, back []byte
}

func newBuffers(size int) *buffers {
	return &buffers{
		pt:   make([]byte, size),
		ad:   make([]byte, 64),
		out:  make([]byte, size+64),
		back: make([]byte, size+64),
	}
}

// sealOpen seals a secret n-byte plaintext under a secret key, declassifies
// the ciphertext and tag, opens them again, and opens a copy with a flipped
// tag bit: Open's answer (the tag comparison's result) is public.
func sealOpen(t *testing.T, b *buffers, n int, x bool) {
	keyBytes := pattern(make([]byte, aead.KeySize), n)
	newAEAD, nonceSize, what := aead.New, aead.NonceSize, "Seal/Open"
	if x {
		newAEAD, nonceSize, what = aead.NewX, aead.NonceSizeX, "SealX/OpenX"
	}
	a, err := newAEAD(secretCopy(keyBytes))
	if err != nil {
		t.Fatal(err)
	}
	nonce := pattern(make([]byte, nonceSize), n+1)
	pt := pattern(b.pt[:n], n+2)
	ad := b.ad[:n%17]
	sealed := a.Seal(b.out[:0], nonce, secretCopy(pt), ad)
	ct.Public(sealed)
	opened, err := a.Open(b.back[:0], nonce, sealed, ad)
	if err != nil {
		t.Fatalf("%s, length %d: %v", what, n, err)
	}
	check(t, what, n, opened, pt)
	sealed[len(sealed)-1] ^= 1
	if _, err := a.Open(b.back[:0], nonce, sealed, ad); err == nil {
		t.Fatalf("%s, length %d: a forged tag opened", what, n)
	}
}

// xorKeyStream encrypts a secret n-byte message in three calls whose
// lengths are not multiples of the block size, so that the cipher's
// buffered keystream carries secrets from one call to the next, and
// compares the result with one call.
func xorKeyStream(t *testing.T, b *buffers, n int) {
	key := pattern(make([]byte, chacha20.KeySize), n+3)
	nonce := pattern(make([]byte, chacha20.NonceSize), n+4)
	pt := pattern(b.pt[:n], n+5)
	c, err := chacha20.NewUnauthenticatedCipher(secretCopy(key), nonce)
	if err != nil {
		t.Fatal(err)
	}
	whole := b.out[:n]
	c.XORKeyStream(whole, secretCopy(pt))
	ct.Public(whole)
	if *flagShort {
		return
	}
	c, err = chacha20.NewUnauthenticatedCipher(secretCopy(key), nonce)
	if err != nil {
		t.Fatal(err)
	}
	split := b.back[:n]
	src := secretCopy(pt)
	i, j := n/3, n/3+n/5
	c.XORKeyStream(split[:i], src[:i])
	c.XORKeyStream(split[i:j], src[i:j])
	c.XORKeyStream(split[j:], src[j:])
	check(t, "XORKeyStream in three calls", n, split, whole)
}

// hchacha derives a subkey from a secret key; the subkey stays secret.
func hchacha(t *testing.T, n int) {
	key := pattern(make([]byte, chacha20.KeySize), n+6)
	nonce := pattern(make([]byte, 16), n+7)
	if _, err := chacha20.HChaCha20(secretCopy(key), nonce); err != nil {
		t.Fatal(err)
	}
}

// batch seals and opens a batch of messages of lengths near n under one
// secret key, through SealBatch and OpenBatch, and opens a batch in which
// one tag is forged.
func batch(t *testing.T, b *buffers, n int) {
	const count = 5
	for _, x := range []bool{false, true} {
		newAEAD, nonceSize := aead.New, aead.NonceSize
		if x {
			newAEAD, nonceSize = aead.NewX, aead.NonceSizeX
		}
		a, err := newAEAD(secretCopy(pattern(make([]byte, aead.KeySize), n+8)))
		if err != nil {
			t.Fatal(err)
		}
		bt := a.(aead.Batch)
		msgs := make([]aead.Message, count)
		pts := make([][]byte, count)
		for i := range msgs {
			m := max(n-i*(n/count+1)/2, 0)
			pts[i] = pattern(make([]byte, m), n+i)
			msgs[i] = aead.Message{
				Dst:            make([]byte, 0, m+aead.Overhead),
				Nonce:          pattern(make([]byte, nonceSize), n+i+100),
				Text:           secretCopy(pts[i]),
				AdditionalData: b.ad[:i],
			}
		}
		bt.SealBatch(msgs)
		for i := range msgs {
			ct.Public(msgs[i].Out)
			msgs[i].Text, msgs[i].Dst = msgs[i].Out, make([]byte, 0, len(msgs[i].Out))
		}
		if err := bt.OpenBatch(msgs); err != nil {
			t.Fatalf("OpenBatch, length %d: %v", n, err)
		}
		for i := range msgs {
			check(t, "OpenBatch", n, msgs[i].Out, pts[i])
			msgs[i].Dst = msgs[i].Dst[:0]
		}
		msgs[count/2].Text[0] ^= 1
		if err := bt.OpenBatch(msgs); err == nil {
			t.Fatalf("OpenBatch, length %d: a forged message opened", n)
		}
	}
}

// record seals and opens a TLS 1.3 record with an n-byte secret content
// and some padding, the traffic secret secret too; the record on the wire
// is public, and the content type and the content's length are what the
// receiver learns from it.
func record(t *testing.T, b *buffers, n int) {
	if n > tls13.MaxPlaintext {
		return
	}
	secret := pattern(make([]byte, tls13.SecretSize), n+9)
	w, err := tls13.NewRecordProtector(secretCopy(secret))
	if err != nil {
		t.Fatal(err)
	}
	r, err := tls13.NewRecordProtector(secretCopy(secret))
	if err != nil {
		t.Fatal(err)
	}
	pt := pattern(b.pt[:n], n+10)
	padding := min(n%37, tls13.MaxPlaintext-n)
	rec, err := w.SealRecord(b.out[:0], tls13.RecordTypeApplicationData, secretCopy(pt), padding)
	if err != nil {
		t.Fatal(err)
	}
	ct.Public(rec)
	typ, got, err := r.OpenRecord(b.back[:0], rec)
	// The content type and the content's length come out of the padding
	// scan of the secret inner plaintext: both are what OpenRecord tells
	// its caller.
	publicValue(&typ)
	publicValue(&got)
	if err != nil || typ != tls13.RecordTypeApplicationData {
		t.Fatalf("OpenRecord, length %d: type %d, %v", n, typ, err)
	}
	check(t, "OpenRecord", n, got, pt)
}

// packet seals a QUIC packet with an n-byte secret payload, protects its
// header, and reverses both; the header protection key is secret, the
// packet on the wire public.
func packet(t *testing.T, b *buffers, n int) {
	secret := pattern(make([]byte, tls13.SecretSize), n+11)
	w, err := tls13.NewPacketProtector(secretCopy(secret))
	if err != nil {
		t.Fatal(err)
	}
	r, err := tls13.NewPacketProtector(secretCopy(secret))
	if err != nil {
		t.Fatal(err)
	}
	pnLen := n%4 + 1
	pn := uint64(n) * 2654435761 & (1<<(8*pnLen) - 1)
	const pnOffset = 9
	hdr := make([]byte, pnOffset+pnLen)
	hdr[0] = 0x40 | byte(n&1)<<2 | byte(pnLen-1) // short header
	for i := range pnLen {
		hdr[pnOffset+i] = byte(pn >> (8 * (pnLen - 1 - i)))
	}
	// The sample starts 4 bytes after the packet number: pad short
	// payloads so that there is one, as a sender must.
	pt := pattern(b.pt[:max(n, 4+tls13.SampleSize)], n+12)
	pkt := append(b.out[:0], hdr...)
	pkt = w.Seal(pkt, pn, hdr, secretCopy(pt))
	if err := w.ProtectHeader(pkt, pnOffset); err != nil {
		t.Fatal(err)
	}
	ct.Public(pkt)
	gotLen, gotPN, err := r.UnprotectHeader(pkt, pnOffset)
	ct.Public(pkt[:pnOffset+4])
	publicValue(&gotLen)
	publicValue(&gotPN)
	if err != nil || gotLen != pnLen || gotPN != pn {
		t.Fatalf("UnprotectHeader, length %d: %d, %d, %v", n, gotLen, gotPN, err)
	}
	got, err := r.Open(b.back[:0], pn, pkt[:pnOffset+pnLen], pkt[pnOffset+pnLen:])
	if err != nil {
		t.Fatalf("packet Open, length %d: %v", n, err)
	}
	check(t, "packet Open", n, got, pt)
	// HeaderMasks: the masks stay secret, the samples are public.
	samples := make([][]byte, n%20+1)
	for i := range samples {
		samples[i] = pattern(make([]byte, tls13.SampleSize), n+i)
	}
	masks := make([][tls13.MaskSize]byte, len(samples))
	r.HeaderMasks(masks, samples)
}

// publicValue declassifies the variable p points to: a result returned in
// registers, such as a packet number length, that the harness compares.
func publicValue[T any](p *T) {
	ct.Public(unsafe.Slice((*byte)(unsafe.Pointer(p)), unsafe.Sizeof(*p)))
}
