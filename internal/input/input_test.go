package input

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/dbgov/dbgov/client"
)

func TestRead_refusesWhatIsNotAnInputFile(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	tests := []struct {
		name, path, want string
	}{
		{"missing", filepath.Join(dir, "nope.json"), "no such file"},
		{"directory", dir, "is a directory"},
		{"empty", write("empty.json", nil), "is empty"},
		{"blank", write("blank.yaml", []byte(" \n\t\n")), "is empty"},
		{"binary", write("bin.json", []byte{0x7f, 'E', 'L', 'F', 0, 1}), "not a text file"},
		{"invalid utf-8", write("latin1.yaml", []byte("name: caf\xe9\n")), "not a text file"},
		{"no path", "", "no file given"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Read(tt.path, nil)
			if !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("Read(%q) = %v, want ErrInvalid containing %q", tt.path, err, tt.want)
			}
		})
	}
}

func TestRead_stdin(t *testing.T) {
	got, err := Read("-", strings.NewReader(`{"name":"x"}`))
	if err != nil || string(got) != `{"name":"x"}` {
		t.Fatalf("Read(-) = %q, %v", got, err)
	}
	if _, err := Read("-", strings.NewReader("")); err == nil || !strings.Contains(err.Error(), "standard input is empty") {
		t.Fatalf("empty stdin: %v", err)
	}
}

func TestDecode_acceptsJSONAndYAML(t *testing.T) {
	docs := map[string]string{
		"json": `{"name": "instances/i/databases/d/catalog", "schemas": [{"name": "public", "tables": [{"name": "t", "columns": {"columns": [{"name": "c", "labels": {"k": "v"}, "objectSchema": {"type": "STRING"}}]}}]}]}`,
		"yaml": "name: instances/i/databases/d/catalog\nschemas:\n  - name: public\n    tables:\n      - name: t\n        columns:\n          columns:\n            - name: c\n              labels: {k: v}\n              objectSchema: {type: STRING}\n",
	}
	for format, doc := range docs {
		t.Run(format, func(t *testing.T) {
			var cat client.DatabaseCatalog
			if err := Decode("cat."+format, []byte(doc), &cat); err != nil {
				t.Fatal(err)
			}
			col := cat.Schemas[0].Tables[0].Columns.Columns[0]
			if cat.Name != "instances/i/databases/d/catalog" || col.Name != "c" || col.Labels["k"] != "v" || col.ObjectSchema.Type != client.ObjectSchemaTypeString {
				t.Fatalf("decoded %+v", cat)
			}
		})
	}
}

func TestDecode_refusesBadInputNamingTheField(t *testing.T) {
	tests := []struct {
		name, doc string
		want      []string
	}{
		{"json unknown field", "{\"schemas\": [\n {\"name\": \"s\", \"tabels\": []}]}", []string{`unknown field "tabels"`, "schemas[0]", "line 2"}},
		{"yaml unknown field", "schemas:\n  - name: s\n    tabels: []\n", []string{`unknown field "tabels"`, "schemas[0]", "line 3"}},
		{"json wrong type", "{\"schemas\": [{\"name\": 5}]}", []string{"schemas[0].name", "wrong type", "string"}},
		{"yaml wrong type", "schemas:\n  - name: [a]\n", []string{"schemas[0].name", "line 2", "wrong type"}},
		{"yaml number for string", "schemas:\n  - name: 12\n", []string{"schemas[0].name", "quote the value"}},
		{"json unknown enum", `{"schemas":[{"tables":[{"objectSchema":{"type":"BLOB"}}]}]}`, []string{"schemas[0].tables[0].objectSchema.type", `unknown value "BLOB"`, "want one of TYPE_UNSPECIFIED, STRING, NUMBER, BOOLEAN, OBJECT, ARRAY"}},
		{"yaml unknown enum", "schemas:\n- tables:\n  - columns:\n      columns:\n      - objectSchema: {type: BLOB}\n", []string{"line 5", "objectSchema.type", "BLOB", "want one of"}},
		{"json name in another case", `{"schemas":[{"name":"a","Name":"b"}]}`, []string{`unknown field "Name"`, "schemas[0]"}},
		{"json top-level name in capitals", `{"SCHEMAS": []}`, []string{`unknown field "SCHEMAS"`, "the document"}},
		{"yaml name in another case", "schemas:\n  - Name: a\n", []string{`unknown field "Name"`, "schemas[0]", "line 2"}},
		{"json label given twice", `{"schemas":[{"tables":[{"columns":{"columns":[{"labels":{"k":"1","k":"2"}}]}}]}]}`, []string{`field "k" is given twice`, "labels"}},
		{"json invalid UTF-8", "{\"name\": \"caf\xe9\"}", []string{"invalid UTF-8"}},
		{"yaml boolean for string", "schemas:\n  - name: true\n", []string{"schemas[0].name", "quote the value"}},
		{"malformed json", "{\"name\": \"x\",\n \"schemas\": [}", []string{"line 2", "invalid character"}},
		{"truncated json", `{"name": "x", "schemas": [`, []string{"ends too early"}},
		{"malformed yaml", "name: [unclosed\n", []string{"cat"}},
		{"trailing data", `{"name": "x"} {"name": "y"}`, []string{"after the document"}},
		{"list for object", `[1, 2]`, []string{"the document: wrong type"}},
		{"json null", "null\n", []string{"no document"}},
		{"json duplicate key", "{\"schemas\": [{\"name\": \"p\"}],\n \"schemas\": []}", []string{`field "schemas" is given twice`, "line 2"}},
		{"json nested duplicate key", `{"schemas": [{"name": "p", "tables": [{"name": "a", "n\u0061me": "b"}]}]}`, []string{`field "name" is given twice`}},
		{"yaml duplicate key", "schemas:\n  - name: p\n    name: q\n", []string{`field "name" is given twice`, "line 3", "schemas[0]"}},
		{"yaml second document", "schemas: [{name: first}]\n---\nbogus: 1\n", []string{"more than one YAML document"}},
		{"yaml tilde", "~\n", []string{"no document"}},
		{"yaml empty document", "---\n", []string{"no document"}},
		{"yaml comment only document", "---\n# nothing here\n", []string{"no document"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var cat client.DatabaseCatalog
			err := Decode("cat", []byte(tt.doc), &cat)
			if !errors.Is(err, ErrInvalid) {
				t.Fatalf("Decode = %v, want ErrInvalid", err)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func TestDecode_revisionListAndEnum(t *testing.T) {
	var revs []client.RevisionInput
	if err := Decode("r.yaml", []byte("- version: \"1.0\"\n  type: VERSIONED\n- version: \"1.1\"\n  type: DECLARATIVE\n"), &revs); err != nil {
		t.Fatal(err)
	}
	if len(revs) != 2 || revs[1].Type != client.RevisionTypeDeclarative {
		t.Fatalf("got %+v", revs)
	}
	if err := Decode("r.yaml", []byte(`[{version: "2.0", type: VERSIONED}]`), &revs); err != nil || revs[0].Version != "2.0" {
		t.Fatalf("YAML flow list: %+v, %v", revs, err)
	}
	for _, doc := range []string{`[{"version":"1","type":"versioned"}]`, "- {version: \"1\", type: Versioned}\n"} {
		if err := Decode("r", []byte(doc), &revs); err != nil || revs[0].Type != client.RevisionTypeVersioned {
			t.Errorf("enum in another case: %+v, %v", revs, err)
		}
	}
	err := Decode("r.json", []byte(`[{"version":"1","type":"VERSIONS"}]`), &revs)
	if err == nil || !strings.Contains(err.Error(), `[0].type: unknown value "VERSIONS": want one of TYPE_UNSPECIFIED, VERSIONED, DECLARATIVE`) {
		t.Fatalf("unknown enum: %v", err)
	}
}

func TestIsList(t *testing.T) {
	tests := map[string]bool{
		`[{"a":1}]`:         true,
		` {"requests": []}`: false,
		"- a: 1\n":          true,
		"parent: x\n":       false,
		"\xef\xbb\xbf[1]":   true,
	}
	for doc, want := range tests {
		if got := IsList([]byte(doc)); got != want {
			t.Errorf("IsList(%q) = %v, want %v", doc, got, want)
		}
	}
}

func TestDecode_refusesYAMLAliases(t *testing.T) {
	doc := "a: &a [x, x]\nb: &b [*a, *a]\nc: [*b, *b]\n"
	var cat client.DatabaseCatalog
	if err := Decode("bomb.yaml", []byte(doc), &cat); err == nil || !strings.Contains(err.Error(), "aliases") {
		t.Fatalf("Decode = %v, want aliases refused", err)
	}
}

func TestDecode_yamlBecomesJSONInItsOrder(t *testing.T) {
	var got jsontext.Value
	err := Decode("f", []byte("b: 1\na: [x, {d: true, c: null}]\nbig: 12345678901234567890\nf: 0.5\n"), &got)
	if err != nil || string(got) != `{"b":1,"a":["x",{"d":true,"c":null}],"big":12345678901234567890,"f":0.5}` {
		t.Fatalf("Decode = %s, %v", got, err)
	}
}

// node is recursive with its enum after the recursion, so that deciding
// whether child holds enums meets node while node is still undecided.
type node struct {
	Children []child             `json:"children,omitempty"`
	Kind     client.RevisionType `json:"kind,omitempty"`
}

type child struct {
	Node *node `json:"node,omitempty"`
}

func TestDecode_findsEnumsBehindARecursiveType(t *testing.T) {
	var n node
	err := Decode("n.json", []byte(`{"children": [{"node": {"kind": "BOGUS"}}], "kind": "VERSIONED"}`), &n)
	if err == nil || !strings.Contains(err.Error(), "children[0].node.kind") {
		t.Fatalf("Decode = %v, want the nested unknown enum refused", err)
	}
}

// endless is an input that never ends, of one byte repeated.
type endless byte

func (e endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(e)
	}
	return len(p), nil
}

func TestReadAll_stopsAtTheCap(t *testing.T) {
	tests := []struct {
		name string
		r    io.Reader
		size int64
		want error
	}{
		{"endless text", endless('a'), 0, errTooLarge},
		{"endless NUL bytes stop at once", endless(0), 0, errBinary},
		{"a file said to be too large is not read", endless('a'), 1 << 20, errTooLarge},
		{"at the cap", strings.NewReader(strings.Repeat("a", 4096)), 4096, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			data, err := readAll(tt.r, tt.size, 4096)
			if !errors.Is(err, tt.want) {
				t.Fatalf("readAll = %d bytes, %v; want %v", len(data), err, tt.want)
			}
		})
	}
}

func TestRead_deviceOfNULBytesIsRefusedAtOnce(t *testing.T) {
	if _, err := os.Stat("/dev/zero"); err != nil {
		t.Skip("no /dev/zero")
	}
	if _, err := Read("/dev/zero", nil); !errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), "not a text file") {
		t.Fatalf("Read(/dev/zero) = %v", err)
	}
}

func TestLines_namesTheLineTooLong(t *testing.T) {
	in := "alice@example.com\n\n" + strings.Repeat("x", maxLine+1) + "\nbob@example.com\n"
	var got []string
	err := Lines(strings.NewReader(in), "standard input", func(n int, line string) error {
		got = append(got, strconv.Itoa(n)+":"+line)
		return nil
	})
	if !errors.Is(err, ErrInvalid) || err.Error() != "standard input: line 3 is longer than 1 MiB" {
		t.Fatalf("Lines = %v", err)
	}
	if strings.Join(got, ",") != "1:alice@example.com,2:" {
		t.Errorf("lines before the long one: %q", got)
	}
	if err := Lines(endless('a'), "standard input", func(int, string) error { return nil }); !errors.Is(err, ErrInvalid) {
		t.Errorf("endless line: %v", err)
	}
}
