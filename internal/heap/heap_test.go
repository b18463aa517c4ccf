package heap

import (
	"runtime/debug"
	"testing"
)

func TestHolding_collectsMoreOftenAsTheHeldBytesGrow(t *testing.T) {
	tune = true
	defer debug.SetGCPercent(debug.SetGCPercent(100))
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
			t.Fatalf("after %d MiB held: GC percent %d, want %d", held.Load()>>20, got, tt.want)
		}
	}
}
