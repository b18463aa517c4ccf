// Package heap tunes the garbage collector for the large documents dbgov
// holds: answers and input files are bytes, which the collector does not scan.
package heap

import (
	"os"
	"runtime/debug"
	"sync/atomic"
)

var (
	held    atomic.Int64
	percent atomic.Int32 // set by Holding, 0 until then
	tune    = os.Getenv("GOGC") == ""
)

// Holding counts n more bytes allocated to hold answers and files and,
// unless GOGC is set, adapts how much garbage the collector lets pile up:
// Go's default for small runs, which then start without collecting at all;
// a tenth of what is live from the first MiB, as dbgov's own 13 MiB weigh
// much beside a few MiB of answer; half from 8 MiB on, which still keeps
// the peak under four times the answer and collects five times less often.
func Holding(n int) {
	total := held.Add(int64(n))
	if !tune || total < 1<<20 {
		return
	}
	want := int32(10)
	if total >= 8<<20 {
		want = 50
	}
	if percent.Swap(want) != want {
		debug.SetGCPercent(int(want))
	}
}
