package tls13

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// naiveLastNonZero is the scan of RFC 8446, Section 5.4, as written: from
// the end toward the beginning until a non-zero byte.
func naiveLastNonZero(b []byte) (int, uint8) {
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] != 0 {
			return i, b[i]
		}
	}
	return -1, 0
}

// TestLastNonZero compares the branch-free scan with the naive one for every
// length up to 80 and every position of the last non-zero byte, with and
// without other non-zero bytes before it.
func TestLastNonZero(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 0; n <= 80; n++ {
		for last := -1; last < n; last++ {
			for _, dense := range []bool{false, true} {
				b := make([]byte, n)
				if dense {
					for i := 0; i < last; i++ {
						b[i] = byte(rng.Uint32())
					}
				}
				if last >= 0 {
					b[last] = byte(rng.Uint32()) | 1
					if rng.IntN(4) == 0 {
						b[last] = 0x80
					}
				}
				gotPos, gotVal := lastNonZero(b)
				wantPos, wantVal := naiveLastNonZero(b)
				if gotPos != wantPos || gotVal != wantVal {
					t.Fatalf("lastNonZero(%x) = %d, %#x, want %d, %#x", b, gotPos, gotVal, wantPos, wantVal)
				}
			}
		}
	}
}

func TestNonZeroMask(t *testing.T) {
	for _, x := range []uint64{0, 1, 2, 0x80, 0xff, 1 << 63, 1<<63 + 1, 1<<64 - 1, 0x0100} {
		want := uint64(0)
		if x != 0 {
			want = 1<<64 - 1
		}
		if got := nonZeroMask(x); got != want {
			t.Errorf("nonZeroMask(%#x) = %#x", x, got)
		}
	}
}

// TestWipeClearsMemory looks at the fields after Wipe.
func TestWipeClearsMemory(t *testing.T) {
	secret := bytes.Repeat([]byte{0xa5}, 32)
	r, err := NewRecordProtector(secret)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.SealRecord(nil, 23, []byte("x"), 0); err != nil {
		t.Fatal(err)
	}
	r.Wipe()
	if r.aead != nil || r.iv != [IVSize]byte{} || r.nonce != [IVSize]byte{} || r.seq != 0 {
		t.Errorf("RecordProtector after Wipe: %+v", r)
	}

	p, err := NewPacketProtector(secret)
	if err != nil {
		t.Fatal(err)
	}
	q, err := p.Next()
	if err != nil {
		t.Fatal(err)
	}
	p.Seal(nil, 1, []byte{0x40}, []byte("x"))
	p.Wipe()
	if p.aead != nil || p.iv != [IVSize]byte{} || p.nonce != [IVSize]byte{} || p.hp != [KeySize]byte{} || p.secret != [SecretSize]byte{} {
		t.Errorf("PacketProtector after Wipe: %+v", p)
	}
	// The next-phase protector is separate and still keyed.
	if q.aead == nil || q.hp == [KeySize]byte{} || q.secret == [SecretSize]byte{} {
		t.Error("wiping a protector wiped the one Next returned")
	}
}

// TestXORPacketNumber checks that exactly pnLen bytes are masked.
func TestXORPacketNumber(t *testing.T) {
	mask := [MaskSize]byte{0xff, 0x11, 0x22, 0x33, 0x44}
	for pnLen := 1; pnLen <= 4; pnLen++ {
		pn := []byte{0, 0, 0, 0}
		xorPacketNumber(pn, &mask, pnLen)
		want := make([]byte, 4)
		copy(want, mask[1:1+pnLen])
		if !bytes.Equal(pn, want) {
			t.Errorf("pnLen %d: %x, want %x", pnLen, pn, want)
		}
	}
}
