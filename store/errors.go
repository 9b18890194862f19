package store

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"syscall"

	"github.com/redis/go-redis/v9"
)

// Kinds of failure of Redis itself, decided with errors.Is on any error the
// store returns. The original error stays in the chain for logs.
var (
	// ErrUnreachable: Redis could not be reached (refused, timed out, DNS,
	// connection closed, no pooled connection free in time). Trying again
	// later may work.
	ErrUnreachable = errors.New("store: Redis is unreachable")
	// ErrAuth: Redis refused the credentials of the URL (NOAUTH, WRONGPASS).
	ErrAuth = errors.New("store: Redis refused the credentials")
	// ErrNoPerm: the Redis user may not run a command or touch a key (NOPERM).
	ErrNoPerm = errors.New("store: the Redis user lacks a permission")
	// ErrReadOnly: the server takes no writes now: a read-only replica
	// (READONLY), or a primary that no replica follows while it is
	// configured with min-replicas-to-write (NOREPLICAS), as during or after
	// a failover. Trying again may reach a primary that takes them.
	ErrReadOnly = errors.New("store: Redis is a read-only replica")
	// ErrFull: Redis is out of memory and refuses writes (OOM).
	ErrFull = errors.New("store: Redis is out of memory")
	// ErrCannotPersist: Redis refuses writes because it cannot save (MISCONF).
	ErrCannotPersist = errors.New("store: Redis cannot save to disk")
	// ErrTLS: the TLS handshake with Redis failed.
	ErrTLS = errors.New("store: TLS with Redis failed")
	// ErrBadURL: the Redis URL does not parse.
	ErrBadURL = errors.New("store: not a Redis URL")
	// ErrLoading: Redis is loading its data after a start (LOADING) or the
	// cluster cannot serve yet (CLUSTERDOWN, TRYAGAIN, MASTERDOWN).
	ErrLoading = errors.New("store: Redis is not ready yet")
	// ErrUnconfirmed: the write went through on the primary, but fewer
	// replicas than WithReplicaAcks asks for confirmed it in time, so a
	// failover could still lose it. Trying again (the write is idempotent
	// where it is returned) confirms it once the replicas catch up.
	ErrUnconfirmed = errors.New("store: the replicas did not confirm the write in time")
)

// kindError marks an error from go-redis or the network with its kind.
type kindError struct {
	kind error
	err  error
}

func (e *kindError) Error() string        { return e.err.Error() }
func (e *kindError) Unwrap() error        { return e.err }
func (e *kindError) Is(target error) bool { return target == e.kind }

// classify is the one place that tells what a failure from go-redis or the
// network means (the table of failures), by go-redis's typed checks and the
// standard library's error types, never by an error's text. An error it does
// not know is returned as it is.
func classify(err error) error {
	if err == nil || errors.Is(err, redis.Nil) {
		return err
	}
	if _, done := errors.AsType[*kindError](err); done {
		return err
	}
	kind := kindOf(err)
	if kind == nil {
		return err
	}
	return &kindError{kind: kind, err: err}
}

// failure is one kind of failure of Redis: its sentinel error, whether it
// may pass by itself (Temporary), where it comes from, and how classify
// recognises it.
type failure struct {
	kind      error
	temporary bool
	from      failureSource
	is        func(error) bool // nil for the store's own kinds
}

// failureSource is where a kind of failure is told.
type failureSource int

const (
	// redisReply: an error reply of Redis, told by go-redis's typed checks
	// (or, for MISCONF, which has none, by the protocol's error code).
	redisReply failureSource = iota
	// noReply: no reply came: TLS, the network, the client's pool.
	noReply
	// storeOwn: the store decides it itself, not classify: ErrBadURL
	// (Open), ErrUnconfirmed (a wait for the replicas).
	storeOwn
)

// failures is the one table of the kinds of failure the store returns, in
// the order classify tries them: the replies of Redis first; a reply of
// Redis that none of them matches is the caller's to decide, and is never
// taken for a failure to reach Redis.
func failures() []failure {
	anyOf := func(checks ...func(error) bool) func(error) bool {
		return func(err error) bool {
			return slices.ContainsFunc(checks, func(is func(error) bool) bool { return is(err) })
		}
	}
	return []failure{
		{ErrAuth, false, redisReply, redis.IsAuthError},
		{ErrNoPerm, false, redisReply, redis.IsPermissionError},
		{ErrReadOnly, true, redisReply, anyOf(redis.IsReadOnlyError, redis.IsNoReplicasError)},
		{ErrFull, false, redisReply, redis.IsOOMError},
		{ErrCannotPersist, false, redisReply, func(err error) bool { return redis.HasErrorPrefix(err, "MISCONF") }},
		{ErrLoading, true, redisReply, anyOf(redis.IsLoadingError, redis.IsClusterDownError, redis.IsTryAgainError, redis.IsMasterDownError)},
		{ErrTLS, false, noReply, isTLS},
		{ErrUnreachable, true, noReply, isUnreachable},
		{ErrUnconfirmed, true, storeOwn, nil},
		{ErrBadURL, false, storeOwn, nil},
	}
}

// kindOf is the kind of err by the table of failures, nil for none.
func kindOf(err error) error {
	_, answered := errors.AsType[redis.Error](err)
	for _, f := range failures() {
		switch {
		case f.from == storeOwn:
			continue
		case f.from == noReply && answered:
			return nil // another answer from Redis: the caller decides
		case f.is(err):
			return f.kind
		}
	}
	return nil
}

// isTLS reports a failed TLS handshake.
func isTLS(err error) bool {
	var recordErr *tls.RecordHeaderError
	var certErr *tls.CertificateVerificationError
	var alertErr tls.AlertError
	return errors.As(err, &recordErr) || errors.As(err, &certErr) || errors.As(err, &alertErr)
}

// isUnreachable reports a failure to reach Redis: refused, reset, timed
// out, DNS, a closed client or connection, or no connection of the pool
// free in time (the connections are stuck dialing or waiting for a Redis
// that does not answer).
func isUnreachable(err error) bool {
	var netErr net.Error
	var opErr *net.OpError
	var dnsErr *net.DNSError
	return errors.As(err, &netErr) || errors.As(err, &opErr) || errors.As(err, &dnsErr) ||
		errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.ENOENT) ||
		errors.Is(err, redis.ErrClosed) || errors.Is(err, context.DeadlineExceeded) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, redis.ErrPoolTimeout) || errors.Is(err, redis.ErrPoolExhausted)
}

// Temporary reports whether err is a failure that may pass by itself (the
// kinds of the table marked so): Redis unreachable, read-only during a
// failover, not ready yet, or a write its replicas did not confirm in time.
func Temporary(err error) bool {
	for _, f := range failures() {
		if f.temporary && errors.Is(err, f.kind) {
			return true
		}
	}
	return false
}

// wrapErr classifies err and wraps it with the context of format and args.
func wrapErr(err error, format string, args ...any) error {
	return fmt.Errorf(format+": %w", append(args, classify(err))...)
}

// Cause is the message of what failed beneath the store's own context: the
// words of Redis or of the network, without "store: ..." and without any
// password. It is for messages that name the Redis already.
func Cause(err error) string {
	if k, ok := errors.AsType[*kindError](err); ok {
		return k.err.Error()
	}
	var ce *CheckError
	if errors.As(err, &ce) {
		return ce.Err.Error()
	}
	return err.Error()
}
