package output

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
	"go.yaml.in/yaml/v3"

	"github.com/dbgov/dbgov/internal/jsondoc"
	"github.com/dbgov/dbgov/internal/secret"
)

// yamlPrinter prints the document as YAML, keys in the order the service
// sent them.
type yamlPrinter struct{ style }

// Print prints doc as YAML, secrets masked unless shown.
func (p yamlPrinter) Print(_ context.Context, w io.Writer, doc Document) error {
	return p.output(w, false, "YAML output", func(bw *bufio.Writer) error {
		r := yamlReader{dec: jsondoc.NewDecoder(doc.Raw), mask: p.mask}
		if err := r.write(bw, doc.ListField); err != nil {
			return fmt.Errorf("convert response to YAML: %w", err)
		}
		return nil
	})
}

// yamlReader reads a JSON document as YAML nodes, keeping the order of
// keys and the text of numbers, secrets masked when mask is set.
type yamlReader struct {
	dec  *jsontext.Decoder
	mask bool
}

// write writes the document as YAML, with list, a field of a top-level
// object, ensured as [] when absent or null.
//
// The YAML encoder keeps every event of a document until its end, which
// for a list of 50,000 users costs gigabytes. So a top-level object is
// written one member at a time, and a list in it one element at a time:
// each piece is encoded alone, as the member {key: [element]}, and the
// "key:" line is written only once. Block YAML at the top level does not
// depend on the siblings of a member or of a list element, so the result
// is the same text as encoding the whole document at once.
func (r yamlReader) write(w io.Writer, list string) error {
	if r.dec.PeekKind() != '{' {
		node, err := r.node()
		if err != nil {
			return err
		}
		return encodeYAML(w, node)
	}
	if _, err := r.dec.ReadToken(); err != nil {
		return err
	}
	members := 0
	for ; r.dec.PeekKind() == '"'; members++ {
		tok, err := r.dec.ReadToken()
		if err != nil {
			return err
		}
		name := tok.String()
		key := yamlString(name)
		switch {
		case list != "" && name == list && r.dec.PeekKind() == 'n':
			err = r.dec.SkipValue()
			list = ""
			if err == nil {
				err = encodeYAML(w, yamlMapping(key, yamlSeq()))
			}
		case r.dec.PeekKind() == '[' && !(r.mask && secret.IsData(name)):
			err = r.writeList(w, key)
		default:
			var value *yaml.Node
			if value, err = r.member(name); err == nil {
				err = encodeYAML(w, yamlMapping(key, value))
			}
		}
		if err != nil {
			return err
		}
		if name == list {
			list = ""
		}
	}
	if list != "" || members == 0 {
		m := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		if list != "" {
			m = yamlMapping(yamlString(list), yamlSeq())
		}
		if err := encodeYAML(w, m); err != nil {
			return err
		}
	}
	_, err := r.dec.ReadToken() // '}'
	return err
}

// writeList writes the member key whose value, a list, comes next, one
// element at a time.
func (r yamlReader) writeList(w io.Writer, key *yaml.Node) error {
	keyLine, ok := yamlKeyLine(key)
	if !ok { // a key YAML writes on several lines: encode the member whole
		seq, err := r.node()
		if err != nil {
			return err
		}
		return encodeYAML(w, yamlMapping(key, seq))
	}
	if _, err := r.dec.ReadToken(); err != nil { // '['
		return err
	}
	if r.dec.PeekKind() == ']' {
		if err := encodeYAML(w, yamlMapping(key, yamlSeq())); err != nil {
			return err
		}
	} else {
		io.WriteString(w, keyLine)
	}
	var piece bytes.Buffer
	for r.dec.PeekKind() != ']' {
		elem, err := r.node()
		if err != nil {
			return err
		}
		piece.Reset()
		if err := encodeYAML(&piece, yamlMapping(key, yamlSeq(elem))); err != nil {
			return err
		}
		rest, ok := strings.CutPrefix(piece.String(), keyLine)
		if !ok {
			return fmt.Errorf("key %q is not written the same way twice", key.Value)
		}
		io.WriteString(w, rest)
	}
	_, err := r.dec.ReadToken() // ']'
	return err
}

// yamlKeyLine returns the line "key:" that starts a member whose value is
// a block list, when YAML writes the key on one line of its own.
func yamlKeyLine(key *yaml.Node) (string, bool) {
	var probe bytes.Buffer
	if err := encodeYAML(&probe, yamlMapping(key, yamlSeq(yamlString("x")))); err != nil {
		return "", false
	}
	text := probe.String()
	line, rest, _ := strings.Cut(text, "\n")
	if !strings.HasSuffix(line, ":") || (rest != "- x\n" && rest != "  - x\n") {
		return "", false
	}
	return line + "\n", true
}

// encodeYAML writes one YAML document holding node.
func encodeYAML(w io.Writer, node *yaml.Node) error {
	enc := yaml.NewEncoder(w)
	enc.SetIndent(2)
	if err := enc.Encode(node); err != nil {
		return fmt.Errorf("write YAML output: %w", err)
	}
	if err := enc.Close(); err != nil {
		return fmt.Errorf("write YAML output: %w", err)
	}
	return nil
}

// node reads the value dec is at as a YAML node.
func (r yamlReader) node() (*yaml.Node, error) {
	tok, err := r.dec.ReadToken()
	if err != nil {
		return nil, err
	}
	switch tok.Kind() {
	case '{':
		node := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		for r.dec.PeekKind() == '"' {
			tok, err := r.dec.ReadToken()
			if err != nil {
				return nil, err
			}
			name := tok.String()
			value, err := r.member(name)
			if err != nil {
				return nil, err
			}
			node.Content = append(node.Content, yamlString(name), value)
		}
		_, err := r.dec.ReadToken()
		return node, err
	case '[':
		node := yamlSeq()
		for r.dec.PeekKind() != ']' {
			value, err := r.node()
			if err != nil {
				return nil, err
			}
			node.Content = append(node.Content, value)
		}
		_, err := r.dec.ReadToken()
		return node, err
	case '"':
		return yamlString(tok.String()), nil
	case '0':
		// A number keeps its text; an integer too large for the YAML
		// resolver is written with an explicit !!int tag.
		tag := "!!int"
		if strings.ContainsAny(tok.String(), ".eE") {
			tag = "!!float"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: tok.String()}, nil
	case 't', 'f':
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: tok.String()}, nil
	}
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}, nil
}

// member reads the value of the object member name, masked when it is a
// secret.
func (r yamlReader) member(name string) (*yaml.Node, error) {
	if !r.mask || !secret.IsData(name) {
		return r.node()
	}
	v, err := r.dec.ReadValue()
	if err != nil {
		return nil, err
	}
	if !isEmpty(v) {
		return yamlString(secret.Mask), nil
	}
	return yamlReader{dec: jsondoc.NewDecoder(v)}.node()
}

func yamlMapping(key, value *yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{key, value}}
}

func yamlSeq(elems ...*yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: elems}
}

// yamlString is a string scalar. The words YAML 1.1 reads as booleans
// (yes, no, on, off, y, n) are quoted too, so that older YAML readers
// still see strings.
func yamlString(s string) *yaml.Node {
	node := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
	if len(s) <= 3 {
		switch strings.ToLower(s) {
		case "y", "n", "yes", "no", "on", "off":
			node.Style = yaml.DoubleQuotedStyle
		}
	}
	return node
}
