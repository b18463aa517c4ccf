package output

import (
	"runtime/debug"
	"runtime/metrics"
)

// largeDocument is the size from which printing a document runs the
// garbage collector with less headroom.
const largeDocument = 1 << 20

// lowGCPercent is the collector's headroom while a large document is
// printed: garbage of a tenth of what is live triggers a collection.
const lowGCPercent = 10

// gcHeadroom lowers the garbage collector's headroom while a document of
// size bytes is printed, and returns what restores it. Tables and jq read
// a large answer a piece at a time and drop each piece at once, while the
// answer itself stays live: with the default headroom (as much again as
// what is live) the heap would grow to twice the answer before the pieces
// are collected. With a tenth, each collection is cheap (the answer is
// bytes, which the collector does not scan), and the heap stays close to
// the answer's size. Small documents are left alone.
//
// The setting is the process's: it is restored only if nothing else
// changed it meanwhile, so that overlapping calls leave the value found
// before the first. A collector that is off (GOGC=off) is left off, and a
// lower headroom is kept.
func gcHeadroom(size int) (restore func()) {
	if size < largeDocument || collectorOff() {
		return func() {}
	}
	old := debug.SetGCPercent(lowGCPercent)
	if old < lowGCPercent { // off or already lower meanwhile: keep it
		debug.SetGCPercent(old)
		return func() {}
	}
	return func() {
		if cur := debug.SetGCPercent(old); cur != lowGCPercent {
			debug.SetGCPercent(cur)
		}
	}
}

// collectorOff reports whether the garbage collector is off, reading the
// setting without changing it: debug.SetGCPercent, the only other way to
// read it, would turn the collector on, if only for a moment.
func collectorOff() bool {
	sample := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(sample)
	if sample[0].Value.Kind() != metrics.KindUint64 {
		return false // not reported: SetGCPercent's answer is checked instead
	}
	// The runtime reports the setting as an unsigned number: off, -1, is
	// the largest one.
	return int64(sample[0].Value.Uint64()) < 0
}
