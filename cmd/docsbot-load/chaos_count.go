package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// What the bot's messages say, as the chaos scenario reads them (bot/agent:
// start.go, lateroot.go, command.go, messages.go): keep in step with the bot.
const (
	storageDownMarker = "cannot reach its storage"
	unknownMarker     = "cannot tell whether"
	queuedMarker      = "is queued"
	// The notes that a job waits: for Slack (queued, or, for a root
	// posted once its job exists, started) or for the docs API
	// (starting). The person was told the command was taken, not that it
	// failed.
	startedMarker  = "job has started. Slack is limiting"
	startingMarker = "job is starting: the docs API is taking a moment"
)

// waitNotice reports whether text is a note that a job waits.
func waitNotice(text string) bool {
	return strings.Contains(text, queuedMarker) || strings.Contains(text, startedMarker) || strings.Contains(text, startingMarker)
}

// outcome counts what became of a kind of request.
type outcome struct {
	Done    int `json:"done_once"`
	Told    int `json:"told"`
	Timeout int `json:"slack_operation_timeout"`
	Lost    int `json:"lost"`
	Doubled int `json:"doubled"`
	// Owed counts results the bot still owed when the run's deadline ended
	// its wait (the job scheduled, its generation recorded and not yet
	// reported): not drained in time, which the run reports as a problem of
	// its own, rather than lost.
	Owed int `json:"owed_at_deadline"`
	// GaveUp counts Events API events (thread replies) that no replica
	// ever acknowledged and that Slack stopped sending because the
	// connection holding its last retry closed before an ack: the replica
	// was killed (or its socket dropped) with the last try in its hands.
	// Nothing was acknowledged, so it is Slack's to give up on; the run
	// reports it, and it is not lost. An event given up on while the
	// connection of its last try stayed open is lost: a live replica had
	// Slack's last try and told nobody.
	GaveUp int `json:"slack_gave_up"`
}

func (c outcome) String() string {
	s := fmt.Sprintf("%d done once, %d told, %d lost, %d doubled", c.Done, c.Told, c.Lost, c.Doubled)
	if c.Timeout > 0 {
		s += fmt.Sprintf(", %d operation_timeout shown by Slack", c.Timeout)
	}
	if c.GaveUp > 0 {
		s += fmt.Sprintf(", %d never acknowledged, given up by Slack (its last try's replica died)", c.GaveUp)
	}
	if c.Owed > 0 {
		s += fmt.Sprintf(", %d still owed at the deadline", c.Owed)
	}
	return s
}

// chaosResult is the report of the chaos scenario.
type chaosResult struct {
	Scenario string `json:"scenario"`
	// Rolling: the faults were rolling updates (--rolling), not crashes.
	Rolling   bool    `json:"rolling"`
	Seed      uint64  `json:"seed"`
	Machine   machine `json:"machine"`
	LoadStart string  `json:"load_average_start"`
	LoadEnd   string  `json:"load_average_end"`
	Options   string  `json:"options"`

	Commands outcome `json:"commands"`
	Replies  outcome `json:"replies"`
	Results  outcome `json:"results"`
	// Uncertain counts the starts whose root message says docsbot cannot
	// tell whether the agent started (bot/agent: startUnknown);
	// UncertainStarted, those of them the API did create a job for.
	Uncertain        int `json:"uncertain_starts"`
	UncertainStarted int `json:"uncertain_starts_created"`

	// Rolling updates (--rolling): those complete, the SIGTERMs they sent,
	// the replicas SIGKILLed for outliving the grace, and the longest a
	// replica took to exit after its SIGTERM.
	Rollouts    int           `json:"rollouts"`
	SIGTERMs    int           `json:"sigterms"`
	GraceKills  int           `json:"sigkills_past_grace"`
	SlowestStop time.Duration `json:"slowest_stop_ns"`

	ReplicaKills int `json:"replica_kills"`
	Restarts     int `json:"replica_restarts"`
	RedisKills   int `json:"redis_kills"`
	// Failover is the time from the primary's SIGKILL to the sentinels
	// naming the new one (--sentinel).
	Failover    time.Duration `json:"failover_ns"`
	SocketDrops int           `json:"socket_drops"`
	Slack429    int           `json:"slack_429s"`
	Redelivered int           `json:"events_redelivered"`
	Queued      int           `json:"queued_notices"`
	// TimeoutThenDone counts commands recorded by a replica that died
	// before its ack reached Slack: Slack showed operation_timeout, and
	// another replica started the job all the same.
	TimeoutThenDone int `json:"timeout_then_done"`

	// AckMax is the longest a slash command waited for its ack (the person
	// waits for it; Slack gives up after 3 s), over the whole run, faults
	// included.
	AckMax time.Duration `json:"ack_max_ns"`
	// FirstPostMax is the longest an acknowledged slash command waited for
	// its first visible post: its job's root message, or what it was told
	// instead (waits.go). ReplyMax is the longest a thread reply waited
	// until docsbot sent it on to the agent. Both count faults in: a
	// replica stopped with the work in its hands shows here as the time
	// another one took to take it over.
	FirstPostMax time.Duration `json:"first_post_max_ns"`
	ReplyMax     time.Duration `json:"reply_max_ns"`

	LastFault time.Time     `json:"last_fault"`
	Drain     time.Duration `json:"drain_ns"`
	// DrainFloor is the least time Slack's posting limit allows for the
	// posts made after the last fault, in the busiest channel.
	DrainFloor time.Duration `json:"drain_floor_ns"`
	// Took is the whole run, the bot's build excluded.
	Took time.Duration `json:"took_ns"`
	// Install is what install mode adds (--install), nil otherwise.
	Install *installFigures `json:"install,omitempty"`
	// Questions are what became of the questions asked (--questions), nil
	// without them.
	Questions *questionFigures `json:"questions,omitempty"`

	lostWhat []string
	issues   []string
	// killedAt are the times of the replica SIGKILLs.
	killedAt []time.Time
	// drained is set when every job was reported before the deadline.
	drained bool
	// postLimited: Slack's posting limit was in force.
	postLimited bool
}

func (o chaosOptions) describe() string {
	if o.install {
		retries := durations(installRetries)
		return fmt.Sprintf("install mode over HTTP behind a load balancer, 2 workspaces added by link with tokens lasting %s, Slack retrying events at %s; "+
			"%d replicas, %d commands over %d channels a workspace at %.1f/s, a reply to every %d-th job, replica SIGKILL every %s, %s, Slack latency %s, %s, jobs running %s",
			o.tokenLifetime, &retries, o.replicas, o.commands, o.channels, o.rate, o.replyEvery, o.killEvery, o.redisFault(), o.latency, o.postLimit(), o.agentTime)
	}
	if o.rolling {
		return fmt.Sprintf("%d replicas replaced one by one in rolling updates (the new one connected first, then SIGTERM for the old, %s to exit), a pause of up to %s between updates, "+
			"%d commands over %d channels at %.1f/s, a reply to every %d-th job, Slack latency %s (reads %s), %s, jobs running %s, seed %d",
			o.replicas, o.grace, o.rolloutPause, o.commands, o.channels, o.rate, o.replyEvery, o.latency, o.readLatency, o.postLimit(), o.agentTime, o.seed)
	}
	return fmt.Sprintf("%d replicas, %d commands over %d channels at %.1f/s, a reply to every %d-th job, replica SIGKILL every %s, %s, sockets dropped every %s, Slack latency %s, %s, jobs running %s",
		o.replicas, o.commands, o.channels, o.rate, o.replyEvery, o.killEvery, o.redisFault(), o.dropEvery, o.latency, o.postLimit(), o.agentTime)
}

// redisFault describes the Redis fault.
func (o chaosOptions) redisFault() string {
	if o.sentinel {
		return "Redis with Sentinel, the primary SIGKILLed once"
	}
	return fmt.Sprintf("Redis SIGKILL once for %s", o.redisDown)
}

// postLimit describes Slack's posting limit.
func (o chaosOptions) postLimit() string {
	if o.postRate <= 0 {
		return "no posting limit"
	}
	return fmt.Sprintf("posting limit %.1f/s per channel (burst %d)", o.postRate, o.postBurst)
}

func (r *chaosResult) title() string {
	if r.Install != nil {
		return "docsbot-load chaos --install: " + r.Options
	}
	if r.Rolling {
		return "docsbot-load chaos --rolling: " + r.Options
	}
	return "docsbot-load chaos: " + r.Options
}

func (r *chaosResult) problems() []string {
	out := append([]string(nil), r.issues...)
	for _, c := range []struct {
		what string
		o    outcome
	}{{"commands", r.Commands}, {"thread replies", r.Replies}, {"results", r.Results}} {
		if c.o.Lost > 0 || c.o.Doubled > 0 {
			out = append(out, fmt.Sprintf("%s: %d lost, %d doubled", c.what, c.o.Lost, c.o.Doubled))
		}
	}
	if len(r.lostWhat) > 0 {
		out = append(out, "lost or doubled: "+strings.Join(r.lostWhat, "; "))
	}
	if r.Install != nil {
		out = append(out, r.Install.problems()...)
	}
	if r.Questions != nil {
		out = append(out, r.Questions.problems()...)
	}
	return out
}

func (r *chaosResult) sections() []section {
	none := func(o outcome) bool { return o.Lost == 0 && o.Doubled == 0 }
	faults := section{heading: "Faults and pressure", rows: []row{
		fig("replica SIGKILLs / restarts", "%d / %d", r.ReplicaKills, r.Restarts),
		fig("Redis SIGKILLs", "%d%s", r.RedisKills, r.failoverNote()),
		fig("Slack socket drops", "%d", r.SocketDrops),
	}}
	if r.Rolling {
		faults = section{heading: "Rolling updates and pressure", rows: []row{
			goal("commands Slack showed operation_timeout for", fmt.Sprintf("%d", r.Commands.Timeout), "0", r.Commands.Timeout == 0),
			fig("rolling updates complete", "%d", r.Rollouts),
			fig("replicas given SIGTERM", "%d", r.SIGTERMs),
			goal("SIGKILLed past the grace", fmt.Sprintf("%d", r.GraceKills), "0", r.GraceKills == 0),
			fig("slowest exit after SIGTERM", "%.1f s", r.SlowestStop.Seconds()),
			goal("replicas that exited unasked", fmt.Sprintf("%d", r.Restarts), "0", r.Restarts == 0),
		}}
	}
	faults.rows = append(faults.rows,
		fig("posts refused by Slack (429)", "%d", r.Slack429),
		fig("events redelivered by Slack", "%d", r.Redelivered),
		fig("notices that a job waits (queued, starting)", "%d", r.Queued),
		fig("done although Slack showed a timeout", "%d (recorded, then the replica stopped or died before its ack reached Slack)", r.TimeoutThenDone),
	)
	if r.Install != nil {
		faults.rows = slices.Delete(faults.rows, 2, 3) // over HTTP, no socket to drop
	}
	out := []section{
		{heading: "What became of every request", rows: []row{
			goal("slash commands", r.Commands.String(), "0 lost, 0 doubled", none(r.Commands)),
			goal("thread replies (follow-ups)", r.Replies.String(), "0 lost, 0 doubled", none(r.Replies)),
			goal("job results", r.Results.String(), "0 lost, 0 doubled", none(r.Results)),
			fig("uncertain starts", "%d (root message: docsbot cannot tell whether the agent started; %d of them did start)", r.Uncertain, r.UncertainStarted),
		}},
		faults,
		{heading: "Answering Slack", rows: []row{
			goal("slowest slash-command ack", ms(r.AckMax), "< 3 s (Slack's limit)", r.AckMax < 3*time.Second),
			r.firstPostRow(),
			r.replyRow(),
		}},
		{heading: "Drain", rows: []row{
			fig("last fault → every job reported", "%.1f s", r.Drain.Seconds()),
			r.floorRow(),
			fig("the whole run", "%.1f s", r.Took.Seconds()),
		}},
	}
	if r.Install != nil {
		out = append(out, r.Install.section())
	}
	if r.Questions != nil {
		out = append(out, r.Questions.section())
	}
	return append(out, machineSection(r.Machine, r.LoadStart, r.LoadEnd))
}

// floorRow is the least drain Slack's posting limit allows, if it had one.
func (r *chaosResult) floorRow() row {
	if !r.postLimited {
		return fig("floor set by Slack's posting limit", "none (no posting limit)")
	}
	return fig("floor set by Slack's posting limit", "%.1f s (posts after the last fault in the busiest channel / rate)", r.DrainFloor.Seconds())
}

// linkedRoots maps the index of each command whose root message shows its
// job to the root's channel and ts.
func linkedRoots(sl *slacktest.Server, channels []string) map[int][2]string {
	out := map[int][2]string{}
	for _, ch := range channels {
		self := sl.ChannelBotUser(ch)
		for _, m := range sl.Messages(ch) {
			if m.User != self || !strings.Contains(string(m.Blocks), linkedMarker) {
				continue
			}
			if i, ok := chaosIndex(m.Text, "Chaos command "); ok {
				out[i] = [2]string{ch, m.TS}
			}
		}
	}
	return out
}

// chaosIndex reads the number after prefix in text.
func chaosIndex(text, prefix string) (int, bool) {
	_, rest, ok := strings.Cut(text, prefix)
	if !ok || len(rest) < 6 {
		return 0, false
	}
	i, err := strconv.Atoi(rest[:6])
	return i, err == nil
}

// sendChaosReply posts person's reply to job i in its thread and waits a
// while for the bot's ack; Slack redelivers it if none comes.
func sendChaosReply(ctx context.Context, sl *slacktest.Server, i int, root [2]string, person string) chaosReplyRec {
	rec := chaosReplyRec{index: i, channel: root[0], thread: root[1], user: person, sentAfter: time.Now()}
	wctx, cancel := context.WithTimeout(ctx, 4*time.Second)
	defer cancel()
	ts, id, err := sl.PostUserMessage(wctx, slacktest.UserMessage{ChannelID: root[0], UserID: person, Text: chaosReply(i), ThreadTS: root[1]})
	rec.ts, rec.eventID = ts, id
	rec.timedOut = errors.Is(err, context.DeadlineExceeded)
	return rec
}

// waitDrained waits until the inbox and the poll schedule are both empty:
// every command taken and every job reported. It returns when that was seen.
func waitDrained(ctx context.Context, r *rig) (time.Time, error) {
	for {
		q, qerr := r.store.Inbox().Queued(ctx)
		n, nerr := r.store.Jobs().Tracked(ctx)
		if qerr == nil && nerr == nil && q == 0 && n == 0 {
			return time.Now(), nil
		}
		if !sleep(ctx, 200*time.Millisecond) {
			return time.Now(), fmt.Errorf("%d pieces of work and %d jobs left: %w", q, n, ctx.Err())
		}
	}
}

// count decides, for every command, reply and job in channels, what became
// of it.
func (res *chaosResult) count(r *rig, o chaosOptions, sent []chaosCommand, replies []chaosReplyRec, channels []string) {
	sl, api := r.slack, r.api
	acks := map[string]json.RawMessage{}
	ackAt := map[string]time.Time{}
	for _, a := range sl.Acks() {
		acks[a.EnvelopeID] = a.Payload
		if _, seen := ackAt[a.EnvelopeID]; !seen {
			ackAt[a.EnvelopeID] = a.At
		}
	}
	for _, c := range sent {
		if at, ok := ackAt[c.envelope]; ok {
			res.AckMax = max(res.AckMax, at.Sub(c.sentAt))
		}
	}
	creates, messages := map[string]int{}, map[string]int{}
	var w waits
	for _, q := range api.Requests() {
		var body struct {
			Prompt string `json:"prompt"`
		}
		_ = json.Unmarshal([]byte(q.Body), &body)
		if q.Status != 0 && (q.Status < 200 || q.Status > 299) {
			continue // refused: nothing was created or sent (0: no answer, so maybe)
		}
		switch q.Endpoint {
		case docsapitest.EndpointCreate:
			creates[body.Prompt]++
		case docsapitest.EndpointMessage:
			messages[body.Prompt]++
			w.sentOn(body.Prompt, q.At)
		}
	}
	roots := map[int][]slacktest.Message{}
	for _, ch := range channels {
		self := sl.ChannelBotUser(ch)
		for _, m := range sl.Messages(ch) {
			if m.User != self {
				continue
			}
			if i, ok := chaosIndex(m.Text, "Chaos command "); ok {
				roots[i] = append(roots[i], m)
			}
		}
	}
	told := func(trigger string) bool {
		for _, p := range sl.ResponsePosts(trigger) {
			if p.Error == "" && !waitNotice(p.Text) {
				return true
			}
		}
		return false
	}
	for _, p := range sl.ResponsePosts("") {
		if waitNotice(p.Text) {
			res.Queued++
		}
	}
	lost := func(format string, args ...any) {
		if len(res.lostWhat) < 10 {
			res.lostWhat = append(res.lostWhat, fmt.Sprintf(format, args...))
		}
	}

	// Replies per job, to know each job's last generation.
	repliesTo := map[int]int{}
	for _, rp := range replies {
		if messages[chaosReply(rp.index)] > 0 {
			repliesTo[rp.index]++
		}
	}
	// The generation each job's record reached: above 1 + its replies when
	// docsbot followed a job again after a reply it could not tell had
	// reached the agent, and told the person so (bot/agent: followup.go).
	stored := storedJobs(r, api)

	for i, c := range sent {
		if !slices.Contains(channels, c.channel) {
			continue
		}
		payload, acked := acks[c.envelope]
		n := creates[chaosPrompt(i)]
		rs := roots[i]
		if slices.ContainsFunc(rs, uncertainStart) {
			res.Uncertain++
			if n > 0 {
				res.UncertainStarted++
			}
		}
		switch {
		case !acked && n == 0:
			res.Commands.Timeout++
			continue
		case !acked:
			// Recorded, then the replica died before its ack reached
			// Slack: the person saw operation_timeout, then the job.
			res.TimeoutThenDone++
		case strings.Contains(string(payload), storageDownMarker):
			res.Commands.Told++
			continue
		case n > 1 || len(rs) > 1:
			res.Commands.Doubled++
			lost("command %d: %d jobs created, %d root messages", i, n, len(rs))
			continue
		}
		shows := ""
		if len(rs) == 1 {
			shows = rendered(rs[0])
		}
		if n == 0 {
			// An ack with words (a refusal, a workspace docsbot cannot
			// serve now) told the person; the ack of a start has none.
			if strings.Contains(shows, notStartedMarker) || strings.Contains(shows, unknownMarker) || told(c.trigger) || len(payload) > 0 {
				res.Commands.Told++
			} else {
				res.Commands.Lost++
				lost("command %d: acked, no job, nobody told", i)
			}
			continue
		}
		if len(rs) == 0 {
			res.Commands.Lost++
			lost("command %d: job created with no root message", i)
			continue
		}
		res.Commands.Done++
		res.FirstPostMax = max(res.FirstPostMax, firstPost(sl, c, rs[0]))
		// The job's results, by generation, in its thread.
		perGen := map[int]int{}
		self := sl.ChannelBotUser(c.channel)
		for _, m := range sl.Thread(c.channel, rs[0].TS) {
			var md struct {
				EventType    string `json:"event_type"`
				EventPayload struct {
					Generation json.Number `json:"generation"`
				} `json:"event_payload"`
			}
			if m.User != self || json.Unmarshal(m.Metadata, &md) != nil || md.EventType != agent.FinishedEvent {
				continue
			}
			g, _ := md.EventPayload.Generation.Int64()
			perGen[int(g)]++
		}
		rec := stored[chaosPrompt(i)]
		last := max(1+repliesTo[i], int(rec.Generation))
		doubled := false
		for g, k := range perGen {
			if k > 1 {
				doubled = true
				lost("job of command %d: generation %d reported %d times", i, g, k)
			}
		}
		switch {
		case doubled:
			res.Results.Doubled++
		case perGen[last] == 1:
			res.Results.Done++
		case strings.Contains(shows, unknownMarker):
			res.Results.Told++
		case !res.drained && rec.Generation >= int64(last) && rec.Notified < int64(last) && rec.Scheduled:
			// The run ended before the bot got to it; the job was still
			// scheduled for its report.
			res.Results.Owed++
		default:
			res.Results.Lost++
			lost("job of command %d (root %s %s): generation %d never reported (seen %v; record at generation %d, notified %d, scheduled %t; root shows %q)", i, c.channel, rs[0].TS, last, perGen, rec.Generation, rec.Notified, rec.Scheduled, statusOf(shows))
		}
	}

	for _, rp := range replies {
		if !slices.Contains(channels, rp.channel) {
			continue
		}
		k := messages[chaosReply(rp.index)]
		res.ReplyMax = max(res.ReplyMax, w.replyWait(rp))
		switch replyOutcome(k, k == 0 && whispered(sl, rp), rp.fate) {
		case replyDone:
			res.Replies.Done++
		case replyDoubled:
			res.Replies.Doubled++
			lost("reply to job %d sent %d times", rp.index, k)
		case replyTold:
			res.Replies.Told++
		case replyGivenUp:
			res.Replies.GaveUp++
		default:
			res.Replies.Lost++
			lost("reply to job %d: not sent, nobody told (%s; timed out at Slack while the sender waited: %t)", rp.index, fateOf(rp.fate), rp.timedOut)
		}
	}

	for _, n := range sl.RateLimited() {
		res.Slack429 += n
	}
	res.Redelivered = sl.Redelivered()
	res.DrainFloor = drainFloor(sl, channels, res.LastFault, o.postRate)
	res.postLimited = o.postRate > 0
}

// What became of a thread reply (replyOutcome).
const (
	replyDone    = "done once"
	replyDoubled = "doubled"
	replyTold    = "told"
	replyGivenUp = "given up by Slack"
	replyLost    = "lost"
)

// replyOutcome decides what became of a thread reply sent to the agent sent
// times, whose author was told something privately in its thread (told),
// and whose event Slack handled as fate says. Once any replica acknowledged
// the event, docsbot alone is responsible: it is done once, or told, or
// lost. An event never acknowledged is Slack's to give up on only when its
// last retry went to a connection that closed before an ack (the replica
// holding it died, or its socket dropped): a replica that stayed connected
// had Slack's last try, and should have told the person.
func replyOutcome(sent int, told bool, fate slacktest.EventFate) string {
	switch {
	case sent == 1:
		return replyDone
	case sent > 1:
		return replyDoubled
	case told:
		return replyTold
	case !fate.Acked && fate.GaveUp && fate.LastLost:
		return replyGivenUp
	default:
		return replyLost
	}
}

// fateOf says, for a report, what Slack made of a lost reply's event.
func fateOf(f slacktest.EventFate) string {
	switch {
	case f.Acked:
		return fmt.Sprintf("acknowledged, retry_attempt %d", f.Attempt)
	case f.GaveUp:
		return "never acknowledged; Slack's last try reached a replica that stayed connected"
	default:
		return fmt.Sprintf("never acknowledged, Slack still sending it (retry_attempt %d)", f.Attempt)
	}
}

// waitSettled waits until Slack is done with every reply's event:
// acknowledged, or given up on after its last retry.
func waitSettled(ctx context.Context, sl *slacktest.Server, replies []chaosReplyRec) error {
	return sl.WaitFor(ctx, func() bool {
		for _, rp := range replies {
			if f, ok := sl.EventFate(rp.eventID); rp.eventID != "" && ok && !f.Settled() {
				return false
			}
		}
		return true
	})
}

// storedJob is what Redis holds of a job when the run is counted.
type storedJob struct {
	Generation, Notified int64
	// Scheduled: the job is in the poll schedule, its report still due.
	Scheduled bool
}

// storedJobs maps the prompt of every job the API created to its record in
// Redis (jobs without a record are left out).
func storedJobs(r *rig, api *docsapitest.Server) map[string]storedJob {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out := map[string]storedJob{}
	for _, j := range api.Jobs() {
		p := api.Prompts(j.ID)
		if len(p) == 0 {
			continue
		}
		rec, err := r.store.Jobs().Job(ctx, j.ID)
		if err != nil {
			continue
		}
		sched, err := r.store.Jobs().Scheduled(ctx, j.ID)
		out[p[0]] = storedJob{Generation: rec.Generation, Notified: rec.Notified, Scheduled: err == nil && sched}
	}
	return out
}

// whispered reports whether the author of a reply was told something in its
// thread, privately.
func whispered(sl *slacktest.Server, rp chaosReplyRec) bool {
	for _, m := range sl.Ephemerals(rp.user) {
		if m.Channel == rp.channel && m.ThreadTS == rp.thread {
			return true
		}
	}
	return false
}

// drainFloor is the time Slack's posting limit needs for the bot's posts
// made after the last fault in the busiest channel.
func drainFloor(sl *slacktest.Server, channels []string, after time.Time, rate float64) time.Duration {
	if rate <= 0 {
		return 0 // no posting limit
	}
	busiest := 0
	for _, ch := range channels {
		self := sl.ChannelBotUser(ch)
		n := 0
		for _, m := range sl.Messages(ch) {
			if m.User == self && tsTime(m.TS).After(after) {
				n++
			}
			for _, t := range sl.Thread(ch, m.TS) {
				if t.TS != m.TS && t.User == self && tsTime(t.TS).After(after) {
					n++
				}
			}
		}
		busiest = max(busiest, n)
	}
	return time.Duration(float64(busiest) / rate * float64(time.Second))
}

// tsTime reads a Slack ts as a time.
func tsTime(ts string) time.Time {
	f, err := strconv.ParseFloat(ts, 64)
	if err != nil {
		return time.Time{}
	}
	sec, frac := math.Modf(f)
	return time.Unix(int64(sec), int64(frac*1e9))
}

// rendered is a message's text and its blocks' JSON, enough to look for the
// bot's markers.
func rendered(m slacktest.Message) string { return m.Text + "\n" + string(m.Blocks) }

// rootStatus is the status line of a job's root message: the first element
// of its context block (bot/agent: rootView.message), "" when it has none.
func rootStatus(m slacktest.Message) string {
	var blocks []struct {
		Type     string `json:"type"`
		Elements []struct {
			Text string `json:"text"`
		} `json:"elements"`
	}
	if json.Unmarshal(m.Blocks, &blocks) != nil {
		return ""
	}
	for _, b := range blocks {
		if b.Type == "context" && len(b.Elements) > 0 {
			return b.Elements[0].Text
		}
	}
	return ""
}

// uncertainStart reports whether a root message shows a start whose outcome
// docsbot cannot tell (bot/agent: startUnknown).
func uncertainStart(m slacktest.Message) bool {
	return strings.Contains(rootStatus(m), unknownMarker)
}

// statusOf is the root message's status line, for reports.
func statusOf(shown string) string {
	for _, marker := range []string{"Starting", "Working", "Completed", "Failed", notStartedMarker, unknownMarker, "No longer followed"} {
		if strings.Contains(shown, marker) {
			return marker
		}
	}
	return "?"
}

// failoverNote says how long a Sentinel failover took, if there was one.
func (r *chaosResult) failoverNote() string {
	if r.Failover == 0 {
		return ""
	}
	return fmt.Sprintf(" (the primary; the sentinels promoted the replica in %.1f s)", r.Failover.Seconds())
}
