package root

import (
	"embed"
	"fmt"
	"io"
	"strings"
	"text/template"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

//go:embed help/help.tmpl
var helpTemplate string

// topics holds the help topics, `dbgov help NAME`: NAME.txt, its first line
// the summary.
//
//go:embed help/*.txt
var topics embed.FS

// setHelp gives every command the help of help.tmpl: its own flags (the
// global ones are the topic options), lines longer than width (when not 0)
// broken at spaces.
func setHelp(cmd *cobra.Command, width int) {
	flags := func(fs *pflag.FlagSet) string { return strings.TrimRight(fs.FlagUsagesWrapped(width), " \n") }
	tmpl := template.Must(template.New("help").Funcs(template.FuncMap{
		"flags":   func(c *cobra.Command) string { return flags(c.LocalNonPersistentFlags()) },
		"globals": func() string { return flags(cmd.PersistentFlags()) },
		"rpad":    func(s string, n int) string { return fmt.Sprintf("%-*s", n, s) },
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

// wrapLines breaks each line of text longer than width bytes at the last
// space that fits, and continues it under the line's own indent.
func wrapLines(text string, width int) string {
	if width <= 0 {
		return text
	}
	lines := strings.Split(text, "\n")
	for i, line := range lines {
		indent, wrapped := line[:len(line)-len(strings.TrimLeft(line, " "))], []string(nil)
		for len(line) > width {
			cut := strings.LastIndexByte(line[:width+1], ' ')
			if cut <= len(indent) {
				break
			}
			wrapped = append(wrapped, strings.TrimRight(line[:cut], " "))
			line = indent + strings.TrimLeft(line[cut:], " ")
		}
		lines[i] = strings.Join(append(wrapped, line), "\n")
	}
	return strings.Join(lines, "\n")
}

// addTopics adds the help topics to cmd.
func addTopics(cmd *cobra.Command) {
	entries, _ := topics.ReadDir("help")
	for _, e := range entries {
		text, _ := topics.ReadFile("help/" + e.Name())
		short, long, _ := strings.Cut(string(text), "\n")
		cmd.AddCommand(&cobra.Command{Use: strings.TrimSuffix(e.Name(), ".txt"), Short: short, Long: strings.TrimSpace(long)})
	}
}
