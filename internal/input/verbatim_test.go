package input

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/dbgov/dbgov/client"
)

var verbatimCases = []struct {
	name, doc string
	want      bool
}{
	{"catalog", `{"name": "instances/i/databases/d/catalog", "schemas": [{"name": "public", "tables": [{"name": "t", "classification": "1-1", "columns": {"columns": [{"name": "c", "semanticType": "email", "labels": {"k": "v", "k2": "v"}, "objectSchema": {"type": "OBJECT", "structKind": {"properties": {"p": {"type": "STRING"}}}}}]}}]}]}`, true},
	{"compact, escapes in values", `{"schemas":[{"name":"caf\u00e9 \"q\"","tables":[]}]}`, true},
	{"empty values", `{"name": "", "schemas": [{"tables": [{"columns": {}}]}]}`, true},
	{"no name", `{"schemas": []}`, true},
	{"empty object", ` {} `, true},
	{"null", `{"name": null}`, false},
	{"null in a list", `{"schemas": [null]}`, false},
	{"key in another case", `{"Name": "x"}`, false},
	{"key with an escape", `{"n\u0061me": "x"}`, true},
	{"enum value in another case", `{"schemas": [{"tables": [{"objectSchema": {"type": "string"}}]}]}`, false},
	{"key with an escape given twice", `{"n\u0061me": "x", "name": "y"}`, false},
	{"key twice", `{"name": "a", "name": "b"}`, false},
	{"label twice", `{"schemas": [{"tables": [{"columns": {"columns": [{"labels": {"k": "1", "k": "2"}}]}}]}]}`, false},
	{"unknown field", `{"name": "x", "owner": "me"}`, false},
	{"wrong type", `{"name": ["x"]}`, false},
	{"number for a string", `{"name": 1}`, false},
	{"unknown enum value", `{"schemas": [{"tables": [{"objectSchema": {"type": "BLOB"}}]}]}`, false},
	{"empty enum value", `{"schemas": [{"tables": [{"objectSchema": {"type": ""}}]}]}`, false},
	{"trailing data", `{"name": "x"} {}`, false},
	{"trailing comma", `{"name": "x",}`, false},
	{"byte order mark", "\xef\xbb\xbf{\"name\": \"x\"}", false},
	{"a list", `[{"name": "x"}]`, false},
	{"YAML", "name: x\n", false},
	{"YAML flow style", `{name: x}`, false},
}

func TestVerbatim_onlyWhatDecodeTakesAsItIs(t *testing.T) {
	for _, tt := range verbatimCases {
		t.Run(tt.name, func(t *testing.T) {
			top, got := Verbatim([]byte(tt.doc), (*client.DatabaseCatalog)(nil))
			if got != tt.want {
				t.Fatalf("Verbatim = %v, want %v", got, tt.want)
			}
			if got {
				sameAsDecoded(t, []byte(tt.doc))
				if tt.name == "catalog" && string(top["name"]) != `"instances/i/databases/d/catalog"` {
					t.Errorf("top-level name %q", top["name"])
				}
			}
		})
	}
}

// sameAsDecoded checks that a verbatim document decodes and means what the
// value Decode makes of it means once encoded.
func sameAsDecoded(t *testing.T, doc []byte) {
	t.Helper()
	var decoded client.DatabaseCatalog
	if err := Decode("f.json", doc, &decoded); err != nil {
		t.Fatalf("Verbatim accepted what Decode refuses: %v", err)
	}
	encoded, err := json.Marshal(&decoded)
	if err != nil {
		t.Fatal(err)
	}
	var fromDoc, fromEncoded client.DatabaseCatalog
	if err := json.Unmarshal(doc, &fromDoc); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(encoded, &fromEncoded); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(normalizeCatalog(fromDoc), normalizeCatalog(fromEncoded)) {
		t.Errorf("the document and its decoded value differ:\n%s\n%s", doc, encoded)
	}
}

// normalizeCatalog clears what protobuf JSON does not tell apart: an empty
// list or map and an absent one.
func normalizeCatalog(c client.DatabaseCatalog) string {
	b, _ := json.Marshal(c)
	return string(b)
}

func FuzzVerbatim(f *testing.F) {
	for _, tt := range verbatimCases {
		f.Add([]byte(tt.doc))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		if _, ok := Verbatim(doc, (*client.DatabaseCatalog)(nil)); ok {
			sameAsDecoded(t, doc)
		}
	})
}
