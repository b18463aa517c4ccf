package revisions_test

import (
	"testing"

	"github.com/dbgov/dbgov/internal/cmdtest"
)

// TestBatchCreate_againstTheReferenceServer stops at a failed batch of the
// reference server, which like the real service is not atomic, and checks
// what dbgov said against what the server then holds.
func TestBatchCreate_againstTheReferenceServer(t *testing.T) {
	opts := cmdtest.ReferenceServer(t)
	write := func(name, content string) string { return cmdtest.WriteFile(t, name, content) }
	create := func(file string, extra ...string) cmdtest.Result {
		args := append([]string{"revisions", "batch-create", "--instance", "prod-pg", "--database", "orders", "-f", file, "--batch-size", "2"}, extra...)
		return cmdtest.Run(t, opts, args...)
	}

	// Entry 4 repeats the demo database's VERSIONED 1.1.0.
	all := write("all.yaml", `- {version: "2.0.1", type: VERSIONED, sheet: projects/orders/sheets/43974ed74066b207c30ffd0fed5146762e6c60745ac977004bc14507c7c42b50}
- {version: "2.0.2", type: VERSIONED, sheet: projects/orders/sheets/43974ed74066b207c30ffd0fed5146762e6c60745ac977004bc14507c7c42b50}
- {version: "2.0.3", type: VERSIONED, sheet: projects/orders/sheets/43974ed74066b207c30ffd0fed5146762e6c60745ac977004bc14507c7c42b50}
- {version: "1.1.0", type: VERSIONED, sheet: projects/orders/sheets/43974ed74066b207c30ffd0fed5146762e6c60745ac977004bc14507c7c42b50}
- {version: "2.0.5", type: DECLARATIVE, sheet: projects/orders/sheets/43974ed74066b207c30ffd0fed5146762e6c60745ac977004bc14507c7c42b50}
`)
	res := create(all, "--jq", ".revisions[].version").Expect(t, 6).
		StderrHas(t, `"created":2,"total":5`, `"notCreated":{"first":3,"last":5}`, `"maybePartlyCreated":{"first":3,"last":4}`, `"code":"ALREADY_EXISTS"`)
	if res.Stdout != "2.0.1\n2.0.2\n" {
		t.Errorf("stdout %q", res.Stdout)
	}

	// A rerun is refused at once: the first batch exists.
	res = create(all).Expect(t, 6).StderrHas(t,
		"note: created 0 of 5 revisions for certain\n", "note: entries 3-5 (versions 2.0.3, 1.1.0, 2.0.5) were not sent\n",
		`version "2.0.1" already exists`)
	if res.Stdout != "" {
		t.Errorf("stdout %q", res.Stdout)
	}
	// The failed batch was partly created, as dbgov warned: entry 3 exists,
	// entry 5 was never sent.
	create(write("third.yaml", "- {version: \"2.0.3\", type: VERSIONED, sheet: projects/orders/sheets/43974ed74066b207c30ffd0fed5146762e6c60745ac977004bc14507c7c42b50}\n")).Expect(t, 6).StderrHas(t, "ALREADY_EXISTS")
	res = create(write("fifth.yaml", "- {version: \"2.0.5\", type: DECLARATIVE, sheet: projects/orders/sheets/43974ed74066b207c30ffd0fed5146762e6c60745ac977004bc14507c7c42b50}\n"), "-o", "name").Expect(t, 0)
	if res.Stdout == "" {
		t.Error("entry 5 was not created on its own")
	}
}
