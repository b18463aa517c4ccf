package catalogjson

import (
	"errors"
	"strings"
	"testing"
)

// lines is changes as the lines of table mode.
func lines(changes []Change) string {
	var out []string
	for _, c := range changes {
		out = append(out, c.String())
	}
	return strings.Join(out, "\n")
}

const current = `{"name": "instances/i/databases/d/catalog", "schemas": [
 {"name": "public", "tables": [
  {"name": "users", "classification": "1", "columns": {"columns": [
   {"name": "id"},
   {"name": "email", "semanticType": "email", "labels": {"pii": "yes", "owner": "crm"}, "classification": "2"}]}},
  {"name": "orders", "columns": {"columns": [{"name": "total"}]}}]},
 {"name": "audit", "tables": [{"name": "events"}]}]}`

func TestDiff_changesAtEachLevel(t *testing.T) {
	tests := []struct {
		name, cur, file, want string
	}{
		{name: "the same catalog, spaced and ordered otherwise",
			file: `{"schemas":[{"tables":[{"columns":{"columns":[{"name":"id"},{"classification":"2","labels":{"owner":"crm","pii":"yes"},"semanticType":"email","name":"email"}]},"classification":"1","name":"users"},{"name":"orders","columns":{"columns":[{"name":"total"}]}}],"name":"public"},{"name":"audit","tables":[{"name":"events"}]}],"name":"instances/i/databases/d/catalog"}`},
		{name: "schema added and removed",
			cur:  `{"schemas": [{"name": "a"}]}`,
			file: `{"schemas": [{"name": "b", "tables": [{"name": "t"}]}]}`,
			want: "- a\n+ b\n+ b.t"},
		{name: "table added, removed and changed",
			cur:  `{"schemas": [{"name": "s", "tables": [{"name": "t1", "classification": "1"}, {"name": "t2"}]}]}`,
			file: `{"schemas": [{"name": "s", "tables": [{"name": "t1", "classification": "2"}, {"name": "t3", "classification": "3"}]}]}`,
			want: "~ s.t1 classification: 1 → 2\n- s.t2\n+ s.t3\n+ s.t3 classification: 3"},
		{name: "column added, removed and changed",
			cur:  `{"schemas": [{"name": "s", "tables": [{"name": "t", "columns": {"columns": [{"name": "a", "semanticType": "email"}, {"name": "b"}]}}]}]}`,
			file: `{"schemas": [{"name": "s", "tables": [{"name": "t", "columns": {"columns": [{"name": "a"}, {"name": "c", "semanticType": "phone"}]}}]}]}`,
			want: "- s.t.a semanticType: email\n- s.t.b\n+ s.t.c\n+ s.t.c semanticType: phone"},
		{name: "labels added, removed and changed",
			cur:  `{"schemas": [{"name": "s", "tables": [{"name": "t", "columns": {"columns": [{"name": "c", "labels": {"a": "1", "b": "2"}}]}}]}]}`,
			file: `{"schemas": [{"name": "s", "tables": [{"name": "t", "columns": {"columns": [{"name": "c", "labels": {"b": "3", "c": "4"}}]}}]}]}`,
			want: "- s.t.c labels.a: 1\n~ s.t.c labels.b: 2 → 3\n+ s.t.c labels.c: 4"},
		{name: "the empty schema name, given or not",
			cur:  `{"schemas": [{"tables": [{"name": "t", "classification": "1"}]}]}`,
			file: `{"schemas": [{"name": "", "tables": [{"name": "t", "classification": "2"}, {"name": "u"}]}]}`,
			want: "~ .t classification: 1 → 2\n+ .u"},
		{name: "fields this version does not know",
			cur:  `{"etag": "1", "schemas": [{"name": "s", "tables": [{"name": "t", "owner": {"team": "a"}, "columns": {"columns": [{"name": "c", "future": 1}]}}]}]}`,
			file: `{"etag": "2", "schemas": [{"name": "s", "tables": [{"name": "t", "owner": {"team": "b"}, "columns": {"columns": [{"name": "c"}]}}]}]}`,
			want: "~ \"\" etag: 1 → 2\n~ s.t owner: {\"team\":\"a\"} → {\"team\":\"b\"}\n- s.t.c future: 1"},
		{name: "object schemas compared as JSON",
			cur:  `{"schemas": [{"name": "s", "tables": [{"name": "t", "objectSchema": {"type": "OBJECT", "structKind": {}}, "columns": {"columns": [{"name": "c", "objectSchema": {"type": "STRING"}}]}}]}]}`,
			file: `{"schemas": [{"name": "s", "tables": [{"name": "t", "objectSchema": {"structKind": { }, "type": "OBJECT"}, "columns": {"columns": [{"name": "c", "objectSchema": {"type": "NUMBER"}}]}}]}]}`,
			want: "~ s.t.c objectSchema: {\"type\":\"STRING\"} → {\"type\":\"NUMBER\"}"},
		{name: "null is no value",
			cur:  `{"schemas": [{"name": "s", "tables": [{"name": "t", "classification": null, "columns": null}]}]}`,
			file: `{"schemas": [{"name": "s", "tables": [{"name": "t"}]}]}`},
		{name: "everything removed",
			file: `{}`,
			want: "- public\n- audit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.cur == "" {
				tt.cur = current
			}
			changes, err := Diff([]byte(tt.cur), []byte(tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if got := lines(changes); got != tt.want {
				t.Errorf("changes\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestMerge_laysTheFileOverTheCatalog(t *testing.T) {
	tests := []struct {
		name, cur, file, want, changes string
	}{
		{name: "a field given replaces, a field left out is kept",
			file:    `{"schemas": [{"name": "public", "tables": [{"name": "users", "classification": "3", "columns": {"columns": [{"name": "email", "semanticType": "e-mail"}]}}]}]}`,
			want:    `{"name":"instances/i/databases/d/catalog","schemas":[{"name":"public","tables":[{"name":"users","classification":"3","columns":{"columns":[{"name":"id"},{"name":"email","semanticType":"e-mail","labels":{"pii":"yes","owner":"crm"},"classification":"2"}]}},{"name":"orders","columns":{"columns":[{"name":"total"}]}}]},{"name":"audit","tables":[{"name":"events"}]}]}`,
			changes: "~ public.users classification: 1 → 3\n~ public.users.email semanticType: email → e-mail"},
		{name: "labels merge key by key, null removes one",
			file:    `{"schemas": [{"name": "public", "tables": [{"name": "users", "columns": {"columns": [{"name": "email", "labels": {"pii": null, "owner": "billing", "gdpr": "art-9"}}]}}]}]}`,
			want:    `{"name":"instances/i/databases/d/catalog","schemas":[{"name":"public","tables":[{"name":"users","classification":"1","columns":{"columns":[{"name":"id"},{"name":"email","semanticType":"email","labels":{"owner":"billing","gdpr":"art-9"},"classification":"2"}]}},{"name":"orders","columns":{"columns":[{"name":"total"}]}}]},{"name":"audit","tables":[{"name":"events"}]}]}`,
			changes: "- public.users.email labels.pii: yes\n~ public.users.email labels.owner: crm → billing\n+ public.users.email labels.gdpr: art-9"},
		{name: "null removes a field, and labels null removes them all",
			file:    `{"schemas": [{"name": "public", "tables": [{"name": "users", "classification": null, "columns": {"columns": [{"name": "email", "labels": null}]}}]}]}`,
			want:    `{"name":"instances/i/databases/d/catalog","schemas":[{"name":"public","tables":[{"name":"users","columns":{"columns":[{"name":"id"},{"name":"email","semanticType":"email","labels":{},"classification":"2"}]}},{"name":"orders","columns":{"columns":[{"name":"total"}]}}]},{"name":"audit","tables":[{"name":"events"}]}]}`,
			changes: "- public.users classification: 1\n- public.users.email labels.pii: yes\n- public.users.email labels.owner: crm"},
		{name: "added schemas, tables and columns go at the end, in the file's order",
			file:    `{"schemas": [{"name": "new", "tables": [{"name": "n"}]}, {"name": "public", "tables": [{"name": "z"}, {"name": "users", "columns": {"columns": [{"name": "b"}, {"name": "a", "classification": "1"}]}}]}]}`,
			want:    `{"name":"instances/i/databases/d/catalog","schemas":[{"name":"public","tables":[{"name":"users","classification":"1","columns":{"columns":[{"name":"id"},{"name":"email","semanticType":"email","labels":{"pii":"yes","owner":"crm"},"classification":"2"},{"name":"b"},{"name":"a","classification":"1"}]}},{"name":"orders","columns":{"columns":[{"name":"total"}]}},{"name":"z"}]},{"name":"audit","tables":[{"name":"events"}]},{"name":"new","tables":[{"name":"n"}]}]}`,
			changes: "+ public.users.b\n+ public.users.a\n+ public.users.a classification: 1\n+ public.z\n+ new\n+ new.n"},
		{name: "fields this version does not know are kept",
			cur:     `{"etag": "x", "schemas": [{"name": "s", "tables": [{"name": "t", "owner": "a", "columns": {"sorted": true, "columns": [{"name": "c", "future": [1, 2]}]}}]}]}`,
			file:    `{"schemas": [{"name": "s", "tables": [{"name": "t", "classification": "1", "columns": {"columns": [{"name": "c", "semanticType": "x"}]}}]}]}`,
			want:    `{"etag":"x","schemas":[{"name":"s","tables":[{"name":"t","owner":"a","columns":{"sorted":true,"columns":[{"name":"c","future":[1,2],"semanticType":"x"}]},"classification":"1"}]}]}`,
			changes: "+ s.t.c semanticType: x\n+ s.t classification: 1"},
		{name: "the empty schema name, given or not",
			cur:     `{"schemas": [{"tables": [{"name": "t"}]}]}`,
			file:    `{"schemas": [{"name": "", "tables": [{"name": "t", "classification": "1"}]}]}`,
			want:    `{"schemas":[{"tables":[{"name":"t","classification":"1"}],"name":""}]}`,
			changes: "+ .t classification: 1"},
		{name: "a file that changes nothing",
			file: `{"name": "instances/i/databases/d/catalog", "schemas": [{"name": "audit", "tables": [{"name": "events"}]}, {"name": "public", "tables": [{"name": "users", "classification": "1"}]}]}`,
			want: `{"name":"instances/i/databases/d/catalog","schemas":[{"name":"public","tables":[{"name":"users","classification":"1","columns":{"columns":[{"name":"id"},{"name":"email","semanticType":"email","labels":{"pii":"yes","owner":"crm"},"classification":"2"}]}},{"name":"orders","columns":{"columns":[{"name":"total"}]}}]},{"name":"audit","tables":[{"name":"events"}]}]}`},
		{name: "a table given as the service gave it is kept, but for its nulls",
			cur:  `{"schemas": [{"name": "s", "tables": [{"name": "t", "classification": null, "columns": {"columns": [{"name": "c", "labels": {"a": null, "b": "1"}}]}}, {"name": "u", "classification": "1"}]}]}`,
			file: `{"schemas": [{"name": "s", "tables": [{"name": "t", "classification": null, "columns": {"columns": [{"name": "c", "labels": {"a": null, "b": "1"}}]}}, {"name": "u", "classification": "1"}]}]}`,
			want: `{"schemas":[{"name":"s","tables":[{"name":"t","columns":{"columns":[{"name":"c","labels":{"b":"1"}}]}},{"name":"u","classification":"1"}]}]}`},
		{name: "a catalog without schemas",
			cur:     `{"name": "instances/i/databases/d/catalog"}`,
			file:    `{"schemas": [{"tables": [{"name": "t", "columns": {"columns": [{"name": "c", "labels": {"k": "v", "gone": null}}]}}]}]}`,
			want:    `{"name":"instances/i/databases/d/catalog","schemas":[{"tables":[{"name":"t","columns":{"columns":[{"name":"c","labels":{"k":"v"}}]}}]}]}`,
			changes: "+ \"\"\n+ .t\n+ .t.c\n+ .t.c labels.k: v"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.cur == "" {
				tt.cur = current
			}
			merged, changes, err := Merge([]byte{}, []byte(tt.cur), []byte(tt.file))
			if err != nil {
				t.Fatal(err)
			}
			if string(merged) != tt.want {
				t.Errorf("merged\n%s\nwant\n%s", merged, tt.want)
			}
			if got := lines(changes); got != tt.changes {
				t.Errorf("changes\n%s\nwant\n%s", got, tt.changes)
			}
		})
	}
}

func TestMerge_refusesWhatIsNotACatalog(t *testing.T) {
	tests := []struct {
		name, cur, file, want string
		fileErr               bool
	}{
		{name: "a table given twice", cur: current, file: `{"schemas": [{"name": "public", "tables": [{"name": "users"}, {"name": "users"}]}]}`,
			want: "public.users is given twice", fileErr: true},
		{name: "a column given twice", cur: current, file: `{"schemas": [{"name": "s", "tables": [{"name": "t", "columns": {"columns": [{"name": "c"}, {"name": "c"}]}}]}]}`,
			want: "s.t.c is given twice", fileErr: true},
		{name: "another catalog", cur: current, file: `{"name": "instances/i/databases/other/catalog"}`,
			want: "instances/i/databases/other/catalog", fileErr: true},
		{name: "tables that are no list in the file", cur: current, file: `{"schemas": [{"name": "public", "tables": {"name": "users"}}]}`,
			want: "want a list, got an object", fileErr: true},
		{name: "schemas that are no list in the answer", cur: `{"schemas": {"name": "public"}}`, file: `{"schemas": []}`, want: "want a list, got an object"},
		{name: "a column that is no object in the answer", cur: `{"schemas": [{"name": "s", "tables": [{"name": "t", "columns": {"columns": [1]}}]}]}`,
			file: `{"schemas": [{"name": "s", "tables": [{"name": "t", "columns": {"columns": [{"name": "c"}]}}]}]}`, want: "want an object, got a number"},
		{name: "an answer that is no JSON", cur: `{"schemas": [`, file: `{}`, want: "jsontext"},
		{name: "an answer that is a list", cur: `[]`, file: `{}`, want: "want an object, got a list"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, _, err := Merge([]byte{}, []byte(tt.cur), []byte(tt.file))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want one saying %q", err, tt.want)
			}
			if errors.Is(err, ErrFile) != tt.fileErr {
				t.Errorf("errors.Is(err, ErrFile) = %v, want %v", !tt.fileErr, tt.fileErr)
			}
			if _, err := Diff([]byte(tt.cur), []byte(tt.file)); err == nil {
				t.Error("Diff found no error")
			}
		})
	}
}

func TestChange_String(t *testing.T) {
	tests := []struct {
		change Change
		want   string
	}{
		{Change{Op: "add", Path: "s.t"}, "+ s.t"},
		{Change{Op: "remove", Path: ".t.c"}, "- .t.c"},
		{Change{Op: "add"}, `+ ""`},
		{Change{Op: "add", Path: "s.t.c", Field: "labels.pii", To: []byte(`"yes"`)}, "+ s.t.c labels.pii: yes"},
		{Change{Op: "remove", Path: "s.t", Field: "classification", From: []byte(`"1"`)}, "- s.t classification: 1"},
		{Change{Op: "change", Path: "s.t", Field: "owner", From: []byte(`{ "a" : 1 }`), To: []byte(`[1, 2]`)}, `~ s.t owner: {"a":1} → [1,2]`},
		{Change{Op: "change", Field: "etag", From: []byte(`"a\nb"`), To: []byte(`"c"`)}, `~ "" etag: "a\nb" → c`},
	}
	for _, tt := range tests {
		if got := tt.change.String(); got != tt.want {
			t.Errorf("%+v: %q, want %q", tt.change, got, tt.want)
		}
	}
}

func TestMerge_writesIntoDstWithoutGrowingItWhenItFits(t *testing.T) {
	cur := bigCatalog()
	merged, _, err := Merge(make([]byte, 0, len(cur)), cur, cur)
	if err != nil {
		t.Fatal(err)
	}
	if len(merged) > len(cur) || cap(merged) != len(cur) {
		t.Errorf("merged %d bytes into a buffer grown to %d, want the %d given", len(merged), cap(merged), len(cur))
	}
}
