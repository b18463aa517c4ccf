package jsonscan

import (
	"encoding/json"
	"testing"
)

func TestValueEnd_findsEachValue(t *testing.T) {
	tests := []struct {
		doc  string
		i    int
		want string
	}{
		{`"a\"b" ,`, 0, `"a\"b"`},
		{`"a\\" ,`, 0, `"a\\"`},
		{`{"a": [1, "]", {"b": "}"}]}, 2`, 0, `{"a": [1, "]", {"b": "}"}]}`},
		{`[[], {}] x`, 0, `[[], {}]`},
		{`-1.5e3,`, 0, `-1.5e3`},
		{`true]`, 0, `true`},
		{`{"k": null}`, 6, `null`},
	}
	for _, tt := range tests {
		if got := tt.doc[tt.i:ValueEnd([]byte(tt.doc), tt.i)]; got != tt.want {
			t.Errorf("ValueEnd(%q, %d) gives %q, want %q", tt.doc, tt.i, got, tt.want)
		}
	}
}

func TestSkipSpace(t *testing.T) {
	if got := SkipSpace([]byte(" \t\r\n x"), 0); got != 5 {
		t.Errorf("SkipSpace = %d, want 5", got)
	}
	if got := SkipSpace([]byte("   "), 1); got != 3 {
		t.Errorf("SkipSpace at the end = %d, want 3", got)
	}
}

// FuzzValueEnd checks that, on any valid document, the value at the start
// ends where encoding/json says it does, and that nothing reads out of
// bounds on any input.
func FuzzValueEnd(f *testing.F) {
	for _, s := range []string{`{"a":"\\\""}`, `[1,{"b":[]}]`, `"x"`, `12`, `{"a`, `"\`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		i := SkipSpace(src, 0)
		end := ValueEnd(src, i)
		if end < i || end > len(src) {
			t.Fatalf("ValueEnd = %d out of [%d, %d]", end, i, len(src))
		}
		if !json.Valid(src) {
			return
		}
		var raw json.RawMessage
		if err := json.Unmarshal(src, &raw); err != nil {
			t.Fatal(err)
		}
		if got := string(src[i:end]); got != string(raw) {
			t.Fatalf("ValueEnd gives %q, want %q", got, raw)
		}
	})
}
