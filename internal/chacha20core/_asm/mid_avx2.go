package main

// genMidAVX2 emits the mid-size stitched kernel of the AVX2 loop (not
// written yet: nothing).
func genMidAVX2() {}
