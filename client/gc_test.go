package client

import (
	"runtime/debug"
	"testing"
)

func TestGCHeadroom_leavesTheCollectorsSettingAlone(t *testing.T) {
	tests := []struct {
		name        string
		setting     int  // the setting before the call; -1 is off
		size        int  // the answer's size
		meanwhile   *int // a setting made by someone else before restore, if any
		wantDuring  int
		wantRestore int
	}{
		{name: "large answer lowers the headroom and restores it", setting: 100, size: largeBody, wantDuring: lowGCPercent, wantRestore: 100},
		{name: "small answer changes nothing", setting: 100, size: largeBody - 1, wantDuring: 100, wantRestore: 100},
		{name: "collector off stays off", setting: -1, size: largeBody, wantDuring: -1, wantRestore: -1},
		{name: "collector off stays off when turned off again meanwhile", setting: -1, size: largeBody, meanwhile: ptr(-1), wantDuring: -1, wantRestore: -1},
		{name: "less headroom already is kept", setting: 5, size: largeBody, wantDuring: 5, wantRestore: 5},
		{name: "the same headroom already is kept", setting: lowGCPercent, size: largeBody, wantDuring: lowGCPercent, wantRestore: lowGCPercent},
		{name: "collector turned off meanwhile is not turned on", setting: 100, size: largeBody, meanwhile: ptr(-1), wantDuring: lowGCPercent, wantRestore: -1},
		{name: "a setting made meanwhile is kept", setting: 100, size: largeBody, meanwhile: ptr(50), wantDuring: lowGCPercent, wantRestore: 50},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := debug.SetGCPercent(tc.setting)
			t.Cleanup(func() { debug.SetGCPercent(before) })
			restore := gcHeadroom(tc.size)
			if got := readGCPercent(t); got != tc.wantDuring {
				t.Errorf("setting while decoding = %d, want %d", got, tc.wantDuring)
			}
			if tc.meanwhile != nil {
				debug.SetGCPercent(*tc.meanwhile)
			}
			restore()
			if got := readGCPercent(t); got != tc.wantRestore {
				t.Errorf("setting after restoring = %d, want %d", got, tc.wantRestore)
			}
		})
	}
}

func TestGCPercent_readsTheSettingWithoutChangingIt(t *testing.T) {
	tests := []struct {
		name    string
		setting int
		want    int
		wantOn  bool
	}{
		{name: "default", setting: 100, want: 100, wantOn: true},
		{name: "low", setting: 1, want: 1, wantOn: true},
		{name: "zero", setting: 0, want: 0, wantOn: true},
		{name: "off", setting: -1, want: 0, wantOn: false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before := debug.SetGCPercent(tc.setting)
			t.Cleanup(func() { debug.SetGCPercent(before) })
			got, on := gcPercent()
			if got != tc.want || on != tc.wantOn {
				t.Errorf("gcPercent() = %d, %v; want %d, %v", got, on, tc.want, tc.wantOn)
			}
			if again := debug.SetGCPercent(tc.setting); again != tc.setting {
				t.Errorf("the setting became %d", again)
			}
		})
	}
}

// readGCPercent returns the collector's setting, -1 when off, leaving it as it is.
func readGCPercent(t *testing.T) int {
	t.Helper()
	cur := debug.SetGCPercent(-1)
	debug.SetGCPercent(cur)
	return cur
}
