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
)

// yamlPrinter prints the document as YAML, keys in the order the service
// sent them.
type yamlPrinter struct{ style }

// Print prints doc as YAML, secrets masked unless shown. The encoder keeps a
// document's every event to its end (gigabytes for 50,000 users), so each
// top-level member, and each element of a list in it, is encoded alone: block
// YAML at the top does not depend on siblings, so the text is the same.
func (p yamlPrinter) Print(_ context.Context, w io.Writer, doc Document) error {
	return p.output(w, false, "YAML output", func(bw *bufio.Writer) error {
		t, done := docTokens(doc, p.mask)
		defer done()
		if err := writeYAML(bw, t); err != nil {
			return fmt.Errorf("convert response to YAML: %w", err)
		}
		return nil
	})
}

func writeYAML(w io.Writer, t *tokens) error {
	tok, err := t.next()
	if err != nil {
		return err
	}
	if tok.Kind() != '{' {
		node, err := yamlNode(tok, t)
		if err != nil {
			return err
		}
		return encodeYAML(w, node)
	}
	members := 0
	err = t.members('{', func(name string, first jsontext.Token) error {
		members++
		if first.Kind() == '[' {
			return writeYAMLList(w, yamlString(name), t)
		}
		node, err := yamlNode(first, t)
		if err != nil {
			return err
		}
		return encodeYAML(w, yamlMapping(yamlString(name), node))
	})
	if err == nil && members == 0 {
		err = encodeYAML(w, &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"})
	}
	return err
}

// writeYAMLList writes the member key whose value, a list, t is in, one
// element at a time.
func writeYAMLList(w io.Writer, key *yaml.Node, t *tokens) error {
	keyLine, piecewise := yamlKeyLine(key)
	whole := yamlSeq() // the list, when its key is written on several lines
	var piece bytes.Buffer
	n := 0
	err := t.members('[', func(_ string, first jsontext.Token) error {
		elem, err := yamlNode(first, t)
		if err != nil {
			return err
		}
		n++
		if !piecewise {
			whole.Content = append(whole.Content, elem)
			return nil
		}
		piece.Reset()
		if err := encodeYAML(&piece, yamlMapping(key, yamlSeq(elem))); err != nil {
			return err
		}
		rest, ok := strings.CutPrefix(piece.String(), keyLine)
		if !ok {
			return fmt.Errorf("key %q is not written the same way twice", key.Value)
		}
		if n == 1 {
			io.WriteString(w, keyLine)
		}
		io.WriteString(w, rest)
		return nil
	})
	if err == nil && (n == 0 || !piecewise) {
		err = encodeYAML(w, yamlMapping(key, whole))
	}
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

// yamlNode reads the value that starts with tok as a YAML node.
func yamlNode(tok jsontext.Token, t *tokens) (*yaml.Node, error) {
	switch tok.Kind() {
	case '{', '[':
		node := yamlSeq()
		if tok.Kind() == '{' {
			node = &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
		}
		return node, t.members(tok.Kind(), func(name string, first jsontext.Token) error {
			value, err := yamlNode(first, t)
			if node.Kind == yaml.MappingNode {
				node.Content = append(node.Content, yamlString(name))
			}
			node.Content = append(node.Content, value)
			return err
		})
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
