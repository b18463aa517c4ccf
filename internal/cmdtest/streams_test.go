package cmdtest

import "testing"

func TestStreams_buffersAreWired(t *testing.T) {
	ios, in, out, errOut := Streams()
	in.WriteString("input")
	if _, err := ios.Out.Write([]byte("out")); err != nil {
		t.Fatal(err)
	}
	if _, err := ios.ErrOut.Write([]byte("err")); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 5)
	if n, _ := ios.In.Read(buf); string(buf[:n]) != "input" {
		t.Errorf("In reads %q, want %q", buf[:n], "input")
	}
	if out.String() != "out" || errOut.String() != "err" {
		t.Errorf("Out/ErrOut buffers hold %q/%q", out.String(), errOut.String())
	}
	if ios.InTTY || ios.OutTTY || ios.ErrTTY || ios.ColorEnabled || ios.TermWidth != 0 {
		t.Errorf("Test streams claim a terminal: %+v", ios)
	}
}
