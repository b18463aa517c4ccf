package e2e_test

import (
	"context"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// README.md's examples are run as a reader would paste them. A fenced block
// is an example when its info string starts with console or sh:
//
//   - console: each line starting with "$ " is a command (a line ending in
//     "\" goes on to the next). The lines after it, up to the next command
//     or blank line, are what it prints: shown, not checked, except that
//     `cat FILE` must print FILE as shown. A command ends with the comment
//     "# exit N" when it is meant to exit N; every other one must exit 0.
//   - sh: the block is a script, run whole by bash -e -o pipefail; it must
//     exit 0.
//   - the word norun after the language leaves the block out: it needs a
//     real service, or runs until stopped. The test logs each one left out.
//
// Each block runs in a directory of its own holding a copy of docs/examples,
// which is also HOME, with dbgov on PATH and DBGOV_URL and DBGOV_TOKEN naming
// a reference server of its own, as after pasting the line `dbgov
// dev-server` prints. Each command's stdin is that token, as a reader would
// paste it at a prompt. A block using --databases-from gets the server's
// generated fleet, as the README says (--generate-databases 12); one using
// auth login gets a keyring (a Secret Service on a D-Bus of its own).

// readmeBlock is one fenced example of README.md.
type readmeBlock struct {
	line   int    // line of the opening fence
	lang   string // console or sh
	norun  bool
	text   string // the block's lines
	script bool
	cmds   []readmeCommand // console: its commands
}

// readmeCommand is one "$ " command of a console block.
type readmeCommand struct {
	line   int
	text   string // without "$ ", continuation lines joined as written
	exit   int    // the exit code its "# exit N" comment gives, else 0
	output string // the lines shown after it, each ending in a newline
}

var (
	fenceLine   = regexp.MustCompile("^```\\s*(\\S*)\\s*(.*)$")
	exitComment = regexp.MustCompile(`\s#\s*exit (\d+)\b[^'"]*$`)
	catCommand  = regexp.MustCompile(`^cat (\S+)$`)
	usesJq      = regexp.MustCompile(`(^|[\s|;&(!])jq\s`)
)

// readme returns the module's root, its README.md and the examples in it.
func readme(t *testing.T) (root, text string, blocks []readmeBlock) {
	t.Helper()
	root, err := filepath.Abs("..") // the module root, above e2e
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	return root, string(b), readmeBlocks(t, string(b))
}

// readmeBlocks parses the fenced examples of a README.
func readmeBlocks(t *testing.T, readme string) []readmeBlock {
	t.Helper()
	var blocks []readmeBlock
	var cur *readmeBlock
	var body []string
	lines := strings.Split(readme, "\n")
	for i, l := range lines {
		m := fenceLine.FindStringSubmatch(strings.TrimSpace(l))
		switch {
		case m == nil && cur != nil:
			body = append(body, l)
		case m == nil:
		case cur == nil:
			cur = &readmeBlock{line: i + 1, lang: m[1]}
			body = nil
			for _, w := range strings.Fields(m[2]) {
				if w != "norun" {
					t.Fatalf("README.md:%d: unknown word %q after the fence's language; only norun is known", i+1, w)
				}
				cur.norun = true
			}
		default:
			if cur.lang == "console" || cur.lang == "sh" {
				cur.text = strings.Join(body, "\n") + "\n"
				cur.script = cur.lang == "sh"
				if !cur.script {
					cur.cmds = consoleCommands(cur.line+1, body)
				}
				blocks = append(blocks, *cur)
			}
			cur = nil
		}
	}
	if cur != nil {
		t.Fatalf("README.md:%d: the fenced block is not closed", cur.line)
	}
	return blocks
}

// consoleCommands parses the lines of a console block starting at line first.
func consoleCommands(first int, body []string) []readmeCommand {
	var cmds []readmeCommand
	inOutput := false
	for i := 0; i < len(body); i++ {
		l := body[i]
		switch {
		case strings.HasPrefix(l, "$ "):
			c := readmeCommand{line: first + i, text: strings.TrimPrefix(l, "$ ")}
			for strings.HasSuffix(c.text, "\\") && i+1 < len(body) {
				i++
				c.text += "\n" + body[i]
			}
			if m := exitComment.FindStringSubmatch(c.text); m != nil {
				c.exit, _ = strconv.Atoi(m[1])
			}
			cmds = append(cmds, c)
			inOutput = true
		case strings.TrimSpace(l) == "":
			inOutput = false
		case inOutput:
			cmds[len(cmds)-1].output += l + "\n"
		}
	}
	return cmds
}

// TestREADME_examplesRunAsWritten runs every example of README.md against
// the reference server and checks each exit code.
func TestREADME_examplesRunAsWritten(t *testing.T) {
	t.Parallel()
	bash := lookBash(t)
	root, _, blocks := readme(t)
	if len(blocks) < 10 {
		t.Fatalf("found %d examples in README.md; the parser lost them", len(blocks))
	}
	for _, b := range blocks {
		name := "README.md:" + strconv.Itoa(b.line)
		if b.norun {
			t.Logf("%s: marked norun, not run: %s", name, firstLine(b.text))
			continue
		}
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			runReadmeBlock(t, bash, root, b)
		})
	}
}

// runReadmeBlock runs one block in a directory and against a server of its own.
func runReadmeBlock(t *testing.T, bash, root string, b readmeBlock) {
	if usesJq.MatchString(b.text) {
		if _, err := exec.LookPath("jq"); err != nil {
			t.Skipf("the example pipes to jq, which is not installed: %v", err)
		}
	}
	var flags []string
	if strings.Contains(b.text, "--databases-from") {
		flags = demoFleet
	}
	srv := startServer(t, flags...)
	dir := t.TempDir()
	if err := os.CopyFS(filepath.Join(dir, "docs", "examples"), os.DirFS(filepath.Join(root, "docs", "examples"))); err != nil {
		t.Fatalf("copy docs/examples: %v", err)
	}
	bus := "unix:path=" + filepath.Join(dir, "no-bus-here")
	if strings.Contains(b.text, "auth login") {
		bus = startSecretService(t).address
	}
	env := []string{
		"HOME=" + dir,
		pathWithDbgov(),
		"DBGOV_URL=" + srv.url,
		"DBGOV_TOKEN=" + srv.token,
		"DBUS_SESSION_BUS_ADDRESS=" + bus,
	}
	run := func(line int, args []string, want int) {
		t.Helper()
		r := runBash(t, bash, dir, env, srv.token+"\n", args...)
		if r.code != want || strings.Contains(r.stderr, "panic:") {
			t.Errorf("README.md:%d: exit code %d, want %d\n$ %s\n--- stdout\n%s--- stderr\n%s",
				line, r.code, want, args[len(args)-1], r.stdout, r.stderr)
		}
	}
	if b.script {
		run(b.line, []string{"-e", "-o", "pipefail", "-c", b.text}, 0)
		return
	}
	for _, c := range b.cmds {
		run(c.line, []string{"-o", "pipefail", "-c", c.text}, c.exit)
		if m := catCommand.FindStringSubmatch(c.text); m != nil && c.output != "" {
			file, err := os.ReadFile(filepath.Join(dir, m[1]))
			if err != nil {
				t.Fatal(err)
			}
			if string(file) != c.output {
				t.Errorf("README.md:%d: the README shows %s otherwise than it is\n--- README\n%s--- %s\n%s", c.line, m[1], c.output, m[1], file)
			}
		}
	}
}

// runBash runs bash with args in dir with the environment env and stdin.
func runBash(t *testing.T, bash, dir string, env []string, stdin string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, bash, args...)
	cmd.Dir, cmd.Env = dir, env
	return runProcess(t, ctx, cmd, stdin)
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return l
}

// TestREADME_everyCommandHasAnExample finds each command of dbgov's help in
// an example of README.md, as "dbgov <command>".
func TestREADME_everyCommandHasAnExample(t *testing.T) {
	t.Parallel()
	_, _, blocks := readme(t)
	var examples strings.Builder
	for _, b := range blocks {
		examples.WriteString(b.text)
	}
	helps := commandHelps(t, newCLI(t, nil), nil)
	if len(helps) < 15 {
		t.Fatalf("found %d commands in dbgov's help; the help's parser lost them", len(helps))
	}
	for cmd := range helps {
		if !strings.Contains(examples.String(), "dbgov "+cmd+" ") && !strings.Contains(examples.String(), "dbgov "+cmd+"\n") {
			t.Errorf("no example of README.md runs dbgov %s", cmd)
		}
	}
}

// TestREADME_namesOnlyFlagsDbgovHas finds each --flag README.md names in
// dbgov's help, a command's or that of dbgov options.
func TestREADME_namesOnlyFlagsDbgovHas(t *testing.T) {
	t.Parallel()
	_, text, _ := readme(t)
	c := newCLI(t, nil)
	var known strings.Builder
	known.WriteString(c.run(t, "options").expect(t, 0).stdout)
	known.WriteString(c.run(t, "--help").expect(t, 0).stdout)
	for _, help := range commandHelps(t, c, nil) {
		known.WriteString(help)
	}
	flag := regexp.MustCompile(`--[a-z][a-z0-9-]*`)
	for _, f := range slices.Compact(slices.Sorted(slices.Values(flag.FindAllString(text, -1)))) {
		if !regexp.MustCompile(regexp.QuoteMeta(f) + `\b`).MatchString(known.String()) {
			t.Errorf("README.md names %s, which no command's help nor dbgov options lists", f)
		}
	}
}

// TestREADME_examplesTheRealServiceRefusesSaySo checks the examples that
// the reference server runs but the real service refuses in every release:
// one listing a database's policies (400 unknown request name) has that
// refusal named in the README's lines just before it, and none uses catalog
// update --allow-missing (no release grants it).
func TestREADME_examplesTheRealServiceRefusesSaySo(t *testing.T) {
	t.Parallel()
	_, text, blocks := readme(t)
	lines := strings.Split(text, "\n")
	databasePolicies := regexp.MustCompile(`policies list .*--database|/databases/[^/\s]+/policies`)
	for _, b := range blocks {
		for i, l := range strings.Split(b.text, "\n") {
			n := b.line + i // the index of l in lines
			switch {
			case !strings.Contains(l, "dbgov "):
			case strings.Contains(l, "--allow-missing"):
				t.Errorf("README.md:%d: an example uses --allow-missing, which every release refuses: %s", n+1, l)
			case databasePolicies.MatchString(l) && !strings.Contains(strings.Join(lines[max(0, n-6):n], "\n"), "unknown request name"):
				t.Errorf("README.md:%d: an example lists a database's policies without saying, just before, that the real service answers 400 unknown request name: %s", n+1, l)
			}
		}
	}
}

// commandHelps returns the help of each command under path that has no
// subcommands, by its path, found in the "Commands:" section of each help.
func commandHelps(t *testing.T, c *cli, path []string) map[string]string {
	t.Helper()
	help := c.run(t, append(slices.Clone(path), "--help")...).expect(t, 0).stdout
	_, list, found := strings.Cut(help, "\nCommands:\n")
	if !found {
		return map[string]string{strings.Join(path, " "): help}
	}
	out := map[string]string{}
	for _, l := range strings.Split(list, "\n") {
		f := strings.Fields(l)
		if len(f) == 0 || !strings.HasPrefix(l, "  ") {
			break
		}
		if f[0] != "help" {
			maps.Copy(out, commandHelps(t, c, append(slices.Clone(path), f[0])))
		}
	}
	return out
}

// TestDemo_pipedShowsPastableCommandsWithoutEscapes runs make demo's script
// into a pipe: it prints no escape codes, and each command it shows, pasted
// into a shell against a server of its own, exits as the demo said it did.
func TestDemo_pipedShowsPastableCommandsWithoutEscapes(t *testing.T) {
	t.Parallel()
	bash := lookBash(t)
	root, err := filepath.Abs("..") // the module root, above e2e
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	path := pathWithDbgov()
	demo := runBash(t, bash, root, []string{"HOME=" + home, path}, "", filepath.Join("scripts", "demo.sh"), dbgovPath)
	if demo.code != 0 {
		t.Fatalf("scripts/demo.sh: exit code %d\n--- stdout\n%s--- stderr\n%s", demo.code, demo.stdout, demo.stderr)
	}
	if i := strings.IndexByte(demo.stdout+demo.stderr, 0x1b); i >= 0 {
		t.Errorf("scripts/demo.sh printed an escape code into a pipe, at byte %d:\n%s%s", i, demo.stdout, demo.stderr)
	}
	type shown struct {
		line string
		exit int
	}
	var cmds []shown
	for _, l := range strings.Split(demo.stdout, "\n") {
		if after, ok := strings.CutPrefix(l, "$ "); ok {
			cmds = append(cmds, shown{line: after})
		}
		if m := demoExit.FindStringSubmatch(l); m != nil && len(cmds) > 0 {
			cmds[len(cmds)-1].exit, _ = strconv.Atoi(m[1])
		}
	}
	if len(cmds) < 10 {
		t.Fatalf("scripts/demo.sh showed %d commands, want 10 or more:\n%s", len(cmds), demo.stdout)
	}
	srv := startServer(t, demoFleet...)
	env := []string{"HOME=" + home, path, "DBGOV_URL=" + srv.url, "DBGOV_TOKEN=" + srv.token}
	for _, c := range cmds {
		if !strings.Contains(c.line, "dbgov ") {
			t.Errorf("scripts/demo.sh showed %q, which runs no dbgov", c.line)
			continue
		}
		if r := runBash(t, bash, root, env, "", "-c", c.line); r.code != c.exit {
			t.Errorf("$ %s pasted: exit code %d, the demo said %d\n--- stdout\n%s--- stderr\n%s", c.line, r.code, c.exit, r.stdout, r.stderr)
		}
	}
}

// demoFleet are the flags of dev-server that make demo and the README's
// fleet examples use.
var demoFleet = []string{"--generate-databases", "12"}

var demoExit = regexp.MustCompile(`^\(exit code (\d+)\)$`)

// pathWithDbgov is the variable PATH with the built dbgov's directory first.
func pathWithDbgov() string {
	return "PATH=" + filepath.Dir(dbgovPath) + string(os.PathListSeparator) + os.Getenv("PATH")
}

// lookBash finds bash, or skips the test where there is none.
func lookBash(t *testing.T) string {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skipf("the examples are shell; no bash here: %v", err)
	}
	return bash
}
