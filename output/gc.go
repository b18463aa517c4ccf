package output

import "runtime/debug"

// largeDocument is the size from which printing a document runs the
// garbage collector with less headroom.
const largeDocument = 1 << 20

// headroom is about how much garbage triggers a collection while a large
// document is printed (at least a tenth of the document).
const headroom = 512 << 10

// gcHeadroom lowers the garbage collector's headroom while a document of
// size bytes is printed, and returns what restores it. Tables and jq read
// a large answer a piece at a time and drop each piece at once, while the
// answer itself stays live: with the default headroom (as much again as
// what is live) the heap would grow to twice the answer before the pieces
// are collected. With headroom of about 512 KB, each collection is cheap (the
// answer is bytes, which the collector does not scan), and the heap stays
// close to the answer's size. Small documents are left alone.
func gcHeadroom(size int) (restore func()) {
	if size < largeDocument {
		return func() {}
	}
	percent := max(10, 100*headroom/size)
	old := debug.SetGCPercent(percent)
	if old >= 0 && old < percent { // already lower (GOGC): keep it
		debug.SetGCPercent(old)
	}
	return func() { debug.SetGCPercent(old) }
}
