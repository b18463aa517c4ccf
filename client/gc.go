package client

import "runtime/debug"

// largeBody is the size from which decoding an answer runs the garbage
// collector with less headroom.
const largeBody = 1 << 20

// lowGCPercent is the collector's headroom while a large answer is
// decoded: garbage of a tenth of what is live triggers a collection.
const lowGCPercent = 10

// gcHeadroom lowers the garbage collector's headroom while an answer of
// size bytes is decoded into typed values, and returns what restores it.
// encoding/json grows each list it decodes by doubling it: the copies it
// drops would otherwise pile up to as much again as the answer and its
// values before being collected. The answer itself is bytes, which the
// collector does not scan. Small answers are left alone.
//
// The setting is the process's: it is restored only if nothing else
// changed it meanwhile, so that overlapping calls leave the value found
// before the first.
func gcHeadroom(size int) (restore func()) {
	if size < largeBody {
		return func() {}
	}
	old := debug.SetGCPercent(lowGCPercent)
	if old >= 0 && old < lowGCPercent { // already lower (GOGC): keep it
		debug.SetGCPercent(old)
		return func() {}
	}
	return func() {
		if cur := debug.SetGCPercent(old); cur != lowGCPercent {
			debug.SetGCPercent(cur)
		}
	}
}
