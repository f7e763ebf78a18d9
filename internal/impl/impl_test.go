package impl

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Two fake implementations of a package of this test only: A available, B
// not.
var fakeA, fakeB = true, false

func init() {
	Register("impltest", "A", &fakeA)
	Register("impltest", "B", &fakeB)
}

func TestForce(t *testing.T) {
	defer func() {
		Force("impltest=A")
	}()
	if err := Force("impltest=Go"); err != nil || fakeA {
		t.Fatalf("Force(impltest=Go): %v, A on: %v", err, fakeA)
	}
	Reset("impltest")
	if fakeA || Preferred("impltest") != Portable {
		t.Error("Reset undid a forced choice")
	}
	if err := Force("impltest=A"); err != nil || !fakeA {
		t.Fatalf("Force(impltest=A): %v, A on: %v", err, fakeA)
	}
	for _, bad := range []string{"impltest=B", "impltest=C", "nope=A", "impltest", "=A"} {
		if err := Force(bad); err == nil {
			t.Errorf("Force(%q) gives no error", bad)
		}
		if !fakeA {
			t.Fatalf("a failed Force(%q) changed the choice", bad)
		}
	}
}

// A package whose one implementation can run but is not the default.
var fakeC = false

func init() { RegisterAvailable("impltest2", "C", &fakeC, true) }

func TestRegisterAvailable(t *testing.T) {
	defer Reset("impltest2")
	if envTag && os.Getenv("CHACHAKIT_IMPL") != "" {
		t.Skip("CHACHAKIT_IMPL is set")
	}
	if fakeC || Preferred("impltest2") != Portable || !AtDefault("impltest2") {
		t.Fatalf("C on %v, preferred %s, at default %v", fakeC, Preferred("impltest2"), AtDefault("impltest2"))
	}
	if !Select("impltest2", "C") || !fakeC || AtDefault("impltest2") {
		t.Fatalf("Select(C): C on %v, at default %v", fakeC, AtDefault("impltest2"))
	}
	Reset("impltest2")
	if fakeC || !AtDefault("impltest2") {
		t.Fatalf("Reset: C on %v, at default %v", fakeC, AtDefault("impltest2"))
	}
}

// TestEnv runs this test binary again with CHACHAKIT_IMPL=impltest=Go: only
// a binary built with the tag chachakit_impl_env may follow it.
func TestEnv(t *testing.T) {
	if os.Getenv("IMPLTEST_CHILD") == "1" {
		if fakeA == envTag {
			t.Fatalf("tag chachakit_impl_env %v, CHACHAKIT_IMPL=impltest=Go: A on %v", envTag, fakeA)
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestEnv$")
	cmd.Env = append(os.Environ(), "IMPLTEST_CHILD=1", "CHACHAKIT_IMPL=impltest=Go")
	if out, err := cmd.CombinedOutput(); err != nil {
		if strings.Contains(err.Error(), "exec format error") {
			// Under qemu-user the binary cannot start itself; the native
			// run of the same test covers the registry, which is portable.
			t.Skip("cannot run a child of this binary here:", err)
		}
		t.Fatalf("child: %v\n%s", err, out)
	}
}
