package input_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/internal/input"
)

// FuzzDecode feeds arbitrary files to the strict decoder: it must refuse or
// accept, never panic, and refuse only with ErrInvalid.
func FuzzDecode(f *testing.F) {
	f.Add([]byte(`{"name":"instances/i/databases/d/catalog","schemas":[{"name":"s"}]}`))
	f.Add([]byte("schemas:\n  - name: s\n    tables: [{name: t}]\n"))
	f.Add([]byte(`[{"version":"1","type":"VERSIONED"}]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var cat client.DatabaseCatalog
		if err := input.Decode("fuzz", data, &cat); err != nil && !errors.Is(err, input.ErrInvalid) {
			t.Fatalf("catalog: error %v does not wrap ErrInvalid", err)
		}
		var req client.BatchCreateRevisionsRequest
		if err := input.Decode("fuzz", data, &req); err != nil && !errors.Is(err, input.ErrInvalid) {
			t.Fatalf("revisions: error %v does not wrap ErrInvalid", err)
		}
		_ = input.IsList(data)
	})
}

// FuzzDuplicateKey checks the duplicate check on valid documents against a
// decoding that keeps every key: Decode refuses a key given twice exactly
// when one is.
func FuzzDuplicateKey(f *testing.F) {
	for _, s := range []string{`{"a":1,"a":2}`, `[{"a":{"b":1,"b":2}}]`, `{"a":"\"","b":[1,{"c":null}]}`, `{"\u0061":1,"a":2}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) || !input.IsJSON(data) {
			return
		}
		var v any
		err := input.Decode("fuzz", data, &v)
		if !utf8.Valid(data) {
			if err == nil {
				t.Fatal("Decode accepted invalid UTF-8")
			}
			return
		}
		refused := err != nil && strings.Contains(err.Error(), "is given twice")
		if want := hasDuplicate(json.NewDecoder(bytes.NewReader(data))); refused != want {
			t.Fatalf("Decode = %v, want a duplicate found: %v", err, want)
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
