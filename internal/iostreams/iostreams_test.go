package iostreams

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/term"
)

// fakeEnv answers detect's questions from fixed values.
func TestDetect_terminalsColourAndWidth(t *testing.T) {
	dir := t.TempDir()
	open := func(name string) *os.File {
		f, err := os.Create(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		return f
	}
	in, out, errOut := open("in"), open("out"), open("err")
	inFd, outFd, errFd := int(in.Fd()), int(out.Fd()), int(errOut.Fd())

	tests := []struct {
		name      string
		vars      map[string]string
		ttys      map[int]bool
		width     int
		wantIn    bool
		wantOut   bool
		wantErr   bool
		wantColor bool
		wantWidth int
		// wantErrColor: stderr gets colour
		wantErrColor bool
	}{
		{name: "all piped", ttys: map[int]bool{}, width: 120},
		{name: "stdout terminal", ttys: map[int]bool{outFd: true}, width: 120,
			wantOut: true, wantColor: true, wantWidth: 120},
		{name: "NO_COLOR set", vars: map[string]string{"NO_COLOR": "1"}, ttys: map[int]bool{outFd: true}, width: 80,
			wantOut: true, wantWidth: 80},
		{name: "NO_COLOR empty keeps colour", vars: map[string]string{"NO_COLOR": ""}, ttys: map[int]bool{outFd: true}, width: 80,
			wantOut: true, wantColor: true, wantWidth: 80},
		{name: "dumb terminal", vars: map[string]string{"TERM": "dumb"}, ttys: map[int]bool{outFd: true}, width: 80,
			wantOut: true, wantWidth: 80},
		{name: "only stdin and stderr terminals", ttys: map[int]bool{inFd: true, errFd: true}, width: 80,
			wantIn: true, wantErr: true, wantErrColor: true},
		{name: "stderr terminal, NO_COLOR set", vars: map[string]string{"NO_COLOR": "1"}, ttys: map[int]bool{errFd: true},
			wantErr: true},
		{name: "stderr terminal, dumb", vars: map[string]string{"TERM": "dumb"}, ttys: map[int]bool{errFd: true},
			wantErr: true},
		{name: "width unknown", ttys: map[int]bool{outFd: true}, width: 0,
			wantOut: true, wantColor: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			getenv := func(key string) string { return tt.vars[key] }
			isTerminal := func(fd int) bool { return tt.ttys[fd] }
			ios := detect(getenv, isTerminal, func(int) int { return tt.width }, in, out, errOut)
			if ios.InTTY != tt.wantIn || ios.OutTTY != tt.wantOut || ios.ErrTTY != tt.wantErr {
				t.Errorf("TTY in/out/err = %v/%v/%v, want %v/%v/%v",
					ios.InTTY, ios.OutTTY, ios.ErrTTY, tt.wantIn, tt.wantOut, tt.wantErr)
			}
			if ios.ColorEnabled != tt.wantColor || ios.ErrColorEnabled != tt.wantErrColor {
				t.Errorf("ColorEnabled = %v, ErrColorEnabled = %v, want %v, %v", ios.ColorEnabled, ios.ErrColorEnabled, tt.wantColor, tt.wantErrColor)
			}
			if ios.TermWidth != tt.wantWidth {
				t.Errorf("TermWidth = %d, want %d", ios.TermWidth, tt.wantWidth)
			}
			if ios.In != in || ios.Out != out || ios.ErrOut != errOut {
				t.Error("streams are not the files given")
			}
		})
	}
}

func TestSystem_regularFilesAreNotTerminals(t *testing.T) {
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	ios := detect(os.Getenv, term.IsTerminal, termWidth, f, f, f)
	if ios.InTTY || ios.OutTTY || ios.ErrTTY || ios.ColorEnabled || ios.TermWidth != 0 {
		t.Errorf("a regular file was taken for a terminal: %+v", ios)
	}
	if sys := System(); sys.In != os.Stdin || sys.Out != os.Stdout || sys.ErrOut != os.Stderr {
		t.Error("System does not carry the process's standard streams")
	}
}
