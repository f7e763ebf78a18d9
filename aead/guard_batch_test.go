package aead

import (
	"bytes"
	"crypto/cipher"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/chachakit/chachakit/internal/cryptotest"
)

// TestGuardBatch is the guard-page suite (guard_test.go) for SealBatch and
// OpenBatch: batches of guardBatchSize messages whose every buffer (nonce,
// text, additional data, Dst) is flush against an inaccessible page, each
// message placed the other way from its neighbours and every message both
// ways over the two runs, with the lengths around the lanes', the batch
// kernel's and the long group's limits, all messages of one length and
// mixed, under every implementation and in every lane mode of the batch
// tests (eachLaneMode). Seal into a separate Dst and in place, Open the
// same two ways, and Open with one forged message, which alone must fail
// with its Dst region zeroed. With -short each batch runs with one of the
// two AEADs, ChaCha20-Poly1305 or XChaCha20-Poly1305, instead of both.
func TestGuardBatch(t *testing.T) {
	const guardBatchSize = 9 // a full group of eight lanes and one more
	lengths := []int{0, 1, 15, 16, 17, 63, 64, 65, 100, 127, 128, 129, 191, 192, 193,
		255, 256, 257, 448, 449, 512, 1024, 1100, 1350, 1535, 1536, 1537, 2048}
	adLens := []int{0, 13, 64, 1, 65, 16, 300, 63}
	maxLen, maxAD := 0, 0
	for _, n := range lengths {
		maxLen = max(maxLen, n)
	}
	for _, n := range adLens {
		maxAD = max(maxAD, n)
	}

	type guards struct{ nonce, text, ad, dst *cryptotest.Guard }
	g := make([]guards, guardBatchSize)
	for i := range g {
		name := func(s string) string { return fmt.Sprintf("message %d's %s", i, s) }
		g[i] = guards{
			nonce: cryptotest.NewGuard(t, name("nonce"), NonceSizeX),
			text:  cryptotest.NewGuard(t, name("text"), maxLen+Overhead),
			ad:    cryptotest.NewGuard(t, name("additional data"), maxAD),
			dst:   cryptotest.NewGuard(t, name("Dst"), maxLen+Overhead),
		}
	}
	keyGuard := cryptotest.NewGuard(t, "key", KeySize)

	r := rand.New(rand.NewPCG(21, 22))
	keyBytes := randBuf(r, KeySize)
	msg := randBuf(r, maxLen)
	adAll := randBuf(r, maxAD)
	adUsed := make([]int, guardBatchSize) // message i's additional data
	for i := range adUsed {
		adUsed[i] = adLens[i%len(adLens)]
	}
	nonces := make([][]byte, guardBatchSize)
	for i := range nonces {
		nonces[i] = randBuf(r, NonceSizeX)
	}

	// The batches: one per length with every message of that length, then
	// as many with the lengths mixed.
	var batches [][]int
	for _, n := range lengths {
		b := make([]int, guardBatchSize)
		for i := range b {
			b[i] = n
		}
		batches = append(batches, b)
	}
	for j := range lengths {
		b := make([]int, guardBatchSize)
		for i := range b {
			b[i] = lengths[(j+5*i)%len(lengths)]
		}
		batches = append(batches, b)
	}

	// x/crypto's sealed messages, wants[x][j][i] for message i of batch j,
	// of ChaCha20-Poly1305 (x = 0) and XChaCha20-Poly1305 (x = 1).
	var wants [2][][][]byte
	for x, newRef := range []func([]byte) (cipher.AEAD, error){xcpNew, xcpNewX} {
		ref, err := newRef(keyBytes)
		if err != nil {
			t.Fatal(err)
		}
		for _, lens := range batches {
			w := make([][]byte, len(lens))
			for i, n := range lens {
				w[i] = ref.Seal(nil, nonces[i][:ref.NonceSize()], msg[:n], adAll[:adUsed[i]])
			}
			wants[x] = append(wants[x], w)
		}
	}

	cryptotest.RunEach(t, []string{"aead", "chacha20", "poly1305"}, func(t *testing.T) {
		eachLaneMode(t, func(t *testing.T) {
			label := cryptotest.Chosen("aead", "chacha20", "poly1305")
			for x, newAEAD := range []func([]byte) (cipher.AEAD, error){New, NewX} {
				nonceSize := []int{NonceSize, NonceSizeX}[x]
				var err error
				// first is message 0's placement; the others alternate.
				for _, first := range cryptotest.Placements {
					var (
						op     string
						batch  []int
						placed []cryptotest.Placement
					)
					what := func() string {
						return fmt.Sprintf("[%s] %s of a batch of lengths %v, additional data of %v bytes, buffers %v",
							label, op, batch, adUsed, placed)
					}
					key := keyGuard.Slice(first, KeySize)
					copy(key, keyBytes)
					op = "New"
					var b Batch
					cryptotest.CatchFault(t, what, func() {
						a, err := newAEAD(key)
						if err != nil {
							t.Fatal(err)
						}
						b = a.(Batch)
					})
					msgs := make([]Message, guardBatchSize)
					placed = make([]cryptotest.Placement, guardBatchSize)
					for j, lens := range batches {
						if testing.Short() && j%2 != x {
							// Each batch with one of the two AEADs.
							continue
						}
						batch = lens
						want := wants[x][j]
						for i := range lens {
							placed[i] = cryptotest.Placements[(i+int(first))%2]
							ad := adAll[:adUsed[i]]
							nonce := nonces[i][:nonceSize]
							msgs[i] = Message{
								Nonce:          g[i].nonce.Slice(placed[i], len(nonce)),
								AdditionalData: g[i].ad.Slice(placed[i], len(ad)),
							}
							copy(msgs[i].Nonce, nonce)
							copy(msgs[i].AdditionalData, ad)
						}
						// check compares each message's Out with wantOut(i)
						// and its Err with wantErr(i), and that no byte
						// beside a buffer changed.
						check := func(wantOut func(i int) []byte, wantErr func(i int) bool) {
							t.Helper()
							for i := range msgs {
								m := &msgs[i]
								if w := wantOut(i); !bytes.Equal(m.Out, w) || (w == nil) != (m.Out == nil) {
									t.Fatalf("%s: message %d: Out differs from x/crypto's", what(), i)
								}
								if (m.Err != nil) != wantErr(i) {
									t.Fatalf("%s: message %d: Err %v", what(), i, m.Err)
								}
								if len(m.Out) > 0 && &m.Out[0] != &m.Dst[:1][0] {
									t.Fatalf("%s: message %d: Out is not in Dst", what(), i)
								}
								cryptotest.CheckIntact(t, what, g[i].nonce, g[i].text, g[i].ad, g[i].dst)
							}
						}
						never := func(int) bool { return false }

						op = "SealBatch"
						for i, n := range lens {
							msgs[i].Text = g[i].text.Slice(placed[i], n)
							copy(msgs[i].Text, msg)
							msgs[i].Dst = g[i].dst.Slice(placed[i], n+Overhead)[:0]
						}
						cryptotest.CatchFault(t, what, func() { b.SealBatch(msgs) })
						check(func(i int) []byte { return want[i] }, never)

						op = "SealBatch in place"
						for i, n := range lens {
							buf := g[i].text.Slice(placed[i], n+Overhead)
							copy(buf, msg[:n])
							msgs[i].Text, msgs[i].Dst = buf[:n], buf[:0]
						}
						cryptotest.CatchFault(t, what, func() { b.SealBatch(msgs) })
						check(func(i int) []byte { return want[i] }, never)

						op = "OpenBatch"
						for i, n := range lens {
							msgs[i].Text = g[i].text.Slice(placed[i], n+Overhead)
							copy(msgs[i].Text, want[i])
							msgs[i].Dst = g[i].dst.Slice(placed[i], n)[:0]
						}
						cryptotest.CatchFault(t, what, func() { err = b.OpenBatch(msgs) })
						if err != nil {
							t.Fatalf("%s: %v", what(), err)
						}
						check(func(i int) []byte { return msg[:lens[i]] }, never)

						op = "OpenBatch in place"
						for i, n := range lens {
							buf := g[i].text.Slice(placed[i], n+Overhead)
							copy(buf, want[i])
							msgs[i].Text, msgs[i].Dst = buf, buf[:0]
						}
						cryptotest.CatchFault(t, what, func() { err = b.OpenBatch(msgs) })
						if err != nil {
							t.Fatalf("%s: %v", what(), err)
						}
						check(func(i int) []byte { return msg[:lens[i]] }, never)

						forged := j % guardBatchSize
						op = fmt.Sprintf("OpenBatch with message %d forged", forged)
						for i, n := range lens {
							msgs[i].Text = g[i].text.Slice(placed[i], n+Overhead)
							copy(msgs[i].Text, want[i])
							msgs[i].Dst = g[i].dst.Slice(placed[i], n)
							for k := range msgs[i].Dst {
								msgs[i].Dst[k] = 0xa5
							}
							msgs[i].Dst = msgs[i].Dst[:0]
						}
						msgs[forged].Text[lens[forged]+j%Overhead] ^= 1
						cryptotest.CatchFault(t, what, func() { err = b.OpenBatch(msgs) })
						if err == nil {
							t.Fatalf("%s: no error", what())
						}
						check(func(i int) []byte {
							if i == forged {
								return nil
							}
							return msg[:lens[i]]
						}, func(i int) bool { return i == forged })
						if d := msgs[forged].Dst[:lens[forged]]; !bytes.Equal(d, make([]byte, len(d))) {
							t.Fatalf("%s: the forged message's Dst region is not zeroed", what())
						}
					}
				}
			}
		})
	})
}
