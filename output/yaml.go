package output

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"go.yaml.in/yaml/v3"
)

// yamlPrinter prints the document as YAML, keys in the order the service
// sent them.
type yamlPrinter struct {
	mask bool
}

// Print prints doc as YAML, secrets masked unless shown.
func (p yamlPrinter) Print(w io.Writer, doc Document) error {
	data, err := normalizedJSON(doc, p.mask)
	if err != nil {
		return err
	}
	bw := bufio.NewWriterSize(w, 64<<10)
	if err := writeYAML(bw, data); err != nil {
		return err
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("write YAML output: %w", err)
	}
	return nil
}

// writeYAML writes the valid JSON document data as YAML, keeping the
// order of keys and the text of numbers.
//
// The YAML encoder keeps every event of a document until its end, which
// for a list of 50,000 users costs gigabytes. So a top-level object is
// written one member at a time, and a list in it one element at a time:
// each piece is encoded alone, as the member {key: [element]}, and the
// "key:" line is written only once. Block YAML at the top level does not
// depend on the siblings of a member or of a list element, so the result
// is the same text as encoding the whole document at once.
func writeYAML(w io.Writer, data []byte) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return fmt.Errorf("convert response to YAML: %w", err)
	}
	if tok != json.Delim('{') || !dec.More() {
		node, err := yamlFromToken(dec, tok)
		if err != nil {
			return fmt.Errorf("convert response to YAML: %w", err)
		}
		return encodeYAML(w, node)
	}
	var piece bytes.Buffer
	for dec.More() {
		key, value, err := yamlMemberStart(dec)
		if err != nil {
			return fmt.Errorf("convert response to YAML: %w", err)
		}
		if value != nil {
			if err := encodeYAML(w, yamlMapping(key, value)); err != nil {
				return err
			}
			continue
		}
		// The member's value is a non-empty list.
		keyLine, ok := yamlKeyLine(key)
		if !ok { // a key YAML writes on several lines: encode the member whole
			seq, err := yamlFromToken(dec, json.Delim('['))
			if err != nil {
				return fmt.Errorf("convert response to YAML: %w", err)
			}
			if err := encodeYAML(w, yamlMapping(key, seq)); err != nil {
				return err
			}
			continue
		}
		io.WriteString(w, keyLine)
		for dec.More() {
			elem, err := yamlValue(dec)
			if err != nil {
				return fmt.Errorf("convert response to YAML: %w", err)
			}
			piece.Reset()
			seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{elem}}
			if err := encodeYAML(&piece, yamlMapping(key, seq)); err != nil {
				return err
			}
			rest, ok := strings.CutPrefix(piece.String(), keyLine)
			if !ok {
				return fmt.Errorf("convert response to YAML: key %q is not written the same way twice", key.Value)
			}
			io.WriteString(w, rest)
		}
		if _, err := dec.Token(); err != nil { // ']'
			return fmt.Errorf("convert response to YAML: %w", err)
		}
	}
	return nil
}

// yamlMemberStart reads the key of an object member and its value; for a
// non-empty list it reads only the opening bracket and returns a nil value.
func yamlMemberStart(dec *json.Decoder) (key, value *yaml.Node, err error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, nil, err
	}
	name, ok := tok.(string)
	if !ok {
		return nil, nil, fmt.Errorf("object key %v is not a string", tok)
	}
	tok, err = dec.Token()
	if err != nil {
		return nil, nil, err
	}
	if tok == json.Delim('[') && dec.More() {
		return yamlString(name), nil, nil
	}
	value, err = yamlFromToken(dec, tok)
	return yamlString(name), value, err
}

// yamlKeyLine returns the line "key:" that starts a member whose value is
// a block list, when YAML writes the key on one line of its own.
func yamlKeyLine(key *yaml.Node) (string, bool) {
	var probe bytes.Buffer
	seq := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{yamlString("x")}}
	if err := encodeYAML(&probe, yamlMapping(key, seq)); err != nil {
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

func yamlMapping(key, value *yaml.Node) *yaml.Node {
	return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map", Content: []*yaml.Node{key, value}}
}

// yamlValue reads one JSON value from dec as a YAML node.
func yamlValue(dec *json.Decoder) (*yaml.Node, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	return yamlFromToken(dec, tok)
}

// yamlFromToken reads the JSON value that starts with tok.
func yamlFromToken(dec *json.Decoder, tok json.Token) (*yaml.Node, error) {
	switch tok := tok.(type) {
	case json.Delim:
		switch tok {
		case '{':
			node := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
			for dec.More() {
				key, err := dec.Token()
				if err != nil {
					return nil, err
				}
				name, ok := key.(string)
				if !ok {
					return nil, fmt.Errorf("object key %v is not a string", key)
				}
				value, err := yamlValue(dec)
				if err != nil {
					return nil, err
				}
				node.Content = append(node.Content, yamlString(name), value)
			}
			_, err := dec.Token() // '}'
			return node, err
		case '[':
			node := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
			for dec.More() {
				value, err := yamlValue(dec)
				if err != nil {
					return nil, err
				}
				node.Content = append(node.Content, value)
			}
			_, err := dec.Token() // ']'
			return node, err
		}
		return nil, fmt.Errorf("unexpected %v", tok)
	case string:
		return yamlString(tok), nil
	case json.Number:
		// A number keeps its text; an integer too large for the YAML
		// resolver is written with an explicit !!int tag.
		tag := "!!int"
		if strings.ContainsAny(string(tok), ".eE") {
			tag = "!!float"
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: tag, Value: string(tok)}, nil
	case bool:
		if tok {
			return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "true"}, nil
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: "false"}, nil
	case nil:
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!null", Value: "null"}, nil
	}
	return nil, errors.New("unexpected JSON token")
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
