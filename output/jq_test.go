package output

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/itchyny/gojq"

	"github.com/dbgov/dbgov/internal/exitcode"
)

func TestJQPrinter_printsWhatJQRawWould(t *testing.T) {
	const raw = `{"users": [{"name": "users/a@x.com", "title": "A\tB", "quota": 123456789012345678901234567890, "n": 1.50,
		"groups": ["g1", "g2"], "tempRecoveryCodes": ["c1"], "profile": {"z": 1, "a": {}}}], "next": null}`
	tests := []struct {
		name, expr string
		show       bool
		want       string
	}{
		{name: "strings raw", expr: ".users[].name", want: "users/a@x.com\n"},
		{name: "control characters in strings raw", expr: ".users[0].title", want: "A\tB\n"},
		{name: "objects indented with two spaces, keys sorted", expr: ".users[0].profile", want: "{\n  \"a\": {},\n  \"z\": 1\n}\n"},
		{name: "arrays indented", expr: ".users[0].groups", want: "[\n  \"g1\",\n  \"g2\"\n]\n"},
		{name: "each result on its own line", expr: ".users[0].groups[]", want: "g1\ng2\n"},
		{name: "large integers kept", expr: ".users[0].quota", want: "123456789012345678901234567890\n"},
		{name: "decimals as sent", expr: ".users[0].n", want: "1.50\n"},
		{name: "arithmetic", expr: ".users | length + 1", want: "2\n"},
		{name: "null", expr: ".next", want: "null\n"},
		{name: "booleans", expr: ".users[0].name | startswith(\"users/\")", want: "true\n"},
		{name: "no results", expr: "empty", want: ""},
		{name: "secrets masked", expr: ".users[0].tempRecoveryCodes", want: "********\n"},
		{name: "secrets shown", expr: ".users[0].tempRecoveryCodes[0]", show: true, want: "c1\n"},
		{name: "strings inside arrays stay JSON", expr: "[.users[0].title]", want: "[\n  \"A\\tB\"\n]\n"},
		{name: "halt stops quietly", expr: ".users[0].name, halt, \"after\"", want: "users/a@x.com\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			printsExactly(t, Options{JQ: tt.expr, ShowSecrets: tt.show}, Document{Raw: []byte(raw), ListField: "users"}, tt.want)
		})
	}
}

func TestJQPrinter_printsNumbersAsSent(t *testing.T) {
	const raw = `{"f": 1.10, "e": 1e2, "i": 10, "big": 12345678901234567890, "neg": -0.5e-5, "huge": 1e400,
		"items": [{"f": 1.10, "e": 1e2, "i": 10, "big": 12345678901234567890}]}`
	tests := []struct {
		name, expr, want string
	}{
		{"decimal", ".f", "1.10\n"},
		{"exponent", ".e", "1e2\n"},
		{"integer", ".i", "10\n"},
		{"large integer exact", ".big", "12345678901234567890\n"},
		{"large integer arithmetic", ".big + 1", "12345678901234567891\n"},
		{"small number", ".neg", "-0.5e-5\n"},
		{"out of range", ".huge", "1e400\n"},
		{"numbers inside an array", "[.f, .e, .i]", "[\n  1.10,\n  1e2,\n  10\n]\n"},
		{"numbers inside an object", "{f, e}", "{\n  \"e\": 1e2,\n  \"f\": 1.10\n}\n"},
		{"arithmetic on decimals", ".f * 3", "3.3000000000000003\n"},
		{"comparison of decimal and integer", ".e == 100", "true\n"},
		{"element by element: decimal", ".items[] | .f", "1.10\n"},
		{"element by element: exponent", ".items[].e", "1e2\n"},
		{"element by element: integer", ".items[] | .i", "10\n"},
		{"element by element: large integer", ".items[] | .big", "12345678901234567890\n"},
		{"element by element: whole element", ".items[]", "{\n  \"big\": 12345678901234567890,\n  \"e\": 1e2,\n  \"f\": 1.10,\n  \"i\": 10\n}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newJQ(t, Options{JQ: tt.expr})
			if streamed := p.stream != nil; streamed != strings.HasPrefix(tt.name, "element by element") {
				t.Fatalf("streamed %v", streamed)
			}
			var buf bytes.Buffer
			if err := p.Print(context.Background(), &buf, Document{Raw: []byte(raw)}); err != nil {
				t.Fatal(err)
			}
			if got := buf.String(); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

// newJQ returns the jq printer New makes for opts.
func newJQ(t *testing.T, opts Options) jqPrinter {
	t.Helper()
	p, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	return p.(checked).Printer.(jqPrinter)
}

// TestJQPrinter_printsWhatJQPrints compares --jq with the jq on PATH, if
// any, on documents whose keys are in order (gojq sorts keys, jq keeps
// them as given) and whose numbers are written as every jq prints them
// (jq 1.6 rewrites 1.10 as 1.1; dbgov, as jq 1.7, keeps what was sent).
func TestJQPrinter_printsWhatJQPrints(t *testing.T) {
	jq, err := exec.LookPath("jq")
	if err != nil {
		t.Skip("jq is not installed")
	}
	t.Setenv("DBGOV_JQ_TEST_VALUE", "from the environment")
	docs := []string{
		`{"a": 1.5, "b": 100, "c": 10, "d": -0.5, "e": 100000, "f": 0.001, "g": 0.1, "h": 3.25, "i": 123456789, "j": 123456789.123,
			"k": 0.0001, "l": 0.0009999, "m": 123000, "n": 0, "o": -7}`,
		`{"items": [{"id": 1, "name": "tab\there", "ratio": 0.25, "tags": ["x", "y"]}, {"id": 2, "name": "caf\u00e9 \u007f\u001f\u2028 \ud83d\ude00", "ratio": 0.125, "tags": []}],
			"next": null, "ok": true, "total": 2}`,
		`[{"a": {"b": [1, 2.5, {"c": {}}]}}, [], {}, "s", null, false]`,
	}
	exprs := []string{
		".", ".[]", ".items[]", ".items[].name", ".items[] | .ratio", ".items | map(.ratio * 3)", "[.[] | numbers]",
		".a + .b", ".a * 3", ".c / 4", ".d, .e, .f, .i", "keys", "length", "[paths]", "to_entries", ".items[] | .tags[]",
		"[.items[].id] | add", "env.DBGOV_JQ_TEST_VALUE", "$ENV.DBGOV_JQ_TEST_VALUE", ".. | numbers", ".. | strings",
		"[.[]?] | length", ".items[]? | select(.id > 1) | {id, name}",
	}
	for i, doc := range docs {
		for _, expr := range exprs {
			t.Run(fmt.Sprintf("doc %d %s", i, expr), func(t *testing.T) {
				cmd := exec.Command(jq, "-r", "-S", expr)
				cmd.Stdin = strings.NewReader(doc)
				var want, stderr bytes.Buffer
				cmd.Stdout, cmd.Stderr = &want, &stderr
				jqErr := cmd.Run()
				got, err := render(t, Options{JQ: expr, ShowSecrets: true}, Document{Raw: []byte(doc)})
				if (err != nil) != (jqErr != nil) {
					t.Fatalf("error %v, jq's %v (%s)", err, jqErr, stderr.String())
				}
				if got != want.String() {
					t.Errorf("got\n%s\njq prints\n%s", got, want.String())
				}
			})
		}
	}
}

func TestJQPrinter_seesTheEnvironment(t *testing.T) {
	t.Setenv("DBGOV_JQ_TEST_VALUE", "from the environment")
	t.Setenv("HOME", "/home/someone")
	const raw = `{"users": [{"name": "a"}, {"name": "b"}]}`
	tests := []struct {
		name, expr, want string
	}{
		{"env", "env.DBGOV_JQ_TEST_VALUE", "from the environment\n"},
		{"$ENV", "$ENV.DBGOV_JQ_TEST_VALUE", "from the environment\n"},
		{"HOME", "env.HOME, $ENV.HOME", "/home/someone\n/home/someone\n"},
		{"unset variable is null", "env.DBGOV_JQ_TEST_UNSET", "null\n"},
		{"element by element", ".users[] | .name + \" \" + env.DBGOV_JQ_TEST_VALUE", "a from the environment\nb from the environment\n"},
		{"element by element with $ENV", ".users[] | $ENV.HOME", "/home/someone\n/home/someone\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			printsExactly(t, Options{JQ: tt.expr}, Document{Raw: []byte(raw), ListField: "users"}, tt.want)
		})
	}
}

func TestJQPrinter_readsTheEnvironmentWhenBuilt(t *testing.T) {
	t.Setenv("DBGOV_JQ_TEST_VALUE", "before")
	p, err := New(Options{JQ: "env.DBGOV_JQ_TEST_VALUE"})
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("DBGOV_JQ_TEST_VALUE", "after")
	var buf bytes.Buffer
	if err := p.Print(context.Background(), &buf, Document{Raw: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	if got := buf.String(); got != "before\n" {
		t.Errorf("got %q, want the value when the printer was built", got)
	}
}

func TestJQPrinter_seesTheEnsuredListField(t *testing.T) {
	printsExactly(t, Options{JQ: ".policies | length"}, Document{Raw: []byte(`{}`), ListField: "policies"}, "0\n")
}

func TestJQPrinter_returnsRuntimeErrors(t *testing.T) {
	tests := []struct {
		expr, wantOut, wantErr string
	}{
		{`.users[] | .name + 1`, "", "cannot add"},
		{`"first", error("boom")`, "first\n", "boom"},
		{`.users.name`, "", "array"},
		{`"x" | halt_error`, "", "x"},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			got, err := render(t, Options{JQ: tt.expr}, Document{Raw: []byte(`{"users":[{"name":"a"}]}`)})
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("error = %v, want one mentioning %q", err, tt.wantErr)
			}
			if code := exitcode.Classify(err).Code; code != exitcode.Failure {
				t.Errorf("exit code = %d, want %d: a failing expression is dbgov's failure, not gojq's exit code", code, exitcode.Failure)
			}
			if got != tt.wantOut {
				t.Errorf("printed %q before the error, want %q", got, tt.wantOut)
			}
		})
	}
}

func TestJQPrinter_rejectsInvalidJSON(t *testing.T) {
	if _, err := render(t, Options{JQ: "."}, Document{Raw: []byte(`<html>`)}); err == nil {
		t.Error("invalid JSON filtered without error")
	}
}

func TestNewJQStream_recognisesLeadingIterations(t *testing.T) {
	tests := []struct {
		expr  string
		steps string // the path walked, "[]" for an iteration; "-" when not streamed
		rest  string // what runs on each value the walk reaches
	}{
		{".users[]", "users []", "."},
		{".users[].email", "users [] email", "."},
		{".users[].groups[0]", "users [] groups", ".[0]"},
		{".users[] | select(.mfaEnabled) | .email", "users []", "select(.mfaEnabled) | .email"},
		{".schemas[].tables[].name", "schemas [] tables [] name", "."},
		{".a.b[].c.d", "a b [] c d", "."},
		{".[]", "[]", "."},
		{".[] | .x, .y", "[]", ".x, .y"},
		{"def f: .x; .users[] | f", "users []", "f"},
		{".users", "-", ""},
		{".users[0]", "-", ""},
		{".users[]?", "-", ""},
		{".users[]?.name", "-", ""},
		{".users[] as $u | $u.name", "-", ""},
		{".users[], .more[]", "-", ""},
		{"[.users[]]", "-", ""},
		{"first(.users[])", "-", ""},
		{`.["users"][]`, "-", ""},
		{".users[1:][]", "-", ""},
		{".users | .[]", "-", ""},
	}
	for _, tt := range tests {
		t.Run(tt.expr, func(t *testing.T) {
			q, err := gojq.Parse(tt.expr)
			if err != nil {
				t.Fatal(err)
			}
			s := newJQStream(q)
			if tt.steps == "-" {
				if s != nil {
					t.Fatalf("streamed along %q", s.steps)
				}
				return
			}
			if s == nil {
				t.Fatal("not streamed")
			}
			var steps []string
			for _, step := range s.steps {
				if step == "" {
					step = "[]"
				}
				steps = append(steps, step)
			}
			if got := strings.Join(steps, " "); got != tt.steps {
				t.Errorf("steps %q, want %q", got, tt.steps)
			}
			// The rest runs on each element as tt.rest would; `.` is not run.
			if s.rest == nil {
				if tt.rest != "." {
					t.Errorf("no rest, want %s", tt.rest)
				}
				return
			}
			want, err := gojq.Parse(tt.rest)
			if err != nil {
				t.Fatal(err)
			}
			wantCode, err := gojq.Compile(want, gojq.WithFunction("f", 0, 0, func(v any, _ []any) any { return v.(map[string]any)["x"] }))
			if err != nil {
				t.Fatal(err)
			}
			elem := map[string]any{"email": "a@x.com", "mfaEnabled": true, "x": "x", "y": "y", "name": "n", "c": map[string]any{"d": "d"}}
			if got, want := results(s.rest, elem), results(wantCode, elem); got != want {
				t.Errorf("rest gives %s, want %s", got, want)
			}
		})
	}
}

// results runs code on input and returns what it gives, errors included.
func results(code *gojq.Code, input any) string {
	var out []string
	iter := code.Run(input)
	for {
		v, ok := iter.Next()
		if !ok {
			return strings.Join(out, " ")
		}
		out = append(out, fmt.Sprint(v))
	}
}

func TestJQPrinter_streamingPrintsWhatTheWholeDocumentGives(t *testing.T) {
	docs := []struct {
		raw, list string
	}{
		{`{"users": [{"name": "a", "mfaEnabled": true, "tempOtpSecret": "s", "groups": ["g1", "g2"]}, {"name": "b", "tempRecoveryCodes": ["c"]}, {"name": "c", "tempOtpSecret": ""}]}`, "users"},
		{`{"users": []}`, "users"},
		{`{}`, "users"},
		{`{"users": null}`, "users"},
		{`{"users": null}`, ""},
		{`{"users": {"a": {"name": "x"}}}`, "users"},
		{`{"users": [1, "two", null, [3], {"name": "d"}]}`, "users"},
		{`{"users": [{"name": "a"}], "users": [{"name": "b"}]}`, "users"},
		{`{"us\u0065rs": [{"name": "escaped key"}]}`, "users"},
		{`{"tempRecoveryCodes": ["c1", "c2"], "users": [{"name": "a"}]}`, "users"},
		{`{"schemas": [{"name": "public", "tables": [{"name": "t1", "columns": {"columns": [{"name": "c1"}]}}, {"name": "t2"}]}, {"name": "raw", "tables": [{"name": "t3"}]}]}`, ""},
		{`{"schemas": [{"name": "public", "tables": [{"name": "t1"}]}, {"name": "empty"}]}`, ""},
		{`[{"name": "top"}, {"name": "level"}]`, ""},
		{`{"users": [{"name": 1.10, "groups": [1e2, 10, 12345678901234567890, -0.5e-5]}, {"name": 1e400}]}`, "users"},
		{`"not an object"`, "users"},
	}
	exprs := []string{
		".users[]", ".users[].name", ".users[] | .name", ".users[] | select(.mfaEnabled) | .name",
		".users[] | .tempOtpSecret", ".users[].groups[]", ".users[] | keys", ".users[] | .name + 1",
		".users[] | ., halt", `.users[] | if .name == "b" then halt_error else .name end`, ".users[] | error",
		".tempRecoveryCodes[]", ".schemas[].tables[].name", ".schemas[].tables[] | .columns.columns[]?.name",
		".[]", ".[] | .name", ".users[] | limit(1; .groups[])", ".users[] | $ENV | type",
		".users[].tempOtpSecret", ".users[].groups[0]", ".schemas[].tables[].columns.columns", ".[].name.x",
	}
	for _, d := range docs {
		for _, expr := range exprs {
			for _, show := range []bool{false, true} {
				streaming := newJQ(t, Options{JQ: expr, ShowSecrets: show})
				if streaming.stream == nil {
					t.Fatalf("%s is not streamed", expr)
				}
				whole := streaming
				whole.stream = nil
				doc := Document{Raw: []byte(d.raw), ListField: d.list}
				var got, want bytes.Buffer
				gotErr := checked{streaming}.Print(context.Background(), &got, doc)
				wantErr := checked{whole}.Print(context.Background(), &want, doc)
				if got.String() != want.String() || fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
					t.Errorf("%s on %s (list %q, secrets shown %v):\nstreamed %q, %v\nwhole    %q, %v",
						expr, d.raw, d.list, show, got.String(), gotErr, want.String(), wantErr)
				}
			}
		}
	}
}

func TestJQStream_walksOnlyDocumentsShapedForIt(t *testing.T) {
	tests := []struct {
		expr, raw, list string
		mask            bool
		want            string // the elements walked, "-" when the document is not walked
	}{
		{".users[]", `{"users": [{"a": 1}, 2 , "x"]}`, "users", true, `{"a":1}|2|"x"`},
		{".users[]", `{"users": []}`, "users", true, ``},
		{".users[]", `{"next": "t"}`, "users", true, ``},
		{".users[]", `{"users": null}`, "users", true, ``},
		{".users[]", `{"users": null}`, "", true, `-`},
		{".users[]", `{"next": "t"}`, "", true, `-`},
		{".users[]", `{"users": {"a": 1}}`, "users", true, `-`},
		{".users[]", `{"us\u0065rs": [1]}`, "users", true, `1`},
		{".users[]", `[1]`, "users", true, `-`},
		{".schemas[].tables[]", `{"schemas": [{"tables": [1, 2]}, {"tables": []}, {"tables": [3]}]}`, "", true, `1|2|3`},
		{".schemas[].tables[]", `{"schemas": [{"tables": [1, 2]}, {"name": "no tables"}]}`, "", true, `-`},
		{".users[].name", `{"users": [{"name": "a", "x": 1}, {"x": 2, "name": {"n": 3}}]}`, "users", true, `"a"|{"n":3}`},
		{".users[].name", `{"users": [{"name": "a"}, {"x": 2}]}`, "users", true, `-`},
		{".users[].name", `{"users": [{"name": "a"}, null]}`, "users", true, `-`},
		{".users[].tempOtpSecret", `{"users": [{"tempOtpSecret": "s"}]}`, "users", true, `-`},
		{".tempRecoveryCodes[]", `{"tempRecoveryCodes": ["c"]}`, "", true, `-`},
		{".tempRecoveryCodes[]", `{"tempRecoveryCodes": ["c"]}`, "", false, `"c"`},
		{".[]", ` [ {"a": [1, {"b": "]"}]} , "\"]" ] `, "", true, `{"a":[1,{"b":"]"}]}|"\"]"`},
		{".[]", `[{"tempOtpSecret": "s", "n": 1.50}]`, "", true, `{"n":1.50,"tempOtpSecret":"********"}`},
	}
	for _, tt := range tests {
		t.Run(tt.expr+" "+tt.raw, func(t *testing.T) {
			q, err := gojq.Parse(tt.expr)
			if err != nil {
				t.Fatal(err)
			}
			var elems []string
			ok, err := newJQStream(q).walk([]byte(tt.raw), tt.mask, tt.list, func(elem any) error {
				b, err := json.Marshal(elem)
				elems = append(elems, string(b))
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			got := strings.Join(elems, "|")
			if !ok {
				got = "-"
			}
			if got != tt.want {
				t.Errorf("walked %q, want %q", got, tt.want)
			}
		})
	}
}

func TestJQ_envHidesCredentials(t *testing.T) {
	t.Setenv("DBGOV_TOKEN", "tok-secret")
	t.Setenv("DBGOV_SERVICE_KEY", "key-secret")
	t.Setenv("DBGOV_URL", "https://gov.example.com")
	got, err := render(t, Options{JQ: `[env.DBGOV_TOKEN, $ENV.DBGOV_SERVICE_KEY, env.DBGOV_URL] | map(. // "none") | join(" ")`,
		HiddenEnv: []string{"DBGOV_TOKEN", "DBGOV_SERVICE_KEY"}}, Document{Raw: []byte(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	if got != "none none https://gov.example.com\n" {
		t.Errorf("got %q", got)
	}
}
