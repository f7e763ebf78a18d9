package alias

import "testing"

func TestOverlap(t *testing.T) {
	var a, b [100]byte
	tests := []struct {
		name             string
		x, y             []byte
		anyOv, inexactOv bool
	}{
		{"distinct arrays", a[:], b[:], false, false},
		{"empty y", a[:], b[:0], false, false},
		{"nil", a[:], nil, false, false},
		{"both nil", nil, nil, false, false},
		{"adjacent", a[40:50], a[50:60], false, false},
		{"apart", a[40:50], a[60:70], false, false},
		{"one byte shared", a[:51], a[50:], true, true},
		{"identical", a[:], a[:], true, false},
		{"same start, other length", a[:50], a[:60], true, false},
		{"empty slice of same array", a[:], a[:0], false, false},
		{"capacity ignored", a[:10], a[:10:20], true, false},
		{"shifted inside", a[:10], a[5:10:20], true, true},
		{"last byte", a[99:], a[:], true, true},
	}
	for _, tt := range tests {
		for _, swap := range []bool{false, true} {
			x, y := tt.x, tt.y
			if swap {
				x, y = y, x
			}
			if got := AnyOverlap(x, y); got != tt.anyOv {
				t.Errorf("%s (swap=%v): AnyOverlap = %v", tt.name, swap, got)
			}
			if got := InexactOverlap(x, y); got != tt.inexactOv {
				t.Errorf("%s (swap=%v): InexactOverlap = %v", tt.name, swap, got)
			}
		}
	}
}

func TestOverlapAllocs(t *testing.T) {
	x, y := make([]byte, 64), make([]byte, 64)
	if n := testing.AllocsPerRun(100, func() { InexactOverlap(x, y[1:]) }); n != 0 {
		t.Errorf("InexactOverlap allocates %v times", n)
	}
}
