package output

import (
	"bytes"

	"github.com/itchyny/gojq"

	"github.com/dbgov/dbgov/internal/jsonscan"
)

// jqStream runs a jq expression that begins by walking into the document
// and iterating a list, such as `.users[] | select(.mfaEnabled) | .email`
// or `.schemas[].tables[].name`, one element at a time: the rest of the
// expression sees one element as its input, so only that element is ever
// decoded, whatever the size of the list. This is exactly what jq does:
// `A | B` runs B on each output of A in turn.
type jqStream struct {
	// steps is the path walked from the document to the elements: a field
	// name, or "" for an iteration. It ends with an iteration.
	steps []string
	// rest is the expression run on each element.
	rest *gojq.Code
}

// newJQStream returns how to stream query, or nil when it does not begin
// with a path of fields and iterations, or when running it element by
// element could differ from running it on the whole document. opts are
// the compiler options of the whole expression.
func newJQStream(query *gojq.Query, opts ...gojq.CompilerOption) *jqStream {
	if query.Meta != nil || len(query.Imports) > 0 {
		return nil
	}
	head := query
	if query.Op == gojq.OpPipe {
		// `E as $x | B` runs B on the input of E, not on its outputs.
		if len(query.Patterns) > 0 || query.Left == nil {
			return nil
		}
		head = query.Left
	}
	if head.Term == nil || head.Op != 0 || len(head.FuncDefs) > 0 || head.Meta != nil || len(head.Imports) > 0 {
		return nil
	}
	if query.Op != gojq.OpPipe && query.Op != 0 {
		return nil
	}
	term := head.Term
	var steps []string
	switch term.Type {
	case gojq.TermTypeIdentity:
	case gojq.TermTypeIndex:
		name, ok := fieldName(term.Index)
		if !ok {
			return nil
		}
		steps = append(steps, name)
	default:
		return nil
	}
	// The prefix of fields and iterations; the last iteration ends it.
	last := -1
	for i, s := range term.SuffixList {
		if s.Optional {
			return nil // `?` applies to all that precedes it: keep it whole
		}
		if s.Iter {
			steps = append(steps, "")
			last = i
			continue
		}
		name, ok := fieldName(s.Index)
		if !ok {
			break
		}
		steps = append(steps, name)
	}
	if last < 0 {
		return nil
	}
	// Cut the steps after the last iteration: they belong to the rest.
	cut := len(steps)
	for cut > 0 && steps[cut-1] != "" {
		cut--
	}
	steps = steps[:cut]

	restTerm := &gojq.Term{Type: gojq.TermTypeIdentity, SuffixList: term.SuffixList[last+1:]}
	rest := *query
	if query.Op == gojq.OpPipe {
		rest.Left = &gojq.Query{Term: restTerm}
	} else {
		rest.Term = restTerm
	}
	code, err := gojq.Compile(&rest, opts...)
	if err != nil {
		return nil
	}
	return &jqStream{steps: steps, rest: code}
}

// fieldName returns the name of a plain field index such as .users.
func fieldName(ix *gojq.Index) (string, bool) {
	if ix == nil || ix.Name == "" || ix.Str != nil || ix.Start != nil || ix.End != nil || ix.IsSlice {
		return "", false
	}
	return ix.Name, true
}

// walk calls each with the bytes of every element the steps reach in src,
// a valid JSON document, in order. It returns false, having called each
// for nothing, when the document is not shaped as the steps expect: a
// field step on anything but an object holding the field once (a secret
// field when secrets are masked counts as missing), an iteration on
// anything but an array. The list field of a list response, when absent or
// null at the top, counts as an empty array. Then the whole document has
// to be decoded for jq to say what it makes of it.
func (s *jqStream) walk(src []byte, mask bool, list string, each func(elem []byte) error) (bool, error) {
	w := streamWalker{src: src, steps: s.steps, mask: mask, list: list}
	if !w.check(jsonscan.SkipSpace(src, 0), 0) {
		return false, nil
	}
	w.each = each
	return true, w.emit(jsonscan.SkipSpace(src, 0), 0)
}

type streamWalker struct {
	src   []byte
	steps []string
	mask  bool
	list  string
	each  func(elem []byte) error
}

// field finds the value of the field name in the object at i: its offset,
// or -1 when the object does not hold it. found is false when the object
// holds it more than once.
func (w *streamWalker) field(i int, name string) (at int, ok bool) {
	at = -1
	i = jsonscan.SkipSpace(w.src, i+1) // past '{'
	if w.src[i] == '}' {
		return -1, true
	}
	for {
		end := jsonscan.StringEnd(w.src, i)
		key := w.src[i:end]
		i = jsonscan.SkipSpace(w.src, end)
		i = jsonscan.SkipSpace(w.src, i+1) // past ':'
		if keyIs(key, name) {
			if at >= 0 {
				return -1, false
			}
			at = i
		}
		i = jsonscan.SkipSpace(w.src, jsonscan.ValueEnd(w.src, i))
		if w.src[i] == ',' {
			i = jsonscan.SkipSpace(w.src, i+1)
			continue
		}
		return at, true
	}
}

// elements calls fn with the offsets of the start and end of each element
// of the array at i.
func (w *streamWalker) elements(i int, fn func(at, end int) bool) bool {
	i = jsonscan.SkipSpace(w.src, i+1) // past '['
	if w.src[i] == ']' {
		return true
	}
	for {
		end := jsonscan.ValueEnd(w.src, i)
		if !fn(i, end) {
			return false
		}
		i = jsonscan.SkipSpace(w.src, end)
		if w.src[i] == ',' {
			i = jsonscan.SkipSpace(w.src, i+1)
			continue
		}
		return true
	}
}

// target resolves a field step at the value at i: the offset of the
// field's value, -1 for an empty list (the list field absent or null), or
// ok false when the document is not shaped for streaming.
func (w *streamWalker) target(i, step int) (at int, ok bool) {
	name := w.steps[step]
	if w.src[i] != '{' || (w.mask && IsSecretField(name)) {
		return 0, false
	}
	at, ok = w.field(i, name)
	isList := step == 0 && w.list != "" && name == w.list
	if !ok || (at < 0 && !isList) {
		return 0, false
	}
	if isList && (at < 0 || w.src[at] == 'n') {
		return -1, true
	}
	return at, true
}

func (w *streamWalker) check(i, step int) bool {
	if step == len(w.steps) {
		return true
	}
	if w.steps[step] == "" {
		if w.src[i] != '[' {
			return false
		}
		return w.elements(i, func(at, _ int) bool { return w.check(at, step+1) })
	}
	at, ok := w.target(i, step)
	if !ok {
		return false
	}
	return at < 0 || w.check(at, step+1)
}

func (w *streamWalker) emit(i, step int) error {
	if w.steps[step] == "" {
		var err error
		w.elements(i, func(at, end int) bool {
			if step+1 == len(w.steps) {
				err = w.each(w.src[at:end])
			} else {
				err = w.emit(at, step+1)
			}
			return err == nil
		})
		return err
	}
	at, _ := w.target(i, step)
	if at < 0 {
		return nil
	}
	return w.emit(at, step+1)
}

// keyIs reports whether the quoted key is name, also when the key is
// written with escapes.
func keyIs(key []byte, name string) bool {
	if bytes.IndexByte(key, '\\') < 0 {
		return string(key[1:len(key)-1]) == name
	}
	return unquoteKey(key) == name
}
