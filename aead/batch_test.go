package aead

import (
	"bytes"
	"crypto/cipher"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"

	"github.com/chachakit/chachakit/internal/alias"
	"github.com/chachakit/chachakit/internal/cryptotest"
)

// The batch tests compare SealBatch and OpenBatch with a loop of Seal and
// Open calls on the same AEAD (and Seal with x/crypto's), under every
// implementation, both with the batch's own choice of lanes or loop and
// with the lane groups forced onto whatever LaneBlocks runs.

var _ Batch = (*chacha20poly1305)(nil)
var _ Batch = (*xchacha20poly1305)(nil)

type batchAEAD struct {
	name      string
	ours, ref cipher.AEAD
}

func batchAEADs(t *testing.T, r *rand.Rand) []batchAEAD {
	key := make([]byte, KeySize)
	for i := range key {
		key[i] = byte(r.Uint32())
	}
	c, _ := New(key)
	x, _ := NewX(key)
	rc, err := xcpNew(key)
	if err != nil {
		t.Fatal(err)
	}
	rx, _ := xcpNewX(key)
	return []batchAEAD{{"ChaCha20Poly1305", c, rc}, {"XChaCha20Poly1305", x, rx}}
}

// eachLaneMode runs f with the batch's own choice, with forced lanes, and
// with forced lanes without the batch kernel (where it runs, the short
// messages' lanes are otherwise not reached).
func eachLaneMode(t *testing.T, f func(t *testing.T)) {
	t.Run("default", f)
	t.Run("lanes", func(t *testing.T) {
		forceLanes = true
		defer func() { forceLanes = false }()
		f(t)
	})
	t.Run("lanes-long", func(t *testing.T) {
		forceLanes, forceLong = true, true
		defer func() { forceLanes, forceLong = false, false }()
		f(t)
	})
	if batchKernel() {
		t.Run("lanes-no-kernel", func(t *testing.T) {
			forceLanes, noKernel = true, true
			defer func() { forceLanes, noKernel = false, false }()
			f(t)
		})
	}
}

func randBuf(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// TestBatchLengths seals and opens every length 0..1100, shuffled into
// batches of 1 to 130 messages, half of them in place, with additional
// data of 0 to 80 bytes (the batch kernel takes up to 64) and with and
// without room in Dst.
func TestBatchLengths(t *testing.T) {
	lengths := make([]int, 1101)
	for i := range lengths {
		lengths[i] = i
	}
	testBatches(t, []string{"aead", "chacha20", "poly1305"}, lengths, 130, 7)
}

// TestBatchShort is TestBatchLengths for the lengths around the batch
// kernel's (0..64 bytes, with additional data of 0..80): every length
// 0..80 four times, shuffled into batches of 1 to 20 messages, so that
// runs of kernel messages start and end at every position.
func TestBatchShort(t *testing.T) {
	var lengths []int
	for range 4 {
		for n := range 81 {
			lengths = append(lengths, n)
		}
	}
	testBatches(t, []string{"aead"}, lengths, 20, 15)
}

// TestBatchLong is TestBatchLengths for the long group's lengths above
// 1100 bytes, up to longMax and past it (every length 1101..longMax+53),
// shuffled into batches of 1 to 9 messages, so that the groups' passes
// MAC messages in pairs, alone beside the dummy chain, and not at all.
func TestBatchLong(t *testing.T) {
	var lengths []int
	for n := 1101; n <= longMax+53; n++ {
		lengths = append(lengths, n)
	}
	testBatches(t, []string{"chacha20"}, lengths, 9, 23)
}

// testBatches runs testBatch on lengths, shuffled (seed) into batches of 1
// to maxSize messages in turn, under every implementation of pkgs and in
// every lane mode.
func testBatches(t *testing.T, pkgs []string, lengths []int, maxSize int, seed uint64) {
	cryptotest.RunEach(t, pkgs, func(t *testing.T) {
		eachLaneMode(t, func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, seed+1))
			r.Shuffle(len(lengths), func(i, j int) { lengths[i], lengths[j] = lengths[j], lengths[i] })
			for _, a := range batchAEADs(t, r) {
				size := 1
				for rest := lengths; len(rest) > 0; size = size%maxSize + 1 {
					k := min(size, len(rest))
					testBatch(t, r, a, rest[:k])
					rest = rest[k:]
				}
			}
		})
	})
}

func testBatch(t *testing.T, r *rand.Rand, a batchAEAD, lengths []int) {
	t.Helper()
	msgs := make([]Message, len(lengths))
	plain := make([][]byte, len(lengths))
	want := make([][]byte, len(lengths))
	for i, n := range lengths {
		m := &msgs[i]
		plain[i] = randBuf(r, n)
		m.Nonce = randBuf(r, a.ours.NonceSize())
		if r.IntN(3) > 0 {
			m.AdditionalData = randBuf(r, r.IntN(81))
		}
		prefix := randBuf(r, r.IntN(3))
		want[i] = a.ref.Seal(bytes.Clone(prefix), m.Nonce, plain[i], m.AdditionalData)
		switch r.IntN(3) {
		case 0: // in place, as WireGuard seals
			buf := make([]byte, len(prefix)+n+Overhead)
			copy(buf, prefix)
			copy(buf[len(prefix):], plain[i])
			m.Dst, m.Text = buf[:len(prefix)], buf[len(prefix):len(prefix)+n]
		case 1: // a separate buffer with room
			m.Dst = append(make([]byte, 0, len(prefix)+n+Overhead), prefix...)
			m.Text = bytes.Clone(plain[i])
		default: // no room: Seal allocates
			m.Dst, m.Text = prefix, bytes.Clone(plain[i])
		}
		m.Err = errOpen // SealBatch must clear it
	}
	a.ours.(Batch).SealBatch(msgs)
	for i := range msgs {
		if m := &msgs[i]; !bytes.Equal(m.Out, want[i]) || m.Err != nil {
			t.Fatalf("%s: SealBatch of %d messages: message %d (%d bytes) = %x, %v; want %x",
				a.name, len(msgs), i, lengths[i], m.Out, m.Err, want[i])
		}
		if single := a.ours.Seal(nil, msgs[i].Nonce, plain[i], msgs[i].AdditionalData); !bytes.Equal(single, want[i][len(want[i])-lengths[i]-Overhead:]) {
			t.Fatalf("%s: Seal of %d bytes differs from x/crypto", a.name, lengths[i])
		}
	}

	// Open the sealed messages, half of them in place.
	for i := range msgs {
		m := &msgs[i]
		p := len(m.Out) - lengths[i] - Overhead
		m.Text = m.Out[p:]
		switch r.IntN(2) {
		case 0:
			m.Dst = m.Text[:0]
		default:
			m.Dst = nil
		}
		m.Out, m.Err = []byte("stale"), errOpen
	}
	if err := a.ours.(Batch).OpenBatch(msgs); err != nil {
		t.Fatalf("%s: OpenBatch of %d messages: %v", a.name, len(msgs), err)
	}
	for i := range msgs {
		if m := &msgs[i]; !bytes.Equal(m.Out, plain[i]) || m.Err != nil {
			t.Fatalf("%s: OpenBatch message %d (%d bytes) = %x, %v", a.name, i, lengths[i], m.Out, m.Err)
		}
	}
}

// TestBatchForged opens batches in which one message at a time is forged
// (a flipped ciphertext, tag or additional data bit, or a ciphertext
// shorter than a tag): only that message fails, with Open's error, a nil Out
// and a zeroed dst region; the others open.
func TestBatchForged(t *testing.T) {
	lengths := []int{0, 1, 15, 16, 63, 64, 65, 100, 191, 192, 193, 448, 449, 512, 1024, 1100, 1350, 1536, 3000, 40, 33}
	cryptotest.RunEach(t, []string{"aead", "chacha20", "poly1305"}, func(t *testing.T) {
		eachLaneMode(t, func(t *testing.T) {
			r := rand.New(rand.NewPCG(9, 10))
			for _, a := range batchAEADs(t, r) {
				plain := make([][]byte, len(lengths))
				sealed := make([][]byte, len(lengths))
				nonces := make([][]byte, len(lengths))
				ads := make([][]byte, len(lengths))
				for i, n := range lengths {
					plain[i], nonces[i], ads[i] = randBuf(r, n), randBuf(r, a.ours.NonceSize()), randBuf(r, i%3)
					sealed[i] = a.ours.Seal(nil, nonces[i], plain[i], ads[i])
				}
				for bad := range lengths {
					for _, forge := range []string{"ciphertext", "tag", "ad", "short"} {
						if forge == "ciphertext" && lengths[bad] == 0 || forge == "ad" && len(ads[bad]) == 0 {
							continue
						}
						msgs := make([]Message, len(lengths))
						for i := range msgs {
							m := &msgs[i]
							m.Nonce, m.AdditionalData, m.Text = nonces[i], bytes.Clone(ads[i]), bytes.Clone(sealed[i])
							m.Dst = bytes.Repeat([]byte{0xee}, 2)[:1] // one byte of prefix, room for little
							if i%2 == 0 {
								m.Dst = append(make([]byte, 0, 1+len(plain[i])), 0xee)
							}
						}
						mb := &msgs[bad]
						switch forge {
						case "ciphertext":
							mb.Text[r.IntN(lengths[bad])] ^= 1 << r.IntN(8)
						case "tag":
							mb.Text[lengths[bad]+r.IntN(Overhead)] ^= 1 << r.IntN(8)
						case "ad":
							mb.AdditionalData[0] ^= 1
						case "short":
							mb.Text = mb.Text[len(mb.Text)-r.IntN(Overhead):]
						}
						// The dst region of the forged message, filled so that
						// zeroing shows.
						region := mb.Dst[1:cap(mb.Dst)]
						for i := range region {
							region[i] = 0xcc
						}
						err := a.ours.(Batch).OpenBatch(msgs)
						if err != errOpen {
							t.Fatalf("%s: forged %s at %d: OpenBatch = %v", a.name, forge, bad, err)
						}
						for i := range msgs {
							m := &msgs[i]
							if i == bad {
								if m.Err != errOpen || m.Out != nil {
									t.Fatalf("%s: forged %s at %d: Out %x, Err %v", a.name, forge, bad, m.Out, m.Err)
								}
								if forge != "short" && len(region) >= lengths[bad] && !bytes.Equal(region[:lengths[bad]], make([]byte, lengths[bad])) {
									t.Fatalf("%s: forged %s at %d: dst region not zeroed", a.name, forge, bad)
								}
								continue
							}
							if m.Err != nil || !bytes.Equal(m.Out[1:], plain[i]) || m.Out[0] != 0xee {
								t.Fatalf("%s: forged %s at %d: message %d: Out %x, Err %v", a.name, forge, bad, i, m.Out, m.Err)
							}
						}
					}
				}
			}
		})
	})
}

// TestBatchAliasing runs random batches whose messages' buffers are slices
// of one arena (of up to 700-byte messages in a third of the trials), so
// that they overlap each other in every way, through
// SealBatch (or OpenBatch) and through a loop of Seal (or Open) calls on a
// copy of the arena. The arenas, the results and any panic must agree (the
// batch's panic text is the loop's followed by the message's index).
func TestBatchAliasing(t *testing.T) {
	trials := 3000
	if testing.Short() {
		trials = 500
	}
	eachLaneMode(t, func(t *testing.T) {
		r := rand.New(rand.NewPCG(11, 12))
		var panics, opened, flushes int
		defer func() {
			t.Logf("%d panics, %d messages opened, %d trials with overlapping messages", panics, opened, flushes)
		}()
		for _, a := range batchAEADs(t, r) {
			for trial := range trials {
				opening := trial%2 == 1
				// One trial in three with messages long enough for the
				// long group (whose Seals may write in flush) in a larger
				// arena.
				arenaLen, textMax := 600, 120
				if trial%3 == 2 {
					arenaLen, textMax = 3000, 700
				}
				arena := randBuf(r, arenaLen)
				type spec struct{ dst, dstCap, nonce, text, textLen, ad, adLen int }
				specs := make([]spec, 1+r.IntN(12))
				msgOf := func(ar []byte, s spec) Message {
					return Message{
						Dst:            ar[s.dst:s.dst:min(len(ar), s.dst+s.dstCap)],
						Nonce:          ar[s.nonce : s.nonce+a.ours.NonceSize()],
						Text:           ar[s.text : s.text+s.textLen],
						AdditionalData: ar[s.ad : s.ad+s.adLen],
					}
				}
				for i := range specs {
					s := &specs[i]
					// Mostly messages that are valid on their own, so that
					// the overlaps between messages are what is tested; one
					// in 40 may panic.
					for try := 0; ; try++ {
						s.textLen = r.IntN(textMax)
						if opening {
							s.textLen += Overhead / 2
						}
						s.adLen = r.IntN(3) * r.IntN(20)
						s.text = r.IntN(len(arena) - s.textLen - Overhead)
						s.nonce = r.IntN(len(arena) - a.ours.NonceSize())
						s.ad = r.IntN(len(arena) - s.adLen)
						s.dst = r.IntN(len(arena))
						if r.IntN(3) == 0 { // in place
							s.dst = s.text
						}
						s.dstCap = len(arena) - s.dst
						if r.IntN(4) == 0 {
							s.dstCap = r.IntN(s.dstCap + 1)
						}
						m := msgOf(arena, *s)
						if checkSeal(a.ours.NonceSize(), &m) == "" && checkOpen(a.ours.NonceSize(), &m) == "" || try > 20 || r.IntN(40) == 0 {
							break
						}
					}
					if opening && r.IntN(2) == 0 {
						// A valid message, sealed into the arena before the
						// batch (later ones may overwrite it).
						pre := Message{
							Dst:            arena[s.text:s.text],
							Nonce:          arena[s.nonce : s.nonce+a.ours.NonceSize()],
							Text:           randBuf(r, s.textLen),
							AdditionalData: arena[s.ad : s.ad+s.adLen],
						}
						if checkSeal(a.ours.NonceSize(), &pre) == "" {
							a.ours.Seal(pre.Dst, pre.Nonce, pre.Text, pre.AdditionalData)
							s.textLen += Overhead
						}
					}
				}
				build := func(ar []byte) []Message {
					msgs := make([]Message, len(specs))
					for i, s := range specs {
						msgs[i] = msgOf(ar, s)
					}
					return msgs
				}
				loopArena, batchArena := bytes.Clone(arena), bytes.Clone(arena)
				loopMsgs, batchMsgs := build(loopArena), build(batchArena)

				var loopPanic, batchPanic string
				var batchErr error
				func() {
					at := 0
					defer func() {
						if p := recover(); p != nil {
							loopPanic = fmt.Sprintf("%v (batch message %d)", p, at)
						}
					}()
					for i := range loopMsgs {
						m := &loopMsgs[i]
						at = i
						if opening {
							m.Out, m.Err = a.ours.Open(m.Dst, m.Nonce, m.Text, m.AdditionalData)
						} else {
							m.Out = a.ours.Seal(m.Dst, m.Nonce, m.Text, m.AdditionalData)
						}
					}
				}()
				func() {
					defer func() {
						if p := recover(); p != nil {
							batchPanic = fmt.Sprint(p)
						}
					}()
					if opening {
						batchErr = a.ours.(Batch).OpenBatch(batchMsgs)
					} else {
						a.ours.(Batch).SealBatch(batchMsgs)
					}
				}()
				where := fmt.Sprintf("%s trial %d (open %v, %d messages)", a.name, trial, opening, len(specs))
				if batchPanic != "" {
					panics++
				}
				if overlapping(batchMsgs) {
					flushes++
				}
				if batchPanic != loopPanic {
					t.Fatalf("%s: batch panic %q, loop panic %q", where, batchPanic, loopPanic)
				}
				if !bytes.Equal(loopArena, batchArena) {
					t.Fatalf("%s: arenas differ", where)
				}
				var firstErr error
				for i := range loopMsgs {
					l, b := &loopMsgs[i], &batchMsgs[i]
					if !bytes.Equal(l.Out, b.Out) || (l.Out == nil) != (b.Out == nil) || l.Err != b.Err {
						t.Fatalf("%s: message %d: batch %x, %v; loop %x, %v\nspecs %+v", where, i, b.Out, b.Err, l.Out, l.Err, specs)
					}
					if opening && l.Out != nil {
						opened++
					}
					if firstErr == nil && l.Err != nil {
						firstErr = l.Err
					}
				}
				if batchPanic == "" && batchErr != firstErr {
					t.Fatalf("%s: OpenBatch = %v, want %v", where, batchErr, firstErr)
				}
			}
		}
	})
}

// TestBatchPanics checks that a message Seal or Open would panic on makes
// the batch panic with x/crypto's text and the message's index, after the
// messages before it, and before the ones after it.
func TestBatchPanics(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	refPanic := func(f func()) (msg string) {
		defer func() { msg = fmt.Sprint(recover()) }()
		f()
		return ""
	}
	for _, a := range batchAEADs(t, r) {
		for _, bad := range []int{0, 1, 5} {
			for _, kind := range []string{"nonce", "overlap", "ad overlap"} {
				for _, opening := range []bool{false, true} {
					msgs := make([]Message, 8)
					for i := range msgs {
						m := &msgs[i]
						m.Nonce = randBuf(r, a.ours.NonceSize())
						m.Text = randBuf(r, 40)
						if opening {
							m.Text = a.ours.Seal(nil, m.Nonce, m.Text, nil)
						}
					}
					m := &msgs[bad]
					var ref func()
					switch kind {
					case "nonce":
						m.Nonce = m.Nonce[1:]
					case "overlap":
						buf := make([]byte, 200)
						copy(buf[1:], m.Text)
						m.Text, m.Dst = buf[1:1+len(m.Text)], buf[:0]
					case "ad overlap":
						m.Dst = make([]byte, 0, 100)
						m.AdditionalData = m.Dst[:10]
					}
					if opening {
						ref = func() { a.ref.Open(m.Dst, m.Nonce, m.Text, m.AdditionalData) }
					} else {
						ref = func() { a.ref.Seal(m.Dst, m.Nonce, m.Text, m.AdditionalData) }
					}
					want := refPanic(ref) + fmt.Sprintf(" (batch message %d)", bad)
					got := refPanic(func() {
						if opening {
							a.ours.(Batch).OpenBatch(msgs)
						} else {
							a.ours.(Batch).SealBatch(msgs)
						}
					})
					if got != want {
						t.Fatalf("%s %s at %d (open %v): panic %q, want %q", a.name, kind, bad, opening, got, want)
					}
					for i := range msgs {
						if done := msgs[i].Out != nil; done != (i < bad) {
							t.Fatalf("%s %s at %d: message %d done = %v", a.name, kind, bad, i, done)
						}
					}
				}
			}
		}
	}
}

func TestBatchAfterWipe(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	for _, a := range batchAEADs(t, r) {
		a.ours.(Wiper).Wipe()
		a.ours.(Batch).SealBatch(nil) // nothing to do: no panic, as a loop
		// A ciphertext shorter than a tag fails without a panic, as Open's
		// does; one of 16 bytes needs the key.
		msgs := []Message{{Nonce: make([]byte, a.ours.NonceSize()), Text: make([]byte, Overhead)}}
		want := "chacha20poly1305: use of an AEAD after Wipe"
		for _, f := range []func(){
			func() { a.ours.(Batch).SealBatch(msgs) },
			func() { a.ours.(Batch).OpenBatch(msgs) },
		} {
			func() {
				defer func() {
					if p := recover(); fmt.Sprint(p) != want {
						t.Errorf("%s: panic %v, want %q", a.name, p, want)
					}
				}()
				f()
			}()
		}
	}
}

// TestBatchAllocs checks that a batch allocates nothing when every Dst has
// room, in the lane groups and in the loop.
func TestBatchAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 18))
	// A mixed batch, and one of short messages only (the batch kernel's
	// runs, where it runs).
	for _, lengths := range [][]int{{0, 64, 80, 1350}, {64, 0, 33}} {
		eachLaneMode(t, func(t *testing.T) { testBatchAllocs(t, r, lengths) })
	}
}

func testBatchAllocs(t *testing.T, r *rand.Rand, lengths []int) {
	for _, a := range batchAEADs(t, r) {
		msgs := make([]Message, 64)
		for i := range msgs {
			n := lengths[i%len(lengths)]
			msgs[i] = Message{Nonce: randBuf(r, a.ours.NonceSize()), Text: randBuf(r, n), Dst: make([]byte, 0, n+Overhead)}
		}
		b := a.ours.(Batch)
		if n := testing.AllocsPerRun(10, func() { b.SealBatch(msgs) }); n != 0 {
			t.Errorf("%s: SealBatch allocates %v times", a.name, n)
		}
		for i := range msgs {
			msgs[i].Text, msgs[i].Dst = msgs[i].Out, msgs[i].Out[:0]
		}
		if n := testing.AllocsPerRun(1, func() { b.OpenBatch(msgs) }); n != 0 {
			t.Errorf("%s: OpenBatch allocates %v times", a.name, n)
		}
	}
}

// TestBatchConcurrent seals and opens batches from several goroutines on
// one AEAD (run it under -race).
func TestBatchConcurrent(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 20))
	for _, a := range batchAEADs(t, r) {
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				r := rand.New(rand.NewPCG(uint64(g), 21))
				for range 20 {
					msgs := make([]Message, 1+r.IntN(40))
					want := make([][]byte, len(msgs))
					for i := range msgs {
						m := &msgs[i]
						m.Nonce, m.Text = randBuf(r, a.ours.NonceSize()), randBuf(r, r.IntN(300))
						want[i] = a.ref.Seal(nil, m.Nonce, m.Text, nil)
					}
					a.ours.(Batch).SealBatch(msgs)
					for i := range msgs {
						if !bytes.Equal(msgs[i].Out, want[i]) {
							t.Errorf("%s: goroutine %d: message %d differs", a.name, g, i)
							return
						}
						msgs[i].Text = msgs[i].Out
					}
					if err := a.ours.(Batch).OpenBatch(msgs); err != nil {
						t.Errorf("%s: goroutine %d: %v", a.name, g, err)
						return
					}
				}
			}()
		}
		wg.Wait()
	}
}

// overlapping reports whether any two messages' buffers overlap.
func overlapping(msgs []Message) bool {
	for i := range msgs {
		for j := range i {
			a, b := &msgs[i], &msgs[j]
			for _, x := range [][]byte{a.Dst[:cap(a.Dst)], a.Nonce, a.Text, a.AdditionalData} {
				for _, y := range [][]byte{b.Dst[:cap(b.Dst)], b.Nonce, b.Text, b.AdditionalData} {
					if alias.AnyOverlap(x, y) {
						return true
					}
				}
			}
		}
	}
	return false
}
