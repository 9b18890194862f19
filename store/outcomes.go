package store

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// OutcomeRetention is how long a question's outcome record, and each day's
// counts of a project's outcomes, are kept from the question's day.
const OutcomeRetention = 90 * 24 * time.Hour

// outcomeTries bounds UpdateOutcome's writes over a record another
// replica changed in between.
const outcomeTries = 8

// OutcomeRef names a question by one of its messages: the question's
// own (the thread it starts) or docsbot's answer to it.
type OutcomeRef struct{ Team, Channel, TS string }

func (r OutcomeRef) valid() bool { return r.Team != "" && r.Channel != "" && r.TS != "" }

// String returns "team/channel/ts", for logs.
func (r OutcomeRef) String() string { return r.Team + "/" + r.Channel + "/" + r.TS }

// Vote is one person's 👍/👎 on an answer as it stands after their
// latest press: Choice "" once a press withdrew it; At is the press's
// Slack action_ts, so that an earlier press arriving late, or one applied
// twice, changes nothing.
type Vote struct {
	Choice string `json:"c,omitempty"`
	At     string `json:"at"`
}

// OutcomeRecord is what is known of one question docsbot answered: the
// facts its signals left and the outcome they decide (bot/outcome has the
// table; the store keeps the record and counts it, knowing nothing of the
// table).
type OutcomeRecord struct {
	Project string `json:"p"`
	Team    string `json:"t"`
	Channel string `json:"c"`
	// TS is the thread the question started (the record's key); Answer
	// docsbot's first answer in it.
	TS     string    `json:"ts"`
	Answer string    `json:"a,omitempty"`
	Asker  string    `json:"u,omitempty"`
	Asked  time.Time `json:"at"`
	// Outcome is the question's outcome (bot/outcome's states).
	Outcome string `json:"o"`
	// Sources: the answer cited the docs; Uncertain: it had no sources or
	// said the docs do not cover the question; Replied: someone other
	// than the asker replied in the thread.
	Sources   bool `json:"s,omitempty"`
	Uncertain bool `json:"un,omitempty"`
	Replied   bool `json:"r,omitempty"`
	// Votes are each person's 👍/👎 (the asker's among them).
	Votes map[string]Vote `json:"vo,omitempty"`
	// Question is the question as asked, cut short by its writer, and
	// Topic what it asks, its words put in one form (bot/outcome's
	// TopicOf): the quality report counts a day's questions by topic and
	// outcome, with one question of each topic to show (OutcomeDay).
	Question string `json:"q,omitempty"`
	Topic    string `json:"tp,omitempty"`
	// FirstText is how long after the question the first text of
	// docsbot's answer showed; 0 when it was not measured (a measure is
	// at least a millisecond).
	FirstText time.Duration `json:"ft,omitempty"`
	// Version counts the writes (UpdateOutcome's compare and set); it is
	// last, as luaUpdateOutcome reads it.
	Version int64 `json:"v"`
}

// AskerVote is the asker's choice ("" for none).
func (r OutcomeRecord) AskerVote() string { return r.Votes[r.Asker].Choice }

// Counted fields of a day's outcome counts (OutcomeDay.Counts): the
// questions, each outcome as "o:<outcome>", the questions answered with
// sources, rated by their asker and rated helpful by them, and the others'
// 👍 and 👎 counted beside.
const (
	CountQuestions  = "questions"
	CountSources    = "sources"
	CountRated      = "rated"
	CountHelpful    = "helpful"
	CountOthersUp   = "others_up"
	CountOthersDown = "others_down"
)

// CountOutcome is the counted field of outcome o.
func CountOutcome(o string) string { return "o:" + o }

// tally is what record r adds to its day's counts.
func (r OutcomeRecord) tally() map[string]int64 {
	t := map[string]int64{CountQuestions: 1, CountOutcome(r.Outcome): 1}
	if r.Sources {
		t[CountSources] = 1
	}
	switch r.AskerVote() {
	case "":
	case VoteUp:
		t[CountRated], t[CountHelpful] = 1, 1
	default:
		t[CountRated] = 1
	}
	for who, v := range r.Votes {
		switch {
		case who == r.Asker:
		case v.Choice == VoteUp:
			t[CountOthersUp]++
		case v.Choice == VoteDown:
			t[CountOthersDown]++
		}
	}
	return t
}

// FirstTextStep is the step the day's times to a first text are counted
// by (OutcomeDay.FirstTexts): a tenth of a second.
const FirstTextStep = 100 * time.Millisecond

// Fields of a day's details (the details hash, OutcomeDay's FirstTexts,
// Topics and Examples): a question's time to its first text, in steps;
// its topic under its outcome; a question of each topic.
const (
	detailFirstText = "ft:"
	detailTopic     = "t:"
	detailExample   = "x:"
)

// details is what record r adds to its day's details: its time to the
// first text and its topic under its outcome, each a question.
func (r OutcomeRecord) details() map[string]int64 {
	d := map[string]int64{}
	if r.FirstText > 0 {
		d[detailFirstText+strconv.FormatInt(int64((r.FirstText+FirstTextStep/2)/FirstTextStep), 10)] = 1
	}
	if r.Topic != "" {
		d[detailTopic+r.Outcome+":"+r.Topic] = 1
	}
	return d
}

// The choices of a Vote.
const (
	VoteUp   = "up"
	VoteDown = "down"
)

// OutcomeDay is one day's counts of a project's questions (by the
// question's day, UTC), as their records stand: Counts by the Count...
// fields and CountOutcome; FirstTexts the questions by the time to their
// first text (to the nearest FirstTextStep); Topics the questions by
// topic, then outcome; Examples a question of each topic, the first
// recorded that day.
type OutcomeDay struct {
	Day        time.Time
	Counts     map[string]int64
	FirstTexts map[time.Duration]int64
	Topics     map[string]map[string]int64
	Examples   map[string]string
}

// {p}outcome:{p:<project>}:<team>:<channel>:<ts>: a question's record
// (JSON); {p}outcomes:{p:<project>}:<team>:<YYYY-MM-DD>: a day's counts of
// the questions asked in one workspace (hash: one workspace never sees
// another's, though they share a project); all in the project's slot (a
// tag that is never empty, "" being the implicit project), so that one
// script changes a record and its day's counts.
func (s *Store) outcomeKey(project, team, channel, ts string) string {
	return s.prefix + "outcome:{p:" + project + "}:" + team + ":" + channel + ":" + ts
}

func (s *Store) outcomeDayKey(project, team string, day time.Time) string {
	return s.prefix + "outcomes:{p:" + project + "}:" + team + ":" + day.UTC().Format(time.DateOnly)
}

// {p}outcome-teams:{p:<project>}: the workspaces whose questions the
// project's day counts hold (set), in the same slot.
func (s *Store) outcomeTeamsKey(project string) string {
	return s.prefix + "outcome-teams:{p:" + project + "}"
}

// {p}outcome-asks:{p:<project>}:<team>:<YYYY-MM-DD>: a day's details
// (hash: the times to a first text, the topics by outcome, a question of
// each topic), in the same slot.
func (s *Store) outcomeDetailsKey(project, team string, day time.Time) string {
	return s.prefix + "outcome-asks:{p:" + project + "}:" + team + ":" + day.UTC().Format(time.DateOnly)
}

// {p}outcome-ref:<team>:<channel>:<ts>: "<project> <question ts>" for a
// question's message and its answer's, written once.
func (s *Store) outcomeRefKey(r OutcomeRef) string {
	return s.prefix + "outcome-ref:" + r.Team + ":" + r.Channel + ":" + r.TS
}

// UpdateOutcome changes the record of the question ref names (its own
// message or its answer's) with fn, which gets a copy and reports whether
// it changed it: the record and its day's counts are written by one
// script, only over the version fn was given (luaUpdateOutcome), else fn
// runs again on the record found. A second replica applying the same
// signal finds it applied: fn changes nothing and nothing is written.
//
// create, when not nil, is the record of a question not yet recorded
// (Project, "" for the implicit one, TS, Asked set; Answer, when known, names it
// too); fn starts from it, and ref may name it or its answer. Without
// create, a ref that names no recorded question is (false, nil): nothing
// to change. It returns whether it wrote, and the record as it stands.
//
// now is the time of the change on the clock Asked was read on (the
// features'): what is written is kept OutcomeRetention from the question
// by that clock, as a time to live from now, so that a clock other than
// Redis's (a test's) keeps it as long.
func (o Outcomes) UpdateOutcome(ctx context.Context, ref OutcomeRef, create *OutcomeRecord, now time.Time, fn func(*OutcomeRecord) bool) (OutcomeRecord, bool, error) {
	s := o.s
	if !ref.valid() || create != nil && (create.TS == "" || create.Asked.IsZero()) {
		return OutcomeRecord{}, false, fmt.Errorf("store: update outcome of %s: %w", ref, ErrInvalid)
	}
	project, ts, found, err := o.locate(ctx, ref, create, now)
	if err != nil || !found {
		return OutcomeRecord{}, false, err
	}
	key := s.outcomeKey(project, ref.Team, ref.Channel, ts)
	cur, found, err := o.read(ctx, key)
	if err != nil {
		return OutcomeRecord{}, false, err
	}
	for range outcomeTries {
		if !found && create == nil {
			return OutcomeRecord{}, false, nil // ran out
		}
		base := cur
		if !found {
			base = *create
			base.Version = 0
		}
		next := base
		next.Votes = maps.Clone(base.Votes)
		if !fn(&next) {
			return base, false, nil
		}
		next.Version = base.Version + 1
		blob, err := json.Marshal(next)
		if err != nil {
			return OutcomeRecord{}, false, fmt.Errorf("store: outcome of %s: %w", ref, err)
		}
		day := next.Asked.UTC().Truncate(24 * time.Hour)
		args := []any{base.Version, blob, keepFor(next.Asked.Add(OutcomeRetention), now), keepFor(day.Add(OutcomeRetention+24*time.Hour), now), ref.Team}
		args = appendDelta(args, next.tally(), cur.tally, found)
		args = appendDelta(args, next.details(), cur.details, found)
		if !found && next.Topic != "" && next.Question != "" {
			args = append(args, detailExample+next.Topic, next.Question)
		}
		keys := []string{key, s.outcomeDayKey(project, ref.Team, next.Asked), s.outcomeDetailsKey(project, ref.Team, next.Asked), s.outcomeTeamsKey(project)}
		res, err := s.outcomeUpdate.Run(ctx, s.rdb, keys, args...).Result()
		if err != nil {
			return OutcomeRecord{}, false, wrapErr(err, "store: update outcome of %s", ref)
		}
		switch got := res.(type) {
		case int64:
			if got == 1 {
				return next, true, nil
			}
			cur, found = OutcomeRecord{}, false
		case string:
			cur, found = OutcomeRecord{}, true
			if err := json.Unmarshal([]byte(got), &cur); err != nil {
				return OutcomeRecord{}, false, fmt.Errorf("store: outcome of %s: %w", ref, err)
			}
		default:
			return OutcomeRecord{}, false, fmt.Errorf("store: update outcome of %s: the script answered %T", ref, res)
		}
	}
	return OutcomeRecord{}, false, fmt.Errorf("store: update outcome of %s: %w", ref, ErrContended)
}

// keepFor is how long, in milliseconds, what is kept until until (by the
// clock of now) is still kept: at least a second.
func keepFor(until, now time.Time) int64 { return max(until.Sub(now), time.Second).Milliseconds() }

// appendDelta appends to args what changes from was (when found) to now:
// their number, then each field and what to add to it (luaUpdateOutcome).
func appendDelta(args []any, now map[string]int64, was func() map[string]int64, found bool) []any {
	if found {
		for f, n := range was() {
			now[f] -= n
		}
	}
	at := len(args)
	args = append(args, 0)
	for f, n := range now {
		if n != 0 {
			args = append(args, f, n)
		}
	}
	args[at] = (len(args) - at - 1) / 2
	return args
}

// locate is the project and question ts of ref: create's, its references
// written first (once: the first question a message names stays its
// question), or those a reference holds; found false when none does.
func (o Outcomes) locate(ctx context.Context, ref OutcomeRef, create *OutcomeRecord, now time.Time) (project, ts string, found bool, err error) {
	s := o.s
	if create != nil {
		val := create.Project + " " + create.TS
		keep := time.Duration(keepFor(create.Asked.Add(OutcomeRetention), now)) * time.Millisecond
		pipe := s.rdb.Pipeline()
		for _, m := range []string{create.TS, create.Answer, ref.TS} {
			if m != "" {
				pipe.SetArgs(ctx, s.outcomeRefKey(OutcomeRef{ref.Team, ref.Channel, m}), val, redis.SetArgs{Mode: "NX", TTL: keep})
			}
		}
		if _, err := pipe.Exec(ctx); err != nil && !errors.Is(err, redis.Nil) {
			return "", "", false, wrapErr(err, "store: reference the outcome of %s", ref)
		}
	}
	val, err := s.rdb.Get(ctx, s.outcomeRefKey(ref)).Result()
	switch {
	case errors.Is(err, redis.Nil):
		return "", "", false, nil
	case err != nil:
		return "", "", false, wrapErr(err, "store: outcome of %s", ref)
	}
	project, ts, _ = strings.Cut(val, " ")
	return project, ts, true, nil
}

func (o Outcomes) read(ctx context.Context, key string) (OutcomeRecord, bool, error) {
	var r OutcomeRecord
	err := o.s.getJSON(ctx, key, &r, "outcome")
	switch {
	case errors.Is(err, ErrNotFound):
		return OutcomeRecord{}, false, nil
	case err != nil:
		return OutcomeRecord{}, false, err
	}
	return r, true, nil
}

// Outcome returns the record of the question ref names (its message or
// its answer's): ErrNotFound when none is recorded, or its time ran out.
// Its Outcome is as last written: bot/outcome reads it at a time (a
// question left open past its quiet time is no_signal).
func (o Outcomes) Outcome(ctx context.Context, ref OutcomeRef) (OutcomeRecord, error) {
	if !ref.valid() {
		return OutcomeRecord{}, fmt.Errorf("store: outcome of %s: %w", ref, ErrInvalid)
	}
	project, ts, found, err := o.locate(ctx, ref, nil, time.Time{})
	if err != nil {
		return OutcomeRecord{}, err
	}
	if !found {
		return OutcomeRecord{}, ErrNotFound
	}
	r, found, err := o.read(ctx, o.s.outcomeKey(project, ref.Team, ref.Channel, ts))
	if err == nil && !found {
		err = ErrNotFound
	}
	return r, err
}

// OutcomeDays returns the counts of project's ("" the implicit one)
// questions asked in workspace team on each day from first to last (UTC
// days, both included), one OutcomeDay a day, empty counts for a day
// without questions; one read of the project's slot.
func (o Outcomes) OutcomeDays(ctx context.Context, project, team string, first, last time.Time) ([]OutcomeDay, error) {
	s := o.s
	first, last = first.UTC().Truncate(24*time.Hour), last.UTC().Truncate(24*time.Hour)
	if last.Before(first) || last.Sub(first) > OutcomeRetention {
		return nil, fmt.Errorf("store: outcome days of %q from %v to %v: %w", project, first, last, ErrInvalid)
	}
	pipe := s.rdb.Pipeline()
	var counts, details []*redis.MapStringStringCmd
	for d := first; !d.After(last); d = d.Add(24 * time.Hour) {
		counts = append(counts, pipe.HGetAll(ctx, s.outcomeDayKey(project, team, d)))
		details = append(details, pipe.HGetAll(ctx, s.outcomeDetailsKey(project, team, d)))
	}
	if _, err := pipe.Exec(ctx); err != nil {
		return nil, wrapErr(err, "store: outcome days of %s", project)
	}
	out := make([]OutcomeDay, 0, len(counts))
	for i, c := range counts {
		day := OutcomeDay{Day: first.Add(time.Duration(i) * 24 * time.Hour), Counts: map[string]int64{},
			FirstTexts: map[time.Duration]int64{}, Topics: map[string]map[string]int64{}, Examples: map[string]string{}}
		for f, v := range c.Val() {
			if n, err := strconv.ParseInt(v, 10, 64); err == nil && n != 0 {
				day.Counts[f] = n
			}
		}
		day.readDetails(details[i].Val())
		out = append(out, day)
	}
	return out, nil
}

// OutcomeTeams returns the workspaces whose questions project's day counts
// hold (those of the last OutcomeRetention and a day), sorted.
func (o Outcomes) OutcomeTeams(ctx context.Context, project string) ([]string, error) {
	teams, err := o.s.rdb.SMembers(ctx, o.s.outcomeTeamsKey(project)).Result()
	if err != nil {
		return nil, wrapErr(err, "store: the workspaces of the outcomes of %s", project)
	}
	slices.Sort(teams)
	return teams, nil
}

// readDetails fills d's FirstTexts, Topics and Examples from its details
// hash; a field it does not know is skipped.
func (d *OutcomeDay) readDetails(fields map[string]string) {
	for f, v := range fields {
		if rest, ok := strings.CutPrefix(f, detailExample); ok {
			d.Examples[rest] = v
			continue
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n == 0 {
			continue
		}
		if rest, ok := strings.CutPrefix(f, detailFirstText); ok {
			if steps, err := strconv.ParseInt(rest, 10, 64); err == nil {
				d.FirstTexts[time.Duration(steps)*FirstTextStep] += n
			}
		} else if rest, ok := strings.CutPrefix(f, detailTopic); ok {
			if o, topic, ok := strings.Cut(rest, ":"); ok {
				if d.Topics[topic] == nil {
					d.Topics[topic] = map[string]int64{}
				}
				d.Topics[topic][o] += n
			}
		}
	}
}

// luaUpdateOutcome: KEYS the record, its day's counts, its day's details,
// the project's workspaces; ARGV the version the caller read (0: none),
// the record to write, how long it is kept and how long the day's counts
// and details are (ms: a day more than the day's last record), the
// record's workspace (added to the project's, kept as long), then for the counts and for the details, each:
// how many fields change, then each field and what to add to it; last,
// optionally, a field of the details set once (a topic's question) and
// its value. It writes only over that version and returns 1; else what it
// found: the record, or 0.
const luaUpdateOutcome = `
local cur = redis.call('GET', KEYS[1])
local want = tonumber(ARGV[1])
if cur then
  local v = tonumber(string.match(cur, '"v":(%d+)}$'))
  if v ~= want then return cur end
elseif want ~= 0 then
  return 0
end
redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
redis.call('SADD', KEYS[4], ARGV[5])
if redis.call('PTTL', KEYS[4]) < tonumber(ARGV[4]) then redis.call('PEXPIRE', KEYS[4], ARGV[4]) end
local i = 6
for k = 2, 3 do
  local n = tonumber(ARGV[i])
  i = i + 1
  for _ = 1, n do
    redis.call('HINCRBY', KEYS[k], ARGV[i], ARGV[i + 1])
    i = i + 2
  end
  if n > 0 then redis.call('PEXPIRE', KEYS[k], ARGV[4]) end
end
if ARGV[i] then
  redis.call('HSETNX', KEYS[3], ARGV[i], ARGV[i + 1])
  redis.call('PEXPIRE', KEYS[3], ARGV[4])
end
return 1
`
