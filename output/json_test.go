package output

import (
	"bytes"
	"context"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/dbgov/dbgov/internal/jsondoc"
)

func printJSON(t *testing.T, raw, listField string, showSecrets bool) (string, error) {
	t.Helper()
	return render(t, Options{Format: "json", ShowSecrets: showSecrets}, Document{Raw: []byte(raw), ListField: listField})
}

func TestJSONPrinter_keepsTheDocument(t *testing.T) {
	tests := []struct {
		name string
		raw  string
		want string
	}{
		{"odd spacing", `{"a": 1 , "b" :2}`, "{\n  \"a\": 1,\n  \"b\": 2\n}\n"},
		{"tabs and newlines", "\t{\r\n\"a\"\t:\n[ 1 ,2 ]\n}\n", "{\n  \"a\": [\n    1,\n    2\n  ]\n}\n"},
		{"key order kept", `{"z":1,"a":2,"m":3}`, "{\n  \"z\": 1,\n  \"a\": 2,\n  \"m\": 3\n}\n"},
		{"unknown fields kept", `{"name":"users/a","futureField":{"x":[true,false,null]}}`,
			"{\n  \"name\": \"users/a\",\n  \"futureField\": {\n    \"x\": [\n      true,\n      false,\n      null\n    ]\n  }\n}\n"},
		{"numbers kept as text", `{"big":123456789012345678901234567890,"f":1.50,"e":-2.5E+10,"z":-0}`,
			"{\n  \"big\": 123456789012345678901234567890,\n  \"f\": 1.50,\n  \"e\": -2.5E+10,\n  \"z\": -0\n}\n"},
		{"string escapes kept", `{"s":"caf\u00e9 \"q\" \\ \/ \n","u":"é"}`,
			"{\n  \"s\": \"caf\\u00e9 \\\"q\\\" \\\\ \\/ \\n\",\n  \"u\": \"é\"\n}\n"},
		{"escaped quote before a brace inside a string", `{"s":"a\\\"}","t":"\\\\"}`,
			"{\n  \"s\": \"a\\\\\\\"}\",\n  \"t\": \"\\\\\\\\\"\n}\n"},
		{"empty containers", `{"o":{ },"a":[ ]}`, "{\n  \"o\": {},\n  \"a\": []\n}\n"},
		{"top-level array", `[1,{"a":"b"}]`, "[\n  1,\n  {\n    \"a\": \"b\"\n  }\n]\n"},
		{"top-level string", ` "x" `, "\"x\"\n"},
		{"top-level number", `42`, "42\n"},
		{"empty object", `{}`, "{}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := printJSON(t, tt.raw, "", false)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("got\n%s\nwant\n%s", got, tt.want)
			}
		})
	}
}

func TestJSONPrinter_masksSecretsAtEveryDepth(t *testing.T) {
	tests := []struct {
		name string
		raw  string
		want string // compact form of the expected output
	}{
		{"top level", `{"serviceKey":"k","name":"n"}`, `{"serviceKey":"********","name":"n"}`},
		{"nested in objects", `{"config":{"oauth2Config":{"clientId":"id","clientSecret":"s3cret"}}}`,
			`{"config":{"oauth2Config":{"clientId":"id","clientSecret":"********"}}}`},
		{"in list elements", `{"identityProviders":[{"config":{"ldapConfig":{"bindPassword":"pw","host":"h"}}},{"config":{"oidcConfig":{"clientSecret":"x"}}}]}`,
			`{"identityProviders":[{"config":{"ldapConfig":{"bindPassword":"********","host":"h"}}},{"config":{"oidcConfig":{"clientSecret":"********"}}}]}`},
		{"a non-empty array becomes the mask", `{"tempRecoveryCodes":["a","b"],"tempOtpSecret":"JBSW"}`,
			`{"tempRecoveryCodes":"********","tempOtpSecret":"********"}`},
		{"empty values stay", `{"clientSecret":"","tempRecoveryCodes":[ ],"bindPassword":null,"serviceKey":{}}`,
			`{"clientSecret":"","tempRecoveryCodes":[],"bindPassword":null,"serviceKey":{}}`},
		{"other value kinds are hidden too", `{"serviceKey":{"a":1},"bindPassword":12,"clientSecret":true}`,
			`{"serviceKey":"********","bindPassword":"********","clientSecret":"********"}`},
		{"a key written with escapes", `{"client\u0053ecret":"s","x":1}`, `{"client\u0053ecret":"********","x":1}`},
		{"a secret value that looks like JSON", `{"clientSecret":"}\",\"x\":{","y":2}`, `{"clientSecret":"********","y":2}`},
		{"names as values are not keys", `{"name":"clientSecret","v":["serviceKey"]}`, `{"name":"clientSecret","v":["serviceKey"]}`},
		{"similar names are not secrets", `{"clientSecretHint":"h","secret":"c","password":"p"}`, `{"clientSecretHint":"h","secret":"c","password":"p"}`},
		{"names in any case or with underscores", `{"client_secret":"a","ClientSecret":{},"x":{"BIND_PASSWORD":"b","Service_Key":"k"}}`,
			`{"client_secret":"********","ClientSecret":{},"x":{"BIND_PASSWORD":"********","Service_Key":"********"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := printJSON(t, tt.raw, "", false)
			if err != nil {
				t.Fatal(err)
			}
			if c := compact(t, got); c != tt.want {
				t.Errorf("got %s, want %s", c, tt.want)
			}
			shown, err := printJSON(t, tt.raw, "", true)
			if err != nil {
				t.Fatal(err)
			}
			if c, want := compact(t, shown), compact(t, tt.raw); c != want {
				t.Errorf("with ShowSecrets got %s, want the document unchanged %s", c, want)
			}
		})
	}
}

func TestJSONPrinter_ensuresListField(t *testing.T) {
	tests := []struct {
		name, raw, list, want string
	}{
		{"absent from an empty response", `{}`, "users", `{"users":[]}`},
		{"absent beside other fields", `{"nextPageToken":"t"}`, "policies", `{"nextPageToken":"t","policies":[]}`},
		{"null becomes empty", `{"revisions":null,"x":1}`, "revisions", `{"revisions":[],"x":1}`},
		{"present list kept in place", `{"identityProviders":[{"name":"a"}],"x":1}`, "identityProviders", `{"identityProviders":[{"name":"a"}],"x":1}`},
		{"a nested field of that name does not count", `{"x":{"users":[1]}}`, "users", `{"x":{"users":[1]},"users":[]}`},
		{"no list field", `{}`, "", `{}`},
		{"top-level array untouched", `[]`, "users", `[]`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := printJSON(t, tt.raw, tt.list, false)
			if err != nil {
				t.Fatal(err)
			}
			if c := compact(t, got); c != tt.want {
				t.Errorf("got %s, want %s", c, tt.want)
			}
		})
	}
	got, err := printJSON(t, `{}`, "users", false)
	if err != nil {
		t.Fatal(err)
	}
	if want := "{\n  \"users\": []\n}\n"; got != want {
		t.Errorf("empty response: got %q, want %q", got, want)
	}
}

func TestJSONPrinter_rejectsInvalidJSON(t *testing.T) {
	for _, raw := range []string{
		``, `   `, `{`, `{"a":}`, `{"a" 1}`, `[1,]`, `{"a":1}{"b":2}`, `nul`, `"unterminated`,
		`<html>Bad Gateway</html>`, `upstream connect error`, "{\"a\":\"\x01\"}", `{"a":01}`,
		strings.Repeat("[", 20000) + strings.Repeat("]", 20000),
	} {
		for _, list := range []string{"", "users"} {
			got, err := printJSON(t, raw, list, false)
			if err == nil {
				t.Errorf("%.40q: no error, printed %q", raw, got)
			}
		}
	}
}

func TestJSONPrinter_matchesStandardIndent(t *testing.T) {
	raw := usersBody(20, false)
	got, err := printJSON(t, string(raw), "users", false)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := json.Indent(&want, raw, "", "  "); err != nil {
		t.Fatal(err)
	}
	want.WriteByte('\n')
	if got != want.String() {
		t.Errorf("output differs from json.Indent of the body")
	}
}

// compact returns the JSON text s compacted, failing the test when it is
// not JSON.
func compact(t *testing.T, s string) string {
	t.Helper()
	var buf bytes.Buffer
	if err := json.Compact(&buf, []byte(s)); err != nil {
		t.Fatalf("output is not JSON: %v\n%s", err, s)
	}
	return buf.String()
}

func FuzzJSONPrinter(f *testing.F) {
	for _, seed := range []string{
		`{"users": [{"name": "users/a@x.com", "tempRecoveryCodes": ["a"], "tempOtpSecret": ""}]}`,
		`{"a": 1 , "b" :2}`,
		`{}`, `[]`, `null`, `"s"`, `-1.5e-3`,
		`{"identityProviders":[{"config":{"ldapConfig":{"bindPassword":"x"}}}]}`,
		`{"client\u0053ecret":"s","users":null}`,
		`{"s":"a\\\"}"}`,
		`{"a":[{"b":[{"c":{}}]}]}`,
		`{"a":`,
		"\xff",
		`{"a":1,"a":2}`, `{"x":[{"state":1,"State":2}]}`,
	} {
		f.Add([]byte(seed), true)
	}
	f.Fuzz(func(t *testing.T, raw []byte, mask bool) {
		for _, list := range []string{"", "users"} {
			var out bytes.Buffer
			p, err := New(Options{Format: "json", ShowSecrets: !mask})
			if err != nil {
				t.Fatal(err)
			}
			err = p.Print(context.Background(), &out, Document{Raw: raw, ListField: list})
			if !json.Valid(raw) || jsondoc.Check(raw) != nil {
				if err == nil {
					t.Fatalf("invalid input %q printed without error: %q", raw, out.Bytes())
				}
				continue
			}
			if err != nil {
				t.Fatalf("valid input %q: %v", raw, err)
			}
			if !json.Valid(out.Bytes()) {
				t.Fatalf("valid input %q gave invalid output %q", raw, out.Bytes())
			}
			if !mask && list == "" {
				var want bytes.Buffer
				if err := json.Indent(&want, bytes.TrimLeft(raw, " \t\r\n"), "", "  "); err != nil {
					t.Fatal(err)
				}
				if got := bytes.TrimRight(out.Bytes(), "\n"); !bytes.Equal(got, bytes.TrimRight(want.Bytes(), " \t\r\n")) {
					t.Fatalf("input %q: got %q, json.Indent gives %q", raw, got, want.Bytes())
				}
			}
		}
	})
}

func TestJSONLinesPrinter_printsTheDocumentOnOneLine(t *testing.T) {
	doc := Document{Raw: []byte("{\n  \"users\" : [ {\"name\": \"users/a\",\n \"tempOtpSecret\": \"JBSW\"} ] }"), ListField: "users"}
	printsExactly(t, Options{Format: "jsonl"}, doc, `{"users":[{"name":"users/a","tempOtpSecret":"********"}]}`+"\n")
	printsExactly(t, Options{Format: "jsonl"}, Document{Raw: []byte(`{}`), ListField: "users"}, `{"users":[]}`+"\n")
}

var decodeSeeds = []string{
	`{"users": [{"name": "users/a@x.com", "tempRecoveryCodes": ["a"], "tempOtpSecret": "", "quota": 12345678901234567890}]}`,
	`{"a": 1 , "b" :2}`,
	`{}`, `[]`, `null`, `"s"`, `-1.5e-3`, `true`, ` [ false , null ] `,
	`{"identityProviders":[{"config":{"ldapConfig":{"bindPassword":"x","clientSecret":{}, "client_secret": "y"}}}]}`,
	`{"client\u0053ecret":"s","users":null}`,
	`{"s":"a\\\"}","t":"\u00e9\ud83d\ude00","u":"\ud800"}`,
	"{\"bad\":\"\xff\xfe\",\"k\xffey\":1}",
	`{"a":[{"b":[{"c":{}}]}],"serviceKey":[1],"bindPassword":null}`,
}

// decodeStandard is what encoding/json, with UseNumber, makes of the
// document as -o json prints it.
func decodeStandard(t testing.TB, raw []byte, mask bool, list string) any {
	t.Helper()
	var printed bytes.Buffer
	if err := writeJSON(&printed, &tokens{dec: jsondoc.NewDecoder(raw), mask: mask, list: list}, true, false); err != nil {
		t.Fatalf("print %q: %v", raw, err)
	}
	dec := json.NewDecoder(&printed)
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("decode %q: %v", printed.Bytes(), err)
	}
	return v
}

func TestDecodeDocument_matchesEncodingJSON(t *testing.T) {
	for _, raw := range decodeSeeds {
		for _, mask := range []bool{false, true} {
			for _, list := range []string{"", "users"} {
				got, err := decodeDocument(Document{Raw: []byte(raw), ListField: list}, mask)
				if err != nil {
					t.Fatal(err)
				}
				if want := decodeStandard(t, []byte(raw), mask, list); !reflect.DeepEqual(got, want) {
					t.Errorf("%s (mask %v, list %q):\ngot  %#v\nwant %#v", raw, mask, list, got, want)
				}
			}
		}
	}
}

func FuzzDecodeDocument(f *testing.F) {
	for _, seed := range decodeSeeds {
		f.Add([]byte(seed), true)
	}
	f.Fuzz(func(t *testing.T, raw []byte, mask bool) {
		if jsondoc.Check(raw) != nil {
			return
		}
		for _, list := range []string{"", "users"} {
			got, err := decodeDocument(Document{Raw: raw, ListField: list}, mask)
			if err != nil {
				t.Fatal(err)
			}
			if want := decodeStandard(t, raw, mask, list); !reflect.DeepEqual(got, want) {
				t.Fatalf("%q (mask %v, list %q):\ngot  %#v\nwant %#v", raw, mask, list, got, want)
			}
		}
	})
}
