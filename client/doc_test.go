package client

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExportedNames_haveDocComments keeps every exported name of the package
// documented: functions, methods, types, the fields of exported structs,
// and constants and variables (a group's doc covers the values of an enum).
func TestExportedNames_haveDocComments(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var missing []string
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			missing = append(missing, undocumented(fset, decl)...)
		}
	}
	for _, m := range missing {
		t.Errorf("%s has no doc comment", m)
	}
}

// undocumented lists the exported names of decl without a doc comment.
func undocumented(fset *token.FileSet, decl ast.Decl) []string {
	var out []string
	add := func(pos token.Pos, what string) {
		out = append(out, fset.Position(pos).String()+": "+what)
	}
	switch d := decl.(type) {
	case *ast.FuncDecl:
		if !d.Name.IsExported() || d.Doc != nil {
			return nil
		}
		if d.Recv != nil && !exportedReceiver(d.Recv.List[0].Type) {
			return nil
		}
		add(d.Pos(), "func "+d.Name.Name)
	case *ast.GenDecl:
		for _, spec := range d.Specs {
			switch s := spec.(type) {
			case *ast.TypeSpec:
				if !s.Name.IsExported() {
					continue
				}
				if s.Doc == nil && (d.Doc == nil || d.Lparen.IsValid()) {
					add(s.Pos(), "type "+s.Name.Name)
				}
				st, ok := s.Type.(*ast.StructType)
				if !ok {
					continue
				}
				for _, field := range st.Fields.List {
					for _, n := range field.Names {
						if n.IsExported() && field.Doc == nil && field.Comment == nil {
							add(n.Pos(), "field "+s.Name.Name+"."+n.Name)
						}
					}
				}
			case *ast.ValueSpec:
				for _, n := range s.Names {
					if n.IsExported() && s.Doc == nil && s.Comment == nil && d.Doc == nil {
						add(n.Pos(), d.Tok.String()+" "+n.Name)
					}
				}
			}
		}
	}
	return out
}

// exportedReceiver reports whether a method's receiver type is exported.
func exportedReceiver(expr ast.Expr) bool {
	if star, ok := expr.(*ast.StarExpr); ok {
		expr = star.X
	}
	if generic, ok := expr.(*ast.IndexExpr); ok {
		expr = generic.X
	}
	id, ok := expr.(*ast.Ident)
	return ok && id.IsExported()
}

func TestUndocumented_findsExportedNamesWithoutDocs(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{name: "documented function", src: "// F does.\nfunc F() {}"},
		{name: "function", src: "func F() {}", want: []string{"func F"}},
		{name: "unexported function", src: "func f() {}"},
		{name: "method of an exported type", src: "// T is.\ntype T int\nfunc (T) M() {}", want: []string{"func M"}},
		{name: "method of an unexported type", src: "type t int\nfunc (*t) M() {}"},
		{name: "type", src: "type T int", want: []string{"type T"}},
		{name: "field", src: "// T is.\ntype T struct {\n\t// A is.\n\tA int\n\tB int // B is.\n\tC, d int\n}", want: []string{"field T.C"}},
		{name: "enum under a group doc", src: "// Known values.\nconst (\n\tA = 1\n\tB = 2\n)"},
		{name: "constant", src: "const A = 1", want: []string{"const A"}},
		{name: "variable in a group without doc", src: "var (\n\t// A is.\n\tA = 1\n\tB = 2\n)", want: []string{"var B"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, "x.go", "package x\n"+tc.src+"\n", parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, decl := range f.Decls {
				for _, m := range undocumented(fset, decl) {
					got = append(got, m[strings.LastIndex(m, ": ")+2:])
				}
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("undocumented = %q, want %q", got, tc.want)
			}
		})
	}
}
