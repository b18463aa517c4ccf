package heap

import (
	"runtime/debug"
	"testing"
)

func TestHolding_collectsMoreOftenAsTheHeldBytesGrow(t *testing.T) {
	fresh(t, true)
	for _, tt := range []struct {
		n    int
		want int
	}{
		{512 << 10, 100}, // half a MiB: Go's default
		{512 << 10, 10},  // the first MiB
		{6 << 20, 10},
		{1 << 20, 50}, // 8 MiB
		{100 << 20, 50},
	} {
		Holding(tt.n)
		got := debug.SetGCPercent(-1) // reads the setting, then puts it back
		debug.SetGCPercent(got)
		if got != tt.want {
			t.Fatalf("after %d MiB held: GC percent %d, want %d", held>>20, got, tt.want)
		}
	}
}

func TestHolding_leavesTheCollectorAloneWhenGOGCIsSet(t *testing.T) {
	fresh(t, false)
	Holding(64 << 20)
	if got := debug.SetGCPercent(100); got != 100 {
		t.Fatalf("GC percent %d with GOGC set, want it untouched", got)
	}
}

// fresh starts the test with nothing held, Go's default GC percent, and GOGC
// set unless tuned; all as before once it ends.
func fresh(t *testing.T, tuned bool) {
	restore := debug.SetGCPercent(100)
	oldHeld, oldPercent := held, percent
	held, percent = 0, 0
	if !tuned {
		t.Setenv("GOGC", "100")
	} else {
		t.Setenv("GOGC", "")
	}
	t.Cleanup(func() {
		debug.SetGCPercent(restore)
		held, percent = oldHeld, oldPercent
	})
}
