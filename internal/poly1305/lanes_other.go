//go:build !amd64 || !gc || purego

package poly1305

// LaneScratch is the scratch space of SumAEADLanes: nothing without the
// lanes' assembly.
type LaneScratch struct{}

func sumAEADLanes(s *LaneScratch, jobs []AEADJob) { sumAEADEach(jobs) }

// LanesFast reports whether SumAEADLanes runs its jobs side by side: not
// without the lanes' assembly.
func LanesFast() bool { return false }
