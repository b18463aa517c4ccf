package output

import (
	"runtime/debug"
	"testing"
)

// gcPercent reads the collector's setting; SetGCPercent is the only way
// to read it, so it is set back at once.
func gcPercent() int {
	cur := debug.SetGCPercent(100)
	debug.SetGCPercent(cur)
	return cur
}

func TestGCHeadroom_lowersOnlyAnOnCollectorsHeadroom(t *testing.T) {
	tests := []struct {
		name          string
		gogc, size    int
		during, after int
	}{
		{"large document lowers the headroom", 100, largeDocument, lowGCPercent, 100},
		{"larger headroom restored", 400, 10 * largeDocument, lowGCPercent, 400},
		{"small document leaves it", 100, largeDocument - 1, 100, 100},
		{"lower headroom kept", 5, largeDocument, 5, 5},
		{"collector off stays off", -1, largeDocument, -1, -1},
		{"collector off stays off for a small document", -1, 1, -1, -1},
	}
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			debug.SetGCPercent(tt.gogc)
			restore := gcHeadroom(tt.size)
			during := gcPercent()
			restore()
			if after := gcPercent(); during != tt.during || after != tt.after {
				t.Errorf("GOGC %d: %d while printing, %d after; want %d, %d", tt.gogc, during, after, tt.during, tt.after)
			}
		})
	}
}

func TestGCHeadroom_overlappingCallsRestoreTheFirstValue(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	for _, order := range []string{"first ends first", "last ends first"} {
		t.Run(order, func(t *testing.T) {
			debug.SetGCPercent(250)
			first := gcHeadroom(largeDocument)
			second := gcHeadroom(largeDocument)
			if order == "first ends first" {
				first()
				second()
			} else {
				second()
				first()
			}
			if got := gcPercent(); got != 250 {
				t.Errorf("GOGC %d after both, want 250", got)
			}
		})
	}
}

func TestCollectorOff_readsTheSetting(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	for _, tt := range []struct {
		gogc int
		want bool
	}{{100, false}, {0, false}, {-1, true}, {10, false}} {
		debug.SetGCPercent(tt.gogc)
		if got := collectorOff(); got != tt.want {
			t.Errorf("GOGC %d: collectorOff() = %v, want %v", tt.gogc, got, tt.want)
		}
	}
}
