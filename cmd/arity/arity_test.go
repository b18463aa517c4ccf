package arity

import "testing"

// TestOne_wantsExactlyOneTargetGiven checks the choice of one target among
// flags such as --instance, --project and --workspace.
func TestOne_wantsExactlyOneTargetGiven(t *testing.T) {
	for _, tt := range []struct {
		given []bool
		want  bool
	}{
		{nil, false},
		{[]bool{false, false, false}, false},
		{[]bool{true, false, false}, true},
		{[]bool{false, false, true}, true},
		{[]bool{true, false, true}, false},
		{[]bool{true, true, true}, false},
	} {
		if got := One(tt.given...); got != tt.want {
			t.Errorf("One(%v) = %t, want %t", tt.given, got, tt.want)
		}
	}
}
