package devserver

import (
	"fmt"
	"slices"
	"strings"
)

// statement is a schema's TABLE with its definitions, INDEX, or other (kind "").
type statement struct {
	kind, name, key, text string
	defs                  []string          // a table's, spaces normalized
	byKey                 map[string]string // the same by defKey
}

// sqlDiff returns the statements, each ending in ";\n", and a blank line
// after them, that migrate schema a to b in the form of the service's
// PostgreSQL diff (docs/reference-server.md lists them); equal schemas give "".
func sqlDiff(a, b string) string {
	from, fromKeys := parseSchema(a)
	to, toKeys := parseSchema(b)
	var out strings.Builder
	emit := func(format string, args ...any) { fmt.Fprintf(&out, format+";\n", args...) }
	quote := func(name string) string { return `"` + strings.Trim(name, `"`) + `"` }
	q := func(name string) string { // a table or index as PostgreSQL's diff names it: "public"."t"
		schema, table, ok := strings.Cut(name, ".")
		if !ok {
			schema, table = "public", name
		}
		return quote(schema) + "." + quote(table)
	}
	for _, s := range from {
		if _, kept := toKeys[s.key]; !kept && s.kind != "" {
			emit("DROP %s IF EXISTS %s", s.kind, q(s.name))
		}
	}
	for _, s := range to {
		old, had := fromKeys[s.key]
		switch {
		case !had:
			emit("%s", s.text)
		case s.kind == "INDEX" && normalize(s.text) != normalize(old.text):
			emit("DROP INDEX IF EXISTS %s", q(s.name))
			emit("%s", s.text)
		}
		for _, d := range old.defs {
			key, constraint := defKey(d)
			switch f := strings.Fields(d); {
			case s.byKey[key] == d:
			case !constraint:
				emit("ALTER TABLE %s DROP COLUMN IF EXISTS %s", q(s.name), quote(key))
			case strings.EqualFold(f[0], "CONSTRAINT") && len(f) > 1:
				emit("ALTER TABLE %s DROP CONSTRAINT IF EXISTS %s", q(s.name), quote(f[1]))
			}
		}
		for _, d := range s.defs {
			key, constraint := defKey(d)
			switch {
			case !had || old.byKey[key] == d:
			case constraint:
				emit("ALTER TABLE %s ADD %s", q(s.name), d)
			default:
				emit("ALTER TABLE %s ADD COLUMN %s%s", q(s.name), quote(key), d[len(key):])
			}
		}
	}
	if out.Len() > 0 {
		out.WriteString("\n")
	}
	return out.String()
}

// defKey returns a column's name, or a constraint's whole text.
func defKey(def string) (key string, constraint bool) {
	first := strings.Fields(def)[0]
	switch strings.ToUpper(first) {
	case "CONSTRAINT", "PRIMARY", "UNIQUE", "FOREIGN", "CHECK", "EXCLUDE", "KEY", "INDEX":
		return def, true
	}
	return first, false
}

// parseSchema cuts a schema into its statements, recognizing CREATE TABLE
// name (...) and CREATE [UNIQUE] INDEX name ON ..., and indexes them by key.
func parseSchema(schema string) ([]statement, map[string]statement) {
	lines := strings.Split(schema, "\n")
	lines = slices.DeleteFunc(lines, func(l string) bool { return strings.HasPrefix(strings.TrimSpace(l), "--") })
	var list []statement
	keys := map[string]statement{}
	for _, text := range strings.Split(strings.Join(lines, "\n"), ";") {
		text = strings.TrimSpace(text)
		f := strings.Fields(strings.ToUpper(text))
		s := statement{text: text, key: normalize(text)}
		open, end, on := strings.IndexByte(text, '('), strings.LastIndexByte(text, ')'), slices.Index(f, "ON")
		switch {
		case text == "" || len(f) > 0 && (f[0] == "SET" || f[0] == "SELECT"): // a dump's settings
			continue
		case len(f) > 2 && f[0] == "CREATE" && f[1] == "TABLE" && 0 < open && open < end:
			head := strings.Fields(text[:open])
			s.kind, s.name, s.byKey = "TABLE", head[len(head)-1], map[string]string{}
			for i, depth, start := open+1, 0, open+1; i <= end; i++ {
				switch c := text[i]; {
				case c == '(':
					depth++
				case c == ')' && i < end:
					depth--
				case c == ',' && depth == 0, i == end:
					if d := normalize(text[start:i]); d != "" {
						key, _ := defKey(d)
						s.defs, s.byKey[key] = append(s.defs, d), d
					}
					start = i + 1
				}
			}
		case len(f) > 2 && f[0] == "CREATE" && slices.Contains(f[1:3], "INDEX") && on > 1:
			s.kind, s.name = "INDEX", strings.Fields(text)[on-1]
		}
		if s.kind != "" {
			s.key = s.kind + " " + s.name
		}
		list = append(list, s)
		keys[s.key] = s
	}
	return list, keys
}

func normalize(s string) string { return strings.Join(strings.Fields(s), " ") }
