package iostreams

import (
	"bytes"
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"time"
)

func TestWithContext_readsAsTheStreamDoes(t *testing.T) {
	in := &bytes.Buffer{}
	ios := &IOStreams{In: in}
	text := strings.Repeat("alice@example.com\n", 10000) // several reads' worth
	in.WriteString(text)
	got, err := io.ReadAll(ios.WithContext(context.Background()).In)
	if err != nil || string(got) != text {
		t.Errorf("read %d bytes (%v), want the %d given", len(got), err, len(text))
	}
}

func TestWithContext_aBlockedReadEndsWithTheCause(t *testing.T) {
	cause := errors.New("interrupted")
	r, w := io.Pipe()
	defer w.Close()
	ctx, cancel := context.WithCancelCause(context.Background())
	in := (&IOStreams{In: r}).WithContext(ctx).In
	time.AfterFunc(50*time.Millisecond, func() { cancel(cause) })
	if n, err := in.Read(make([]byte, 10)); n != 0 || !errors.Is(err, cause) {
		t.Errorf("blocked read returned %d, %v; want the cause", n, err)
	}
	// And every read after it, at once.
	if _, err := in.Read(make([]byte, 10)); !errors.Is(err, cause) {
		t.Errorf("next read returned %v", err)
	}
}

func TestWithContext_keepsTheDescriptorOfAFile(t *testing.T) {
	f, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	in := (&IOStreams{In: f}).WithContext(context.Background()).In
	if fd, ok := in.(interface{ Fd() uintptr }); !ok || fd.Fd() != f.Fd() {
		t.Errorf("the descriptor of stdin is lost")
	}
	ios := &IOStreams{In: &bytes.Buffer{}}
	if fd := ios.WithContext(context.Background()).In.(interface{ Fd() uintptr }).Fd(); int(fd) != -1 {
		t.Errorf("a buffer has descriptor %d, want none (-1)", int(fd))
	}
}

// BenchmarkWithContext_read reads 64 MiB through the context-aware stdin, as
// `-f -` reads a large file, against the plain reader.
func BenchmarkWithContext_read(b *testing.B) {
	data := make([]byte, 64<<20)
	for _, wrapped := range []bool{false, true} {
		name := "plain"
		if wrapped {
			name = "context"
		}
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				ios := &IOStreams{In: struct{ io.Reader }{bytes.NewReader(data)}} // no WriteTo
				if wrapped {
					ios = ios.WithContext(context.Background())
				}
				if _, err := io.Copy(io.Discard, ios.In); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
