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
// would one job at a time. On amd64 with AVX-512 IFMA, jobs of up to
// LaneMaxBlocks blocks of additional data, ciphertext and lengths each run
// side by side, one message per 64-bit lane, so that they share the latency
// of each block's multiplication; other jobs, and other CPUs, take SumAEAD.
//
// s is the lanes' scratch space, which a caller with many calls to make
// keeps (its zeroing costs more than a short job); SumAEADLanes wipes the
// key material it puts there.
func SumAEADLanes(s *LaneScratch, jobs []AEADJob) {
	if len(jobs) > Lanes {
		panic("poly1305: internal error: too many lanes")
	}
	sumAEADLanes(s, jobs)
}

// LaneMaxBlocks is the most 16-byte blocks (padded additional data, padded
// ciphertext and the lengths block) of a job that SumAEADLanes runs in a
// lane: 448 bytes of ciphertext and 64 of additional data.
const LaneMaxBlocks = 33

// sumAEADEach is the reference of the lanes: SumAEAD job by job.
func sumAEADEach(jobs []AEADJob) {
	for _, j := range jobs {
		SumAEAD(j.Tag, j.Key, j.AD, j.CT)
	}
}
