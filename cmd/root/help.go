package root

import (
	"embed"
	"io"
	"regexp"
	"strings"
	"text/template"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/dbgov/dbgov/config"
)

//go:embed help/help.tmpl
var helpTemplate string

// topics holds the help topics, `dbgov help NAME`: NAME.txt, its first line
// the summary; {{variables}} stands for the settings' environment variables.
//
//go:embed help/*.txt
var topics embed.FS

// setHelp gives every command the help of help.tmpl: its own flags (the
// global ones are the topic options), lines longer than width (when not 0)
// broken at spaces.
func setHelp(cmd *cobra.Command, width int) {
	refuseUnknownTopics(cmd)
	flags := func(fs *pflag.FlagSet) string {
		if width > 0 && width < 80 { // the description goes under the flag
			return blockLayout.ReplaceAllString(strings.TrimRight(fs.FlagUsages(), " \n"), "$1\n        ")
		}
		return strings.TrimRight(fs.FlagUsagesWrapped(width), " \n")
	}
	tmpl := template.Must(template.New("help").Funcs(template.FuncMap{
		"flags":   func(c *cobra.Command) string { return flags(c.LocalNonPersistentFlags()) },
		"globals": func() string { return flags(cmd.PersistentFlags()) },
		"trim":    strings.TrimSpace,
	}).Parse(helpTemplate))
	cmd.SetHelpFunc(func(c *cobra.Command, _ []string) {
		var b strings.Builder
		if err := tmpl.Execute(&b, c); err != nil {
			panic(err) // help.tmpl is part of dbgov: a test runs it for every command
		}
		_, _ = io.WriteString(c.OutOrStdout(), wrapLines(b.String(), width))
	})
}

var (
	// column finds the second column of an indented line: "  name   text".
	column = regexp.MustCompile(`^ +[^ ].*?  +`)
	// blockLayout finds a flag and the spaces before its description.
	blockLayout = regexp.MustCompile(`(?m)^( +\S.*?\S)  +`)
)

// wrapLines breaks each line of text longer than width bytes at the last
// space that fits, and goes on under the line's second column, or under
// its indent (deeper for an example). Below the 80 columns the texts are
// written for, the lines of a paragraph of prose (not indented) are joined
// first.
func wrapLines(text string, width int) string {
	if width <= 0 {
		return text
	}
	var lines []string
	for _, line := range strings.Split(text, "\n") {
		if n := len(lines); width < 80 && n > 0 && prose(line) && prose(lines[n-1]) {
			lines[n-1] += " " + line
		} else {
			lines = append(lines, line)
		}
	}
	for i, line := range lines {
		indent, wrapped := line[:len(line)-len(strings.TrimLeft(line, " "))], []string(nil)
		next := indent
		if m := column.FindStringIndex(line); m != nil && indent != "" {
			next = strings.Repeat(" ", m[1])
		} else if indent == "  " {
			next += "    "
		}
		for len(line) > width {
			cut := strings.LastIndexByte(line[:width+1], ' ')
			if cut <= len(indent) { // a word too long for the line stands alone
				if cut = strings.IndexByte(line[len(indent):], ' ') + len(indent); cut <= len(indent) {
					break
				}
			}
			wrapped = append(wrapped, strings.TrimRight(line[:cut], " "))
			line, indent = next+strings.TrimLeft(line[cut:], " "), next
		}
		lines[i] = strings.Join(append(wrapped, line), "\n")
	}
	return strings.Join(lines, "\n")
}

func prose(line string) bool { return line != "" && line[0] != ' ' }

// addTopics adds the help topics to cmd.
func addTopics(cmd *cobra.Command) {
	entries, _ := topics.ReadDir("help")
	for _, e := range entries {
		text, _ := topics.ReadFile("help/" + e.Name())
		short, long, _ := strings.Cut(strings.Replace(string(text), "{{variables}}\n", config.Environment(), 1), "\n")
		cmd.AddCommand(&cobra.Command{Use: strings.TrimSuffix(e.Name(), ".txt"), Short: short, Long: strings.TrimSpace(long)})
	}
}

// refuseUnknownTopics has `dbgov help NOSUCH` fail as a usage error, naming
// the commands meant, where cobra's help prints the usage and succeeds.
func refuseUnknownTopics(root *cobra.Command) {
	root.InitDefaultHelpCmd()
	help, _, err := root.Find([]string{"help"})
	if err != nil || help.Run == nil {
		return
	}
	show := help.Run
	help.Run = nil
	help.RunE = func(c *cobra.Command, args []string) error {
		if target, rest, err := root.Find(args); err == nil && len(rest) > 0 {
			return unknownCommand(target, rest)
		}
		show(c, args)
		return nil
	}
}
