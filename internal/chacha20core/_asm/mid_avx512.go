package main

// genMidAVX512 emits the mid-size stitched kernel of the AVX512 loop (not
// written yet: nothing).
func genMidAVX512() {}
