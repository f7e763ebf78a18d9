package poly1305

// Lanes is the most tags one SumAEADLanes call computes side by side.
const Lanes = 8

// An AEADJob is one tag for SumAEADLanes: the tag of the AEAD construction
// (RFC 8439, Section 2.8) over AD and CT under the one-time key Key.
type AEADJob struct {
	Tag    *[TagSize]byte
	Key    *[KeySize]byte
	AD, CT []byte
}

// SumAEADLanes computes the tag of every job (at most Lanes), as SumAEAD
// would one job at a time, and on every CPU it does just that: no platform
// has a lanes kernel here (an AVX-512 IFMA one, eight messages side by
// side, slowed the code that ran after it on Intel's cores by more than it
// saved). The batch kernel of package internal/aeadasm computes its tags in
// IFMA lanes itself. The API stays for aead's batch groups, which hand their
// tags over eight at a time.
//
// s is the lanes' scratch space, which a caller with many calls to make
// keeps; it holds nothing.
func SumAEADLanes(s *LaneScratch, jobs []AEADJob) {
	if len(jobs) > Lanes {
		panic("poly1305: internal error: too many lanes")
	}
	sumAEADEach(jobs)
}

// LaneScratch is the scratch space of SumAEADLanes: nothing, without a
// lanes kernel.
type LaneScratch struct{}

// LanesFast reports whether SumAEADLanes runs its jobs side by side: on no
// CPU.
func LanesFast() bool { return false }

// LaneMaxBlocks is the most 16-byte blocks (padded additional data, padded
// ciphertext and the lengths block) of a job that a lanes kernel would
// take: 448 bytes of ciphertext and 64 of additional data.
const LaneMaxBlocks = 33

// sumAEADEach is the reference of the lanes: SumAEAD job by job.
func sumAEADEach(jobs []AEADJob) {
	for _, j := range jobs {
		SumAEAD(j.Tag, j.Key, j.AD, j.CT)
	}
}
