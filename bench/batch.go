package main

import (
	"crypto/cipher"
	"encoding/binary"
	"fmt"
	"io"
	"time"

	"github.com/chachakit/chachakit/aead"
	"github.com/chachakit/chachakit/aead/tls13"
	"github.com/chachakit/chachakit/internal/aeadasm"
	"github.com/chachakit/chachakit/internal/chacha20core"
)

// A batchCase is one workload of aead.Batch: the messages' lengths, sealed
// or opened in one call (SealBatch, OpenBatch) or in a loop of Seal or Open
// calls. Every message has its own nonce and no additional data, as in
// WireGuard's transport messages.
type batchCase struct {
	name    string
	desc    string
	lengths []int
	inPlace bool // Seal in place, as wireguard-go does
}

// batchCases are the workloads: 64 small and 64 MTU-sized messages,
// and a WireGuard-like container of 128 packets, half keepalive-to-ACK
// sized (32..80 bytes), half full (1420 bytes), alternating, sealed in
// place; and 64 of a mid size, which aead's long group takes on AMD Zen 5.
var batchCases = []batchCase{
	{"64x64B", "64 messages of 64 B", repeat(64, 64), false},
	{"64x832B", "64 messages of 832 B", repeat(64, 832), false},
	{"64x1350B", "64 messages of 1350 B", repeat(64, 1350), false},
	{"wireguard128", "128 packets: half 32-80 B, half 1420 B, in place", wireGuardLengths(), true},
}

func repeat(n, size int) []int {
	l := make([]int, n)
	for i := range l {
		l[i] = size
	}
	return l
}

func wireGuardLengths() []int {
	l := make([]int, 128)
	for i := range l {
		if i%2 == 0 {
			l[i] = 32 + (i/2)%49
		} else {
			l[i] = 1420
		}
	}
	return l
}

func (c batchCase) bytes() int {
	n := 0
	for _, l := range c.lengths {
		n += l
	}
	return n
}

// batchRun returns a function that seals (or opens) the case's messages n
// times: through aead.Batch when batch is set, else in a loop of calls.
// All allocation happens here.
func batchRun(a cipher.AEAD, c batchCase, open, batch bool) func(n int) {
	msgs := make([]aead.Message, len(c.lengths))
	for i, l := range c.lengths {
		m := &msgs[i]
		m.Nonce = make([]byte, a.NonceSize())
		binary.LittleEndian.PutUint64(m.Nonce[4:], uint64(i))
		pt := pattern(l, byte(i))
		switch {
		case open:
			m.Text = a.Seal(nil, m.Nonce, pt, nil)
			m.Dst = make([]byte, 0, l)
		case c.inPlace:
			buf := make([]byte, l+aead.Overhead)
			copy(buf, pt)
			m.Text, m.Dst = buf[:l], buf[:0]
		default:
			m.Text, m.Dst = pt, make([]byte, 0, l+aead.Overhead)
		}
	}
	b, _ := a.(aead.Batch)
	switch {
	case batch && open:
		return func(n int) {
			for range n {
				if b.OpenBatch(msgs) != nil {
					panic("bench: OpenBatch fails on its own messages")
				}
			}
		}
	case batch:
		return func(n int) {
			for range n {
				b.SealBatch(msgs)
			}
		}
	case open:
		return func(n int) {
			for range n {
				for i := range msgs {
					m := &msgs[i]
					var err error
					if m.Out, err = a.Open(m.Dst, m.Nonce, m.Text, m.AdditionalData); err != nil {
						panic("bench: Open fails on its own messages")
					}
				}
			}
		}
	}
	return func(n int) {
		for range n {
			for i := range msgs {
				m := &msgs[i]
				m.Out = a.Seal(m.Dst, m.Nonce, m.Text, m.AdditionalData)
			}
		}
	}
}

// A batchRow is one workload of aead.Batch against the loops of single calls.
type batchRow struct {
	Case      string  `json:"case"`
	Op        string  `json:"op"` // Seal, Open, or HeaderMasks
	BatchMBps float64 `json:"batch_mbps"`
	LoopMBps  float64 `json:"chachakit_loop_mbps"`
	XMBps     float64 `json:"xcrypto_loop_mbps,omitempty"`
	VsLoop    float64 `json:"vs_loop"`              // batch/loop; > 1 is faster
	VsXCrypto float64 `json:"vs_xcrypto,omitempty"` // batch/x-crypto loop
	Noisy     bool    `json:"noisy"`
}

// measureBatch times the batch against chachakit's loop and against
// x/crypto's, each pair in interleaved rounds (interleave), and reports
// medians in MB/s of message bytes, so that ratios are of messages per
// second.
func measureBatch(c batchCase, open bool, d time.Duration, rounds int) batchRow {
	r := batchRow{Case: c.name, Op: "Seal"}
	if open {
		r.Op = "Open"
	}
	mbps := func(ns []float64) (float64, []float64) {
		v := make([]float64, len(ns))
		for i, x := range ns {
			v[i] = float64(c.bytes()) / x * 1e3
		}
		return median(v), v
	}
	batch := batchRun(must(chachakit.newAEAD(testKey())), c, open, true)
	b1, loop, _, _ := interleave(batch, batchRun(must(chachakit.newAEAD(testKey())), c, open, false), d, rounds)
	b2, xloop, _, _ := interleave(batch, batchRun(must(xcrypto.newAEAD(testKey())), c, open, false), d, rounds)
	var runs [4][]float64
	r.BatchMBps, runs[0] = mbps(append(b1, b2...))
	r.LoopMBps, runs[1] = mbps(loop)
	r.XMBps, runs[2] = mbps(xloop)
	r.VsLoop, r.VsXCrypto = r.BatchMBps/r.LoopMBps, r.BatchMBps/r.XMBps
	for _, x := range runs[:3] {
		r.Noisy = r.Noisy || spread(x) > noiseLimit
	}
	return r
}

// headerMaskCount is the number of QUIC header masks of the HeaderMasks row.
const headerMaskCount = 32

// measureHeaderMasks times one HeaderMasks call of headerMaskCount samples
// against a loop of HeaderMask calls (x/crypto has no header protection).
func measureHeaderMasks(d time.Duration, rounds int) batchRow {
	p := must(tls13.NewPacketProtector(testKey()))
	samples := make([][]byte, headerMaskCount)
	for i := range samples {
		samples[i] = pattern(tls13.SampleSize, byte(16*i))
	}
	masks := make([][tls13.MaskSize]byte, len(samples))
	batch := func(n int) {
		for range n {
			p.HeaderMasks(masks, samples)
		}
	}
	loop := func(n int) {
		for range n {
			for i, s := range samples {
				masks[i] = p.HeaderMask(s)
			}
		}
	}
	b, l, _, _ := interleave(batch, loop, d, rounds)
	// MB/s of samples.
	per := func(ns float64) float64 { return float64(headerMaskCount*tls13.SampleSize) / ns * 1e3 }
	r := batchRow{Case: fmt.Sprintf("%d masks", headerMaskCount), Op: "HeaderMasks",
		BatchMBps: per(median(b)), LoopMBps: per(median(l))}
	r.VsLoop = r.BatchMBps / r.LoopMBps
	r.Noisy = spread(b) > noiseLimit || spread(l) > noiseLimit
	return r
}

func printBatch(w io.Writer, rows []batchRow) {
	fmt.Fprintln(w)
	fmt.Fprintln(w, "batches: aead.Batch and tls13.HeaderMasks against loops of single calls")
	fmt.Fprintf(w, "%-13s %-12s %12s %12s %12s %8s %10s\n", "case", "op", "batch MB/s", "loop MB/s", "x/crypto", "vs loop", "vs x/crypto")
	for _, r := range rows {
		mark, x, vx := "", "-", "-"
		if r.Noisy {
			mark = "  noisy"
		}
		if r.XMBps > 0 {
			x, vx = fmt.Sprintf("%.1f", r.XMBps), fmt.Sprintf("%.2f", r.VsXCrypto)
		}
		fmt.Fprintf(w, "%-13s %-12s %12.1f %12.1f %12s %8.2f %10s%s\n", r.Case, r.Op, r.BatchMBps, r.LoopMBps, x, r.VsLoop, vx, mark)
	}
	fmt.Fprintln(w)
	for _, c := range batchCases {
		fmt.Fprintf(w, "  %-13s %s, each with its own nonce, no additional data\n", c.name, c.desc)
	}
	fmt.Fprintf(w, "  %-13s one HeaderMasks call against %d HeaderMask calls (MB/s of samples)\n", fmt.Sprintf("%d masks", headerMaskCount), headerMaskCount)
	fmt.Fprintf(w, "batch path here: %s\n", batchPath())
	fmt.Fprintln(w, "MB/s of message bytes, so ratios are of messages per second; medians of interleaved rounds.")
}

// batchPath describes what aead.Batch does on this CPU.
func batchPath() string {
	if !chacha20core.LaneBlocksFast() {
		return "a loop of Seal or Open calls (LaneBlocks has no vector path on this CPU)"
	}
	tags := "tags one at a time"
	kernel := ""
	if aeadasm.Available().Has(aeadasm.LanesAVX512) {
		kernel = fmt.Sprintf("ChaCha20-Poly1305 messages of up to %d bytes (additional data up to %d) in the batch kernel, %d per call (blocks in one 16-lane zmm batch, tags in IFMA lanes); other ",
			aeadasm.LanesTextMax, aeadasm.LanesADMax, aeadasm.LanesMax)
	}
	return kernel + "short messages (up to 256 bytes on amd64, 128 on arm64) in lane groups (up to 16 ChaCha20 blocks per LaneBlocks call), " + tags + "; longer ones in their own call"
}
