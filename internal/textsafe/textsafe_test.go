package textsafe

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

// classes are the characters that must not reach a terminal raw, one of
// each kind, with how Line shows them.
var classes = []struct{ name, in, line string }{
	{"ESC of a colour sequence", "\x1b[31m", `\x1b[31m`},
	{"OSC 52 clipboard write", "\x1b]52;c;ZXZpbA==\x07", `\x1b]52;c;ZXZpbA==\x07`},
	{"BEL", "\a", `\x07`},
	{"NUL", "\x00", `\x00`},
	{"carriage return", "\r", `\r`},
	{"DEL", "\x7f", `\x7f`},
	{"C1 NEL", "\u0085", `\u0085`},
	{"C1 CSI", "\u009b", `\u009b`},
	{"right-to-left override", "\u202e", `\u202e`},
	{"left-to-right embedding", "\u202a", `\u202a`},
	{"first strong isolate", "\u2068", `\u2068`},
	{"pop directional isolate", "\u2069", `\u2069`},
	{"line separator", "\u2028", `\u2028`},
	{"paragraph separator", "\u2029", `\u2029`},
	{"zero-width space", "\u200b", `\u200b`},
	{"zero-width joiner", "\u200d", `\u200d`},
	{"right-to-left mark", "\u200f", `\u200f`},
	{"word joiner", "\u2060", `\u2060`},
	{"byte order mark", "\ufeff", `\ufeff`},
	{"tag character", "\U000e0041", `\U000e0041`},
	{"invalid UTF-8", "\xff", `\xff`},
	{"cut UTF-8", "\xc3", `\xc3`},
}

func TestLine_escapesEachClass(t *testing.T) {
	for _, c := range classes {
		if got := Line("a" + c.in + "b"); got != "a"+c.line+"b" {
			t.Errorf("%s: Line = %q, want %q", c.name, got, "a"+c.line+"b")
		}
	}
}

func TestLine_keepsPrintableText(t *testing.T) {
	for _, s := range []string{"", "plain", "café 漢字 🙂", "\u00a0nbsp", "עברית", "👨\u200d👩"[:4]} {
		if got := Line(s); got != s {
			t.Errorf("Line(%q) = %q, want it unchanged", s, got)
		}
	}
}

func TestLineAndText_onLineBreaks(t *testing.T) {
	if got, want := Line("a\nb\tc"), `a\nb\tc`; got != want {
		t.Errorf("Line = %q, want %q", got, want)
	}
	if got, want := Text("a\nb\tc\r\x1b"), "a\nb\tc\\r\\x1b"; got != want {
		t.Errorf("Text = %q, want %q", got, want)
	}
}

func TestJSON_escapesAsJSONThatReadsBackTheSame(t *testing.T) {
	for _, c := range classes {
		if !utf8.ValidString(c.in) {
			continue // encoding/json writes it as U+FFFD
		}
		b, err := json.Marshal(map[string]string{"v": c.in})
		if err != nil {
			t.Fatal(err)
		}
		got := JSON(string(b))
		if Text(got) != got {
			t.Errorf("%s: JSON left %q", c.name, got)
		}
		var back map[string]string
		if err := json.Unmarshal([]byte(got), &back); err != nil || back["v"] != c.in {
			t.Errorf("%s: %q reads back as %q, %v", c.name, got, back["v"], err)
		}
	}
}

func TestWriter_escapesCharactersCutBetweenWrites(t *testing.T) {
	in := "x\u202ey\u0085z 漢\x1b\n\xff"
	want := Text(in)
	for size := 1; size <= len(in); size++ {
		var out bytes.Buffer
		w := NewWriter(&out, false)
		for rest := in; rest != ""; {
			n := min(size, len(rest))
			if _, err := w.Write([]byte(rest[:n])); err != nil {
				t.Fatal(err)
			}
			rest = rest[n:]
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if out.String() != want {
			t.Errorf("writes of %d bytes: %q, want %q", size, out.String(), want)
		}
	}
}

func TestWriter_flushWritesACutCharacterEscaped(t *testing.T) {
	var out bytes.Buffer
	w := NewWriter(&out, false)
	w.Write([]byte("ok\xe6\xbc"))
	if out.String() != "ok" {
		t.Errorf("before Flush: %q", out.String())
	}
	w.Flush()
	if got := out.String(); !strings.HasSuffix(got, `\xe6\xbc`) {
		t.Errorf("after Flush: %q", got)
	}
}

func FuzzText(f *testing.F) {
	for _, c := range classes {
		f.Add(c.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, got := range []string{Line(s), Text(s)} {
			if !utf8.ValidString(got) {
				t.Fatalf("%q escaped to invalid UTF-8 %q", s, got)
			}
			for _, r := range got {
				if isUnsafe(r) && r != '\n' && r != '\t' {
					t.Fatalf("%q escaped to %q, which holds %U", s, got, r)
				}
			}
		}
		if strings.ContainsAny(Line(s), "\n\t") {
			t.Fatalf("Line(%q) holds a line break", s)
		}
	})
}

func TestLines_escapesEachLineKeepingTheBreaks(t *testing.T) {
	if got, want := Lines("a\tb\n\x1b[2Jc\n"), `a\tb`+"\n"+`\x1b[2Jc`+"\n"; got != want {
		t.Errorf("Lines = %q, want %q", got, want)
	}
}
