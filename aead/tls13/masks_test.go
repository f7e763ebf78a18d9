package tls13_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/chachakit/chachakit/aead/tls13"
	"github.com/chachakit/chachakit/internal/cryptotest"
)

// TestHeaderMasks compares HeaderMasks with x/crypto's mask of each sample,
// for every count 0..40 (so every lane count and a pass and a half), with
// counters at the edges, 0 and 2^32-1, under every keystream
// implementation.
func TestHeaderMasks(t *testing.T) {
	cryptotest.Run(t, "chacha20", func(t *testing.T) {
		p, hp := protectorAndHP(t)
		for n := range 41 {
			samples := make([][]byte, n)
			// The samples lie inside packets, at any offset.
			for i := range samples {
				pkt := randomBytes(t, 40)
				off := i % 7
				samples[i] = pkt[off : off+tls13.SampleSize]
				switch i % 5 {
				case 1:
					copy(samples[i], []byte{0xff, 0xff, 0xff, 0xff})
				case 2:
					copy(samples[i], []byte{0, 0, 0, 0})
				}
			}
			masks := make([][tls13.MaskSize]byte, n)
			p.HeaderMasks(masks, samples)
			for i := range samples {
				if want := refHeaderMask(t, hp, samples[i]); !bytes.Equal(masks[i][:], want) {
					t.Fatalf("HeaderMasks of %d samples: mask %d = %x, want %x", n, i, masks[i], want)
				}
			}
		}
	})
}

func TestHeaderMasksPanics(t *testing.T) {
	p, err := tls13.NewPacketProtector(randomBytes(t, 32))
	if err != nil {
		t.Fatal(err)
	}
	good := randomBytes(t, 16)
	for _, c := range []struct {
		masks   int
		samples [][]byte
		want    string
	}{
		{2, [][]byte{good}, "tls13: HeaderMasks needs one mask per sample"},
		{2, [][]byte{good, good[:15]}, "tls13: QUIC header protection sample is not 16 bytes"},
		{1, [][]byte{append(good, 0)}, "tls13: QUIC header protection sample is not 16 bytes"},
	} {
		masks := make([][tls13.MaskSize]byte, c.masks)
		got := func() (msg string) {
			defer func() { msg = fmt.Sprint(recover()) }()
			p.HeaderMasks(masks, c.samples)
			return ""
		}()
		if got != c.want {
			t.Errorf("panic %q, want %q", got, c.want)
		}
		for _, m := range masks {
			if m != [tls13.MaskSize]byte{} {
				t.Errorf("HeaderMasks wrote a mask before panicking")
			}
		}
	}
}

func TestHeaderMasksAllocs(t *testing.T) {
	cryptotest.Run(t, "chacha20", func(t *testing.T) {
		p, _ := tls13.NewPacketProtector(randomBytes(t, 32))
		samples := make([][]byte, 32)
		for i := range samples {
			samples[i] = randomBytes(t, 16)
		}
		masks := make([][tls13.MaskSize]byte, 32)
		if n := testing.AllocsPerRun(100, func() { p.HeaderMasks(masks, samples) }); n != 0 {
			t.Errorf("HeaderMasks allocates %v times", n)
		}
	})
}

// protectorAndHP returns a PacketProtector for a random secret and its
// header protection key.
func protectorAndHP(t *testing.T) (*tls13.PacketProtector, []byte) {
	t.Helper()
	secret := randomBytes(t, 32)
	p, err := tls13.NewPacketProtector(secret)
	if err != nil {
		t.Fatal(err)
	}
	hp, err := tls13.ExpandLabel(secret, "quic hp", nil, 32)
	if err != nil {
		t.Fatal(err)
	}
	return p, hp
}
