package buildtest

import (
	"debug/buildinfo"
	"debug/elf"
	"errors"
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

func TestDbgov_buildsAsMakeBuildDoes(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the binary")
	}
	tests := []struct {
		name        string
		version     string
		wantVersion string
	}{
		// Without -X main.version, dbgov reports the module version Go
		// stamped (a pseudo-version in a clone, unless -buildvcs=false),
		// else dev.
		{name: "without a version", version: ""},
		{name: "with a version", version: "v9.8.7-test", wantVersion: "dbgov v9.8.7-test "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			bin, err := Dbgov(t.TempDir(), tc.version)
			if err != nil {
				t.Fatal(err)
			}
			info, err := buildinfo.ReadFile(bin)
			if err != nil {
				t.Fatalf("read the build settings of %s: %v", bin, err)
			}
			settings := map[string]string{}
			for _, s := range info.Settings {
				settings[s.Key] = s.Value
			}
			for key, want := range map[string]string{"CGO_ENABLED": "0", "-trimpath": "true"} {
				if got := settings[key]; got != want {
					t.Errorf("build setting %s = %q, want %q (all: %v)", key, got, want, settings)
				}
			}
			if info.Path != "github.com/dbgov/dbgov/cmd/dbgov" {
				t.Errorf("built %s, want github.com/dbgov/dbgov/cmd/dbgov", info.Path)
			}
			want := tc.wantVersion
			if tc.version == "" {
				want = "dbgov dev "
				if v := info.Main.Version; v != "" && v != "(devel)" {
					want = "dbgov " + v + " "
				}
			}
			out, err := exec.Command(bin, "version").Output()
			if err != nil || !strings.HasPrefix(string(out), want) {
				t.Errorf("dbgov version = %q, %v; want it to begin with %q", out, err, want)
			}
			if runtime.GOOS == "linux" {
				f, err := elf.Open(bin)
				if err != nil {
					t.Fatal(err)
				}
				defer f.Close()
				if _, err := f.Symbols(); !errors.Is(err, elf.ErrNoSymbols) {
					t.Errorf("the symbol table is kept (%v): want it stripped as by -s", err)
				}
				for _, p := range f.Progs {
					if p.Type == elf.PT_INTERP {
						t.Error("the binary asks for a dynamic loader: want it static")
					}
				}
			}
		})
	}
}
