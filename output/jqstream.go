package output

import (
	"errors"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/itchyny/gojq"

	"github.com/dbgov/dbgov/internal/jsondoc"
	"github.com/dbgov/dbgov/internal/secret"
)

// jqStream runs a jq expression that begins by iterating a list, such as
// `.users[] | .email`, one element at a time, so that only that element is
// ever decoded; jq's `A | B` runs B on each output of A in turn alike.
type jqStream struct {
	// steps is the path walked from the document to the elements: a field
	// name, or "" for an iteration; there is at least one iteration.
	steps []string
	// rest is the expression run on each element; nil when it is `.`, and
	// the element is printed as it is.
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
		return nil // also a query joined by an operator other than a pipe: head is then query itself
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
	// The prefix of fields and iterations, with at least one iteration:
	// the walk checks that every field after the last one is there before
	// it reads any element, and otherwise leaves the document to jq.
	used, iterates := 0, false
	for _, s := range term.SuffixList {
		if s.Optional {
			return nil // `?` applies to all that precedes it: keep it whole
		}
		name, ok := "", s.Iter
		if !s.Iter {
			name, ok = fieldName(s.Index)
		}
		if !ok {
			break
		}
		steps, used, iterates = append(steps, name), used+1, iterates || s.Iter
	}
	if !iterates {
		return nil
	}

	if query.Op != gojq.OpPipe && used == len(term.SuffixList) {
		return &jqStream{steps: steps}
	}
	restTerm := &gojq.Term{Type: gojq.TermTypeIdentity, SuffixList: term.SuffixList[used:]}
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

// walk calls each with every element the steps reach in raw, decoded, in
// order. It returns false, calling each for nothing, when the document is not
// shaped as the steps expect (a masked secret counts as missing; an absent or
// null list field as []): then jq must see the whole document.
func (s *jqStream) walk(raw []byte, mask bool, list string, each func(v any) error) (bool, error) {
	w := streamWalker{steps: s.steps, mask: mask, list: list}
	if err := w.value(jsondoc.NewDecoder(raw), 0); err != nil {
		if errors.Is(err, errShape) {
			err = nil
		}
		return false, err
	}
	w.each = func(dec *jsontext.Decoder) error {
		v, err := readValue(&tokens{dec: dec, mask: mask})
		if err != nil {
			return err
		}
		return each(v)
	}
	return true, w.value(jsondoc.NewDecoder(raw), 0)
}

// errShape stops the walk of a document not shaped for streaming.
var errShape = errors.New("not shaped for streaming")

type streamWalker struct {
	steps []string
	mask  bool
	list  string
	// each reads an element the steps reach; nil only checks the shape.
	each func(dec *jsontext.Decoder) error
}

// value walks the value dec is at from the given step on.
func (w *streamWalker) value(dec *jsontext.Decoder, step int) error {
	switch {
	case step == len(w.steps) && w.each == nil:
		return dec.SkipValue()
	case step == len(w.steps):
		return w.each(dec)
	case w.steps[step] == "":
		if dec.PeekKind() != '[' {
			return errShape
		}
		return w.members(dec, func() error { return w.value(dec, step+1) })
	}
	name := w.steps[step]
	if dec.PeekKind() != '{' || (w.mask && secret.IsData(name)) {
		return errShape
	}
	isList := step == 0 && w.list != "" && name == w.list
	found := false
	err := w.members(dec, func() error {
		key, err := dec.ReadValue()
		switch {
		case err != nil:
			return err
		case !jsondoc.Is(key, name):
			return dec.SkipValue()
		}
		found = true
		if isList && dec.PeekKind() == 'n' {
			return dec.SkipValue()
		}
		return w.value(dec, step+1)
	})
	if err == nil && !found && !isList {
		return errShape
	}
	return err
}

// members reads the object or array dec is at, calling fn at each member
// or element.
func (w *streamWalker) members(dec *jsontext.Decoder, fn func() error) error {
	open, err := dec.ReadToken()
	if err != nil {
		return err
	}
	end := open.Kind() + 2 // '{' + 2 == '}', '[' + 2 == ']'
	for dec.PeekKind() != end {
		if err := fn(); err != nil {
			return err
		}
	}
	_, err = dec.ReadToken()
	return err
}
