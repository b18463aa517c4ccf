package client

import (
	"math"
	"runtime/debug"
	"runtime/metrics"
)

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
// collector does not scan. Small answers are left alone, and so is a
// collector that is off (GOGC=off) or already runs with less headroom: it
// is never turned on, not even for a moment.
//
// The setting is the process's: it is restored only if nothing else
// changed it meanwhile, so that overlapping calls leave the value found
// before the first.
func gcHeadroom(size int) (restore func()) {
	if size < largeBody {
		return func() {}
	}
	if cur, on := gcPercent(); !on || cur <= lowGCPercent {
		return func() {}
	}
	old := debug.SetGCPercent(lowGCPercent)
	if old < lowGCPercent {
		// Changed since it was read, to less headroom or off: put it back.
		debug.SetGCPercent(old)
		return func() {}
	}
	return func() {
		if cur, on := gcPercent(); !on || cur != lowGCPercent {
			return // changed meanwhile: keep the newer setting
		}
		if cur := debug.SetGCPercent(old); cur != lowGCPercent {
			debug.SetGCPercent(cur)
		}
	}
}

// gcPercentMetric is the runtime metric holding the collector's setting.
const gcPercentMetric = "/gc/gogc:percent"

// gcPercent reads the collector's setting without changing it, and whether
// the collector is on. The runtime reports an off collector (-1) as a
// number beyond any percentage; a setting it cannot report counts as off,
// so that it is left alone.
func gcPercent() (percent int, on bool) {
	s := []metrics.Sample{{Name: gcPercentMetric}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0, false
	}
	v := s[0].Value.Uint64()
	if v > math.MaxInt32 {
		return 0, false
	}
	return int(v), true
}
