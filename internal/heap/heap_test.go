package heap

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestBytes_holdsOffCollectingUntilMemoryGrowsThenCollectsMoreOftenAsTheHeldBytesGrow(t *testing.T) {
	fresh(t, true)
	if b := Bytes(512 << 10); cap(b) != 512<<10 || len(b) != 0 {
		t.Fatalf("Bytes(512 KiB): len %d cap %d", len(b), cap(b))
	}
	if p, limit := settings(); p != 100 || limit != math.MaxInt64 {
		t.Fatalf("half a MiB held: GC percent %d, memory limit %d; want Go's defaults", p, limit)
	}
	Bytes(1 << 20)
	p, limit := settings()
	if used := inUse(); p != -1 || limit < used+held/4 || limit > used+held/4+8<<20 {
		t.Fatalf("1.5 MiB held, %d in use: GC percent %d, memory limit %d; want no percent and a limit some MiB above", used, p, limit)
	}
	Bytes(2 << 20)
	if _, grown := settings(); grown <= limit {
		t.Fatalf("memory limit %d after 2 MiB more held, want it above %d", grown, limit)
	}

	runtime.GC() // the first collection: a tenth of the live heap from now on
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		if p, limit := settings(); p == 10 && limit == math.MaxInt64 {
			break
		} else if time.Now().After(deadline) {
			t.Fatalf("after a collection: GC percent %d, memory limit %d; want 10 and none", p, limit)
		}
	}
	Bytes(5 << 20) // 8.5 MiB
	if p, limit := settings(); p != 50 || limit != math.MaxInt64 {
		t.Fatalf("8.5 MiB held: GC percent %d, memory limit %d; want 50 and none", p, limit)
	}
}

func TestBytes_leavesTheCollectorAloneWhenGOGCOrGOMEMLIMITIsSet(t *testing.T) {
	for _, env := range []string{"GOGC", "GOMEMLIMIT"} {
		t.Run(env, func(t *testing.T) {
			fresh(t, false)
			t.Setenv(env, "100")
			Bytes(64 << 20)
			if p, limit := settings(); p != 100 || limit != math.MaxInt64 {
				t.Fatalf("GC percent %d, memory limit %d with %s set, want them untouched", p, limit, env)
			}
		})
	}
}

// settings reads the GC percent and the memory limit.
func settings() (percent int, limit int64) {
	percent = debug.SetGCPercent(-1) // reads the setting, then puts it back
	debug.SetGCPercent(percent)
	return percent, debug.SetMemoryLimit(-1)
}

// fresh starts the test with nothing held and Go's defaults, GOGC and
// GOMEMLIMIT unset unless tuned is false; all as before once it ends.
func fresh(t *testing.T, tuned bool) {
	oldPercent, oldLimit := debug.SetGCPercent(100), debug.SetMemoryLimit(math.MaxInt64)
	saved := [...]any{held, waiting, collected}
	held, waiting, collected = 0, false, false
	if tuned {
		t.Setenv("GOGC", "")
		t.Setenv("GOMEMLIMIT", "")
	}
	t.Cleanup(func() {
		debug.SetGCPercent(oldPercent)
		debug.SetMemoryLimit(oldLimit)
		held, waiting, collected = saved[0].(int64), saved[1].(bool), saved[2].(bool)
	})
}
