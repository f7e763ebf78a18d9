//go:build gc && !purego

package chacha20core

import (
	"testing"

	"github.com/chachakit/chachakit/internal/cpuid"
	"github.com/chachakit/chachakit/internal/cryptotest"
	"github.com/chachakit/chachakit/internal/impl"
	"golang.org/x/sys/cpu"
)

// TestNEONExpectedPath compares the dispatcher's pick with CHACHAKIT_EXPECT,
// which the cross-architecture script sets per QEMU core model
// (chacha20=NEON4x1 on cortex-a53/a55/a57/a72, chacha20=NEON6x2 elsewhere).
func TestNEONExpectedPath(t *testing.T) {
	cryptotest.CheckExpected(t, "chacha20")
}

// TestNEONRegistered: both paths are registered, and available exactly when
// the CPU has ASIMD, whatever the core.
func TestNEONRegistered(t *testing.T) {
	found := map[string]bool{}
	for _, i := range impl.List("chacha20") {
		found[i.Name] = true
		if i.Available != cpu.ARM64.HasASIMD {
			t.Errorf("%s: Available = %v, ASIMD = %v", i.Name, i.Available, cpu.ARM64.HasASIMD)
		}
	}
	for _, name := range []string{"NEON4x1", "NEON6x2"} {
		if !found[name] {
			t.Errorf("chacha20/%s not registered", name)
		}
	}
}

// TestNEONPreferenceFromMIDR: the dispatcher's default follows the MIDR
// table (and the default rule when MIDR_EL1 cannot be read).
func TestNEONPreferenceFromMIDR(t *testing.T) {
	impl.Reset("chacha20")
	midr, ok := cpuid.MIDR()
	wantMix := cpuid.MixDefault
	if ok {
		wantMix = cpuid.ChaCha20MixFor(cpuid.Implementer(midr), cpuid.Part(midr))
	}
	if prefer4x1 != (wantMix == cpuid.Mix4x1) {
		t.Errorf("MIDR %#x (readable %v, %q): prefer4x1 = %v, table says %v", midr, ok, cpuid.CoreName(midr), prefer4x1, wantMix)
	}
	if !cpu.ARM64.HasASIMD {
		t.Skip("no ASIMD")
	}
	want := "NEON6x2"
	if wantMix == cpuid.Mix4x1 {
		want = "NEON4x1"
	}
	if got := impl.Preferred("chacha20"); got != want {
		t.Errorf("Preferred = %s, want %s (MIDR %#x, %q)", got, want, midr, cpuid.CoreName(midr))
	}
	t.Logf("MIDR %#x readable=%v core=%q: %s", midr, ok, cpuid.CoreName(midr), want)
}

// TestNEONPreferredUnderSelect: forcing one path makes it the preferred one,
// and Reset restores the core's choice.
func TestNEONPreferredUnderSelect(t *testing.T) {
	if !cpu.ARM64.HasASIMD {
		t.Skip("no ASIMD")
	}
	defer impl.Reset("chacha20")
	saved := prefer4x1
	defer func() { prefer4x1 = saved }()
	for _, p := range []bool{false, true} {
		prefer4x1 = p
		for _, name := range []string{"NEON4x1", "NEON6x2", impl.Portable} {
			if !impl.Select("chacha20", name) {
				t.Fatalf("cannot select %s", name)
			}
			if got := impl.Preferred("chacha20"); got != name {
				t.Errorf("prefer4x1=%v, Select(%s): Preferred = %s", p, name, got)
			}
		}
		impl.Reset("chacha20")
		want := "NEON6x2"
		if p {
			want = "NEON4x1"
		}
		if got := impl.Preferred("chacha20"); got != want {
			t.Errorf("prefer4x1=%v after Reset: Preferred = %s, want %s", p, got, want)
		}
	}
}
