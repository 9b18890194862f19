package store

import (
	"context"
	"errors"
	"fmt"
	"os"
)

// Verdict is the outcome of Check in words for an operator: one line of
// what was found, never with a password, and what to do when docsbot cannot
// rely on this Redis.
type Verdict struct {
	OK        bool
	Line, Fix string
}

// Judge puts the outcome of Check(ctx, redisURL, ...) in words. A Redis that
// works but may evict docsbot's keys when full does not pass.
func Judge(redisURL string, rep Report, err error) Verdict {
	where := RedactURL(redisURL)
	ce, isStep := errors.AsType[*CheckError](err)
	switch {
	case errors.Is(err, ErrBadURL):
		return Verdict{Line: where + ": parse redis URL: " + Cause(err),
			Fix: "write REDIS_URL as redis://[user:password@]host:port/db, rediss://... for TLS, or unix:///path/to/redis.sock"}
	case errors.Is(err, ErrMismatch):
		return Verdict{Line: where + ": " + ErrMismatch.Error(),
			Fix: "another program rewrites docsbot's keys: give docsbot a Redis database of its own"}
	case isStep:
		return Verdict{Line: where + ": " + ce.Step + ": " + Cause(err), Fix: Fix(err)}
	case err != nil:
		return Verdict{Line: where + ": " + err.Error(), Fix: Fix(err)}
	}
	line := where + ": PING ok, write ok"
	switch {
	case rep.Topology == Sentinel && rep.Primary != "":
		line += " (sentinel, primary " + rep.Primary + ")"
	case rep.Topology == Cluster:
		line += fmt.Sprintf(" (cluster of %d primaries)", rep.Primaries)
	case rep.Topology != Standalone:
		line += " (" + string(rep.Topology) + ")"
	}
	switch {
	case rep.MaxMemory == "":
		return Verdict{OK: true, Line: line}
	case rep.Evicts():
		return Verdict{Line: fmt.Sprintf("%s, but maxmemory-policy is %s: Redis may evict docsbot's jobs and markers when full", line, rep.Policy),
			Fix: "set maxmemory-policy noeviction (CONFIG SET, redis.conf, or the parameter group of a managed Redis)"}
	case rep.MaxMemory == "0":
		return Verdict{OK: true, Line: line + ", no memory limit"}
	}
	return Verdict{OK: true, Line: line + ", maxmemory-policy noeviction"}
}

// Fix tells an operator what to do about a failure of Redis, by its kind
// (ErrAuth, ErrNoPerm, ...).
func Fix(err error) string {
	switch {
	case errors.Is(err, ErrAuth):
		return "put the credentials in REDIS_URL: redis://:PASSWORD@host:6379/0, or redis://USER:PASSWORD@host:6379/0 for an ACL user"
	case errors.Is(err, ErrNoPerm):
		return "the Redis user may not write docsbot's keys: allow it the keys docsbot:* and the read, write and scripting commands (ACL SETUSER)"
	case errors.Is(err, ErrReadOnly):
		return "REDIS_URL points at a read-only replica: point it at the primary"
	case errors.Is(err, ErrFull):
		return "Redis is full and refuses writes: raise maxmemory, and keep maxmemory-policy noeviction"
	case errors.Is(err, ErrCannotPersist):
		return "Redis refuses writes because it cannot save to disk: fix its persistence (disk space, permissions)"
	case errors.Is(err, ErrTLS):
		return "the TLS handshake failed: use rediss:// only for a server that speaks TLS, and check its certificate"
	case errors.Is(err, ErrLoading):
		return "Redis is starting or failing over: try again in a moment"
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, os.ErrDeadlineExceeded):
		return "check the host and port in REDIS_URL and firewalls; use rediss:// if the server requires TLS"
	}
	return "start Redis or point REDIS_URL at it: redis://host:6379/0, rediss:// for TLS, unix:///path/to/redis.sock"
}
