package devserver

import (
	"strings"
	"testing"

	"github.com/dbgov/dbgov/client"
)

func TestDecodeStrict_readsProtobufJSONStrictly(t *testing.T) {
	tests := []struct {
		name, body, err string
	}{
		{"empty body is the empty object", "  \n", ""},
		{"null body is the empty object", "null", ""},
		{"null fields are zero values", `{"maskingRulePolicy":null,"tagPolicy":{"tags":null},"enforce":null}`, ""},
		{"nested expressions", `{"maskingRulePolicy":{"rules":[{"condition":{"callExpr":{"args":[{"constExpr":{"doubleValue":1.5e3,"int64Value":"9007199254740993"}}]}}}]}}`, ""},
		{"number out of range for a double", `{"maskingRulePolicy":{"rules":[{"condition":{"constExpr":{"doubleValue":1e999}}}]}}`, `field "maskingRulePolicy.rules[0].condition.constExpr.doubleValue": 1e999 is not a valid number`},
		{"integer given as a string", `{"queryDataPolicy":{"maximumResultRows":"10"}}`, `field "queryDataPolicy.maximumResultRows": expected an integer, got a string`},
		{"list index in the path", `{"rolloutPolicy":{"roles":["a",2]}}`, `field "rolloutPolicy.roles[1]": expected a string, got the number 2`},
		{"unknown enum in a known field", `{"type":"BACKUP"}`, `field "type": unknown enum value "BACKUP"`},
		{"a known enum name", `{"resourceType":"WORKSPACE"}`, ""},
		{"truncated", `{"name":"a"`, "malformed JSON: unexpected end of input"},
		{"bad token", `{"name":'a'}`, "malformed JSON at byte 9"},
		{"first unknown field in the document", `{"zeta":1,"alpha":2}`, `unknown field "zeta"`},
		{"a field given twice", `{"name":"a","name":"b"}`, `field "name" is given twice`},
		{"a list for the body", `[1]`, "the body must be a JSON object, not an array"},
		{"data after the body", `{} {}`, "unexpected data after the top-level value"},
		{"a number too large for a 32-bit integer", `{"queryDataPolicy":{"maximumResultRows":99999999999}}`, `field "queryDataPolicy.maximumResultRows": 99999999999 is not a 32-bit integer`},
		{"enum names are case-sensitive", `{"type":"tag"}`, `field "type": unknown enum value "tag"`},
		{"string for an object", `{"tagPolicy":"x"}`, `field "tagPolicy": expected an object, got a string`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p client.Policy
			err := decodeStrict([]byte(tt.body), &p)
			switch {
			case tt.err == "" && err != nil:
				t.Fatalf("decodeStrict: %v", err)
			case tt.err != "" && err == nil:
				t.Fatalf("decodeStrict accepted %s", tt.body)
			case tt.err != "" && !strings.Contains(err.Error(), tt.err):
				t.Fatalf("error %q does not mention %q", err, tt.err)
			}
		})
	}
}

func TestDecodeStrict_fillsTheValue(t *testing.T) {
	var p client.Policy
	body := `{"name":"p","type":"DATA_QUERY","queryDataPolicy":{"maximumResultRows":5,"timeout":"3s"}}`
	if err := decodeStrict([]byte(body), &p); err != nil {
		t.Fatal(err)
	}
	if p.Name != "p" || p.Type != client.PolicyTypeDataQuery || p.QueryDataPolicy.MaximumResultRows != 5 || p.QueryDataPolicy.Timeout != "3s" {
		t.Errorf("decoded %+v", p)
	}
}

func TestDecodeStrict_pathsGoThroughEmbeddedStructs(t *testing.T) {
	var p seedPolicy
	err := decodeStrict([]byte(`{"maskingRulePolicy":{"rules":[{"bogus":1}]}}`), &p)
	if err == nil || !strings.Contains(err.Error(), `unknown field "maskingRulePolicy.rules[0].bogus"`) {
		t.Fatalf("error %v", err)
	}
}
