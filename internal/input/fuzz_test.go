package input

import (
	"errors"
	"testing"

	"github.com/dbgov/dbgov/client"
)

// FuzzDecode feeds arbitrary files to the strict decoder: it must refuse or
// accept, never panic, and refuse only with ErrInvalid.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"name":"instances/i/databases/d/catalog","schemas":[{"name":"s"}]}`))
	f.Add([]byte("schemas:\n  - name: s\n    tables: [{name: t}]\n"))
	f.Add([]byte(`[{"version":"1","type":"VERSIONED"}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var cat client.DatabaseCatalog
		if err := Decode("fuzz", data, &cat); err != nil && !errors.Is(err, ErrInvalid) {
			t.Fatalf("catalog: error %v does not wrap ErrInvalid", err)
		}
		var req client.BatchCreateRevisionsRequest
		if err := Decode("fuzz", data, &req); err != nil && !errors.Is(err, ErrInvalid) {
			t.Fatalf("revisions: error %v does not wrap ErrInvalid", err)
		}
		_ = IsList(data)
	})
}
