package catalogjson

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	jsonv2 "github.com/go-json-experiment/json"

	"github.com/dbgov/dbgov/client"
)

func TestEachTable_givesEachTableWithItsSchema(t *testing.T) {
	tests := []struct {
		name, doc, want string
	}{
		{name: "tables of each schema in order",
			doc:  `{"name": "instances/i/databases/d/catalog", "schemas": [{"name": "public", "tables": [{"name": "t1", "classification": "1", "columns": {"columns": [{"name": "c1", "labels": {"a": "b"}}]}}, {"name": "t2"}]}, {"name": "raw", "tables": [{"name": "t3"}]}]}`,
			want: `public/{"name":"t1","columns":{"columns":[{"name":"c1","labels":{"a":"b"}}]},"classification":"1"} public/{"name":"t2"} raw/{"name":"t3"}`},
		{name: "the name after the tables", doc: `{"schemas": [{"tables": [{"name": "t"}], "name": "late"}]}`, want: `late/{"name":"t"}`},
		{name: "escapes, nulls and schemas without tables",
			doc:  `{"schemas": [{"name": "s\u00e9\"q\"", "tables": [null, {"name": "t", "objectSchema": {"type": "OBJECT"}}]}, null, {"name": "none"}, {"tables": null}]}`,
			want: `sé"q"/{} sé"q"/{"name":"t","objectSchema":{"type":"OBJECT"}}`},
		{name: "fields this version does not know", doc: `{"unknown": {"schemas": 1}, "schemas": [{"more": [1], "name": "s", "tables": [{"name": "t", "etag": "x"}]}]}`, want: `s/{"name":"t"}`},
		{name: "no schemas", doc: `{}`},
		{name: "null", doc: `null`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			err := EachTable([]byte(tt.doc), func(schema string, table *client.TableCatalog) error {
				b, _ := json.Marshal(table)
				got = append(got, schema+"/"+string(b))
				return nil
			})
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, " ") != tt.want {
				t.Errorf("tables\n%s\nwant\n%s", strings.Join(got, " "), tt.want)
			}
		})
	}
}

func TestEachTable_refusesWhatIsNotACatalog(t *testing.T) {
	for _, doc := range []string{
		`[]`, `"catalog"`, `{"schemas": [`, `<html>`, `{"schemas": {"name": "public"}}`, `{"schemas": [1]}`,
		`{"schemas": [{"name": "s", "tables": {"name": "t"}}]}`, `{"schemas": [{"name": "s", "tables": [{"name": 1}]}]}`,
		`{"schemas": [{"name": "s", "tables": [{"name": "t", "columns": []}]}]}`,
	} {
		t.Run(doc, func(t *testing.T) {
			if err := EachTable([]byte(doc), func(string, *client.TableCatalog) error { return nil }); err == nil {
				t.Error("no error")
			}
		})
	}
}

// eachTable lists what EachTable gives for doc: schema/table as JSON.
func eachTable(doc string) (string, error) {
	var got []string
	err := EachTable([]byte(doc), func(schema string, table *client.TableCatalog) error {
		b, _ := json.Marshal(table)
		got = append(got, schema+"/"+string(b))
		return nil
	})
	return strings.Join(got, " "), err
}

func TestEachTable_readsInOnePassWhateverTheOrderOfMembers(t *testing.T) {
	tests := []struct {
		name, doc, want string
	}{
		{name: "the name after several tables",
			doc:  `{"schemas": [{"tables": [{"name": "a", "columns": {"columns": [{"name": "c", "labels": {"k": "v"}}]}}, null, {"name": "b"}], "more": {"name": "no"}, "name": "s"}]}`,
			want: `s/{"name":"a","columns":{"columns":[{"name":"c","labels":{"k":"v"}}]}} s/{} s/{"name":"b"}`},
		{name: "schemas naming themselves before and after their tables",
			doc:  `{"schemas": [{"tables": [{"name": "a"}], "name": "s1"}, {"name": "s2", "tables": [{"name": "b"}]}, {"tables": [{"name": "c"}]}]}`,
			want: `s1/{"name":"a"} s2/{"name":"b"} /{"name":"c"}`},
		{name: "an empty name before the tables and one after", doc: `{"schemas": [{"name": "", "tables": [{"name": "t"}], "name": "s"}]}`, want: `s/{"name":"t"}`},
		{name: "a name that is not a string", doc: `{"schemas": [{"name": 5, "tables": [{"name": "t"}]}, {"tables": [{"name": "u"}], "name": null}]}`, want: `/{"name":"t"} /{"name":"u"}`},
		{name: "the first schemas and tables given",
			doc:  `{"schemas": [{"name": "s", "tables": [{"name": "t"}], "tables": [{"name": "x"}]}], "schemas": [{"name": "y", "tables": [{"name": "z"}]}]}`,
			want: `s/{"name":"t"}`},
		{name: "a table keeps none of the fields of the one before",
			doc: `{"schemas": [{"name": "s", "tables": [` +
				`{"name": "a", "columns": {"columns": [{"name": "c1", "labels": {"k1": "v", "k2": "v"}}, {"name": "c2", "labels": {"k3": "v"}}, {"name": "c3", "semanticType": "email"}]}}, ` +
				`{"name": "b", "columns": {"columns": [{"name": "d1", "labels": {"k4": "v"}}, {"name": "d2", "labels": null}]}}, ` +
				`{"name": "c"}, {"name": "d", "columns": {}}, {"name": "e", "columns": {"columns": []}}, {"name": "f", "columns": {"columns": [{"labels": {}}]}}]}]}`,
			want: `s/{"name":"a","columns":{"columns":[{"name":"c1","labels":{"k1":"v","k2":"v"}},{"name":"c2","labels":{"k3":"v"}},{"name":"c3","semanticType":"email"}]}} ` +
				`s/{"name":"b","columns":{"columns":[{"name":"d1","labels":{"k4":"v"}},{"name":"d2"}]}} s/{"name":"c"} s/{"name":"d","columns":{}} s/{"name":"e","columns":{}} s/{"name":"f","columns":{"columns":[{}]}}`},
		{name: "invalid UTF-8 outside the tables, kept as sent", doc: "{\"x\": \"\xff\", \"schemas\": [{\"name\": \"s\xff\", \"tables\": [{\"name\": \"t\"}]}]}", want: "s\xff/{\"name\":\"t\"}"},
		{name: "what follows the catalog", doc: `{"schemas": [{"tables": [{"name": "t"}]}]} [1`, want: `/{"name":"t"}`},
		{name: "empty", doc: ``},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := eachTable(tt.doc)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("tables\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestEachTable_givesTheStringsUnmarshalGives(t *testing.T) {
	var tables []string
	for i := range 2000 {
		tables = append(tables, fmt.Sprintf(`{"name": "t%d", "classification": "c%d", "columns": {"columns": [`+
			`{"name": "id", "labels": {"k%d": "v", "n": null, "e\u0301": "caf\u00e9"}}, {"name": "c%d", "semanticType": "say \"hi\""}]}}`, i, i%700, i%3, i))
	}
	doc := `{"schemas": [{"name": "s", "tables": [` + strings.Join(tables, ", ") + `]}]}`
	var cat client.DatabaseCatalog
	if err := jsonv2.Unmarshal([]byte(doc), &cat); err != nil {
		t.Fatal(err)
	}
	i := 0
	err := EachTable([]byte(doc), func(schema string, table *client.TableCatalog) error {
		got, _ := json.Marshal(table)
		want, _ := json.Marshal(cat.Schemas[0].Tables[i])
		if i++; string(got) != string(want) {
			return fmt.Errorf("table %d: %s, want %s", i-1, got, want)
		}
		return nil
	})
	if err != nil || i != len(tables) {
		t.Fatalf("%d tables, error %v", i, err)
	}
}

func TestEachTable_refusesTablesAsUnmarshalDoes(t *testing.T) {
	tests := []struct {
		name, doc, want string
	}{
		{"a table that is no object, after the name", `{"schemas": [{"name": "s", "tables": ["t"]}]}`, "string"},
		{"a table that is no object, before the name", `{"schemas": [{"tables": [{"name": "t"}, 1], "name": "s"}]}`, "number"},
		{"tables that are no list, before the name", `{"schemas": [{"tables": {}, "name": "s"}]}`, "want a list, got an object"},
		{"a field of the wrong type", `{"schemas": [{"name": "s", "tables": [{"name": "t", "columns": {"columns": [{"labels": {"k": 1}}]}}]}]}`, "/schemas/0/tables/0/columns/columns/0/labels/k"},
		{"invalid UTF-8 in a table", "{\"schemas\": [{\"name\": \"s\", \"tables\": [{\"name\": \"t\xff\"}]}]}", "UTF-8"},
		{"a table giving a field twice", `{"schemas": [{"name": "s", "tables": [{"name": "t", "name": "u"}]}]}`, "duplicate"},
		{"a label given twice", `{"schemas": [{"name": "s", "tables": [{"columns": {"columns": [{"labels": {"k": "1", "k": "2"}}]}}]}]}`, "duplicate"},
		{"a syntax error after the tables", `{"schemas": [{"name": "s", "tables": []}], "x": }`, "invalid character"},
		{"a syntax error in a schema", `{"schemas": [{"name": "s" "tables": []}]}`, "invalid character"},
		{"only spaces", ` `, "EOF"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if _, err := eachTable(tt.doc); err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v, want one with %q", err, tt.want)
			}
		})
	}
}

func TestEachTable_stopsAtTheErrorOfFnWhereverTheName(t *testing.T) {
	stop := errors.New("stop")
	for _, doc := range []string{
		`{"schemas": [{"name": "s", "tables": [{"name": "a"}, {"name": "b"}]}, {"name": "u", "tables": [{"name": "c"}]}]}`,
		`{"schemas": [{"tables": [{"name": "a"}, {"name": "b"}], "name": "s"}, {"tables": [{"name": "c"}], "name": "u"}]}`,
	} {
		var got []string
		err := EachTable([]byte(doc), func(schema string, table *client.TableCatalog) error {
			got = append(got, schema+"."+table.Name)
			return stop
		})
		if err != stop || strings.Join(got, " ") != "s.a" {
			t.Errorf("%s: error %v after %v, want stop after s.a", doc, err, got)
		}
	}
}

func TestEachTable_stopsAtTheErrorOfFn(t *testing.T) {
	stop := errors.New("stop")
	n := 0
	err := EachTable([]byte(`{"schemas": [{"tables": [{"name": "a"}, {"name": "b"}]}]}`), func(string, *client.TableCatalog) error {
		n++
		return stop
	})
	if err != stop || n != 1 {
		t.Errorf("error %v after %d tables, want stop after 1", err, n)
	}
}

// bigCatalog is a catalog of 5,000 tables of 20 columns, each column with
// a semantic type, a classification and two labels.
func bigCatalog() []byte {
	var sb strings.Builder
	sb.WriteString(`{"name": "instances/i/databases/d/catalog", "schemas": [{"name": "public", "tables": [`)
	for t := range 5000 {
		if t > 0 {
			sb.WriteString(", ")
		}
		fmt.Fprintf(&sb, `{"name": "table_%05d", "classification": "1-1", "columns": {"columns": [`, t)
		for c := range 20 {
			if c > 0 {
				sb.WriteString(", ")
			}
			fmt.Fprintf(&sb, `{"name": "column_%02d", "semanticType": "default", "labels": {"owner": "data-platform", "tier": "%d"}, "classification": "1-2"}`, c, c%3)
		}
		sb.WriteString(`]}}`)
	}
	sb.WriteString(`]}]}`)
	return []byte(sb.String())
}

// BenchmarkEachTable walks the tables of a catalog of 5,000 tables of 20
// columns, the way the table output reads it.
func BenchmarkEachTable(b *testing.B) {
	raw := bigCatalog()
	b.SetBytes(int64(len(raw)))
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		if err := EachTable(raw, func(_ string, t *client.TableCatalog) error { n += 1 + len(t.Columns.Columns); return nil }); err != nil || n != 105000 {
			b.Fatalf("%d rows, %v", n, err)
		}
	}
}

// BenchmarkDiff and BenchmarkMerge compare that catalog with itself, a
// column changed in each table.
func BenchmarkDiff(b *testing.B)  { benchmarkCompare(b, false) }
func BenchmarkMerge(b *testing.B) { benchmarkCompare(b, true) }

func benchmarkCompare(b *testing.B, merge bool) {
	cur := bigCatalog()
	file := []byte(strings.ReplaceAll(string(cur), `"column_03", "semanticType": "default"`, `"column_03", "semanticType": "email"`))
	b.SetBytes(int64(len(cur)))
	b.ReportAllocs()
	for b.Loop() {
		var changes []Change
		var err error
		if merge {
			_, changes, err = Merge(make([]byte, 0, len(cur)), cur, file)
		} else {
			changes, err = Diff(cur, file)
		}
		if err != nil || len(changes) != 5000 {
			b.Fatalf("%d changes, %v", len(changes), err)
		}
	}
}

// FuzzMerge checks that any two documents are merged and compared without
// a panic, into valid JSON whenever the merge succeeds.
func FuzzMerge(f *testing.F) {
	f.Add([]byte(current), []byte(`{"schemas": [{"name": "public", "tables": [{"name": "users", "columns": {"columns": [{"name": "x", "labels": {"owner": null}}]}}]}]}`))
	f.Add([]byte(`{"schemas": [{"tables": [null, {"name": "t", "columns": null}]}]}`), []byte(`{"schemas": [{"name": "", "tables": null}]}`))
	f.Fuzz(func(t *testing.T, cur, file []byte) {
		out, _, err := Merge([]byte{}, cur, file)
		if err == nil && !json.Valid(out) {
			t.Fatalf("merged into invalid JSON: %s", out)
		}
		_, _ = Diff(cur, file)
		_ = EachTable(cur, func(string, *client.TableCatalog) error { return nil })
	})
}
