package e2e_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"

	"golang.org/x/sys/unix"
)

// openTerminal opens a pseudo-terminal width columns wide that passes what
// is written to it unchanged: tty for a process's stdout, master to read
// what it wrote.
func openTerminal(t *testing.T, width int) (master, tty *os.File) {
	t.Helper()
	master, err := os.OpenFile("/dev/ptmx", os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Skipf("no pseudo-terminal here: %v", err)
	}
	t.Cleanup(func() { master.Close() })
	fd := int(master.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Fatalf("unlock the pseudo-terminal: %v", err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		t.Fatalf("name the pseudo-terminal: %v", err)
	}
	tty, err = os.OpenFile(fmt.Sprintf("/dev/pts/%d", n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatalf("open the pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { tty.Close() })
	termios, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
	if err == nil {
		termios.Oflag &^= unix.OPOST // no \r before each \n
		err = unix.IoctlSetTermios(int(tty.Fd()), unix.TCSETS, termios)
	}
	if err == nil {
		err = unix.IoctlSetWinsize(int(tty.Fd()), unix.TIOCSWINSZ, &unix.Winsize{Row: 50, Col: uint16(width)})
	}
	if err != nil {
		t.Fatalf("set up the pseudo-terminal: %v", err)
	}
	return master, tty
}

// runOnTerminal runs dbgov with its stdout on a terminal width columns wide
// and returns what it printed there.
func (c *cli) runOnTerminal(t *testing.T, width int, args ...string) result {
	t.Helper()
	master, tty := openTerminal(t, width)
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := c.command(ctx, args...)
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = tty, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("start dbgov %s: %v", strings.Join(args, " "), err)
	}
	tty.Close() // the terminal ends when dbgov exits
	out, readErr := io.ReadAll(master)
	if readErr != nil && !errors.Is(readErr, syscall.EIO) {
		t.Fatalf("read the terminal: %v", readErr)
	}
	err := cmd.Wait()
	r := result{args: args, stdout: string(out), stderr: stderr.String()}
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		r.code = exitErr.ExitCode()
	} else if err != nil {
		t.Fatalf("run dbgov %s: %v", strings.Join(args, " "), err)
	}
	return r
}

func TestTerminal_tablesFitTheWindow(t *testing.T) {
	srv := startServer(t)
	c := newCLI(t, srv).with("TERM", "xterm")
	for _, width := range []int{60, 80, 120} {
		revisions := c.file(t, fmt.Sprintf("revisions-%d.yaml", width), fmt.Sprintf(
			"- {version: \"9.%d.0\", type: VERSIONED, file: migrations/9.%d.0_add_refunds.sql, sheet: projects/orders/sheets/fa88d374b9cf5e059fad4a2fe406feae4c49cbf4803083ec521d3c75ee22557c, release: releases/2025.01}\n"+
				"- {version: \"9.%d.1\", type: DECLARATIVE, file: schema/orders.sql, release: releases/2025.01, sheet: projects/orders/sheets/43974ed74066b207c30ffd0fed5146762e6c60745ac977004bc14507c7c42b50}\n", width, width, width))
		tests := []struct {
			name     string
			args     []string
			rows     int
			has      []string
			notFound string
		}{
			{"users", []string{"users", "batch-get", "alice@example.com", "bob@example.com"}, 2,
				[]string{"   \x1b[31mDELETED\x1b[0m", "\nalice@example.com   "}, "users/alice@example.com"},
			{"policies", []string{"policies", "list", "--instance", "prod-pg", "--database", "orders"}, 6,
				[]string{"\nrollout   "}, "instances/prod-pg"},
			{"revisions", []string{"revisions", "batch-create", "--instance", "prod-pg", "--database", "orders", "-f", revisions}, 2,
				[]string{"0s\n"}, "instances/prod-pg"},
			{"identity providers", []string{"idps", "list"}, 3, []string{"\ngoogle   "}, "idps/"},
		}
		for _, tt := range tests {
			t.Run(fmt.Sprintf("%s at %d columns", tt.name, width), func(t *testing.T) {
				r := c.runOnTerminal(t, width, tt.args...).expect(t, 0)
				lines := strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n")
				if note := lines[len(lines)-1]; strings.HasPrefix(note, "\x1b[2m(") { // the columns hidden to fit, dimmed
					if !strings.Contains(note, "hidden") || !strings.HasSuffix(note, "; -o wide shows every column)\x1b[0m") {
						t.Errorf("note %q does not say what is hidden\n%s", note, r.dump())
					}
					lines = lines[:len(lines)-1]
				}
				if len(lines) != tt.rows+1 {
					t.Errorf("%d lines, want a header and %d rows\n%s", len(lines), tt.rows, r.dump())
				}
				for _, line := range lines {
					plain := strings.NewReplacer("\x1b[1m", "", "\x1b[2m", "", "\x1b[31m", "", "\x1b[0m", "").Replace(line)
					if utf8.RuneCountInString(plain) > width {
						t.Errorf("line %q is wider than %d columns\n%s", plain, width, r.dump())
					}
				}
				if !strings.HasPrefix(r.stdout, "\x1b[1mNAME") {
					t.Errorf("the header is not bold\n%s", r.dump())
				}
				r.stdoutHas(t, tt.has...)
				r.stdoutLacks(t, tt.notFound)
			})
		}
	}
	t.Run("NO_COLOR", func(t *testing.T) {
		r := c.with("NO_COLOR", "1").runOnTerminal(t, 80, "users", "batch-get", "bob@example.com").expect(t, 0)
		r.stdoutIs(t, "NAME              TITLE         TYPE   STATE     MFA     GROUPS\nbob@example.com   Bob Builder   USER   DELETED   false\n"+
			"(1 column hidden: EMAIL; -o wide shows every column)\n")
	})
}
