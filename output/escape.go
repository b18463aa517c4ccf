package output

import "github.com/dbgov/dbgov/internal/textsafe"

// EscapeControl returns s with everything that could drive a terminal or
// hide text shown escaped, newlines and tabs included (see textsafe.Line).
// A value from the service passes through it before it reaches a table cell.
func EscapeControl(s string) string { return textsafe.Line(s) }

// escapeText is EscapeControl for multi-line text: newlines and tabs are
// kept.
func escapeText(s string) string { return textsafe.Text(s) }
