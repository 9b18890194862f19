package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/redis/go-redis/v9"
)

// The actions an audit record names.
const (
	AuditJobStart = "job.start"       // an agent job was asked for
	AuditFollowUp = "job.followup"    // a follow-up message was sent to a job
	AuditResult   = "job.result"      // a job's result was reported
	AuditRefusal  = "refusal"         // someone was refused (role, allow-list)
	AuditSettings = "settings.change" // a setting was changed from Slack
	AuditInstall  = "install"         // a workspace added docsbot by link (install mode)
	AuditRemove   = "uninstall"       // a workspace removed docsbot or revoked its token
)

// auditPageLimit is the largest page Each reads.
const auditPageLimit = 10000

// DefaultAuditRetention is how long audit records are kept unless
// AuditOptions say otherwise.
const DefaultAuditRetention = 90 * 24 * time.Hour

// AuditRecord is one entry of the audit trail: who did what, where, in which
// project, and how it ended.
type AuditRecord struct {
	// ID is the stream entry's id; set by the store.
	ID string
	// At is when the record was appended, on the Redis clock; set by the store.
	At time.Time
	// Team, Channel and User are the Slack workspace, channel and person.
	Team, Channel, User string
	// Project is the project's short name.
	Project string
	// Action is what was done (AuditJobStart, ...); required.
	Action string
	// Outcome is how it ended, such as "ok", "refused" or "failed".
	Outcome string
	// JobID is the agent job concerned, if any.
	JobID string
	// Detail is a short note, such as the reason of a refusal.
	Detail string
	// Work is the key of the piece of work (or the delivery) the record was
	// written for: two records with the same Work and Action are one event
	// appended twice (at least once; store/doc.go).
	Work string
	// Instruction is, on Append, the text the person gave: the store keeps
	// its SHA-256 and length, and the text itself only when the log keeps
	// text (AuditOptions.KeepText). Read back, it is the text if kept.
	Instruction string
	// InstructionSHA256 is the hex SHA-256 of the instruction's UTF-8
	// bytes; set by the store, "" when there was none.
	InstructionSHA256 string
	// InstructionLen is the instruction's length in characters; set by the
	// store.
	InstructionLen int
}

// AuditOptions configure an AuditLog.
type AuditOptions struct {
	// KeepText keeps the instructions' text, not only their hash and length
	// (DOCSBOT_AUDIT_TEXT).
	KeepText bool
	// Retention is how long records are kept (DOCSBOT_AUDIT_RETENTION);
	// DefaultAuditRetention when 0 or less.
	Retention time.Duration
}

// AuditLog is the audit trail of one installation: a Redis stream,
// {p}audit, trimmed by age. It is safe for concurrent use.
type AuditLog struct {
	s    *Store
	opts AuditOptions
}

// AuditLog returns the installation's audit trail with opts.
func (s *Store) AuditLog(opts AuditOptions) *AuditLog {
	if opts.Retention <= 0 {
		opts.Retention = DefaultAuditRetention
	}
	return &AuditLog{s: s, opts: opts}
}

// auditKey is the stream of the audit trail.
func (s *Store) auditKey() string { return s.prefix + "audit" }

// Stream field names of a record.
const (
	afTeam, afChannel, afUser, afProject = "t", "c", "u", "p"
	afAction, afOutcome, afJob, afDetail = "a", "o", "j", "d"
	afSHA, afLen, afText, afWork         = "h", "n", "x", "w"
)

// luaAuditTrim: KEYS stream; ARGV retention ms. Removes every record older
// than the retention (MINID =) and returns how many.
const luaAuditTrim = luaNow + `
return redis.call('XTRIM', KEYS[1], 'MINID', '=', now_ms() - tonumber(ARGV[1]))
`

// Append adds rec to the trail and returns its id, one XADD whose id is
// the Redis clock's. Records older than the retention are dropped at the
// same time, a stream node at a time (Trim drops them exactly), by this
// replica's clock: a skew of a few seconds moves a retention of days by as
// much, and saves a script reading the Redis clock on every append.
func (a *AuditLog) Append(ctx context.Context, rec AuditRecord) (string, error) {
	e, err := a.Entry(rec)
	if err != nil {
		return "", err
	}
	id, err := a.s.rdb.XAdd(ctx, &redis.XAddArgs{Stream: e.stream, ID: "*", Values: e.fields,
		MinID: e.minID(), Approx: true}).Result()
	if err != nil {
		return "", wrapErr(err, "store: audit %s", rec.Action)
	}
	a.s.confirmBestEffort(ctx)
	return id, nil
}

// AuditEntry is an audit record made ready to be appended with the end of
// the piece of work it records (Inbox.Done), by AuditLog.Entry.
type AuditEntry struct {
	stream    string
	retention time.Duration
	fields    []any
}

// minID is the MINID that drops the records older than the retention, by
// this replica's clock (Append).
func (e AuditEntry) minID() string {
	return strconv.FormatInt(time.Now().Add(-e.retention).UnixMilli(), 10)
}

// Entry makes rec ready to be appended by Inbox.Done, as Append would
// append it.
func (a *AuditLog) Entry(rec AuditRecord) (AuditEntry, error) {
	if rec.Action == "" {
		return AuditEntry{}, fmt.Errorf("store: audit: record without an action: %w", ErrInvalid)
	}
	var args []any
	add := func(field, v string) {
		if v != "" {
			args = append(args, field, v)
		}
	}
	add(afTeam, rec.Team)
	add(afChannel, rec.Channel)
	add(afUser, rec.User)
	add(afProject, rec.Project)
	add(afAction, rec.Action)
	add(afOutcome, rec.Outcome)
	add(afJob, rec.JobID)
	add(afDetail, rec.Detail)
	add(afWork, rec.Work)
	if rec.Instruction != "" {
		sum := sha256.Sum256([]byte(rec.Instruction))
		add(afSHA, hex.EncodeToString(sum[:]))
		add(afLen, strconv.Itoa(utf8.RuneCountInString(rec.Instruction)))
		if a.opts.KeepText {
			add(afText, rec.Instruction)
		}
	}
	return AuditEntry{stream: a.s.auditKey(), retention: a.opts.Retention, fields: args}, nil
}

// Trim removes every record older than the retention and returns how many.
func (a *AuditLog) Trim(ctx context.Context) (int64, error) {
	n, err := a.s.sc.auditTrim.Run(ctx, a.s.rdb, []string{a.s.auditKey()}, millis(a.opts.Retention)).Int64()
	if err != nil {
		return 0, wrapErr(err, "store: trim audit")
	}
	return n, nil
}

// AuditQuery chooses the records to read.
type AuditQuery struct {
	// Since skips records appended before it; the zero time reads all that
	// are kept. Records older than the retention are never read, even before
	// they are trimmed.
	Since time.Time
	// Project reads only the records of that project; "" reads all.
	Project string
	// PageSize is how many entries one XRANGE reads (default 500).
	PageSize int
}

// DefaultAuditPageSize is the page size of an AuditQuery without one.
const DefaultAuditPageSize = 500

// page reads the records of one page, oldest first, from the unix ms floor
// on: up to q.PageSize stream entries after the id after ("" for the first
// page), of which it returns those q selects. next is the id to pass for the
// following page, "" when this page reached the end of the trail.
func (a *AuditLog) page(ctx context.Context, q AuditQuery, after string, floor int64) (recs []AuditRecord, next string, err error) {
	count := q.PageSize
	if count <= 0 {
		count = DefaultAuditPageSize
	}
	if count > auditPageLimit {
		return nil, "", fmt.Errorf("store: audit page of %d, want at most %d: %w", count, auditPageLimit, ErrInvalid)
	}
	start := strconv.FormatInt(floor, 10)
	if after != "" {
		t, err := idTime(after)
		if err != nil {
			return nil, "", fmt.Errorf("store: audit page after %q: %w", after, ErrInvalid)
		}
		if t.UnixMilli() >= floor {
			start = "(" + after
		}
	}
	msgs, err := a.s.rdb.XRangeN(ctx, a.s.auditKey(), start, "+", int64(count)).Result()
	if err != nil {
		return nil, "", wrapErr(err, "store: read audit")
	}
	for _, m := range msgs {
		rec, err := auditRecord(m)
		if err != nil {
			return nil, "", err
		}
		if q.Project == "" || rec.Project == q.Project {
			recs = append(recs, rec)
		}
	}
	if len(msgs) == count {
		next = msgs[len(msgs)-1].ID
	}
	return recs, next, nil
}

// Each calls fn with every record q selects, oldest first, reading the trail
// page by page; it stops at fn's first error and returns it. Records
// appended while it reads are included.
func (a *AuditLog) Each(ctx context.Context, q AuditQuery, fn func(AuditRecord) error) error {
	floor, err := a.floor(ctx, q.Since)
	if err != nil {
		return err
	}
	after := ""
	for {
		recs, next, err := a.page(ctx, q, after, floor)
		if err != nil {
			return err
		}
		for _, r := range recs {
			if err := fn(r); err != nil {
				return err
			}
		}
		if next == "" {
			return nil
		}
		after = next
	}
}

// floor is the first unix ms to read: since, but no earlier than the
// retention allows, on the Redis clock.
func (a *AuditLog) floor(ctx context.Context, since time.Time) (int64, error) {
	now, err := a.s.rdb.Time(ctx).Result()
	if err != nil {
		return 0, wrapErr(err, "store: read audit: time")
	}
	floor := now.UnixMilli() - a.opts.Retention.Milliseconds()
	if !since.IsZero() {
		floor = max(floor, since.UnixMilli())
	}
	return max(floor, 0), nil
}

// idTime is the time in a stream id (unix ms, then a sequence).
func idTime(id string) (time.Time, error) {
	ms, seq, ok := strings.Cut(id, "-")
	if !ok {
		return time.Time{}, fmt.Errorf("stream id %q", id)
	}
	n, err := strconv.ParseInt(ms, 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("stream id %q: %w", id, err)
	}
	if _, err := strconv.ParseUint(seq, 10, 64); err != nil {
		return time.Time{}, fmt.Errorf("stream id %q: %w", id, err)
	}
	return time.UnixMilli(n).UTC(), nil
}

// auditRecord decodes a stream entry.
func auditRecord(m redis.XMessage) (AuditRecord, error) {
	at, err := idTime(m.ID)
	if err != nil {
		return AuditRecord{}, fmt.Errorf("store: read audit: %w", err)
	}
	get := func(f string) string {
		v, _ := m.Values[f].(string)
		return v
	}
	rec := AuditRecord{
		ID: m.ID, At: at,
		Team: get(afTeam), Channel: get(afChannel), User: get(afUser), Project: get(afProject),
		Action: get(afAction), Outcome: get(afOutcome), JobID: get(afJob), Detail: get(afDetail),
		Work:        get(afWork),
		Instruction: get(afText), InstructionSHA256: get(afSHA),
	}
	if n := get(afLen); n != "" {
		if rec.InstructionLen, err = strconv.Atoi(n); err != nil {
			return AuditRecord{}, fmt.Errorf("store: read audit %s: length %q: %w", m.ID, n, err)
		}
	}
	return rec, nil
}
