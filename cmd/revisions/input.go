package revisions

import (
	"fmt"
	"path"
	"strconv"
	"strings"

	"github.com/dbgov/dbgov/client"
	"github.com/dbgov/dbgov/internal/exitcode"
	"github.com/dbgov/dbgov/internal/input"
)

// maxProblems bounds how many problems of an input file are listed.
const maxProblems = 10

// readRevisions decodes the revisions of an input file: either the whole
// request body of revisions:batchCreate or a plain list of revisions. The
// parents it holds must name db; every revision is checked before anything
// is sent.
func readRevisions(name string, data []byte, db client.DatabaseName) ([]client.RevisionInput, error) {
	parent := db.String()
	var revs []client.RevisionInput
	var problems []string
	if input.IsList(data) {
		if err := input.Decode(name, data, &revs); err != nil {
			return nil, err
		}
	} else {
		var body client.BatchCreateRevisionsRequest
		if err := input.Decode(name, data, &body); err != nil {
			return nil, err
		}
		if body.Parent != "" && body.Parent != parent {
			problems = append(problems, fmt.Sprintf("parent %q is not %s, the database given by --instance and --database", body.Parent, parent))
		}
		revs = make([]client.RevisionInput, len(body.Requests))
		for i, r := range body.Requests {
			if r.Parent != "" && r.Parent != parent {
				problems = append(problems, fmt.Sprintf("%s: parent %q is not %s", entry(i, r.Revision.Version), r.Parent, parent))
			}
			revs[i] = r.Revision
		}
	}
	if len(revs) == 0 {
		return nil, exitcode.Usagef("%s holds no revisions", name)
	}
	return revs, refuse(name, append(problems, check(revs)...))
}

// refuse reports the problems of the input file name, none if nil.
func refuse(name string, problems []string) error {
	switch len(problems) {
	case 0:
		return nil
	case 1:
		return exitcode.Usagef("%s: %s; nothing was sent", name, problems[0])
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s has %d problems; nothing was sent:", name, len(problems))
	for _, p := range problems[:min(len(problems), maxProblems)] {
		b.WriteString("\n  " + p)
	}
	if len(problems) > maxProblems {
		fmt.Fprintf(&b, "\n  ... and %d more", len(problems)-maxProblems)
	}
	return exitcode.Usagef("%s", b.String())
}

// check lists what is wrong with the revisions, as the service rules: a
// missing version, type or sheet, a sheet not of the form
// projects/{p}/sheets/{id}, a file without its release or a release without
// its file, a (type, version) given twice.
func check(revs []client.RevisionInput) []string {
	var problems []string
	seen := make(map[[2]string]int, len(revs)) // by type and version
	for i, r := range revs {
		at := entry(i, r.Version)
		if r.Version == "" {
			problems = append(problems, at+": version is required")
		}
		switch r.Type {
		case client.RevisionTypeVersioned, client.RevisionTypeDeclarative:
		case "":
			problems = append(problems, at+": type is required (VERSIONED or DECLARATIVE)")
		default:
			problems = append(problems, fmt.Sprintf("%s: type %s is not allowed (VERSIONED or DECLARATIVE)", at, r.Type))
		}
		switch {
		case r.Sheet == "":
			problems = append(problems, at+": sheet is required (projects/{project}/sheets/{id}, holding its statement)")
		case !isSheetName(r.Sheet):
			problems = append(problems, fmt.Sprintf("%s: sheet %q is not of the form projects/{project}/sheets/{id}", at, r.Sheet))
		}
		if (r.File == "") != (r.Release == "") {
			problems = append(problems, at+": file and release go together: give both or neither")
		}
		if r.Version == "" || r.Type == "" {
			continue
		}
		k := [2]string{string(r.Type), r.Version}
		if first, dup := seen[k]; dup {
			problems = append(problems, fmt.Sprintf("%s: the %s revision %q is already entry %d", at, r.Type, r.Version, first+1))
			continue
		}
		seen[k] = i
	}
	return problems
}

// entry names the revision at index i of the input, counting from 1, as
// messages show it.
func entry(i int, version string) string {
	if version == "" {
		return "entry " + strconv.Itoa(i+1)
	}
	return fmt.Sprintf("entry %d (version %q)", i+1, version)
}

// isSheetName reports whether s has the form projects/{project}/sheets/{id}.
func isSheetName(s string) bool {
	parts := strings.Split(s, "/")
	return len(parts) == 4 && parts[0] == "projects" && parts[1] != "" &&
		parts[2] == "sheets" && parts[3] != ""
}

// checkRelease lists the names of revs that cannot be of release r: their
// sheets' and releases' last parts.
func checkRelease(r client.Release, revs []client.RevisionInput) []string {
	var problems []string
	for i, rev := range revs {
		for _, n := range [][2]string{{"sheet", rev.Sheet}, {"release", rev.Release}} {
			if p := r.NameProblem(n[0], path.Base(n[1])); n[1] != "" && p != "" {
				problems = append(problems, entry(i, rev.Version)+": "+p)
			}
		}
	}
	return problems
}
