package main

import (
	"cmp"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// fleet measures policies list over generated databases answered after 20 ms
// each, run by run beside xargs -P 8 running curl over the same URLs, and
// how its wall time scales with the databases and --concurrency.
func (b *bench) fleet() error {
	url, token := b.url, b.token
	stop, err := b.startServer(filepath.Join(b.tmp, "fleet.log"), "--generate-databases", "1000", "--latency", "20ms")
	if err != nil {
		return err
	}
	defer stop()
	env, fleetURL := append(slices.Clone(b.env), "DBGOV_URL="+b.url), b.url
	b.url, b.token = url, token
	var dbs, ids strings.Builder
	for i := 1; i <= 1000; i++ {
		fmt.Fprintf(&dbs, "fleet-pg/db%04d\n", i) // 16 bytes a line
		fmt.Fprintf(&ids, "db%04d\n", i)          // 7 bytes a line
	}
	// n databases at --concurrency c, or with xargs and curl when c is 0.
	configs := [][2]int{{500, 8}, {500, 0}, {100, 8}, {1000, 8}, {500, 1}, {500, 4}, {500, 32}}
	walls := make([][]float64, len(configs))
	var ratios, rss []float64
	for i := 0; i <= b.runs; i++ {
		for j, m := range configs {
			argv := []string{"bash", "-o", "pipefail", "-c", fmt.Sprintf("mkdir -p %[1]s/out && xargs -P 8 -I{} curl -sf -H 'Authorization: Bearer %[2]s' "+
				"-o %[1]s/out/{}.json %[3]s/v1/instances/fleet-pg/databases/{}/policies < %[1]s/ids", b.tmp, token, fleetURL)}
			err := os.WriteFile(filepath.Join(b.tmp, "ids"), []byte(ids.String()[:7*m[0]]), 0o600)
			if m[1] > 0 {
				argv = []string{b.bin, "policies", "list", "--databases-from", filepath.Join(b.tmp, "dbs"), "--concurrency", fmt.Sprint(m[1]), "-o", "jsonl"}
				err = os.WriteFile(argv[4], []byte(dbs.String()[:16*m[0]]), 0o600)
			}
			res, serr := b.spawn.run(spawnRequest{Argv: argv, Env: env})
			if err = cmp.Or(err, serr); err == nil && res.Err != "" {
				err = fmt.Errorf("%s: %s: %s", strings.Join(argv, " "), res.Err, res.Stderr)
			}
			if err != nil {
				return err
			}
			if i > 0 { // after the warm-up
				walls[j] = append(walls[j], res.Wall.Seconds())
				if j == 0 {
					rss = append(rss, float64(res.RSS)/(1<<20))
				}
			}
		}
		if i > 0 {
			ratios = append(ratios, walls[0][i-1]/walls[1][i-1])
		}
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "\n## Many databases at once\n\n%d runs after one warm-up; the reference server answers each database after 20 ms.\n\n", b.runs)
	sb.WriteString("| measurement | min | median | max | target | met |\n|---|---|---|---|---|---|\n")
	row := func(what string, v []float64, unit, target string, met bool) {
		v = slices.Sorted(slices.Values(v))
		fmt.Fprintf(&sb, "| %s | %.2f%s | %.2f%s | %.2f%s | %s | %s |\n", what, v[0], unit, v[len(v)/2], unit, v[len(v)-1], unit,
			target, map[bool]string{true: "yes", false: "**no**"}[met])
	}
	row("ratio dbgov / xargs curl (500 databases, 8 at a time), run by run", ratios, "×", "≤ 1.0 on every run", slices.Max(ratios) <= 1)
	row("dbgov peak RSS (500 databases, -o jsonl)", rss, " MiB", "< 50 MiB on every run", slices.Max(rss) < 50)
	for j, m := range configs {
		what, target := fmt.Sprintf("xargs -P 8 curl over the same %d URLs, to files: wall", m[0]), "report"
		if m[1] > 0 {
			what = fmt.Sprintf("dbgov policies list --databases-from (%d databases) --concurrency %d -o jsonl: wall", m[0], m[1])
			target = fmt.Sprintf("report (20 ms × databases / concurrency = %.2f s)", float64(m[0])*0.02/float64(m[1]))
		}
		row(what, walls[j], " s", target, true)
	}
	b.sections = append(b.sections, sb.String())
	return nil
}
