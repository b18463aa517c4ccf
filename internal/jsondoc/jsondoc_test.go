package jsondoc

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/go-json-experiment/json/jsontext"
)

func TestCheck(t *testing.T) {
	many := make([]string, 100)
	for i := range many {
		many[i] = fmt.Sprintf(`"k%d": %d`, i, i)
	}
	tests := []struct {
		name, raw, want string // want "" for a document accepted
	}{
		{"object", `{"a": 1, "b": [true, null, {"c": "d"}]}`, ""},
		{"scalar", ` "x" `, ""},
		{"same key in sibling objects", `[{"a": 1}, {"a": 2}, {"b": {"a": 3}}]`, ""},
		{"invalid UTF-8 in a string", "{\"a\": \"\xff\"}", ""},
		{"many keys", `{` + strings.Join(many, ", ") + `}`, ""},
		{"key given twice", `{"diff": "ALTER", "diff": ""}`, `key "diff" is given twice (at /diff)`},
		{"keys differing in case", `{"users": [{"state": "ACTIVE", "State": "DELETED"}]}`, `keys "state" and "State" differ only in case (at /users/0/State)`},
		{"key twice, once escaped", `{"name": "a", "n\u0061me": "b"}`, `key "name" is given twice`},
		{"keys twice among many", `{` + strings.Join(many, ", ") + `, "K99": 1}`, `keys "k99" and "K99" differ only in case`},
		{"keys equal as encoding/json reads them", "{\"a\xff\": 1, \"a\xfe\": 2}", "is given twice"},
		{"empty", " \n", "the body is empty, not JSON"},
		{"not JSON", `<html>`, "not valid JSON"},
		{"cut short", `{"a": [1`, "not valid JSON"},
		{"two values", `{} {}`, "not valid JSON: more than one value"},
		{"control character in a string", "\"\x01\"", "not valid JSON"},
		{"too deep", strings.Repeat("[", 20000) + strings.Repeat("]", 20000), "not valid JSON"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := Check([]byte(tt.raw))
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("error %v", err)
			case tt.want != "" && (!errors.Is(err, ErrInvalid) || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("error %v, want an invalid response saying %q", err, tt.want)
			}
		})
	}
}

func TestUnquote(t *testing.T) {
	for quoted, want := range map[string]string{`""`: "", `"a"`: "a", `"caf\u00e9 \"q\""`: `café "q"`, "\"\xff\"": "\ufffd"} {
		if got := Unquote([]byte(quoted)); got != want {
			t.Errorf("Unquote(%s) = %q, want %q", quoted, got, want)
		}
		if !Is([]byte(quoted), want) || Is([]byte(quoted), want+"x") {
			t.Errorf("Is(%s, %q) is not Unquote's answer", quoted, want)
		}
	}
}

func FuzzCheck(f *testing.F) {
	for _, seed := range []string{`{"a": 1, "A": 2}`, `{"a": {"b": 1, "b": 2}}`, `[1, "x", null]`, "{\"\xff\": 1}", `{"users": [{"name": "a"}]}`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		err := Check(raw)
		if err == nil {
			// One valid value, and no key given twice as jsontext reads keys.
			strict := jsontext.NewDecoder(strings.NewReader(string(raw)), jsontext.AllowInvalidUTF8(true))
			if !json.Valid(raw) || strict.SkipValue() != nil {
				t.Fatalf("%q accepted", raw)
			}
			return
		}
		if json.Valid(raw) && !strings.Contains(err.Error(), "twice") && !strings.Contains(err.Error(), "only in case") {
			t.Fatalf("%q is JSON, refused: %v", raw, err)
		}
	})
}

func TestCheckDepth_refusesNestingDeeperThanMaxDepth(t *testing.T) {
	nest := func(n int, open, end string) string { return strings.Repeat(open, n) + strings.Repeat(end, n) }
	tests := []struct {
		name, raw string
		ok        bool
	}{
		{"arrays at the limit", nest(MaxDepth, "[", "]"), true},
		{"arrays past the limit", nest(MaxDepth+1, "[", "]"), false},
		{"objects past the limit", nest(MaxDepth+1, `{"a":`, "}"), false},
		{"20 KB of brackets", nest(10000, "[", "]"), false},
		{"brackets inside strings do not count", `["` + strings.Repeat("[", 1000) + `"]`, true},
		{"an escaped quote does not end a string", `["\"` + strings.Repeat("{", 1000) + `"]`, true},
		{"siblings do not add up", strings.Repeat(nest(150, "[", "]")+",", 10), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := CheckDepth([]byte(tt.raw))
			if (err == nil) != tt.ok {
				t.Errorf("CheckDepth = %v, want ok %v", err, tt.ok)
			}
			if err != nil && !strings.Contains(err.Error(), "nested deeper than 200") {
				t.Errorf("message %q", err)
			}
		})
	}
}
