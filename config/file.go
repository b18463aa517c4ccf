package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/dbgov/dbgov/internal/secret"
)

// maxFileSize bounds what Load reads, so a --config pointing at a device or a
// huge file fails instead of filling memory.
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
// an empty config rather than an error. A file that is not YAML, or whose
// top level is not shaped as current_profile and profiles, is refused with
// an error wrapping ErrInvalid that names the file and line.
func Load(path string) (*File, error) {
	f := &File{path: path}
	if path == "" {
		return f, nil
	}
	fh, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return f, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read config file: %w", err)
	}
	defer fh.Close()
	info, err := fh.Stat()
	if err != nil {
		return nil, fmt.Errorf("read config file: %w", err)
	}
	if info.IsDir() {
		return nil, invalidf("config file %s is a directory", path)
	}
	data, err := io.ReadAll(io.LimitReader(fh, maxFileSize+1))
	if err != nil {
		return nil, fmt.Errorf("read config file: %w", err)
	}
	if len(data) > maxFileSize {
		return nil, invalidf("config file %s is larger than %d bytes", path, maxFileSize)
	}
	f.exists = true
	f.perm = info.Mode().Perm()

	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, &invalidError{msg: fmt.Sprintf("config file %s: %s", path, yamlProblem(err)), cause: err}
	}
	if doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 && !isNull(doc.Content[0]) {
		f.doc = &doc
	}
	if err := f.checkShape(); err != nil {
		return nil, err
	}
	return f, nil
}

// yamlParserProblems begin the messages of the YAML parser proper, which,
// unlike the scanner's, count lines from zero.
var yamlParserProblems = [...]string{"did not find expected", "found duplicate %", "found incompatible YAML", "found undefined tag"}

// yamlProblem turns a YAML syntax error into "line N: problem", N counted
// from one. The parser leaves the line out for problems on the first line.
func yamlProblem(err error) string {
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

// Path returns the file's path; "" when no path could be found.
func (f *File) Path() string { return f.path }

// Profiles returns the names of the profiles in the file, in file order.
func (f *File) Profiles() []string {
	profiles := f.profiles()
	if profiles == nil {
		return nil
	}
	names := make([]string, 0, len(profiles.Content)/2)
	for i := 0; i+1 < len(profiles.Content); i += 2 {
		names = append(names, profiles.Content[i].Value)
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
		if isKey(k.Value) {
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
	if root.Kind != yaml.MappingNode {
		return f.lineErr(root, "want a mapping of current_profile and profiles at the top level")
	}
	if err := f.checkUnique(root, "key"); err != nil {
		return err
	}
	if _, cur := lookup(root, fieldCurrentProfile); cur != nil && !isNull(cur) && cur.Kind != yaml.ScalarNode {
		return f.lineErr(cur, "current_profile is not a profile name")
	}
	_, profiles := lookup(root, fieldProfiles)
	if profiles == nil || isNull(profiles) {
		return nil
	}
	if profiles.Kind != yaml.MappingNode {
		return f.lineErr(profiles, "profiles is not a mapping of profile names to settings")
	}
	if err := f.checkUnique(profiles, "profile"); err != nil {
		return err
	}
	for i := 0; i+1 < len(profiles.Content); i += 2 {
		p := deref(profiles.Content[i+1])
		if isNull(p) {
			continue
		}
		if p.Kind != yaml.MappingNode {
			return f.lineErr(profiles.Content[i+1], fmt.Sprintf("profile %q is not a mapping of settings", profiles.Content[i].Value))
		}
		if err := f.checkUnique(p, "key"); err != nil {
			return err
		}
	}
	return nil
}

func (f *File) checkUnique(m *yaml.Node, what string) error {
	seen := make(map[string]bool, len(m.Content)/2)
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i].Value
		if k == "<<" {
			continue
		}
		if seen[k] {
			return f.lineErr(m.Content[i], fmt.Sprintf("%s %q appears twice", what, k))
		}
		seen[k] = true
	}
	return nil
}

func (f *File) lineErr(n *yaml.Node, problem string) error {
	return invalidf("config file %s: line %d: %s", f.path, n.Line, problem)
}

// root returns the top-level node, nil for an empty file.
func (f *File) root() *yaml.Node {
	if f.doc == nil {
		return nil
	}
	return f.doc.Content[0]
}

// profiles returns the mapping of profiles, nil when there is none.
func (f *File) profiles() *yaml.Node {
	root := f.root()
	if root == nil || root.Kind != yaml.MappingNode {
		return nil
	}
	_, p := lookup(root, fieldProfiles)
	if p == nil || p.Kind != yaml.MappingNode {
		return nil
	}
	return p
}

// current returns current_profile, "" when unset.
func (f *File) current() string {
	root := f.root()
	if root == nil || root.Kind != yaml.MappingNode {
		return ""
	}
	if _, n := lookup(root, fieldCurrentProfile); n != nil && n.Kind == yaml.ScalarNode && !isNull(n) {
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
	if p == nil || isNull(deref(p)) {
		return nil, nil
	}
	var m map[string]yaml.Node
	if err := p.Decode(&m); err != nil {
		return nil, &invalidError{msg: fmt.Sprintf("config file %s: profile %q: %s", f.path, profile, yamlProblem(err)), cause: err}
	}
	out := make(map[string]*yaml.Node, len(m))
	for k, n := range m {
		if isNull(&n) {
			continue
		}
		out[k] = &n
	}
	return out, nil
}

// Get returns the value of key in profile: "" when unset, and for headers
// one "Name: value" a line. Secrets come back in the clear; callers mask
// them (see IsSecret). An unknown key is an error listing the keys.
func (f *File) Get(profile, key string) (string, error) {
	if err := checkKey(key); err != nil {
		return "", err
	}
	entries, err := f.entries(profile)
	if err != nil {
		return "", err
	}
	n := entries[key]
	if n == nil {
		return "", nil
	}
	if key == keyHeaders {
		list, err := f.headerList(n)
		if err != nil {
			return "", err
		}
		return strings.Join(list, "\n"), nil
	}
	if n.Kind != yaml.ScalarNode {
		return "", f.lineErr(n, fmt.Sprintf("%s is not a single value", key))
	}
	return n.Value, nil
}

// headerList reads the headers setting: a list of "Name: value", or one.
func (f *File) headerList(n *yaml.Node) ([]string, error) {
	if n.Kind == yaml.ScalarNode {
		return []string{n.Value}, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, f.lineErr(n, `headers is not a list of "Name: value"`)
	}
	list := make([]string, 0, len(n.Content))
	for _, item := range n.Content {
		item = deref(item)
		if item.Kind != yaml.ScalarNode {
			return nil, f.lineErr(item, `headers is not a list of "Name: value"`)
		}
		list = append(list, item.Value)
	}
	return list, nil
}

// Set stores value under key in profile, creating the profile if needed. The
// value is checked first: url an http(s) URL with a host, timeout a positive
// Go duration, output one of table, json, yaml, name, wide, insecure_skip_tls_verify
// a bool, headers one "Name: value" (which replaces the list), ca_cert a path
// (made absolute). Errors wrap ErrInvalid and never repeat a secret value.
func (f *File) Set(profile, key, value string) error {
	if err := checkKey(key); err != nil {
		return err
	}
	if err := checkProfileName(profile); err != nil {
		return err
	}
	node, err := valueNode(key, strings.TrimSpace(value))
	if err != nil {
		return err
	}
	setField(f.editableProfile(profile), key, node)
	return nil
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

// valueNode checks a value given for key and returns it as a YAML node.
func valueNode(key, value string) (*yaml.Node, error) {
	if value == "" {
		return nil, invalidf("empty value for %s; to remove it, unset it", key)
	}
	bad := func(err error) error { return invalidf("%s: %v", key, err) }
	switch key {
	case keyURL:
		if err := checkURL(value); err != nil {
			return nil, bad(err)
		}
	case keyToken, keyServiceKey:
		if err := checkCredential(value); err != nil {
			return nil, bad(err)
		}
	case keyServiceAccount:
		if hasControl(value) {
			return nil, invalidf("%s contains a control character", key)
		}
	case keyHeaders:
		h, err := parseHeader(value)
		if err != nil {
			return nil, bad(err)
		}
		return &yaml.Node{Kind: yaml.SequenceNode, Tag: "!!seq", Content: []*yaml.Node{strNode(h.String())}}, nil
	case keyOutput:
		if err := checkOutput(value); err != nil {
			return nil, bad(err)
		}
	case keyTimeout:
		if _, err := parseTimeout(value); err != nil {
			return nil, bad(err)
		}
	case keyInsecureSkipTLSVerify:
		b, err := parseBool(value)
		if err != nil {
			return nil, bad(err)
		}
		return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!bool", Value: fmt.Sprint(b)}, nil
	case keyCACert:
		if hasControl(value) {
			return nil, invalidf("%s contains a control character", key)
		}
		abs, err := filepath.Abs(value)
		if err != nil {
			return nil, fmt.Errorf("find the absolute path of %s: %w", value, err)
		}
		value = abs
	}
	return strNode(value), nil
}

// Unset removes key from profile. Removing a key that is not set does
// nothing; an unknown key is an error.
func (f *File) Unset(profile, key string) error {
	if err := checkKey(key); err != nil {
		return err
	}
	_, p := lookup(f.profiles(), profile)
	if p == nil {
		return nil
	}
	if k, _ := lookup(deref(p), key); k == nil {
		return nil
	}
	p = f.editableProfile(profile)
	for i := 0; i+1 < len(p.Content); i += 2 {
		if p.Content[i].Value == key {
			p.Content = append(p.Content[:i], p.Content[i+2:]...)
			return nil
		}
	}
	return nil
}

// UseProfile makes name the file's current_profile. The name must be
// non-empty, without whitespace, control characters or '/'; the profile
// need not exist yet.
func (f *File) UseProfile(name string) error {
	if err := checkProfileName(name); err != nil {
		return err
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
	} else if isNull(profiles) {
		*profiles = *mapNode()
	}
	for i := 0; i+1 < len(profiles.Content); i += 2 {
		if profiles.Content[i].Value != name {
			continue
		}
		p := profiles.Content[i+1]
		switch {
		case p.Kind == yaml.AliasNode:
			p = deepCopy(deref(p))
			// The anchors stay with the original, which later aliases name.
			walk(p, func(n *yaml.Node) { n.Anchor = "" })
			profiles.Content[i+1] = p
		case isNull(p):
			p = mapNode()
			profiles.Content[i+1] = p
		}
		return p
	}
	p := mapNode()
	profiles.Content = append(profiles.Content, strNode(name), p)
	return p
}

// View returns the whole file as YAML, without its comments (which may hold
// old credentials). Unless showSecrets, tokens, service keys and header
// values are shown as "********".
func (f *File) View(showSecrets bool) ([]byte, error) {
	if f.doc == nil {
		return []byte("{}\n"), nil
	}
	doc := deepCopy(f.doc)
	walk(doc, func(n *yaml.Node) {
		n.HeadComment, n.LineComment, n.FootComment = "", "", ""
		if !showSecrets && n.Kind == yaml.MappingNode {
			maskSecrets(n)
		}
	})
	return encode(doc)
}

// maskSecrets masks the secret values held directly by mapping m.
func maskSecrets(m *yaml.Node) {
	for i := 0; i+1 < len(m.Content); i += 2 {
		v := m.Content[i+1]
		switch m.Content[i].Value {
		case keyToken, keyServiceKey:
			if v.Kind == yaml.ScalarNode && !isNull(v) && v.Value != "" {
				setScalar(v, secretMask)
			}
		case keyURL:
			if v.Kind == yaml.ScalarNode {
				if masked := secret.URL(v.Value); masked != v.Value {
					setScalar(v, masked)
				}
			}
		case keyHeaders:
			switch v.Kind {
			case yaml.ScalarNode:
				maskHeader(v)
			case yaml.SequenceNode:
				for _, item := range v.Content {
					if item.Kind == yaml.ScalarNode {
						maskHeader(item)
					}
				}
			}
		}
	}
}

func maskHeader(n *yaml.Node) {
	if isNull(n) {
		return
	}
	if name, _, ok := strings.Cut(n.Value, ":"); ok {
		setScalar(n, strings.TrimSpace(name)+": "+secretMask)
		return
	}
	setScalar(n, secretMask)
}

func setScalar(n *yaml.Node, value string) {
	n.Value, n.Tag, n.Style = value, "!!str", 0
}

// Save writes the file: its directory is created 0700 if missing (an
// existing directory keeps its mode), and the file is written 0600 whatever
// the umask, through a temporary file in the same directory renamed over it,
// so a reader never sees half a file. A symbolic link at the path is
// followed, and its target rewritten.
func (f *File) Save() error {
	if f.path == "" {
		return invalidf("no config file path: set --config or DBGOV_CONFIG (HOME is not set)")
	}
	data := []byte("{}\n")
	if f.doc != nil {
		var err error
		if data, err = encode(f.doc); err != nil {
			return err
		}
	}
	target := f.path
	if resolved, err := filepath.EvalSymlinks(f.path); err == nil {
		target = resolved
	}
	dir := filepath.Dir(target)
	if err := makeDirs(dir); err != nil {
		return fmt.Errorf("create config directory: %w", err)
	}
	if err := writeFileAtomic(target, data); err != nil {
		return fmt.Errorf("write config file: %w", err)
	}
	f.exists, f.perm = true, 0o600
	return nil
}

// makeDirs creates dir and its missing parents, each 0700 whatever the umask;
// directories that exist are left alone.
func makeDirs(dir string) error {
	var missing []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Stat(d); err == nil {
			break
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		missing = append(missing, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	for i := len(missing) - 1; i >= 0; i-- {
		d := missing[i]
		if err := os.Mkdir(d, 0o700); err != nil {
			if errors.Is(err, fs.ErrExist) {
				continue // made meanwhile by someone else: theirs to set
			}
			return err
		}
		if err := os.Chmod(d, 0o700); err != nil {
			return err
		}
	}
	return nil
}

// writeFileAtomic writes data to a new file beside path, readable by its
// owner alone from its creation, and renames it over path.
func writeFileAtomic(path string, data []byte) (err error) {
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	// CreateTemp asks for 0600, from which the umask may take bits away.
	if runtime.GOOS != "windows" {
		if err := tmp.Chmod(0o600); err != nil {
			return err
		}
	}
	if _, err := tmp.Write(data); err != nil {
		return err
	}
	if err := tmp.Sync(); err != nil {
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	syncDir(filepath.Dir(path))
	return nil
}

// syncDir makes a rename in dir durable where the system allows it; failing
// to is not an error, the file itself is complete.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	_ = d.Sync()
	d.Close()
}

func encode(doc *yaml.Node) ([]byte, error) {
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
	m = deref(m)
	if m == nil || m.Kind != yaml.MappingNode {
		return nil, nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i], deref(m.Content[i+1])
		}
	}
	return nil, nil
}

func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && i < 100; i++ {
		n = n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool {
	return n != nil && n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

func strNode(s string) *yaml.Node {
	return &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: s}
}

func mapNode() *yaml.Node {
	return &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
}

// deepCopy copies a node tree. Alias nodes keep pointing at their anchors in
// the original, which is all encoding needs.
func deepCopy(n *yaml.Node) *yaml.Node {
	if n == nil {
		return nil
	}
	c := *n
	if n.Content != nil {
		c.Content = make([]*yaml.Node, len(n.Content))
		for i, child := range n.Content {
			c.Content[i] = deepCopy(child)
		}
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
