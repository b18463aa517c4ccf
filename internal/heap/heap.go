// Package heap tunes the garbage collector for the large documents dbgov
// holds: answers and input files are bytes, which the collector does not scan.
package heap

import (
	"math"
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

var (
	mu        sync.Mutex
	held      int64 // bytes allocated for answers and files
	percent   int   // the GC percent to set, 0 until 1 MiB is held
	base      int64 // Go's memory apart from what is held, once collection waits
	waiting   bool  // for the first collection since 1 MiB was held
	collected bool  // it is done
)

// Bytes returns an empty slice with room for n bytes of an answer or file.
// Unless GOGC or GOMEMLIMIT is set, once 1 MiB is held nothing is collected
// until Go's memory passes what it was then and what is held by a quarter of
// the held and 4 MiB: a first collection costs a MiB of the collector's own
// bookkeeping, more than most runs make of garbage. From then on, garbage
// may reach a tenth of the live heap, and half of it from 8 MiB held.
func Bytes(n int) []byte {
	holding(int64(n)) // before the memory is taken, which may start a collection
	return make([]byte, 0, n)
}

// Release says that n bytes of Bytes are no longer held, such as a page of a
// list once printed, and gives the memory Go no longer uses back to the
// system: a list of 50,000 databases read a page at a time then stays
// within a page or two of memory, where Go's own pace of collection and
// return keeps megabytes (make bench measures it).
func Release(n int) {
	holding(-int64(n))
	debug.FreeOSMemory()
}

func holding(n int64) {
	mu.Lock()
	defer mu.Unlock()
	held += n
	if held < 1<<20 || os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return
	}
	percent = 10
	if held >= 8<<20 {
		percent = 50
	}
	switch {
	case collected:
		debug.SetGCPercent(percent)
	case !waiting:
		waiting, base = true, inUse()-(held-n)
		debug.SetGCPercent(-1)
		runtime.AddCleanup(new([16]byte), func(struct{}) { // after the next collection
			mu.Lock()
			defer mu.Unlock()
			collected = true
			debug.SetMemoryLimit(math.MaxInt64)
			debug.SetGCPercent(percent)
		}, struct{}{})
		fallthrough
	default:
		debug.SetMemoryLimit(base + held + held/4 + 4<<20)
	}
}

// inUse is the memory Go has from the system and uses, as its limit counts it.
func inUse() int64 {
	s := []metrics.Sample{{Name: "/memory/classes/total:bytes"}, {Name: "/memory/classes/heap/released:bytes"}}
	metrics.Read(s)
	return int64(s[0].Value.Uint64() - s[1].Value.Uint64())
}
