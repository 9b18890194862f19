package store

import (
	"fmt"
	"strconv"
	"time"
	"unicode/utf8"
)

// MaxPromptRunes is the length, in runes, to which the store truncates a job's
// prompt excerpt.
const MaxPromptRunes = 300

// chunkBytes is the largest value stored in one hash field. Redis keeps a hash
// in its compact listpack encoding only while every value is at most
// hash-max-listpack-value (64 by default) bytes long, so long text (the prompt
// excerpt, the pull request link) is split over numbered fields.
const chunkBytes = 64

// Hash field names of a job record. They are short on purpose: each one is
// stored in every record. The Lua scripts use the same names.
const (
	fTeam       = "t"  // Thread.Team
	fChannel    = "c"  // Thread.Channel
	fTS         = "s"  // Thread.TS
	fRequester  = "r"  // Requester
	fPrompt     = "p"  // Prompt, in chunks p0, p1, ...
	fStatus     = "st" // Status
	fPRLink     = "l"  // PRLink, in chunks l0, l1, ...
	fGen        = "g"  // Generation
	fNotified   = "n"  // Notified
	fAttempts   = "na" // NotifyAttempts
	fPolls      = "pl" // Polls
	fToken      = "tk" // fencing token, bumped by every claim and follow-up
	fCreated    = "ca" // CreatedAt, unix ms
	fUpdated    = "ua" // UpdatedAt, unix ms
	fRoot       = "rt" // Root, when it is not the thread's parent
	fRun        = "rs" // RunStarted, unix ms (set by a follow-up)
	fOrigin     = "o"  // Origin
	fSeen       = "sn" // Seen
	fModel      = "m"  // Model
	fBranch     = "b"  // Branch
	fFollowKey  = "fk" // the key of the last follow-up applied (FollowUp)
	fProject    = "pj" // Project, when the job is not the implicit project's
	fUnfollow   = "uf" // Unfollowed (StopFollowing; the script names it)
	fEnterprise = "e"  // Enterprise, on Enterprise Grid
)

// Thread identifies the Slack thread a job is linked to: the thread's parent
// message (the bot's root message, or the person's message that started the
// job when the root message is a reply in its thread; see Job.Root).
type Thread struct {
	Team, Channel, TS string
}

// String returns "team/channel/ts", for logs.
func (t Thread) String() string { return t.Team + "/" + t.Channel + "/" + t.TS }

// valid reports whether every part is set.
func (t Thread) valid() bool { return t.Team != "" && t.Channel != "" && t.TS != "" }

// Job is the stored state of an agent job and its thread.
type Job struct {
	// ID is the agent job's id in the docs API.
	ID string
	// Thread is the Slack thread the job reports to.
	Thread Thread
	// Requester is the Slack user who started the job.
	Requester string
	// Root is the ts of the bot's root (status) message when it is a reply
	// in the thread rather than its parent (a job started by a mention, a
	// DM or a modal under someone's message); "" means Thread.TS.
	Root string
	// Prompt is a short excerpt of the instruction, for display; the store
	// truncates it to MaxPromptRunes runes.
	Prompt string
	// Status is the last status seen for the job (for example "active").
	Status string
	// PRLink is the pull request the finished job opened, if any.
	PRLink string
	// Generation counts the job's starts: 1 at creation, +1 per follow-up.
	Generation int64
	// Notified is the last generation whose finish was reported (0 = none).
	Notified int64
	// NotifyAttempts counts the notifications Finish handed out for the
	// current generation; above 1, an earlier attempt may have posted.
	NotifyAttempts int
	// Polls counts the claims since the current generation started, this
	// one's included (each poll is one; a claim handed back counts too); it
	// drives the caller's backoff.
	Polls int
	// CreatedAt and UpdatedAt are the record's creation and its last change
	// of status or generation (Redis clock, millisecond precision).
	CreatedAt, UpdatedAt time.Time
	// RunStarted is when the current generation started: CreatedAt for the
	// first, the follow-up's time for later ones (Redis clock).
	RunStarted time.Time
	// Origin is the ts of the person's message that asked for the job, in
	// the thread's channel ("" when there is none, as for a slash command):
	// the message the job's progress reactions go on.
	Origin string
	// Seen is the ts of the latest message of the thread that went to the
	// agent with the job's start: the later of Origin and the last message
	// read into its context ("" when no thread was read, and for records
	// older than it). Posts up to it reached the agent with the start, so
	// they are not follow-ups.
	Seen string
	// Model and Branch are the agent's model and the branch it works on, as
	// the docs API reported them at creation ("" when it did not).
	Model, Branch string
	// Project is the short name of the docs project the job runs in (see
	// bot/project); "" for the one project of an installation without a
	// projects file, and for jobs recorded before projects existed.
	Project string
	// Unfollowed is the last generation whose following in Slack was
	// stopped (StopFollowing: Stop in the assistant pane); 0 = none.
	Unfollowed int64
	// Enterprise is the Enterprise Grid organisation of the thread's
	// workspace (Thread.Team), "" elsewhere and in jobs recorded before it.
	Enterprise string
}

// Workspace is the Slack workspace the job reports to.
func (j Job) Workspace() Workspace { return Workspace{Team: j.Thread.Team, Enterprise: j.Enterprise} }

// Followed reports whether the current run is followed in Slack: its live
// message (the root) edited as it goes. A run no longer followed still has
// its result reported once.
func (j *Job) Followed() bool { return j.Unfollowed < j.Generation }

// truncateRunes returns s cut to at most n runes.
func truncateRunes(s string, n int) string {
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos]
		}
		i++
	}
	return s
}

// chunks splits s into pieces of at most chunkBytes bytes, cutting only at
// rune boundaries where the text is valid UTF-8.
func chunks(s string) []string {
	var out []string
	for len(s) > 0 {
		n := min(chunkBytes, len(s))
		if n < len(s) {
			for n > 0 && !utf8.RuneStart(s[n]) {
				n--
			}
			if n == 0 {
				n = chunkBytes
			}
		}
		out = append(out, s[:n])
		s = s[n:]
	}
	return out
}

// joinChunks reassembles a text stored by chunks under name.
func joinChunks(m map[string]string, name string) string {
	var s string
	for i := 0; ; i++ {
		c, ok := m[name+strconv.Itoa(i)]
		if !ok {
			return s
		}
		s += c
	}
}

// encodeJob returns the field/value pairs LinkJob writes for j, without the
// counters and times the script sets.
func encodeJob(j Job) []any {
	args := []any{
		fTeam, j.Thread.Team,
		fChannel, j.Thread.Channel,
		fTS, j.Thread.TS,
		fRequester, j.Requester,
		fStatus, j.Status,
	}
	for _, f := range [][2]string{{fRoot, j.Root}, {fOrigin, j.Origin}, {fSeen, j.Seen}, {fModel, j.Model}, {fBranch, j.Branch}, {fProject, j.Project}, {fEnterprise, j.Enterprise}} {
		if f[1] != "" {
			args = append(args, f[0], f[1])
		}
	}
	for i, c := range chunks(truncateRunes(j.Prompt, MaxPromptRunes)) {
		args = append(args, fPrompt+strconv.Itoa(i), c)
	}
	for i, c := range chunks(j.PRLink) {
		args = append(args, fPRLink+strconv.Itoa(i), c)
	}
	return args
}

// decodeJob builds a Job from a record's fields.
func decodeJob(id string, m map[string]string) (*Job, error) {
	d := decoder{m: m}
	j := &Job{
		ID:             id,
		Thread:         Thread{Team: m[fTeam], Channel: m[fChannel], TS: m[fTS]},
		Requester:      m[fRequester],
		Root:           m[fRoot],
		Prompt:         joinChunks(m, fPrompt),
		Status:         m[fStatus],
		PRLink:         joinChunks(m, fPRLink),
		Generation:     d.int(fGen),
		Notified:       d.int(fNotified),
		NotifyAttempts: int(d.int(fAttempts)),
		Polls:          int(d.int(fPolls)),
		CreatedAt:      d.time(fCreated),
		UpdatedAt:      d.time(fUpdated),
		RunStarted:     d.time(fRun),
		Origin:         m[fOrigin],
		Seen:           m[fSeen],
		Model:          m[fModel],
		Branch:         m[fBranch],
		Project:        m[fProject],
		Unfollowed:     d.int(fUnfollow),
		Enterprise:     m[fEnterprise],
	}
	if j.RunStarted.IsZero() {
		j.RunStarted = j.CreatedAt
	}
	if d.err != nil {
		return nil, wrapErr(d.err, "store: job %s", id)
	}
	return j, nil
}

// decoder parses numeric fields, keeping the first error.
type decoder struct {
	m   map[string]string
	err error
}

func (d *decoder) int(f string) int64 {
	v, ok := d.m[f]
	if !ok {
		return 0
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil && d.err == nil {
		d.err = wrapErr(err, "field %s", f)
	}
	return n
}

func (d *decoder) time(f string) time.Time {
	ms := d.int(f)
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms)
}

// pairsToMap turns a flat field/value list from a script into a map.
func pairsToMap(v any) (map[string]string, error) {
	list, ok := v.([]any)
	if !ok || len(list)%2 != 0 {
		return nil, fmt.Errorf("store: unexpected record reply %T", v)
	}
	m := make(map[string]string, len(list)/2)
	for i := 0; i < len(list); i += 2 {
		k, ok1 := list[i].(string)
		val, ok2 := list[i+1].(string)
		if !ok1 || !ok2 {
			return nil, fmt.Errorf("store: unexpected record field %T=%T", list[i], list[i+1])
		}
		m[k] = val
	}
	return m, nil
}
