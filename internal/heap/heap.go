// Package heap tunes the garbage collector for the large documents dbgov
// holds: answers and input files are bytes, which the collector does not scan.
package heap

import (
	"os"
	"runtime/debug"
	"sync"
)

var (
	mu      sync.Mutex
	held    int64 // bytes allocated for answers and files
	percent int   // the GC percent set, 0 until then
)

// Holding counts n more bytes allocated for answers and files. Unless GOGC
// is set, garbage may then reach a tenth of the live heap from 1 MiB on
// (dbgov's own memory weighs much beside a small answer) and half of it from
// 8 MiB on; a smaller run keeps Go's default, and starts without collecting.
func Holding(n int) {
	mu.Lock()
	defer mu.Unlock()
	held += int64(n)
	want := 10
	if held >= 8<<20 {
		want = 50
	}
	if held >= 1<<20 && percent != want && os.Getenv("GOGC") == "" {
		percent = want
		debug.SetGCPercent(want)
	}
}
