package revisions_test

import (
	"net/http"
	"testing"

	"github.com/dbgov/dbgov/internal/cmdtest"
	"github.com/dbgov/dbgov/internal/httpmock"
)

// BenchmarkBatchCreate creates 10,000 revisions in batches of 100 and
// prints them in each format.
func BenchmarkBatchCreate(b *testing.B) {
	file := generated(b, 10000)
	for _, bm := range []struct {
		name string
		args []string
	}{
		{"json", []string{"-o", "json"}},
		{"table", nil},
		{"name", []string{"-o", "name"}},
		{"jq", []string{"--jq", ".revisions | length"}},
	} {
		b.Run(bm.name, func(b *testing.B) {
			reg := httpmock.New(b)
			reg.Register(http.MethodPost, batchPath, 200, createdBatch(1, 100))
			args := batchCreate(append([]string{"-f", file, "--batch-size", "100"}, bm.args...)...)
			b.ReportAllocs()
			for b.Loop() {
				res := cmdtest.Run(b, cmdtest.Options{URL: reg.URL()}, args...)
				if res.Code != 0 {
					b.Fatalf("exit %d: %s", res.Code, res.Stderr)
				}
			}
		})
	}
}
