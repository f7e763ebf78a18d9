package aead

import (
	"github.com/chachakit/chachakit/internal/aeadasm"
	"github.com/chachakit/chachakit/internal/alias"
)

// A run of kernel messages: where a batch has at least kernelMin
// consecutive messages the batch kernel takes and nothing is pending in
// the group, they go through the kernel eight at a time without the
// group's bookkeeping (the pending list, the long messages' turns), which
// cost a 64-byte message about a fifth of its time. The order of reads
// and writes is the group's: a chunk of up to eight is read by the kernel,
// then written in order, so a message that reads what an earlier message
// of its chunk writes starts the next chunk.

// kernelAhead reports whether msgs starts with kernelMin messages the
// kernel takes.
func (g *group) kernelAhead(msgs []Message) bool {
	if len(msgs) < kernelMin {
		return false
	}
	for i := range kernelMin {
		if !g.kernelTakes(&msgs[i]) {
			return false
		}
	}
	return true
}

// kernelTakes reports whether the batch kernel takes m by its lengths;
// whether Seal or Open would panic on it is checked when it joins a chunk.
func (g *group) kernelTakes(m *Message) bool {
	n := len(m.Text)
	if g.opening {
		n -= Overhead
	}
	return n >= 0 && len(m.Nonce) == NonceSize && kernelMessage(n, len(m.AdditionalData))
}

// kernelRun seals or opens msgs[i:] in chunks of up to eight through the
// kernel while they are messages it takes and that Seal or Open would not
// panic on, and returns the index of the first message it did not take.
// The group has nothing pending.
func (g *group) kernelRun(msgs []Message, i int) int {
	key := g.getKey()
	l := &g.kl
	var outs [aeadasm.LanesMax]span
	for {
		l.Reset()
		start, next := i, false
		var hull span // of outs
		for i < len(msgs) && l.Len() < aeadasm.LanesMax {
			m := &msgs[i]
			if !g.kernelTakes(m) {
				break
			}
			n, outLen, why := len(m.Text), len(m.Text)+Overhead, ""
			if g.opening {
				n -= Overhead
				outLen, why = n, checkOpen(NonceSize, m)
			} else {
				why = checkSeal(NonceSize, m)
			}
			if why != "" {
				break
			}
			if hull.lo != hull.hi && readsSpans(hull, outs[:l.Len()], m) {
				next = true
				break
			}
			var out span
			if cap(m.Dst)-len(m.Dst) >= outLen && outLen > 0 {
				out = spanOf(m.Dst[len(m.Dst) : len(m.Dst)+outLen])
				if hull.lo == hull.hi {
					hull = out
				} else {
					hull = span{min(hull.lo, out.lo), max(hull.hi, out.hi)}
				}
			}
			outs[l.Len()] = out
			l.Add(m.Nonce, m.Text[:n], m.AdditionalData)
			i++
		}
		full := l.Len() == aeadasm.LanesMax
		g.kernelFinish(key, msgs[start:i])
		l.Reset() // the group's kernel messages that may follow start at slot 0
		if i == len(msgs) || !full && !next {
			return i
		}
	}
}

// readsSpans reports whether m's nonce, text or additional data overlaps
// one of outs, whose hull is hull.
func readsSpans(hull span, outs []span, m *Message) bool {
	if !hull.overlaps(m.Nonce) && !hull.overlaps(m.Text) && !hull.overlaps(m.AdditionalData) {
		return false
	}
	for _, o := range outs {
		if o.overlaps(m.Nonce) || o.overlaps(m.Text) || o.overlaps(m.AdditionalData) {
			return true
		}
	}
	return false
}

// kernelFinish runs the kernel on the messages of g.kl, which are ms, and
// writes their results in order; fewer than kernelMin take their own
// calls instead.
func (g *group) kernelFinish(key *[KeySize]byte, ms []Message) {
	if len(ms) < kernelMin {
		for j := range ms {
			m := &ms[j]
			if g.opening {
				m.Out, m.Err = open(key, m.Nonce, m.Dst, m.Text, m.AdditionalData, -1)
			} else {
				m.Out, m.Err = seal(key, m.Nonce, m.Dst, m.Text, m.AdditionalData, -1), nil
			}
		}
		return
	}
	l := &g.kl
	g.kernelRan = true
	if g.opening {
		aeadasm.OpenLanes(key, l)
		for j := range ms {
			m := &ms[j]
			n := len(m.Text) - Overhead
			if tagEqual(&l.Tags[j], m.Text[n:]) {
				ret, out := alias.SliceForAppend(m.Dst, n)
				copy(out, l.Out[j][:n])
				m.Out, m.Err = ret, nil
			} else {
				g.openFailed(m, n)
			}
		}
		return
	}
	aeadasm.SealLanes(key, l)
	for j := range ms {
		m := &ms[j]
		n := len(m.Text)
		ret, out := alias.SliceForAppend(m.Dst, n+Overhead)
		copy(out, l.Out[j][:n])
		*(*[Overhead]byte)(out[n:]) = l.Tags[j]
		m.Out, m.Err = ret, nil
	}
}
