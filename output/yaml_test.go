package output

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"

	"github.com/dbgov/dbgov/internal/jsondoc"
)

func TestYAMLPrinter_printsTheSameDocument(t *testing.T) {
	tests := []struct {
		name, raw, list string
		show            bool
		want            string
	}{
		{name: "key order kept", raw: `{"z": 1 , "a" :{"y":true,"b":null}}`,
			want: "z: 1\na:\n  \"y\": true\n  b: null\n"},
		{name: "list ensured", raw: `{}`, list: "users", want: "users: []\n"},
		{name: "secrets masked", raw: `{"users":[{"name":"users/a","tempRecoveryCodes":["x"],"tempOtpSecret":""}]}`, list: "users",
			want: "users:\n  - name: users/a\n    tempRecoveryCodes: '********'\n    tempOtpSecret: \"\"\n"},
		{name: "secrets shown", raw: `{"serviceKey":"k"}`, show: true, want: "serviceKey: k\n"},
		{name: "strings that look like other types are quoted", raw: `{"a":"true","b":"123","c":"null","d":"1.5","e":"yes","f":"Off","g":"y","h":"yesterday"}`,
			want: "a: \"true\"\nb: \"123\"\nc: \"null\"\nd: \"1.5\"\ne: \"yes\"\nf: \"Off\"\ng: \"y\"\nh: yesterday\n"},
		{name: "numbers keep their text", raw: `{"i":42,"f":1.50,"big":123456789012345678901234567890,"neg":-7}`,
			want: "i: 42\nf: 1.50\nbig: !!int 123456789012345678901234567890\nneg: -7\n"},
		{name: "multi-line strings", raw: `{"diff":"ALTER TABLE t;\nDROP TABLE u;"}`,
			want: "diff: |-\n  ALTER TABLE t;\n  DROP TABLE u;\n"},
		{name: "several lists", raw: `{"a":[1,2],"b":[],"c":[{"x":[3]}]}`,
			want: "a:\n  - 1\n  - 2\nb: []\nc:\n  - x:\n      - 3\n"},
		{name: "top-level array", raw: `[1,"a"]`, want: "- 1\n- a\n"},
		{name: "top-level scalar", raw: `"x"`, want: "x\n"},
		{name: "empty object", raw: `{}`, want: "{}\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			printsExactly(t, Options{Format: "yaml", ShowSecrets: tt.show}, Document{Raw: []byte(tt.raw), ListField: tt.list}, tt.want)
		})
	}
}

func TestYAMLPrinter_writingPieceByPieceEqualsWholeDocument(t *testing.T) {
	for _, raw := range [][]byte{
		usersBody(30, true),
		[]byte(`{"identityProviders":[{"name":"idps/a","config":{"ldapConfig":{"host":"h","port":636}}},"text\nwith lines",["n",1]],"x":{"k":[1]}}`),
		[]byte(`{"` + strings.Repeat("k", 300) + `":[1,2,{"a":"b"}]}`), // a key YAML writes as "? key"
	} {
		got, err := render(t, Options{Format: "yaml", ShowSecrets: true}, Document{Raw: raw})
		if err != nil {
			t.Fatal(err)
		}
		doc := &tokens{dec: jsondoc.NewDecoder(raw)}
		tok, err := doc.next()
		if err != nil {
			t.Fatal(err)
		}
		whole, err := yamlNode(tok, doc)
		if err != nil {
			t.Fatal(err)
		}
		var want bytes.Buffer
		if err := encodeYAML(&want, whole); err != nil {
			t.Fatal(err)
		}
		if got != want.String() {
			t.Errorf("piecewise YAML differs from the whole document's:\n%s\nwant\n%s", got, want.String())
		}
		// And it reads back as the same data.
		var fromYAML, fromJSON any
		if err := yaml.Unmarshal([]byte(got), &fromYAML); err != nil {
			t.Fatalf("output is not YAML: %v", err)
		}
		if err := json.Unmarshal(raw, &fromJSON); err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(normalizeNumbers(fromYAML), normalizeNumbers(fromJSON)) {
			t.Errorf("YAML reads back as %v, want %v", fromYAML, fromJSON)
		}
	}
}

// normalizeNumbers turns every number into a float64 so that YAML's ints
// and JSON's floats compare.
func normalizeNumbers(v any) any {
	switch v := v.(type) {
	case map[string]any:
		for k, e := range v {
			v[k] = normalizeNumbers(e)
		}
	case []any:
		for i, e := range v {
			v[i] = normalizeNumbers(e)
		}
	case int:
		return float64(v)
	}
	return v
}

func TestYAMLPrinter_rejectsInvalidJSON(t *testing.T) {
	_, err := render(t, Options{Format: "yaml"}, Document{Raw: []byte(`{"a":`)})
	if err == nil {
		t.Error("invalid JSON printed as YAML without error")
	}
}
