package input

import (
	"bytes"
	"encoding/json"
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

// FuzzDuplicateKey checks the duplicate finder on valid documents against a
// decoding that keeps every key: it finds a duplicate exactly when one exists.
func FuzzDuplicateKey(f *testing.F) {
	for _, s := range []string{`{"a":1,"a":2}`, `[{"a":{"b":1,"b":2}}]`, `{"a":"\"","b":[1,{"c":null}]}`, `{"\u0061":1,"a":2}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			return
		}
		_, _, found := duplicateKey(data)
		if want := hasDuplicate(json.NewDecoder(bytes.NewReader(data))); found != want {
			t.Fatalf("duplicateKey found %v, want %v", found, want)
		}
	})
}

// hasDuplicate walks a token stream and reports whether an object repeats
// a key.
func hasDuplicate(dec *json.Decoder) bool {
	tok, err := dec.Token()
	if err != nil {
		return false
	}
	switch tok {
	case json.Delim('{'):
		seen := map[string]bool{}
		dup := false
		for dec.More() {
			k, _ := dec.Token()
			key, _ := k.(string)
			if seen[key] {
				dup = true
			}
			seen[key] = true
			if hasDuplicate(dec) {
				dup = true
			}
		}
		_, _ = dec.Token()
		return dup
	case json.Delim('['):
		dup := false
		for dec.More() {
			if hasDuplicate(dec) {
				dup = true
			}
		}
		_, _ = dec.Token()
		return dup
	}
	return false
}
