package catalogjson

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/go-json-experiment/json/jsontext"

	"github.com/dbgov/dbgov/internal/jsondoc"
)

// ErrFile is wrapped by the errors that are the file's: a schema, table or
// column given twice, a list that is not one, another catalog's name.
var ErrFile = errors.New("invalid catalog file")

// Change is one difference between two catalogs: Op is add, remove or
// change, Path schema.table.column (.table in the empty schema), Field the
// member changed (labels.pii), "" when the object itself is added or removed.
type Change struct {
	Op    string         `json:"op"`
	Path  string         `json:"path"`
	Field string         `json:"field"`
	From  jsontext.Value `json:"from,omitempty"`
	To    jsontext.Value `json:"to,omitempty"`
}

// String is the change as a line: +, - or ~, the path ("" for the schema
// without a name, or the catalog), and field: old → new.
func (c Change) String() string {
	line := map[string]string{"add": "+ ", "remove": "- ", "change": "~ "}[c.Op] + cmp.Or(c.Path, `""`)
	if from, to := show(c.From), show(c.To); c.Field != "" {
		if c.Op == "change" {
			from += " → "
		}
		line += " " + c.Field + ": " + from + to
	}
	return line
}

// show is a value as people read it: a string without its quotes unless it
// holds control characters, anything else as compact JSON.
func show(v jsontext.Value) string {
	var s string
	if json.Unmarshal(v, &s) == nil && !strings.ContainsFunc(s, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return s
	}
	v = v.Clone()
	_ = v.Compact()
	return string(v)
}

// Diff returns what putting file in the place of cur would change:
// schemas, tables and columns matched by name, what file leaves out removed.
func Diff(cur, file []byte) ([]Change, error) {
	var m merger
	m.members(0, "", m.object(cur, false), m.object(file, true), false)
	return m.changes, m.err
}

// Merge lays file over cur (objects matched by name, members replaced,
// labels merged key by key, null removing), appends the result to dst and
// returns it with its changes; with dst nil, the changes alone.
func Merge(dst, cur, file []byte) ([]byte, []Change, error) {
	var m merger
	out := &appender{dst}
	if dst != nil {
		m.out = jsontext.NewEncoder(out)
	}
	m.members(0, "", m.object(cur, false), m.object(file, true), true)
	return bytes.TrimSuffix(out.b, []byte("\n")), m.changes, m.err
}

// appender appends what is written to b, growing it only when full (where
// the encoder grows a bytes.Buffer ahead, to twice the catalog's size).
type appender struct{ b []byte }

func (a *appender) Write(p []byte) (int, error) {
	a.b = append(a.b, p...)
	return len(p), nil
}

// levels names, at each depth, the member holding the next: a table's
// columns are an object whose list is called columns again.
var levels = [...]string{"schemas", "tables", "columns", "columns", "labels"}

// named is, at each depth, how many names of merger.path make the path.
var named = [...]int{0, 1, 2, 2, 3, 3}

// merger compares two catalogs, and writes their merge to out when set.
// Its first error stops the writing and is kept in err.
type merger struct {
	out     *jsontext.Encoder
	err     error
	changes []Change
	path    [3]string // the schema, table and column compared
}

// fail keeps err, marked as the file's when file, unless an error came first.
func (m *merger) fail(err error, file bool) {
	if err != nil && file {
		err = fmt.Errorf("%w: %v", ErrFile, err)
	}
	m.err = cmp.Or(m.err, err)
}

// object reads the object v, of the file when file.
func (m *merger) object(v jsontext.Value, file bool) (o object) {
	if len(v) > 0 {
		var err error
		o, err = readObject(jsondoc.NewDecoder(v), v)
		m.fail(err, file)
	}
	return o
}

// members compares (and writes) cur and file, objects at depth d: the
// members of cur in order, then those only file has.
func (m *merger) members(d int, prefix string, cur, file object, merge bool) {
	m.write(jsontext.BeginObject)
	for _, c := range cur.members {
		m.member(d, prefix, c.name, c.value, file.get(c.name), merge)
	}
	for _, f := range file.members {
		if cur.get(f.name) == nil {
			m.member(d, prefix, f.name, nil, f.value, merge)
		}
	}
	m.write(jsontext.EndObject)
}

// member compares (and writes) the member n of objects at depth d, whose
// values are cv and fv (nil: absent).
func (m *merger) member(d int, prefix, n string, cv, fv jsontext.Value, merge bool) {
	given := fv != nil
	if cv.Kind() == 'n' {
		cv = nil
	}
	if fv.Kind() == 'n' {
		fv = nil
	}
	switch {
	case merge && !given: // kept as it is
		fv = cv
	case d < len(levels) && n == "name": // matched already
		if d == 0 && cv != nil && fv != nil && !equal(cv, fv) {
			m.fail(fmt.Errorf("it names the catalog %s, not %s", fv, cv), true)
		}
		if cv != nil {
			fv = cv
		}
	case d < len(levels) && n == levels[d]:
		m.write(jsontext.String(n))
		m.level(d, cv, fv, merge && fv != nil)
		return
	case cv == nil && fv != nil:
		m.change(d, "add", prefix+n, nil, fv)
	case fv == nil && cv != nil:
		m.change(d, "remove", prefix+n, cv, nil)
	case cv != nil && !equal(cv, fv):
		m.change(d, "change", prefix+n, cv, fv)
	}
	if fv != nil {
		m.write(jsontext.String(n), fv)
	}
}

// level compares (and writes) the member of depth d holding depth d+1,
// matching lists by name.
func (m *merger) level(d int, cv, fv jsontext.Value, merge bool) {
	if d == 2 || d == 4 {
		m.members(d+1, levels[d]+".", m.object(cv, false), m.object(fv, true), merge)
		return
	}
	d++
	cur, err := readList(cv)
	m.fail(err, false)
	files, err := readList(fv)
	m.fail(err, true)
	index := map[string]int{}
	for i, f := range files {
		if _, twice := index[f.name]; twice {
			m.path[named[d]-1] = f.name
			m.fail(fmt.Errorf("%s is given twice", strings.Join(m.path[:named[d]], ".")), true)
		}
		index[f.name] = i
	}
	matched := make([]bool, len(files))
	m.write(jsontext.BeginArray)
	for _, c := range cur {
		i, ok := index[c.name]
		m.path[named[d]-1] = c.name
		switch {
		case ok && bytes.Equal(c.raw, files[i].raw) && !bytes.Contains(c.raw, []byte("null")): // unchanged; a null is dropped
			matched[i] = true
			m.write(c.raw)
		case ok:
			matched[i] = true
			m.members(d, "", c, files[i], merge)
		case merge:
			m.write(c.raw)
		default:
			m.change(d, "remove", "", nil, nil)
		}
	}
	for i, f := range files {
		if !matched[i] {
			m.path[named[d]-1] = f.name
			m.change(d, "add", "", nil, nil)
			m.members(d, "", object{}, f, merge)
		}
	}
	m.write(jsontext.EndArray)
}

// write writes tokens and values to out, when there is one.
func (m *merger) write(parts ...any) {
	for _, p := range parts {
		if m.out == nil || m.err != nil {
			return
		}
		if t, ok := p.(jsontext.Token); ok {
			m.err = m.out.WriteToken(t)
		} else {
			m.err = m.out.WriteValue(p.(jsontext.Value))
		}
	}
}

// change notes a change of field of the object at depth d.
func (m *merger) change(d int, op, field string, from, to jsontext.Value) {
	m.changes = append(m.changes, Change{Op: op, Path: strings.Join(m.path[:named[d]], "."),
		Field: field, From: from.Clone(), To: to.Clone()})
}

// equal reports whether a and b are the same JSON value, whatever their
// spacing, escapes or order of members.
func equal(a, b jsontext.Value) bool {
	if bytes.Equal(a, b) {
		return true
	}
	a, b = a.Clone(), b.Clone()
	return a.Canonicalize() == nil && b.Canonicalize() == nil && bytes.Equal(a, b)
}
