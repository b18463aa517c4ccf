package config

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"

	"github.com/dbgov/dbgov/internal/safefile"
)

// lockWait bounds how long Edit waits for another run's lock.
const lockWait = 10 * time.Second

// lock takes the lock of the config file at path, a file beside it (the
// file itself is replaced on each write) that is never a link, and returns
// how to release it.
func lock(ctx context.Context, path string) (func(), error) {
	if err := safefile.MkdirAll(filepath.Dir(path)); err != nil {
		return nil, fmt.Errorf("create config directory: %w", err)
	}
	ctx, cancel := context.WithTimeout(ctx, lockWait)
	defer cancel()
	l := flock.New(path+".lock", flock.SetFlag(os.O_CREATE|os.O_RDWR|safefile.NoFollow))
	if ok, err := l.TryLockContext(ctx, 10*time.Millisecond); !ok {
		if ctx.Err() == context.DeadlineExceeded {
			return nil, fmt.Errorf("config file %s is locked by another dbgov run (%s)", path, l.Path())
		}
		return nil, fmt.Errorf("lock config file %s: %w", path, safefile.Explain(l.Path(), err))
	}
	return func() { _ = l.Close() }, nil
}
