package client

import (
	"bytes"
	"encoding/json"
	"errors"
	"unicode/utf8"

	"github.com/dbgov/dbgov/internal/jsonscan"
)

// EachCatalogTable calls fn with each table of the catalog document raw (a
// DatabaseCatalog as the service sends it) and the name of its schema, in
// order, decoding one table at a time: a catalog of 100,000 columns is
// never decoded whole, and the table passed to fn is reused for the next
// one. It gives what decoding raw into a DatabaseCatalog would give, and
// fails where that decoding fails; an error of fn ends the walk and is
// returned as it is.
func EachCatalogTable(raw []byte, fn func(schema string, table *TableCatalog) error) error {
	w := catalogWalker{src: raw, fn: fn}
	err := w.walk()
	if !errors.Is(err, errIrregular) {
		return err
	}
	// Keys in another case, keys given twice, values of unexpected types:
	// encoding/json decides what they mean, on the whole document.
	var cat DatabaseCatalog
	if err := json.Unmarshal(raw, &cat); err != nil {
		return err
	}
	for i := range cat.Schemas {
		for j := range cat.Schemas[i].Tables {
			if err := fn(cat.Schemas[i].Name, &cat.Schemas[i].Tables[j]); err != nil {
				return err
			}
		}
	}
	return nil
}

// errIrregular stops the table by table walk of a catalog that is not
// written as the service writes catalogs.
var errIrregular = errors.New("irregular catalog document")

// catalogWalker finds the tables of a catalog document without decoding
// it. It expects the regular form: objects whose keys are spelt as the
// fields are, each once, arrays where lists are; anything else is left to
// encoding/json.
type catalogWalker struct {
	src   []byte
	fn    func(schema string, table *TableCatalog) error
	table TableCatalog
	// columns holds the columns of tables read by hand, reused from one
	// table to the next with their label maps.
	columns ColumnCatalogs
}

func (w *catalogWalker) walk() error {
	if !json.Valid(w.src) {
		var cat DatabaseCatalog
		return json.Unmarshal(w.src, &cat) // says what is wrong
	}
	i := jsonscan.SkipSpace(w.src, 0)
	if w.src[i] == 'n' {
		return nil
	}
	top, err := w.members(i, "name", "schemas")
	if err != nil {
		return err
	}
	if !w.is(top[0], '"') || !w.is(top[1], '[') {
		return errIrregular
	}
	if top[1] < 0 || w.src[top[1]] == 'n' {
		return nil
	}
	// Every schema is checked before fn is first called, so that an
	// irregular one can still be handed to encoding/json.
	var schemas [][2]int // where the name and the tables of each schema are
	err = eachJSONElement(w.src, top[1], func(s int) error {
		if w.src[s] == 'n' {
			return nil
		}
		m, err := w.members(s, "name", "tables")
		if err != nil {
			return err
		}
		if !w.is(m[0], '"') || !w.is(m[1], '[') {
			return errIrregular
		}
		schemas = append(schemas, [2]int{m[0], m[1]})
		return nil
	})
	if err != nil {
		return err
	}
	for _, s := range schemas {
		if err := w.schema(s[0], s[1]); err != nil {
			return err
		}
	}
	return nil
}

// is reports whether the value at i (-1 when absent) is absent, null, or
// opens with c.
func (w *catalogWalker) is(i int, c byte) bool {
	return i < 0 || w.src[i] == 'n' || w.src[i] == c
}

// schema walks the tables of one schema: name and tables are the offsets
// of their values, -1 when absent.
func (w *catalogWalker) schema(name, tables int) error {
	var schemaName string
	if name >= 0 && w.src[name] == '"' {
		if err := json.Unmarshal(w.src[name:jsonscan.ValueEnd(w.src, name)], &schemaName); err != nil {
			return err
		}
	}
	if tables < 0 || w.src[tables] == 'n' {
		return nil
	}
	var err error
	w.eachElement(tables, func(t int) int {
		var end int
		if end, err = w.decodeTable(t); err == nil {
			err = w.fn(schemaName, &w.table)
		}
		if err != nil {
			return -1
		}
		return end
	})
	return err
}

// members returns the offsets of the values of the named members of the
// object at i, -1 for those absent. A key spelt in another case or given
// twice, or a value that is not an object, makes the document irregular.
func (w *catalogWalker) members(i int, names ...string) ([]int, error) {
	if w.src[i] != '{' {
		return nil, errIrregular
	}
	at := make([]int, len(names))
	for k := range at {
		at[k] = -1
	}
	i = jsonscan.SkipSpace(w.src, i+1)
	if w.src[i] == '}' {
		return at, nil
	}
	for {
		end := jsonscan.ValueEnd(w.src, i)
		key := w.src[i+1 : end-1]
		i = jsonscan.SkipSpace(w.src, end)
		i = jsonscan.SkipSpace(w.src, i+1) // ':'
		for k, name := range names {
			switch {
			case string(key) == name:
				if at[k] >= 0 {
					return nil, errIrregular
				}
				at[k] = i
			case bytes.IndexByte(key, '\\') >= 0 || bytes.EqualFold(key, []byte(name)):
				return nil, errIrregular
			}
		}
		i = jsonscan.SkipSpace(w.src, jsonscan.ValueEnd(w.src, i))
		if w.src[i] == ',' {
			i = jsonscan.SkipSpace(w.src, i+1)
			continue
		}
		return at, nil
	}
}

// eachJSONElement calls fn with the offset of each element of the array at i.
func eachJSONElement(src []byte, i int, fn func(at int) error) error {
	i = jsonscan.SkipSpace(src, i+1)
	if src[i] == ']' {
		return nil
	}
	for {
		if err := fn(i); err != nil {
			return err
		}
		i = jsonscan.SkipSpace(src, jsonscan.ValueEnd(src, i))
		if src[i] == ',' {
			i = jsonscan.SkipSpace(src, i+1)
			continue
		}
		return nil
	}
}

// decodeTable decodes the table at i into w.table and returns the offset
// just past it. A table written the
// regular way (keys as the fields spell them, each once; no null; no
// objectSchema, whose nesting is left to encoding/json) is read by hand,
// reusing the columns and label maps of the previous table; anything else
// is decoded by encoding/json, which then decides.
func (w *catalogWalker) decodeTable(i int) (end int, err error) {
	if end := w.fastTable(i); end > 0 {
		return end, nil
	}
	w.table = TableCatalog{}
	end = jsonscan.ValueEnd(w.src, i)
	return end, json.Unmarshal(w.src[i:end], &w.table)
}

// The hand reading below returns, for each value it reads, the offset
// just past it, or -1 when the value is not regular. A member function
// returns 0 for a value it leaves to be skipped.

// fastTable reads the regular table at i into w.table.
func (w *catalogWalker) fastTable(i int) int {
	t := &w.table
	cols := w.columns.Columns[:0]
	*t = TableCatalog{}
	seen := 0
	end := w.eachMember(i, func(key []byte, v int) int {
		switch string(key) {
		case "name":
			return w.once(&seen, 1, w.str(v, &t.Name))
		case "classification":
			return w.once(&seen, 2, w.str(v, &t.Classification))
		case "columns":
			if !w.first(&seen, 4) {
				return -1
			}
			t.Columns = &w.columns
			inner := 0
			return w.eachMember(v, func(key []byte, v int) int {
				if string(key) != "columns" {
					return w.skippable(key, "columns")
				}
				if !w.first(&inner, 1) {
					return -1
				}
				return w.eachElement(v, func(c int) int {
					if len(cols) < cap(cols) {
						cols = cols[:len(cols)+1]
					} else {
						cols = append(cols, ColumnCatalog{})
					}
					return w.fastColumn(c, &cols[len(cols)-1])
				})
			})
		}
		return w.skippable(key, "name", "classification", "columns", "objectSchema")
	})
	w.columns.Columns = cols
	return end
}

// fastColumn reads the regular column at i into c, reusing its label map.
func (w *catalogWalker) fastColumn(i int, c *ColumnCatalog) int {
	labels := c.Labels
	clear(labels)
	*c = ColumnCatalog{}
	seen := 0
	return w.eachMember(i, func(key []byte, v int) int {
		switch string(key) {
		case "name":
			return w.once(&seen, 1, w.str(v, &c.Name))
		case "semanticType":
			return w.once(&seen, 2, w.str(v, &c.SemanticType))
		case "classification":
			return w.once(&seen, 4, w.str(v, &c.Classification))
		case "labels":
			if !w.first(&seen, 8) {
				return -1
			}
			if labels == nil {
				labels = make(map[string]string, 4)
			}
			c.Labels = labels
			return w.eachMember(v, func(key []byte, v int) int {
				var value string
				end := w.str(v, &value)
				if end < 0 || bytes.IndexByte(key, '\\') >= 0 {
					return -1
				}
				if _, twice := labels[string(key)]; twice {
					return -1
				}
				labels[string(key)] = value
				return end
			})
		}
		return w.skippable(key, "name", "semanticType", "classification", "labels", "objectSchema")
	})
}

// first reports whether the field bit has not been seen yet, and marks it.
func (w *catalogWalker) first(seen *int, bit int) bool {
	if *seen&bit != 0 {
		return false
	}
	*seen |= bit
	return true
}

// once returns end, or -1 when the field bit was seen before.
func (w *catalogWalker) once(seen *int, bit int, end int) int {
	if !w.first(seen, bit) {
		return -1
	}
	return end
}

// str reads the string at i into s.
func (w *catalogWalker) str(i int, s *string) int {
	if w.src[i] != '"' {
		return -1
	}
	end := jsonscan.ValueEnd(w.src, i)
	raw := w.src[i+1 : end-1]
	if bytes.IndexByte(raw, '\\') < 0 && utf8.Valid(raw) {
		*s = string(raw)
		return end
	}
	if json.Unmarshal(w.src[i:end], s) != nil {
		return -1
	}
	return end
}

// skippable returns 0 (skip the value) for a member other than the known
// ones, spelt plainly and not one of the fields (which encoding/json would
// match in another case, or which the hand reading leaves to it); else -1.
func (w *catalogWalker) skippable(key []byte, fields ...string) int {
	if bytes.IndexByte(key, '\\') >= 0 {
		return -1
	}
	for _, f := range fields {
		if bytes.EqualFold(key, []byte(f)) {
			return -1
		}
	}
	return 0
}

// eachMember calls fn with the key (its text between the quotes) and the
// offset of the value of each member of the object at i.
func (w *catalogWalker) eachMember(i int, fn func(key []byte, at int) int) int {
	if w.src[i] != '{' {
		return -1
	}
	i = jsonscan.SkipSpace(w.src, i+1)
	if w.src[i] == '}' {
		return i + 1
	}
	for {
		end := jsonscan.ValueEnd(w.src, i)
		key := w.src[i+1 : end-1]
		i = jsonscan.SkipSpace(w.src, end)
		i = jsonscan.SkipSpace(w.src, i+1) // ':'
		switch end = fn(key, i); {
		case end < 0:
			return -1
		case end == 0:
			end = jsonscan.ValueEnd(w.src, i)
		}
		i = jsonscan.SkipSpace(w.src, end)
		if w.src[i] != ',' {
			return i + 1 // '}'
		}
		i = jsonscan.SkipSpace(w.src, i+1)
	}
}

// eachElement calls fn with the offset of each element of the array at i.
func (w *catalogWalker) eachElement(i int, fn func(at int) int) int {
	if w.src[i] != '[' {
		return -1
	}
	i = jsonscan.SkipSpace(w.src, i+1)
	if w.src[i] == ']' {
		return i + 1
	}
	for {
		end := fn(i)
		if end < 0 {
			return -1
		}
		i = jsonscan.SkipSpace(w.src, end)
		if w.src[i] != ',' {
			return i + 1 // ']'
		}
		i = jsonscan.SkipSpace(w.src, i+1)
	}
}
