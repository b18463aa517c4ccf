package version

import (
	"runtime/debug"
	"testing"
)

func TestStamp_fillsWhatTheBuildLeftFromTheBuildInfo(t *testing.T) {
	vcs := []debug.BuildSetting{{Key: "vcs", Value: "git"}, {Key: "vcs.revision", Value: "0123456789abcdef0123"}, {Key: "vcs.modified", Value: "false"}}
	tests := []struct {
		name                  string
		version, commit       string
		info                  *debug.BuildInfo
		wantVersion, wantCmit string
	}{
		{"go install of a release", "dev", "none", &debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}}, "v1.4.0", "none"},
		{"go build in a checkout", "dev", "none", &debug.BuildInfo{Main: debug.Module{Version: "v1.4.1-0.20250101120000-0123456789ab"}, Settings: vcs}, "v1.4.1-0.20250101120000-0123456789ab", "0123456789ab"},
		{"go build without a module version", "dev", "none", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs}, "dev", "0123456789ab"},
		{"make build's -ldflags win", "v1.3.0", "abc1234", &debug.BuildInfo{Main: debug.Module{Version: "v9.9.9"}, Settings: vcs}, "v1.3.0", "abc1234"},
		{"no build info", "dev", "none", nil, "dev", "none"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			v, c := Stamp(tt.version, tt.commit, tt.info)
			if v != tt.wantVersion || c != tt.wantCmit {
				t.Errorf("Stamp = %q, %q; want %q, %q", v, c, tt.wantVersion, tt.wantCmit)
			}
		})
	}
}
