package tls13_test

import (
	"bytes"
	"crypto/rand"
	"encoding/binary"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/chachakit/chachakit/aead/tls13"
	"github.com/chachakit/chachakit/internal/cryptotest"
	"golang.org/x/crypto/chacha20poly1305"
)

func randomBytes(t testing.TB, n int) []byte {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return b
}

// refRecord seals a TLS 1.3 record the long way, straight from RFC 8446,
// with golang.org/x/crypto/chacha20poly1305 as the AEAD: key and IV from
// Section 7.3, nonce from Section 5.3, inner plaintext from Section 5.4 and
// header from Section 5.2. inner is the whole TLSInnerPlaintext, so tests
// can build records that SealRecord refuses to make.
func refRecord(t testing.TB, secret []byte, seq uint64, inner []byte) []byte {
	t.Helper()
	key, err := tls13.ExpandLabel(secret, "key", nil, 32)
	if err != nil {
		t.Fatal(err)
	}
	iv, err := tls13.ExpandLabel(secret, "iv", nil, 12)
	if err != nil {
		t.Fatal(err)
	}
	var padded [12]byte
	binary.BigEndian.PutUint64(padded[4:], seq)
	nonce := make([]byte, 12)
	for i := range nonce {
		nonce[i] = iv[i] ^ padded[i]
	}
	a, err := chacha20poly1305.New(key)
	if err != nil {
		t.Fatal(err)
	}
	header := []byte{23, 3, 3, 0, 0}
	binary.BigEndian.PutUint16(header[3:], uint16(len(inner)+16))
	return a.Seal(header, nonce, inner, header)
}

func innerPlaintext(content []byte, typ uint8, padding int) []byte {
	inner := append(bytes.Clone(content), typ)
	return append(inner, make([]byte, padding)...)
}

func newRecordPair(t testing.TB, secret []byte) (w, r *tls13.RecordProtector) {
	t.Helper()
	w, err := tls13.NewRecordProtector(secret)
	if err != nil {
		t.Fatal(err)
	}
	r, err = tls13.NewRecordProtector(secret)
	if err != nil {
		t.Fatal(err)
	}
	return w, r
}

// TestRecordAgainstReference seals records of many sizes, paddings and
// content types, compares them with the reference construction, and opens
// them again, in every buffer arrangement: fresh, appended after a prefix,
// and in place.
func TestRecordAgainstReference(t *testing.T) {
	cryptotest.Run(t, "chacha20", func(t *testing.T) {
		secret := randomBytes(t, 32)
		w, r := newRecordPair(t, secret)
		sizes := []int{0, 1, 2, 7, 8, 9, 15, 16, 17, 63, 64, 65, 255, 256, 1000, 1500, 4096, tls13.MaxPlaintext - 1, tls13.MaxPlaintext}
		paddings := []int{0, 1, 7, 8, 9, 100, 255}
		types := []uint8{tls13.RecordTypeApplicationData, tls13.RecordTypeHandshake, tls13.RecordTypeAlert, 0xff}
		seq := uint64(0)
		for _, n := range sizes {
			for _, pad := range paddings {
				if n+pad > tls13.MaxPlaintext {
					continue
				}
				for _, typ := range types {
					if n == 0 && typ != tls13.RecordTypeApplicationData {
						continue
					}
					content := randomBytes(t, n)
					want := refRecord(t, secret, seq, innerPlaintext(content, typ, pad))

					// Three ways to place the output, used in turn.
					var got []byte
					var err error
					switch seq % 3 {
					case 0:
						got, err = w.SealRecord(nil, typ, content, pad)
					case 1:
						prefix := []byte("prefix")
						got, err = w.SealRecord(prefix, typ, content, pad)
						if err == nil {
							if !bytes.HasPrefix(got, prefix) {
								t.Fatal("SealRecord lost the dst prefix")
							}
							got = got[len(prefix):]
						}
					case 2:
						buf := make([]byte, 5+n, 5+n+1+pad+16)
						copy(buf[5:], content)
						got, err = w.SealRecord(buf[:0], typ, buf[5:], pad)
					}
					if err != nil {
						t.Fatalf("SealRecord(%d bytes, type %d, padding %d): %v", n, typ, pad, err)
					}
					if !bytes.Equal(got, want) {
						t.Fatalf("SealRecord(%d bytes, type %d, padding %d) differs from the reference", n, typ, pad)
					}

					var gotType uint8
					var pt []byte
					if seq%2 == 0 {
						gotType, pt, err = r.OpenRecord(nil, got)
					} else {
						gotType, pt, err = r.OpenRecord(got[5:5], got) // in place
					}
					if err != nil || gotType != typ || !bytes.Equal(pt, content) {
						t.Fatalf("OpenRecord(%d bytes, type %d, padding %d) = type %d, %d bytes, %v", n, typ, pad, gotType, len(pt), err)
					}
					seq++
					if w.Sequence() != seq || r.Sequence() != seq {
						t.Fatalf("sequence numbers %d and %d, want %d", w.Sequence(), r.Sequence(), seq)
					}
				}
			}
		}
	})
}

// TestRecordSealOverlap moves the content from every offset of the output
// buffer, before and after where it lands.
func TestRecordSealOverlap(t *testing.T) {
	secret := randomBytes(t, 32)
	content := randomBytes(t, 300)
	want := refRecord(t, secret, 0, innerPlaintext(content, 23, 3))
	for off := 0; off < 40; off++ {
		w, err := tls13.NewRecordProtector(secret)
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]byte, 1000)
		copy(buf[off:], content)
		got, err := w.SealRecord(buf[:0], 23, buf[off:off+len(content)], 3)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("content at offset %d: %v, equal %v", off, err, bytes.Equal(got, want))
		}
	}
}

func TestRecordLimits(t *testing.T) {
	secret := randomBytes(t, 32)
	w, _ := newRecordPair(t, secret)

	seal := []struct {
		name    string
		typ     uint8
		n, pad  int
		wantErr error
	}{
		{"largest content", 23, tls13.MaxPlaintext, 0, nil},
		{"largest content plus padding", 23, 100, tls13.MaxPlaintext - 100, nil},
		{"content over 2^14", 23, tls13.MaxPlaintext + 1, 0, tls13.ErrRecordOverflow},
		{"content plus padding over 2^14", 23, 100, tls13.MaxPlaintext - 99, tls13.ErrRecordOverflow},
		{"huge padding", 23, 0, math.MaxInt, tls13.ErrRecordOverflow},
		{"empty handshake", tls13.RecordTypeHandshake, 0, 5, tls13.ErrUnexpectedMessage},
		{"empty alert", tls13.RecordTypeAlert, 0, 0, tls13.ErrUnexpectedMessage},
	}
	for _, c := range seal {
		seq := w.Sequence()
		out, err := w.SealRecord(nil, c.typ, make([]byte, c.n), c.pad)
		if err != c.wantErr {
			t.Errorf("%s: err = %v, want %v", c.name, err, c.wantErr)
		}
		if err == nil && len(out) != 5+c.n+1+c.pad+16 {
			t.Errorf("%s: %d bytes", c.name, len(out))
		}
		if err != nil && w.Sequence() != seq {
			t.Errorf("%s: a refused record advanced the sequence number", c.name)
		}
	}
	if _, err := w.SealRecord(nil, 0, []byte("x"), 0); err == nil {
		t.Error("content type 0 accepted")
	}
	if _, err := w.SealRecord(nil, 23, []byte("x"), -1); err == nil {
		t.Error("negative padding accepted")
	}

	open := []struct {
		name    string
		record  []byte
		wantErr error
	}{
		{"largest inner plaintext", refRecord(t, secret, 0, innerPlaintext(nil, 23, tls13.MaxPlaintext)), nil},                           // 2^14+1 bytes
		{"inner plaintext over 2^14+1", refRecord(t, secret, 0, innerPlaintext(nil, 23, tls13.MaxPlaintext+1)), tls13.ErrRecordOverflow}, // ciphertext of 2^14+18 bytes: under the outer limit
		{"ciphertext over 2^14+256", refRecord(t, secret, 0, innerPlaintext(nil, 23, tls13.MaxCiphertext-16)), tls13.ErrRecordOverflow},  // ciphertext of 2^14+257 bytes
		{"all zeros", refRecord(t, secret, 0, make([]byte, 40)), tls13.ErrUnexpectedMessage},
		{"one zero", refRecord(t, secret, 0, make([]byte, 1)), tls13.ErrUnexpectedMessage},
		{"no inner plaintext", refRecord(t, secret, 0, nil), tls13.ErrUnexpectedMessage},
		{"empty handshake", refRecord(t, secret, 0, innerPlaintext(nil, 22, 9)), tls13.ErrUnexpectedMessage},
		{"empty alert", refRecord(t, secret, 0, innerPlaintext(nil, 21, 0)), tls13.ErrUnexpectedMessage},
		{"empty application data", refRecord(t, secret, 0, innerPlaintext(nil, 23, 0)), nil},
		{"wrong sequence number", refRecord(t, secret, 1, innerPlaintext([]byte("x"), 23, 0)), tls13.ErrBadRecordMAC},
		{"shorter than a tag", []byte{23, 3, 3, 0, 15, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}, tls13.ErrBadRecordMAC},
		{"no header", []byte{23, 3, 3}, tls13.ErrRecordHeader},
		{"handshake type", append([]byte{22}, refRecord(t, secret, 0, []byte{1, 23})[1:]...), tls13.ErrRecordHeader},
		{"length too long", append(refRecord(t, secret, 0, []byte{1, 23}), 0), tls13.ErrRecordHeader},
	}
	for _, c := range open {
		_, r := newRecordPair(t, secret)
		_, _, err := r.OpenRecord(nil, c.record)
		if err != c.wantErr {
			t.Errorf("%s: err = %v, want %v", c.name, err, c.wantErr)
		}
		if wantSeq := uint64(0); err == tls13.ErrBadRecordMAC || err == tls13.ErrRecordHeader || err == tls13.ErrRecordOverflow {
			if r.Sequence() != wantSeq {
				t.Errorf("%s: a record that failed advanced the sequence number", c.name)
			}
		}
	}

	// Any modified byte, header included, fails authentication.
	rec := refRecord(t, secret, 0, innerPlaintext([]byte("hello"), 23, 2))
	for i := range rec {
		if i == 0 || i == 3 || i == 4 {
			continue // type and length are checked before the AEAD
		}
		bad := bytes.Clone(rec)
		bad[i] ^= 0x80
		_, r := newRecordPair(t, secret)
		if _, _, err := r.OpenRecord(nil, bad); err != tls13.ErrBadRecordMAC {
			t.Errorf("byte %d flipped: err = %v", i, err)
		}
	}
}

// TestRecordSequenceExhausted checks that neither direction uses sequence
// number 2^64-1, and that numbers near the top are encoded into the nonce.
func TestRecordSequenceExhausted(t *testing.T) {
	secret := randomBytes(t, 32)
	w, r := newRecordPair(t, secret)
	w.SetSequence(math.MaxUint64 - 1)
	r.SetSequence(math.MaxUint64 - 1)
	rec, err := w.SealRecord(nil, 23, []byte("last"), 0)
	if err != nil {
		t.Fatal(err)
	}
	if want := refRecord(t, secret, math.MaxUint64-1, innerPlaintext([]byte("last"), 23, 0)); !bytes.Equal(rec, want) {
		t.Fatal("record at sequence 2^64-2 differs from the reference")
	}
	if _, pt, err := r.OpenRecord(nil, rec); err != nil || string(pt) != "last" {
		t.Fatalf("OpenRecord at 2^64-2: %q, %v", pt, err)
	}
	if w.Sequence() != math.MaxUint64 {
		t.Fatalf("Sequence() = %d", w.Sequence())
	}
	if _, err := w.SealRecord(nil, 23, []byte("one more"), 0); err != tls13.ErrSequenceExhausted {
		t.Fatalf("SealRecord at 2^64-1: %v", err)
	}
	rec = refRecord(t, secret, math.MaxUint64, innerPlaintext([]byte("x"), 23, 0))
	if _, _, err := r.OpenRecord(nil, rec); err != tls13.ErrSequenceExhausted {
		t.Fatalf("OpenRecord at 2^64-1: %v", err)
	}
}

func TestRecordBadSecret(t *testing.T) {
	for _, n := range []int{0, 31, 33, 48} {
		if _, err := tls13.NewRecordProtector(make([]byte, n)); err == nil {
			t.Errorf("%d-byte secret accepted", n)
		}
		if _, err := tls13.NewPacketProtector(make([]byte, n)); err == nil {
			t.Errorf("%d-byte secret accepted by NewPacketProtector", n)
		}
	}
}

func mustPanic(t *testing.T, name, want string, f func()) {
	t.Helper()
	defer func() {
		t.Helper()
		r := recover()
		if r == nil {
			t.Errorf("%s did not panic", name)
			return
		}
		if s, ok := r.(string); !ok || !strings.Contains(s, want) {
			t.Errorf("%s panicked with %v, want %q", name, r, want)
		}
	}()
	f()
}

func TestRecordWipe(t *testing.T) {
	w, r := newRecordPair(t, randomBytes(t, 32))
	rec, err := w.SealRecord(nil, 23, []byte("x"), 0)
	if err != nil {
		t.Fatal(err)
	}
	w.Wipe()
	r.Wipe()
	w.Wipe() // twice is fine
	const msg = "RecordProtector used after Wipe"
	mustPanic(t, "SealRecord", msg, func() { w.SealRecord(nil, 23, []byte("x"), 0) })
	mustPanic(t, "OpenRecord", msg, func() { r.OpenRecord(nil, rec) })
	var zero tls13.RecordProtector
	mustPanic(t, "zero RecordProtector", "without NewRecordProtector", func() { zero.SealRecord(nil, 23, nil, 0) })
}

// TestRecordAllocs checks that sealing and opening a record allocate nothing
// when dst has the capacity.
func TestRecordAllocs(t *testing.T) {
	cryptotest.Run(t, "chacha20", func(t *testing.T) {
		secret := randomBytes(t, 32)
		w, r := newRecordPair(t, secret)
		content := randomBytes(t, 1400)
		buf := make([]byte, 0, 2*tls13.MaxCiphertext)
		out := make([]byte, 0, tls13.MaxCiphertext)
		var failed error
		allocs := testing.AllocsPerRun(100, func() {
			rec, err := w.SealRecord(buf[:0], 23, content, 17)
			if err != nil {
				failed = err
				return
			}
			if _, _, err := r.OpenRecord(out[:0], rec); err != nil {
				failed = err
			}
		})
		if failed != nil {
			t.Fatal(failed)
		}
		if allocs != 0 {
			t.Errorf("SealRecord+OpenRecord: %v allocations per record, want 0", allocs)
		}
	})
}

func TestCheckSuite(t *testing.T) {
	if err := tls13.CheckSuite(0x1303); err != nil {
		t.Fatal(err)
	}
	err := tls13.CheckSuite(0x1301)
	var se *tls13.SuiteError
	if !errors.As(err, &se) || se.Suite != 0x1301 || !strings.Contains(err.Error(), "TLS_AES_128_GCM_SHA256") {
		t.Fatalf("CheckSuite(TLS_AES_128_GCM_SHA256) = %v", err)
	}
}

func TestExpandLabelArguments(t *testing.T) {
	secret := make([]byte, 32)
	for _, c := range []struct {
		label   string
		context []byte
		length  int
	}{
		{"", nil, 32},
		{strings.Repeat("x", 250), nil, 32},
		{"key", make([]byte, 256), 32},
		{"key", nil, -1},
		{"key", nil, 1 << 16},
	} {
		if _, err := tls13.ExpandLabel(secret, c.label, c.context, c.length); err == nil {
			t.Errorf("ExpandLabel(label %d bytes, context %d bytes, length %d) accepted", len(c.label), len(c.context), c.length)
		}
	}
	if _, err := tls13.ExpandLabel(secret, strings.Repeat("x", 249), make([]byte, 255), 32); err != nil {
		t.Errorf("longest label and context refused: %v", err)
	}
}
