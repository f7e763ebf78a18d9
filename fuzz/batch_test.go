package fuzz

import (
	"testing"

	"github.com/chachakit/chachakit/aead"
)

// FuzzSealBatch seals a batch of messages with aead.Batch's SealBatch and
// each message with x/crypto's Seal, which must agree byte for byte (results
// and whole dst buffers), then opens the batch with OpenBatch, with some
// messages changed, against x/crypto's Open of each: same results, error
// texts, nil results and zeroed output regions for the changed ones.
//
// mode: bit 0 selects XChaCha20-Poly1305. program describes the messages,
// four bytes each (at most 130): a length of 0..1023 (the first byte and
// the low two bits of the second), additional data of 0..31 bytes (the
// second byte's high bits and the third), the buffer layout (layoutFor of
// the fourth byte, whose bit 0 changes a byte of the sealed message before
// OpenBatch). Nonces and contents are derived from the message's index.
func FuzzSealBatch(f *testing.F) {
	f.Add([]byte("key"), []byte{64, 0, 0, 0, 64, 0, 0, 2, 80, 0, 0, 3, 0x8c, 5, 0, 2, 0, 0, 0, 0}, uint8(0))
	f.Add([]byte("key"), []byte{40, 0, 5, 2, 0x5c, 1, 0, 2, 32, 0, 0, 0x41}, uint8(1))
	f.Fuzz(func(t *testing.T, key, program []byte, mode uint8) {
		x := mode&1 != 0
		key = fit(key, aead.KeySize)
		_, ref, _, _ := newAEADs(key, x)
		n := min(len(program)/4, 130)
		type msg struct {
			l                    aeadLayout
			forge                bool
			nonce, plaintext, ad []byte
		}
		msgs := make([]msg, n)
		for i := range msgs {
			p := program[4*i : 4*i+4]
			m := &msgs[i]
			m.l, m.forge = layoutFor(p[3]), p[3]&1 != 0
			m.nonce = make([]byte, ref.NonceSize())
			m.nonce[0], m.nonce[1] = byte(i), byte(i>>8)
			m.plaintext = grown(nil, int(p[0])|int(p[1]&3)<<8)
			m.ad = grown([]byte{byte(i)}, int(p[1]>>2|p[2]<<6)%32)[1:]
		}

		// x/crypto, one call at a time.
		wantSeal := make([]aeadResult, n)
		sealed := make([][]byte, n)
		wantOpen := make([]aeadResult, n)
		for i, m := range msgs {
			wantSeal[i] = sealWith(ref, m.l, m.nonce, m.plaintext, m.ad)
			sealed[i] = clone(wantSeal[i].ret[m.l.prefix:])
			if m.forge {
				sealed[i][(i*7)%len(sealed[i])] ^= 0x40
			}
			wantOpen[i] = openWith(ref, m.l, m.nonce, sealed[i], m.ad)
		}

		forEachImpl(t, aeadPkgs, func(label string) {
			ours, _, _, _ := newAEADs(key, x)
			batch := make([]aead.Message, n)
			bufs := make([][]byte, n)
			for i, m := range msgs {
				var src []byte
				bufs[i], batch[i].Dst, src = m.l.prepare(m.plaintext, len(m.plaintext)+aead.Overhead)
				batch[i].Nonce, batch[i].Text, batch[i].AdditionalData = m.nonce, src, m.ad
			}
			ours.(aead.Batch).SealBatch(batch)
			for i := range batch {
				got := aeadResult{ret: batch[i].Out, buf: bufs[i]}
				got.reused = len(got.ret) > 0 && &got.ret[0] == &bufs[i][0]
				got.compare(t, label, "SealBatch's message", wantSeal[i])
				if batch[i].Err != nil {
					t.Fatalf("%s: SealBatch sets Err %v", label, batch[i].Err)
				}
			}

			var firstErr string
			for i, m := range msgs {
				var src []byte
				bufs[i], batch[i].Dst, src = m.l.prepare(sealed[i], len(sealed[i])-aead.Overhead)
				batch[i].Text = src
				if firstErr == "" {
					firstErr = wantOpen[i].err
				}
			}
			err := ours.(aead.Batch).OpenBatch(batch)
			if got := errText(err); got != firstErr {
				t.Fatalf("%s: OpenBatch returns %q, want %q", label, got, firstErr)
			}
			for i := range batch {
				got := aeadResult{ret: batch[i].Out, buf: bufs[i], err: errText(batch[i].Err)}
				got.reused = len(got.ret) > 0 && &got.ret[0] == &bufs[i][0]
				got.compare(t, label, "OpenBatch's message", wantOpen[i])
			}
		})
	})
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
