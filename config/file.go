package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/internal/input"
	"github.com/dbgov/dbgov/internal/safefile"
	"github.com/dbgov/dbgov/internal/secret"
)

// maxFileSize bounds what Load reads, so a huge file fails instead of
// filling memory.
const maxFileSize = 1 << 20

const (
	fieldCurrentProfile = "current_profile"
	fieldProfiles       = "profiles"
)

// File is the config file, as the `dbgov config` commands read and edit it.
// Edits keep the file's comments, key order and keys this version does not
// know.
type File struct {
	path   string
	doc    *yaml.Node  // the YAML document; nil while the file is absent or empty
	exists bool        // the file was there when loaded
	perm   fs.FileMode // its permission bits when loaded
}

// Load reads the config file at path. A missing file, or an empty path, is
// an empty config rather than an error. A file dbgov would not have made
// (see safefile) is refused with a *safefile.UnsafeError. A file that is
// not YAML, or whose top level is not shaped as current_profile and
// profiles, is refused with an error wrapping ErrInvalid that names the
// file and line.
func Load(path string) (*File, error) {
	f := &File{path: path}
	if path == "" {
		return f, nil
	}
	data, info, err := safefile.ReadFile(path, maxFileSize)
	if errors.Is(err, fs.ErrNotExist) {
		return f, nil
	}
	if unsafe := (*safefile.UnsafeError)(nil); errors.As(err, &unsafe) {
		return nil, &exitcode.InvalidError{Kind: ErrInvalid, Msg: "config file not used: " + unsafe.Error(), Cause: unsafe}
	} else if err != nil {
		return nil, fmt.Errorf("read config file: %w", err)
	}
	f.exists = true
	f.perm = info.Mode().Perm()

	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, invalidf("config file %s: %s", path, input.YAMLError(err))
	}
	if doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 && !input.IsNull(doc.Content[0]) {
		f.doc = &doc
	}
	if err := f.checkShape(); err != nil {
		return nil, err
	}
	return f, nil
}

// Path returns the file's path; "" when no path could be found.
func (f *File) Path() string { return f.path }

// Profiles returns the names of the profiles in the file, in file order.
func (f *File) Profiles() []string {
	p := f.profiles()
	var names []string
	for i := 0; i < len(p.Content); i += 2 {
		names = append(names, p.Content[i].Value)
	}
	return names
}

// strayKeys warns of keys at the top level other than current_profile and
// profiles: a setting written there (url: ...) is not read.
func (f *File) strayKeys() []string {
	root := f.root()
	if root == nil || root.Kind != yaml.MappingNode {
		return nil
	}
	var warnings []string
	for i := 0; i+1 < len(root.Content); i += 2 {
		k := root.Content[i]
		if k.Value == fieldCurrentProfile || k.Value == fieldProfiles || root.Content[i+1].Anchor != "" {
			continue // an anchored value is a base that profiles refer to
		}
		hint := ""
		if checkKey(k.Value) == nil {
			hint = fmt.Sprintf("; settings go in a profile, such as profiles.default.%s", k.Value)
		}
		warnings = append(warnings, fmt.Sprintf("config file %s, line %d: top-level key %q is ignored%s", f.Path(), k.Line, k.Value, hint))
	}
	return warnings
}

// checkShape refuses a file whose top level, profiles mapping or profiles are
// not mappings, or that repeats a key; the values themselves are checked when
// a profile is used, so a bad value can still be fixed with `config set`.
func (f *File) checkShape() error {
	root := f.root()
	if root == nil {
		return nil
	}
	if err := f.checkMapping(root, "want a mapping of current_profile and profiles at the top level", "key"); err != nil {
		return err
	}
	if _, cur := lookup(root, fieldCurrentProfile); cur != nil && !input.IsNull(cur) && cur.Kind != yaml.ScalarNode {
		return f.lineErr(cur, "current_profile is not a profile name")
	}
	_, profiles := lookup(root, fieldProfiles)
	if profiles == nil || input.IsNull(profiles) {
		return nil
	}
	if err := f.checkMapping(profiles, "profiles is not a mapping of profile names to settings", "profile"); err != nil {
		return err
	}
	for i := 0; i+1 < len(profiles.Content); i += 2 {
		if p := profiles.Content[i+1]; !input.IsNull(input.Deref(p)) {
			if err := f.checkMapping(p, fmt.Sprintf("profile %q is not a mapping of settings", profiles.Content[i].Value), "key"); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkMapping refuses m, an alias followed, when it is not a mapping,
// saying problem at m's line, or when it repeats a key, saying what.
func (f *File) checkMapping(m *yaml.Node, problem, what string) error {
	n := input.Deref(m)
	if n.Kind != yaml.MappingNode {
		return f.lineErr(m, problem)
	}
	seen := make(map[string]bool, len(n.Content)/2)
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i].Value
		if k == "<<" {
			continue
		}
		if seen[k] {
			return f.lineErr(n.Content[i], fmt.Sprintf("%s %q appears twice", what, k))
		}
		seen[k] = true
	}
	return nil
}

func (f *File) lineErr(n *yaml.Node, problem string) error {
	return invalidf("config file %s: line %d: %s", f.path, n.Line, problem)
}

// root returns the top-level mapping, nil for an empty file.
func (f *File) root() *yaml.Node {
	if f.doc == nil {
		return nil
	}
	return f.doc.Content[0]
}

// profiles returns the mapping of profiles, an empty one when there is none.
func (f *File) profiles() *yaml.Node {
	if _, p := lookup(f.root(), fieldProfiles); p != nil && p.Kind == yaml.MappingNode {
		return p
	}
	return mapNode()
}

// current returns current_profile, "" when unset.
func (f *File) current() string {
	if _, n := lookup(f.root(), fieldCurrentProfile); n != nil && !input.IsNull(n) {
		return n.Value
	}
	return ""
}

// hasProfile reports whether the file names the profile.
func (f *File) hasProfile(name string) bool {
	_, p := lookup(f.profiles(), name)
	return p != nil
}

// entries returns the settings of a profile by key, with YAML aliases and
// merge keys ("<<") applied; nil for a profile the file does not have.
func (f *File) entries(profile string) (map[string]*yaml.Node, error) {
	_, p := lookup(f.profiles(), profile)
	if p == nil || input.IsNull(input.Deref(p)) {
		return nil, nil
	}
	var m map[string]yaml.Node
	if err := p.Decode(&m); err != nil {
		return nil, invalidf("config file %s: profile %q: %s", f.path, profile, input.YAMLError(err))
	}
	out := make(map[string]*yaml.Node, len(m))
	for k, n := range m {
		if input.IsNull(&n) {
			continue
		}
		out[k] = &n
	}
	return out, nil
}

// Get returns the value of key in profile: "" when unset, and for headers
// one "Name: value" a line. Secrets come back in the clear; callers mask
// them (see Mask). An unknown key is an error listing the keys.
func (f *File) Get(profile, key string) (string, error) {
	if err := checkKey(key); err != nil {
		return "", err
	}
	entries, err := f.entries(profile)
	if err != nil || entries[key] == nil {
		return "", err
	}
	values, err := f.values(profile, key, entries[key])
	return strings.Join(values, "\n"), err
}

// values reads the value n of key in profile: a scalar, or for headers a
// list of "Name: value" or one.
func (f *File) values(profile, key string, n *yaml.Node) ([]string, error) {
	switch {
	case n.Kind == yaml.ScalarNode:
		return []string{n.Value}, nil
	case key != "headers":
		return nil, f.lineErr(n, fmt.Sprintf("%s in profile %q is not a single value", key, profile))
	}
	var list []string
	if n.Kind != yaml.SequenceNode || n.Decode(&list) != nil {
		return nil, f.lineErr(n, `headers is not a list of "Name: value"`)
	}
	return list, nil
}

// Set stores value under key in profile, creating the profile if needed,
// once checked as every source of the setting is; a ca_cert path is made
// absolute. A header is added to the list, replacing one of the same name.
// Errors match ErrInvalid and never repeat a secret value.
func (f *File) Set(profile, key, value string) error {
	if err := checkKey(key); err != nil {
		return err
	}
	if err := checkProfileName(profile); err != nil {
		return err
	}
	value = strings.TrimSpace(value)
	if value == "" {
		return invalidf("empty value for %s; to remove it, unset it", key)
	}
	// As a flag, the environment or the file is checked; the messages never repeat a secret.
	if err := settingOf(key).set(&Settings{}, []string{value}); err != nil {
		return invalidf("%s: %v", key, err)
	}
	node := strNode(value)
	switch key {
	case "insecure_skip_tls_verify":
		b, _ := parseBool(value)
		node = &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: strconv.FormatBool(b)}
	case "ca_cert":
		abs, err := filepath.Abs(value)
		if err != nil {
			return fmt.Errorf("find the absolute path of %s: %w", value, err)
		}
		node = strNode(abs)
	case "headers":
		h, _ := ParseHeader(value)
		_, list, err := f.headersWithout(profile, h.Name)
		if err != nil {
			return err
		}
		node = &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: append(list.Content, strNode(h.String()))}
	}
	setField(f.editableProfile(profile), key, node)
	return nil
}

// headersWithout returns the headers of profile, and a list of those not of
// the given names (in any case).
func (f *File) headersWithout(profile string, names ...string) ([]string, *yaml.Node, error) {
	kept := &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq"}
	entries, err := f.entries(profile)
	if err != nil || entries["headers"] == nil {
		return nil, kept, err
	}
	all, err := f.values(profile, "headers", entries["headers"])
	for _, h := range all {
		name, _, _ := strings.Cut(h, ":")
		if !slices.ContainsFunc(names, func(n string) bool { return strings.EqualFold(n, strings.TrimSpace(name)) }) {
			kept.Content = append(kept.Content, strNode(h))
		}
	}
	return all, kept, err
}

// setField sets key in mapping m to value, in place when the key is there
// (keeping its comment), else at the end.
func setField(m *yaml.Node, key string, value *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			value.LineComment = m.Content[i+1].LineComment
			m.Content[i+1] = value
			return
		}
	}
	m.Content = append(m.Content, strNode(key), value)
}

// Unset removes key from profile. Removing a key that is not set does
// nothing; an unknown key is an error.
func (f *File) Unset(profile, key string) error {
	if err := checkKey(key); err != nil {
		return err
	}
	_, p := lookup(f.profiles(), profile)
	if k, _ := lookup(p, key); k != nil {
		removeKey(f.editableProfile(profile), key)
	}
	return nil
}

// removeKey removes key from mapping m and returns its value, nil when absent.
func removeKey(m *yaml.Node, key string) *yaml.Node {
	for i := 0; m != nil && i+1 < len(m.Content); i += 2 {
		if v := m.Content[i+1]; m.Content[i].Value == key {
			m.Content = slices.Delete(m.Content, i, i+2)
			return v
		}
	}
	return nil
}

// UnsetHeaders removes the headers of the given names, in any case, from
// profile; the others stay.
func (f *File) UnsetHeaders(profile string, names []string) error {
	all, kept, err := f.headersWithout(profile, names...)
	switch {
	case err != nil || len(kept.Content) == len(all):
		return err
	case len(kept.Content) == 0:
		return f.Unset(profile, "headers")
	}
	setField(f.editableProfile(profile), "headers", kept)
	return nil
}

// UseProfile makes name the file's current_profile, and with create adds an
// empty profile of that name when the file has none. The name must be
// non-empty, without whitespace, control characters or '/'; the profile
// need not exist.
func (f *File) UseProfile(name string, create bool) error {
	if err := checkProfileName(name); err != nil {
		return err
	}
	if create && !f.hasProfile(name) {
		f.editableProfile(name)
	}
	root := f.editableRoot()
	if k, _ := lookup(root, fieldCurrentProfile); k != nil {
		setField(root, fieldCurrentProfile, strNode(name))
		return nil
	}
	// current_profile goes first, where a reader looks for it.
	root.Content = append([]*yaml.Node{strNode(fieldCurrentProfile), strNode(name)}, root.Content...)
	return nil
}

// DeleteProfile removes a profile, and current_profile when it names it.
// Aliases of the profile elsewhere in the file become copies of it.
func (f *File) DeleteProfile(name string) error {
	if !f.hasProfile(name) {
		return fmt.Errorf("profile %s is not in config file %s", name, f.path)
	}
	if f.current() == name {
		removeKey(f.root(), fieldCurrentProfile)
	}
	gone := removeKey(f.profiles(), name)
	walk(f.doc, func(n *yaml.Node) {
		if n.Kind == yaml.AliasNode && n.Alias == gone {
			*n = *deepCopy(gone, map[*yaml.Node]*yaml.Node{})
			walk(n, func(c *yaml.Node) { c.Anchor = "" })
		}
	})
	return nil
}

// editableRoot returns the top-level mapping, creating it in an empty file.
func (f *File) editableRoot() *yaml.Node {
	if f.doc == nil {
		f.doc = &yaml.Node{Kind: yaml.DocumentNode, Content: []*yaml.Node{mapNode()}}
	}
	return f.doc.Content[0]
}

// editableProfile returns the mapping of a profile, creating the profiles
// mapping and the profile as needed. A profile that is an alias of another
// node is first replaced by a copy, so editing it leaves the other alone.
func (f *File) editableProfile(name string) *yaml.Node {
	root := f.editableRoot()
	_, profiles := lookup(root, fieldProfiles)
	if profiles == nil {
		profiles = mapNode()
		root.Content = append(root.Content, strNode(fieldProfiles), profiles)
	} else if input.IsNull(profiles) {
		*profiles = *mapNode()
	}
	for i := 0; i+1 < len(profiles.Content); i += 2 {
		if profiles.Content[i].Value != name {
			continue
		}
		p := profiles.Content[i+1]
		switch {
		case p.Kind == yaml.AliasNode:
			p = deepCopy(input.Deref(p), map[*yaml.Node]*yaml.Node{})
			// The anchors stay with the original, which later aliases name.
			walk(p, func(n *yaml.Node) { n.Anchor = "" })
		case input.IsNull(p):
			p = mapNode()
		}
		profiles.Content[i+1] = p
		return p
	}
	p := mapNode()
	profiles.Content = append(profiles.Content, strNode(name), p)
	return p
}

// View returns the file as YAML without its comments (which may hold old
// credentials), and as JSON with aliases and merge keys applied; secrets,
// and a password in the url, are masked unless showSecrets.
func (f *File) View(showSecrets bool) (text, js []byte, err error) {
	if f.doc == nil {
		return []byte("{}\n"), []byte("{}"), nil
	}
	doc := deepCopy(f.doc, map[*yaml.Node]*yaml.Node{})
	walk(doc, func(n *yaml.Node) {
		n.HeadComment, n.LineComment, n.FootComment = "", "", ""
		for i := 0; !showSecrets && n.Kind == yaml.MappingNode && i+1 < len(n.Content); i += 2 {
			key, v := n.Content[i].Value, n.Content[i+1]
			values := []*yaml.Node{v}
			if v.Kind == yaml.SequenceNode { // headers: a mapping's own keys are no values
				values = v.Content
			}
			for _, c := range values {
				if masked := Mask(key, c.Value); c.Kind == yaml.ScalarNode && !input.IsNull(c) && masked != c.Value {
					c.Value, c.Tag, c.Style = masked, "!!str", 0
				}
			}
		}
	})
	if text, err = encode(doc); err != nil {
		return nil, nil, err
	}
	if js, err = input.YAMLToJSON(doc.Content[0]); err != nil {
		return nil, nil, invalidf("config file %s: %v", f.path, err)
	}
	return text, js, nil
}

// Mask returns value, a value of key, with what is secret in it hidden: a
// credential whole, the value of a header, the password of a URL.
func Mask(key, value string) string {
	switch {
	case value == "":
		return value
	case secret.IsField(key):
		return secret.Mask
	case key == "url":
		return secret.URL(value)
	case key != "headers":
		return value
	}
	if name, _, ok := strings.Cut(value, ":"); ok {
		return strings.TrimSpace(name) + ": " + secret.Mask
	}
	return secret.Mask
}

// save writes the file at its path, which Edit has checked and locked, 0600
// whatever the umask, in one step, creating a missing directory 0700.
func (f *File) save() error {
	data, err := encode(f.doc)
	if err != nil {
		return err
	}
	if err := safefile.WriteFile(f.path, data); err != nil {
		return fmt.Errorf("write config file: %w", err)
	}
	return nil
}

// encode returns doc as it is written; "{}" for an empty file.
func encode(doc *yaml.Node) ([]byte, error) {
	if doc == nil {
		return []byte("{}\n"), nil
	}
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("encode config: %w", err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("encode config: %w", err)
	}
	return buf.Bytes(), nil
}

// lookup finds key in mapping m (following an alias to m), returning its key
// and value nodes, the value with aliases followed; nils when absent.
func lookup(m *yaml.Node, key string) (k, v *yaml.Node) {
	m = input.Deref(m)
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i], input.Deref(m.Content[i+1])
		}
	}
	return nil, nil
}

func strNode(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
}

func mapNode() *yaml.Node {
	return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
}

// deepCopy copies a node tree; copies maps the nodes copied so far to their
// copies, so that an alias points to the copy of its anchor.
func deepCopy(n *yaml.Node, copies map[*yaml.Node]*yaml.Node) *yaml.Node {
	c := *n
	copies[n] = &c
	if c.Alias != nil && copies[c.Alias] != nil {
		c.Alias = copies[c.Alias]
	}
	c.Content = make([]*yaml.Node, len(n.Content))
	for i, child := range n.Content {
		c.Content[i] = deepCopy(child, copies)
	}
	return &c
}

// walk calls fn on n and every node below it, not following aliases.
func walk(n *yaml.Node, fn func(*yaml.Node)) {
	fn(n)
	for _, child := range n.Content {
		walk(child, fn)
	}
}
