package output

// Style is an SGR style of the terminal.
type Style string

const (
	// Bold is for the header of a table.
	Bold Style = "1"
	// Dim is for hints.
	Dim Style = "2"
	// Red is for DELETED, errors and removed lines.
	Red Style = "31"
	// Green is for added lines.
	Green Style = "32"
)

// Paint returns text in style when on (colour is wanted for the stream it
// goes to), else text as it is.
func Paint(on bool, style Style, text string) string {
	if !on || text == "" {
		return text
	}
	return "\x1b[" + string(style) + "m" + text + "\x1b[0m"
}
