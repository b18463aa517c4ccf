package catalogjson

import (
	"encoding/json"
	"testing"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/internal/input"
)

const verbatimName = "instances/i/databases/d/catalog"

var verbatimCases = []struct {
	name, doc string
	want      bool
}{
	{"catalog", `{"name": "instances/i/databases/d/catalog", "schemas": [{"name": "public", "tables": [{"name": "t", "classification": "1-1", "columns": {"columns": [{"name": "c", "semanticType": "email", "labels": {"k": "v", "k2": "v"}, "objectSchema": {"type": "OBJECT", "structKind": {"properties": {"p": {"type": "STRING"}}}}}]}}]}]}`, true},
	{"compact, escapes in values", `{"schemas":[{"name":"caf\u00e9 \"q\"","tables":[]}]}`, true},
	{"empty values", `{"schemas": [{"tables": [{"columns": {}}]}, {"name": ""}]}`, true},
	{"members in another order", `{"schemas": [{"tables": [{"classification": "1", "name": "t"}], "name": "s"}], "name": "instances/i/databases/d/catalog"}`, true},
	{"no name", `{"schemas": []}`, true},
	{"empty object", ` {} `, true},
	{"another catalog's name", `{"name": "instances/i/databases/other/catalog"}`, false},
	{"an empty name", `{"name": ""}`, false},
	{"null", `{"name": null}`, false},
	{"null in a list", `{"schemas": [null]}`, false},
	{"null table", `{"schemas": [{"tables": [null]}]}`, false},
	{"null in a table", `{"schemas": [{"tables": [{"name": "t", "columns": null}]}]}`, false},
	{"key in another case", `{"Name": "x"}`, false},
	{"key in another case in a table", `{"schemas": [{"tables": [{"Name": "t"}]}]}`, false},
	{"key twice", `{"name": "a", "name": "b"}`, false},
	{"label twice", `{"schemas": [{"tables": [{"columns": {"columns": [{"labels": {"k": "1", "k": "2"}}]}}]}]}`, false},
	{"unknown field", `{"name": "x", "owner": "me"}`, false},
	{"unknown field of a schema", `{"schemas": [{"name": "s", "owner": "me"}]}`, false},
	{"unknown field of a column", `{"schemas": [{"tables": [{"columns": {"columns": [{"name": "c", "owner": "me"}]}}]}]}`, false},
	{"wrong type", `{"name": ["x"]}`, false},
	{"number for a string", `{"name": 1}`, false},
	{"number for a label", `{"schemas": [{"tables": [{"columns": {"columns": [{"labels": {"k": 1}}]}}]}]}`, false},
	{"key with an escape", `{"schemas": [{"n\u0061me": "s"}]}`, false},
	{"unknown enum value", `{"schemas": [{"tables": [{"objectSchema": {"type": "BLOB"}}]}]}`, false},
	{"enum value in another case", `{"schemas": [{"tables": [{"objectSchema": {"type": "string"}}]}]}`, false},
	{"empty enum value", `{"schemas": [{"tables": [{"objectSchema": {"type": ""}}]}]}`, false},
	{"empty lists", `{"schemas": [{"tables": [{"columns": {"columns": []}}]}]}`, true},
	{"trailing data", `{"name": "x"} {}`, false},
	{"trailing comma", `{"name": "x",}`, false},
	{"byte order mark", "\xef\xbb\xbf{\"name\": \"x\"}", false},
	{"a list", `[{"name": "x"}]`, false},
	{"null document", `null`, false},
	{"YAML", "name: x\n", false},
	{"YAML flow style", `{name: x}`, false},
}

func TestVerbatim_onlyWhatDecodingWouldSendTheSame(t *testing.T) {
	for _, tt := range verbatimCases {
		t.Run(tt.name, func(t *testing.T) {
			body, got := Verbatim([]byte(tt.doc))(verbatimName)
			if got != tt.want {
				t.Fatalf("Verbatim = %v, want %v", got, tt.want)
			}
			if got {
				sameAsDecoded(t, []byte(tt.doc), body)
			}
		})
	}
}

func TestVerbatim_putsTheNameFirst(t *testing.T) {
	tests := []struct{ doc, want string }{
		{`{"name": "instances/i/databases/d/catalog"}`, `{"name": "instances/i/databases/d/catalog"}`},
		{`{ "schemas": []}`, `{"name":"instances/i/databases/d/catalog", "schemas": []}`},
		{" { } \n", "{\"name\":\"instances/i/databases/d/catalog\"} \n"},
	}
	for _, tt := range tests {
		if body, ok := Verbatim([]byte(tt.doc))(verbatimName); !ok || string(body) != tt.want {
			t.Errorf("Verbatim(%s) = %s, %v, want %s", tt.doc, body, ok, tt.want)
		}
	}
}

// sameAsDecoded checks that Decode takes the document doc, and that the
// body sent in its place means what the decoded catalog, encoded, means:
// in protobuf JSON an empty list or string is as good as none.
func sameAsDecoded(t *testing.T, doc, body []byte) {
	t.Helper()
	var decoded, sent client.DatabaseCatalog
	if err := input.Decode("f.json", doc, &decoded); err != nil {
		t.Fatalf("Verbatim accepted what Decode refuses: %v", err)
	}
	decoded.Name = verbatimName
	if err := json.Unmarshal(body, &sent); err != nil {
		t.Fatalf("the body is not a catalog: %v\n%s", err, body)
	}
	want, _ := json.Marshal(&decoded)
	got, _ := json.Marshal(&sent)
	if string(got) != string(want) {
		t.Errorf("the body sent and the decoded catalog differ:\n%s\n%s", body, want)
	}
}

// BenchmarkVerbatim checks that a catalog file of 5,000 tables of 20
// columns can be sent as it is.
func BenchmarkVerbatim(b *testing.B) {
	raw := bigCatalog()
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := Verbatim(raw)(verbatimName); !ok {
			b.Fatal("not verbatim")
		}
	}
}

func FuzzVerbatim(f *testing.F) {
	for _, tt := range verbatimCases {
		f.Add([]byte(tt.doc))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		if body, ok := Verbatim(doc)(verbatimName); ok {
			sameAsDecoded(t, doc, body)
		}
	})
}
