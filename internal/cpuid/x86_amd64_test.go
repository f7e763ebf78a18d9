//go:build gc && !purego

package cpuid

import "testing"

// TestTrimBrand decodes brand strings as CPUID leaves 80000002H-80000004H
// return them: padded with spaces (a bhyve guest's virtual Zen 5) or NUL
// bytes.
func TestTrimBrand(t *testing.T) {
	pad := func(s string, c byte) []byte {
		b := []byte(s)
		for len(b) < 48 {
			b = append(b, c)
		}
		return b
	}
	for _, c := range []struct {
		in   []byte
		want string
	}{
		{pad("Oxide Virtual Turin-like Processor", ' '), "Oxide Virtual Turin-like Processor"},
		{pad("AMD EPYC", 0), "AMD EPYC"},
		{pad("  Intel(R) Xeon(R) Platinum 8481C CPU @ 2.70GHz", 0), "Intel(R) Xeon(R) Platinum 8481C CPU @ 2.70GHz"},
		{appendWords(nil, 0x76796862, 0x68622065, 0x20657679), "bhyve bhyve"}, // leaf 40000000H's EBX, ECX, EDX
		{pad("", 0), ""},
	} {
		if got := trimBrand(c.in); got != c.want {
			t.Errorf("trimBrand(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	brand, hv := X86Brand()
	t.Logf("brand %q, hypervisor %q", brand, hv)
}
