package input

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
	"go.yaml.in/yaml/v3"
)

// fromYAML converts one YAML document to JSON, and returns how to find the
// line of a value in the YAML. Aliases are refused, so that a small file
// cannot expand into an enormous document.
func fromYAML(name string, data []byte) ([]byte, lineFunc, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc, more yaml.Node
	if err := dec.Decode(&doc); err != nil && err != io.EOF {
		return nil, nil, invalidf("%s: invalid YAML: %s", name, YAMLError(err))
	}
	if err := dec.Decode(&more); err != io.EOF {
		return nil, nil, invalidf("%s holds more than one YAML document (---); give one", name)
	}
	if len(doc.Content) == 0 || IsNull(doc.Content[0]) {
		return []byte("null"), nil, nil
	}
	root := doc.Content[0]
	if alias := findAlias(root); alias != nil {
		return nil, nil, invalidf("%s: line %d: YAML aliases (*name) are not supported in input files", name, alias.Line)
	}
	js, err := YAMLToJSON(root)
	if err != nil {
		return nil, nil, invalidf("%s: %v", name, err)
	}
	return js, func(p jsontext.Pointer, _ int64) int { return yamlLine(root, p) }, nil
}

// YAMLToJSON writes the YAML node n as JSON: aliases followed, merge keys
// (<<) applied, keys in the file's order, a key given twice refused with
// its line. It stops at 16 MiB, which only aliases of aliases can make of a
// small file.
func YAMLToJSON(n *yaml.Node) ([]byte, error) {
	var buf bytes.Buffer
	err := writeYAML(jsontext.NewEncoder(&buf), n, "")
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), err
}

func writeYAML(enc *jsontext.Encoder, n *yaml.Node, path jsontext.Pointer) error {
	if enc.OutputOffset() > 16<<20 {
		return errors.New("its aliases expand it beyond 16 MiB")
	}
	switch n = Deref(n); n.Kind {
	case yaml.MappingNode:
		keys, values, err := mapping(n, path)
		if err == nil {
			err = enc.WriteToken(jsontext.BeginObject)
		}
		for _, k := range keys {
			if err == nil {
				err = enc.WriteToken(jsontext.String(k))
			}
			if err == nil {
				err = writeYAML(enc, values[k], path.AppendToken(k))
			}
		}
		if err != nil {
			return err
		}
		return enc.WriteToken(jsontext.EndObject)
	case yaml.SequenceNode:
		err := enc.WriteToken(jsontext.BeginArray)
		for i, c := range n.Content {
			if err == nil {
				err = writeYAML(enc, c, path.AppendToken(strconv.Itoa(i)))
			}
		}
		if err != nil {
			return err
		}
		return enc.WriteToken(jsontext.EndArray)
	}
	var v any
	err := n.Decode(&v)
	if err == nil {
		err = json.MarshalEncode(enc, v)
	}
	if err != nil {
		return fmt.Errorf("line %d: field %s: %v", n.Line, fieldPath(path), strings.TrimPrefix(err.Error(), "json: "))
	}
	return nil
}

// mapping returns the keys of mapping m, its own in the file's order and
// then those it merges (<<), and their values. path names m in messages.
func mapping(m *yaml.Node, path jsontext.Pointer) ([]string, map[string]*yaml.Node, error) {
	var keys []string
	values := map[string]*yaml.Node{}
	var merged []*yaml.Node
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		switch {
		case k.Tag == "!!merge" && Deref(v).Kind == yaml.SequenceNode:
			merged = append(merged, Deref(v).Content...)
		case k.Tag == "!!merge":
			merged = append(merged, v)
		case values[k.Value] != nil:
			return nil, nil, fmt.Errorf("line %d: field %q is given twice in %s", k.Line, k.Value, fieldPath(path))
		default:
			keys, values[k.Value] = append(keys, k.Value), v
		}
	}
	for _, src := range merged {
		if src = Deref(src); src.Kind != yaml.MappingNode {
			continue
		}
		ks, vs, err := mapping(src, path)
		if err != nil {
			return nil, nil, err
		}
		for _, k := range ks {
			if values[k] == nil {
				keys, values[k] = append(keys, k), vs[k]
			}
		}
	}
	return keys, values, nil
}

// yamlLine finds the line of the value at p, or of the nearest node above
// it the document has.
func yamlLine(n *yaml.Node, p jsontext.Pointer) int {
	for tok := range p.Tokens() {
		var next *yaml.Node
		switch n = Deref(n); n.Kind {
		case yaml.MappingNode:
			for i := 0; i+1 < len(n.Content) && next == nil; i += 2 {
				if n.Content[i].Value == tok {
					next = n.Content[i+1]
				}
			}
		case yaml.SequenceNode:
			if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < len(n.Content) {
				next = n.Content[i]
			}
		}
		if next == nil {
			break
		}
		n = next
	}
	return n.Line
}

func findAlias(n *yaml.Node) *yaml.Node {
	if n.Kind == yaml.AliasNode {
		return n
	}
	for _, c := range n.Content {
		if a := findAlias(c); a != nil {
			return a
		}
	}
	return nil
}

// Deref follows the aliases from n to the node they stand for.
func Deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 100; i++ {
		n = n.Alias
	}
	return n
}

// IsNull reports whether n is a YAML null.
func IsNull(n *yaml.Node) bool {
	return n != nil && n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

// yamlParserProblems begin the messages of the YAML parser proper, which,
// unlike the scanner's, count lines from zero.
var yamlParserProblems = [...]string{"did not find expected", "found duplicate %", "found incompatible YAML", "found undefined tag"}

// YAMLError turns an error of go.yaml.in/yaml/v3 into "line N: problem", N
// counted from one. The parser leaves the line out for problems on the
// first line.
func YAMLError(err error) string {
	msg := strings.TrimPrefix(err.Error(), "yaml: ")
	if strings.Contains(msg, "\n") { // a list of decoding errors, each with its line
		return strings.TrimPrefix(msg, "unmarshal errors:\n  ")
	}
	rest, ok := strings.CutPrefix(msg, "line ")
	digits, problem, ok2 := strings.Cut(rest, ": ")
	n, err := strconv.Atoi(digits)
	if !ok || !ok2 || err != nil {
		return "line 1: " + msg
	}
	for _, p := range yamlParserProblems {
		if strings.HasPrefix(problem, p) {
			n++
			break
		}
	}
	return fmt.Sprintf("line %d: %s", n, problem)
}
