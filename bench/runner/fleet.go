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
	list := filepath.Join(b.tmp, "dbs")
	run := func(n, c int) (sample, error) {
		argv := []string{"bash", "-o", "pipefail", "-c", fmt.Sprintf("mkdir -p %[1]s/out && xargs -P 8 -I{} curl -sf -H 'Authorization: Bearer %[2]s' "+
			"-o %[1]s/out/{}.json %[3]s/v1/instances/fleet-pg/databases/{}/policies < %[1]s/ids", b.tmp, token, fleetURL)}
		err := os.WriteFile(filepath.Join(b.tmp, "ids"), []byte(ids.String()[:7*n]), 0o600)
		if c > 0 {
			argv = []string{b.bin, "policies", "list", "--databases-from", list, "--concurrency", fmt.Sprint(c), "-o", "jsonl"}
			err = os.WriteFile(list, []byte(dbs.String()[:16*n]), 0o600)
		}
		res, serr := b.spawn.run(spawnRequest{Argv: argv, Env: env})
		if err = cmp.Or(err, serr); err == nil && res.Err != "" {
			err = fmt.Errorf("%s: %s: %s", strings.Join(argv, " "), res.Err, res.Stderr)
		}
		return sample{wall: res.Wall, rss: res.RSS}, err
	}
	var sb strings.Builder
	fmt.Fprintf(&sb, "\n## Many databases at once\n\n%d runs after one warm-up; the reference server answers each database after 20 ms.\n\n", b.runs)
	sb.WriteString("| measurement | min | median | max | target | met |\n|---|---|---|---|---|---|\n")
	row := func(what string, v []float64, unit, target string, met bool) {
		slices.Sort(v)
		fmt.Fprintf(&sb, "| %s | %.2f%s | %.2f%s | %.2f%s | %s | %s |\n", what, v[0], unit, v[len(v)/2], unit, v[len(v)-1], unit,
			target, map[bool]string{true: "yes", false: "**no**"}[met])
	}
	var walls, refs, ratios, rss []float64
	for i := 0; i <= b.runs; i++ {
		d, err := run(500, 8)
		r, rerr := run(500, 0)
		if err = cmp.Or(err, rerr); err != nil {
			return err
		}
		if i > 0 { // after the warm-up
			walls, refs, rss = append(walls, d.wall.Seconds()), append(refs, r.wall.Seconds()), append(rss, float64(d.rss)/(1<<20))
			ratios = append(ratios, d.wall.Seconds()/r.wall.Seconds())
		}
	}
	row("dbgov policies list --databases-from (500 databases) --concurrency 8 -o jsonl: wall", walls, " s", "report", true)
	row("xargs -P 8 curl over the same 500 URLs, to files: wall", refs, " s", "report", true)
	row("ratio dbgov / xargs curl, run by run", ratios, "×", "≤ 1.0 on every run", slices.Max(ratios) <= 1)
	row("dbgov peak RSS, -o jsonl", rss, " MiB", "< 50 MiB on every run", slices.Max(rss) < 50)
	for _, m := range [][2]int{{100, 8}, {1000, 8}, {500, 1}, {500, 4}, {500, 8}, {500, 32}} {
		var w []float64
		for i := 0; i <= b.runs; i++ {
			s, err := run(m[0], m[1])
			if err != nil {
				return err
			}
			if i > 0 {
				w = append(w, s.wall.Seconds())
			}
		}
		row(fmt.Sprintf("scaling: %d databases, --concurrency %d: wall", m[0], m[1]), w, " s",
			fmt.Sprintf("report (20 ms × databases / concurrency = %.2f s)", float64(m[0])*0.02/float64(m[1])), true)
	}
	b.sections = append(b.sections, sb.String())
	return nil
}
