package devserver

import (
	"fmt"
	"slices"
	"strings"
)

// statement is one statement of a schema: a table with its definitions, an
// index, or any other statement (kind "").
type statement struct {
	kind, name, text string
	defs             []string // a table's columns and constraints, spaces normalized
}

// key identifies a statement within a schema.
func (s statement) key() string {
	if s.kind == "" {
		return normalizeSpace(s.text)
	}
	return s.kind + " " + s.name
}

// sqlDiff returns the statements that migrate schema a to schema b, each
// ending in ";\n": tables, columns, constraints and indexes dropped, then
// those created or added (a changed column or index is dropped and added
// again), and any other statement of b that a lacks. Equal schemas give "".
func sqlDiff(a, b string) string {
	from, fromKeys := parseSchema(a)
	to, toKeys := parseSchema(b)
	var out strings.Builder
	emit := func(format string, args ...any) { fmt.Fprintf(&out, format+";\n", args...) }
	for _, s := range from {
		if _, kept := toKeys[s.key()]; !kept && s.kind != "" {
			emit("DROP %s %s", s.kind, s.name)
		}
	}
	for _, s := range to {
		old, had := fromKeys[s.key()]
		switch {
		case !had:
			emit("%s", s.text)
		case s.kind == "TABLE":
			alterTable(emit, s.name, old.defs, s.defs)
		case normalizeSpace(s.text) != normalizeSpace(old.text):
			emit("DROP INDEX %s", s.name)
			emit("%s", s.text)
		}
	}
	return out.String()
}

// alterTable emits the statements that take a table's definitions from old
// to new.
func alterTable(emit func(string, ...any), table string, old, new []string) {
	oldDefs, newDefs := defsByKey(old), defsByKey(new)
	for _, d := range old {
		key, constraint := defKey(d)
		switch f := strings.Fields(d); {
		case newDefs[key] == d:
		case !constraint:
			emit("ALTER TABLE %s DROP COLUMN %s", table, key)
		case strings.EqualFold(f[0], "CONSTRAINT") && len(f) > 1:
			emit("ALTER TABLE %s DROP CONSTRAINT %s", table, f[1])
		}
	}
	for _, d := range new {
		key, constraint := defKey(d)
		switch {
		case oldDefs[key] == d:
		case constraint:
			emit("ALTER TABLE %s ADD %s", table, d)
		default:
			emit("ALTER TABLE %s ADD COLUMN %s", table, d)
		}
	}
}

// defKey returns what names a table definition: a column's name, or a
// constraint's whole text.
func defKey(def string) (key string, constraint bool) {
	first := strings.Fields(def)[0]
	switch strings.ToUpper(first) {
	case "CONSTRAINT", "PRIMARY", "UNIQUE", "FOREIGN", "CHECK", "EXCLUDE", "KEY", "INDEX":
		return def, true
	}
	return first, false
}

func defsByKey(defs []string) map[string]string {
	m := make(map[string]string, len(defs))
	for _, d := range defs {
		key, _ := defKey(d)
		m[key] = d
	}
	return m
}

// parseSchema cuts a schema into its statements, comment lines left out,
// and indexes them by key.
func parseSchema(schema string) ([]statement, map[string]statement) {
	var lines []string
	for _, l := range strings.Split(schema, "\n") {
		if !strings.HasPrefix(strings.TrimSpace(l), "--") {
			lines = append(lines, l)
		}
	}
	var list []statement
	keys := map[string]statement{}
	for _, text := range strings.Split(strings.Join(lines, "\n"), ";") {
		if text = strings.TrimSpace(text); text != "" {
			s := parseStatement(text)
			list = append(list, s)
			keys[s.key()] = s
		}
	}
	return list, keys
}

// parseStatement recognizes CREATE TABLE name (...) and CREATE [UNIQUE]
// INDEX name ON ...; anything else is a statement of kind "".
func parseStatement(text string) statement {
	s := statement{text: text}
	f := strings.Fields(strings.ToUpper(text))
	open, end := strings.IndexByte(text, '('), strings.LastIndexByte(text, ')')
	switch {
	case len(f) > 2 && f[0] == "CREATE" && f[1] == "TABLE" && 0 < open && open < end:
		head := strings.Fields(text[:open])
		s.kind, s.name = "TABLE", head[len(head)-1]
		depth, start := 0, open+1
		for i := open + 1; i <= end; i++ {
			switch text[i] {
			case '(':
				depth++
			case ')', ',':
				if depth > 0 && text[i] == ')' {
					depth--
				} else if depth == 0 {
					if d := normalizeSpace(text[start:i]); d != "" {
						s.defs = append(s.defs, d)
					}
					start = i + 1
				}
			}
		}
	case len(f) > 2 && f[0] == "CREATE" && slices.Contains(f[1:3], "INDEX"):
		if on := slices.Index(f, "ON"); on > 0 {
			s.kind, s.name = "INDEX", strings.Fields(text)[on-1]
		}
	}
	return s
}

func normalizeSpace(s string) string { return strings.Join(strings.Fields(s), " ") }
