package main

import (
	"strings"
	"testing"
)

func TestReport_targetMetOnlyWhenEveryRunMeetsIt(t *testing.T) {
	tests := []struct {
		name string
		r    row
		want string
	}{
		{"every run under", row{what: "w", runs: []float64{0.004, 0.003, 0.005}, unit: "s", limit: 0.01},
			"| w | 3.0 ms | 4.0 ms | 5.0 ms | < 10.0 ms on every run | yes |"},
		{"median under, slowest over", row{what: "w", runs: []float64{0.004, 0.003, 0.012}, unit: "s", limit: 0.01},
			"| w | 3.0 ms | 4.0 ms | 12.0 ms | < 10.0 ms on every run | **no** |"},
		{"ratio at the limit", row{what: "r", runs: []float64{1, 0.5, 0.7}, unit: "×", limit: 1, note: "no slower"},
			"| r | 0.50× | 0.70× | 1.00× | ≤ 1.00× on every run (no slower) | yes |"},
		{"memory at the limit", row{what: "m", runs: []float64{20, 19}, unit: "MiB", limit: 20},
			"| m | 19.00 MiB | 20.00 MiB | 20.00 MiB | < 20.00 MiB on every run | **no** |"},
		{"no target", row{what: "a | b", runs: []float64{1.5}, unit: "s", note: "expected 1.25 s"},
			`| a \| b | 1.50 s | 1.50 s | 1.50 s | expected 1.25 s |  |`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := (&bench{rows: []row{tt.r}}).report()
			if !strings.Contains(got, tt.want+"\n") {
				t.Errorf("report lacks\n%s\ngot:\n%s", tt.want, got)
			}
		})
	}
}
