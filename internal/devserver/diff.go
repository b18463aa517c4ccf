package devserver

import "strings"

// maxDiffCells bounds the table of the line diff (4 bytes a cell): past it,
// the differing middle of two schemas is shown as removed, then added, whole.
const maxDiffCells = 1 << 22

// lineDiff returns how to go from schema a to schema b, line by line: each
// line only in a as "-line", each line only in b as "+line", in order and
// each ending in a newline; lines in both are left out. Two schemas with the
// same lines give "".
func lineDiff(a, b string) string {
	var out strings.Builder
	for _, e := range diffLines(splitLines(a), splitLines(b)) {
		if e.op != ' ' {
			out.WriteByte(e.op)
			out.WriteString(e.line)
			out.WriteByte('\n')
		}
	}
	return out.String()
}

// edit is one step of an edit script: keep (' '), remove ('-') or add ('+')
// a line.
type edit struct {
	op   byte
	line string
}

// diffLines returns an edit script from x to y that keeps a longest common
// subsequence of the two, found after setting aside the lines they start
// and end with. Removals come before additions where either would do.
func diffLines(x, y []string) []edit {
	var head, tail []edit
	for len(x) > 0 && len(y) > 0 && x[0] == y[0] {
		head = append(head, edit{' ', x[0]})
		x, y = x[1:], y[1:]
	}
	for len(x) > 0 && len(y) > 0 && x[len(x)-1] == y[len(y)-1] {
		tail = append(tail, edit{' ', x[len(x)-1]})
		x, y = x[:len(x)-1], y[:len(y)-1]
	}
	script := head
	n, m := len(x), len(y)
	if n == 0 || m == 0 || (n+1)*(m+1) > maxDiffCells {
		for _, line := range x {
			script = append(script, edit{'-', line})
		}
		for _, line := range y {
			script = append(script, edit{'+', line})
		}
	} else {
		script = append(script, lcsScript(x, y)...)
	}
	for i := len(tail) - 1; i >= 0; i-- {
		script = append(script, tail[i])
	}
	return script
}

// lcsScript is the edit script of a longest common subsequence table.
func lcsScript(x, y []string) []edit {
	// Compare small numbers rather than lines.
	ids := map[string]int32{}
	number := func(lines []string) []int32 {
		out := make([]int32, len(lines))
		for i, l := range lines {
			id, ok := ids[l]
			if !ok {
				id = int32(len(ids))
				ids[l] = id
			}
			out[i] = id
		}
		return out
	}
	xi, yi := number(x), number(y)
	n, m := len(x), len(y)
	// lcs[i*w+j] is the length of a longest common subsequence of x[i:] and y[j:].
	w := m + 1
	lcs := make([]int32, (n+1)*w)
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if xi[i] == yi[j] {
				lcs[i*w+j] = lcs[(i+1)*w+j+1] + 1
			} else {
				lcs[i*w+j] = max(lcs[(i+1)*w+j], lcs[i*w+j+1])
			}
		}
	}
	script := make([]edit, 0, n+m)
	i, j := 0, 0
	for i < n && j < m {
		switch {
		case xi[i] == yi[j]:
			script = append(script, edit{' ', x[i]})
			i, j = i+1, j+1
		case lcs[(i+1)*w+j] >= lcs[i*w+j+1]:
			script = append(script, edit{'-', x[i]})
			i++
		default:
			script = append(script, edit{'+', y[j]})
			j++
		}
	}
	for ; i < n; i++ {
		script = append(script, edit{'-', x[i]})
	}
	for ; j < m; j++ {
		script = append(script, edit{'+', y[j]})
	}
	return script
}

// splitLines cuts text into lines; a final newline ends the last line
// rather than starting an empty one.
func splitLines(text string) []string {
	if text == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(text, "\n"), "\n")
}
