//go:build unix

package testbin

import (
	"context"
	"os"
	"syscall"
)

// lock takes an exclusive flock on the file at path, waiting while another
// process holds it, until ctx ends. The returned func releases it. The file
// is opened read-only, all flock needs, so one another user made serves too;
// a file that cannot be opened gives no lock and no error.
func lock(ctx context.Context, path string) (unlock func(), err error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_RDONLY, 0o666)
	if err != nil {
		return func() {}, nil
	}
	locked := make(chan error, 1)
	go func() { locked <- syscall.Flock(int(f.Fd()), syscall.LOCK_EX) }()
	select {
	case err := <-locked:
		if err != nil {
			f.Close()
			return func() {}, nil
		}
		return func() { f.Close() }, nil
	case <-ctx.Done():
		// The flock may still be granted: closing the file once it
		// returns releases it.
		go func() { <-locked; f.Close() }()
		return nil, ctx.Err()
	}
}
