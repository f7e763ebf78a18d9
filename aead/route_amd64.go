//go:build gc && !purego

package aead

import (
	"math"

	"github.com/chachakit/chachakit/internal/aeadasm"
	"github.com/chachakit/chachakit/internal/cpuid"
)

// pick is the route table of amd64: the kernel of internal/aeadasm that
// seals or opens an n-byte message with adLen bytes of additional data, or
// aeadasm.None for the portable passes of seal and open. Each threshold was
// measured against its neighbours (bench/README.md, "ChaCha20-Poly1305 by
// message length"); the kernels' own limits are aeadasm's constants.
func pick(n, adLen int, open bool) aeadasm.Kernel {
	// Up to 192 bytes (up to smallMax, which the core decides: 448 on AMD
	// Zen 1 and Zen 4), one call does it all from key and nonce. Asked
	// first, without the whole set of kernels: the short messages are the
	// calls whose cost the route shows in.
	if n <= smallMax && adLen <= aeadasm.SmallADMax && aeadasm.SmallOn() {
		if open && smallKeyFirst && n <= 64 {
			return aeadasm.SmallKeyFirstAVX512
		}
		if !open && smallHandoff && n <= 64 {
			return aeadasm.SmallHandoffAVX512
		}
		if smallProld && n >= smallProldMin {
			return aeadasm.SmallProldAVX512
		}
		if smallKeyScalar && n <= 64 {
			return aeadasm.SmallKeyScalarAVX512
		}
		return aeadasm.SmallAVX512
	}
	k := aeadasm.Available()
	avx512 := k.Has(aeadasm.StitchedAVX512) // else the AVX2 families, if any
	switch {
	case k == 0:
		return aeadasm.None

	// AVX2: an Open from openFirstMin bytes (where the core has it) takes
	// the kernel that computes the key block first and MACs the ciphertext
	// beside the rounds of the rest.
	case open && !avx512 && openFirstMin > 0 && n >= openFirstMin && n <= aeadasm.OpenFirstAVX2Max &&
		adLen <= aeadasm.SmallADMax && k.Has(aeadasm.OpenFirstAVX2):
		return aeadasm.OpenFirstAVX2

	// The AVX2 small kernels only where the AVX-512 ones cannot run.
	case n <= smallMaxAVX2 && adLen <= aeadasm.SmallADMax && !k.Has(aeadasm.SmallAVX512) && k.Has(aeadasm.SmallAVX2):
		if open && smallKeyFirst && n <= 64 {
			return aeadasm.SmallKeyFirstAVX2
		}
		if !open && smallHandoff && n <= 64 {
			return aeadasm.SmallHandoffAVX2
		}
		if smallKeyScalar && n <= 64 {
			return aeadasm.SmallKeyScalarAVX2
		}
		return aeadasm.SmallAVX2

	// Up to 448 bytes, the key block and the message in one engine call
	// (seal's short path) beat the kernels' batches.
	case n <= shortMax:
		return aeadasm.None

	// AVX-512: the mid-size kernel where it beat the separate passes: up
	// to 960 bytes (961..1024 put 9 blocks in batch 2's 16 lanes) with at
	// most 256 bytes of additional data (the integer steps of longer
	// additional data are not hidden behind batch 1's 8 lanes), and from
	// 1025 bytes with at most 512. An Open in place reads a copy of the
	// ciphertext that the kernel makes in its frame.
	case avx512 && k.Has(aeadasm.MidAVX512) && n >= ifmaMin &&
		(n <= 15*64 && adLen <= 256 || n > aeadasm.MidAVX512SmallMax && n <= aeadasm.MidAVX512Max && adLen <= 512):
		return aeadasm.MidAVX512

	// AVX2, an Open of 961 bytes to 8 KiB where the core takes the
	// key-first Opens (openFirstMin > 0): the kernel that computes the key
	// block first and MACs each batch's ciphertext in that batch, where
	// aheadWins says it beats the mid-size kernel.
	case open && !avx512 && openFirstMin > 0 && n < 8192 && aheadWins(n) && k.Has(aeadasm.OpenAheadAVX2) && !midAVX2Off:
		return aeadasm.OpenAheadAVX2

	// AVX2: every Seal from 449 bytes on (faster than the separate passes
	// and than the stitched loop at every size measured up to 16 KiB). An
	// Open below 1 KiB, and below 8 KiB unless the length is within 64
	// bytes above a multiple of 1 KiB: the stitched loop MACs each batch as
	// it decrypts it and wins on whole batches, but leaves a longer tail to
	// the separate passes.
	case !avx512 && k.Has(aeadasm.MidAVX2) && !midAVX2Off &&
		(!open || n < 1024 || n < 8192 && n%1024 >= 64):
		return aeadasm.MidAVX2

	// The stitched loops: a Seal MACs each batch during the next one, so
	// it needs two batches to gain anything; an Open MACs the batch it
	// decrypts.
	case open && n >= aeadasm.Batch || n >= 2*aeadasm.Batch:
		if avx512 && stitchedIFMA && n >= max(ifmaLoopMin, ifmaMin) && k.Has(aeadasm.StitchedIFMA) {
			return aeadasm.StitchedIFMA
		}
		if avx512 {
			return aeadasm.StitchedAVX512
		}
		return aeadasm.StitchedAVX2
	}
	return aeadasm.None
}

// smallMax and smallMaxAVX2 are the longest messages of the AVX-512 and
// the AVX2 small kernels on this core (internal/cpuid's X86AEADFor:
// SmallMax, 192 bytes, the row-set kernels' limit, on most cores, 448 on
// AMD Zen 1 and AMD Zen 4; SmallMaxAVX2, 448, the kernels' limit).
var (
	smallMax     = min(x86AEAD().SmallMax, aeadasm.SmallAVX512Max)
	smallMaxAVX2 = min(x86AEAD().SmallMaxAVX2, aeadasm.SmallAVX2Max)
)

// smallProld selects the AVX-512 small kernels' VPROLD rounds on this core
// (internal/cpuid's X86AEADFor).
var smallProld = x86AEAD().Prold

// smallProldMin is the shortest message that takes them (internal/cpuid's
// X86AEAD.ProldMin); a variable for the tests.
var smallProldMin = x86AEAD().ProldMin

// smallKeyScalar selects, up to 64 bytes, the small kernels (AVX-512 and
// AVX2) that also compute the Poly1305 key block in general-purpose
// registers on this core (internal/cpuid's X86AEADFor; the kernels
// themselves take the vector key block for a 24-byte nonce). A variable
// for the tests.
var smallKeyScalar = x86AEAD().KeyScalar

// smallKeyFirst selects, for an Open of up to 64 bytes, the small kernels
// that compute the Poly1305 key block first and MAC during the rest of the
// rounds on this core (internal/cpuid's X86AEAD.OpenKeyFirst; the kernels
// take the others' path for a 24-byte nonce). A variable for the tests.
var smallKeyFirst = x86AEAD().OpenKeyFirst

// smallHandoff selects, for a Seal of up to 64 bytes, the small kernels
// that also hand the message block's last rounds to the integer units on
// this core (internal/cpuid's X86AEAD.SealHandoff). A variable for the
// tests.
var smallHandoff = x86AEAD().SealHandoff

// stitchedIFMA selects the stitched loop with the MAC in IFMA lanes on this
// core (internal/cpuid's X86AEADFor), from ifmaLoopMin bytes: it computes
// the IFMA powers of r before its first batch, which costs it what it wins
// below 8 KiB (BenchmarkStitchedIFMA; bench/README.md).
var stitchedIFMA = x86AEAD().LoopIFMA

var ifmaLoopMin = 8192 // a variable for the tests

// ifmaMin is the shortest message that takes a kernel with the MAC in IFMA
// lanes (the mid-size AVX-512 kernel, the stitched loop's IFMA form) on
// this CPU (internal/cpuid's X86IFMAMin: 0, or 8 KiB on Intel's cores,
// where IFMA code slows the code after it by more than it saves below
// that); a variable for the tests.
var ifmaMin = func() int {
	x, _ := cpuid.ReadX86()
	return cpuid.X86IFMAMin(x)
}()

// subkeyFirstMax is the longest message for which XChaCha20-Poly1305
// derives its subkey with chacha20core.HChaCha20 before the route table, so
// that the small kernels take the 12-byte nonce form instead of running
// HChaCha20 in their ymm row set: every length on cores where the portable
// code's scalar rounds win (internal/cpuid's X86ChaCha20.HChaCha20Scalar),
// up to the small kernels' reach where HChaCha20 runs in one xmm row set
// (X86ChaCha20.XMMBlocks: beyond it State.InitFrom runs the same HChaCha20,
// and deriving first only adds the subkey's copy and wipe), else -1. A
// variable for the tests.
var subkeyFirstMax = func() int {
	x, _ := cpuid.ReadX86()
	switch k := cpuid.X86ChaCha20For(x.Core()); {
	case k.HChaCha20Scalar:
		return math.MaxInt
	case k.XMMBlocks:
		return smallMaxAVX2
	}
	return -1
}()

func x86AEAD() cpuid.X86AEAD {
	x, _ := cpuid.ReadX86()
	return cpuid.X86AEADFor(x.Core())
}

// openFirstMin is the shortest Open that takes OpenFirstAVX2 on this core,
// or 0 for none (internal/cpuid's X86AEAD.OpenFirstMin), which also turns
// OpenAheadAVX2 off; a variable for the tests.
var openFirstMin = x86AEAD().OpenFirstMin

// midAVX2Off makes pick skip the mid-size AVX2 kernels, MidAVX2 and
// OpenAheadAVX2 (tests compare them with the stitched loop).
var midAVX2Off = false

// aheadWins reports whether an AVX2 Open of n bytes (961 <= n < 8192)
// takes aeadasm.OpenAheadAVX2 rather than MidAVX2. Both run 8-block
// batches; the mid-size kernel's first batch holds the key block and
// covers 448 message bytes, the other computes the key block with the
// first 64 bytes alone (a latency-bound row set) and then 512 per batch.
// It wins where that takes one batch fewer (a third of the lengths), and
// from 1760 bytes also where the counts are equal, except with 65-223
// bytes past a multiple of 512, where the mid-size kernel's last batch has
// three to five blocks (AMD Zen 4 with AVX-512 off, bench/README.md, "AVX2
// Open: the key block first"; at 1120-1472 bytes, equal counts, the
// mid-size kernel is 3-5% faster).
func aheadWins(n int) bool {
	fewer := (n-64+511)/512 < (n+64+511)/512
	return n > 960 && (fewer || n >= 1760 && n%512 >= 224)
}
