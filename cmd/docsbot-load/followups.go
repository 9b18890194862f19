package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// reactionAccepted is the reaction the bot puts on a thread reply it sent
// to the thread's job (bot/agent: followup.go); keep it in step.
const reactionAccepted = "eyes"

// followUpsOptions are the flags of the follow-ups scenario.
type followUpsOptions struct {
	jobs int
	rate float64
	cost costOptions
}

// register adds the scenario's flags to fs.
func (o *followUpsOptions) register(fs *flag.FlagSet) {
	fs.IntVar(&o.jobs, "jobs", 50, "jobs started with /docs-agent, each then followed up once by a reply in its thread")
	fs.Float64Var(&o.rate, "rate", 5, "slash commands, then thread replies, per second")
	o.cost.register(fs)
}

// followUpsResult is the report of the follow-ups scenario.
type followUpsResult struct {
	Scenario  string  `json:"scenario"`
	Machine   machine `json:"machine"`
	LoadStart string  `json:"load_average_start"`
	LoadEnd   string  `json:"load_average_end"`
	Jobs      int     `json:"jobs"`
	Rate      float64 `json:"rate_per_s"`

	// Accepted counts the replies the bot marked as sent to their job;
	// Sent the messages the docs API received.
	Accepted int `json:"replies_accepted"`
	Sent     int `json:"api_messages"`
	// Cost is what a follow-up cost the bot: from the first reply to the
	// last one marked, and the settle after; the jobs' starts and polls
	// are not in it (the poll interval is an hour).
	Cost unitCost `json:"per_follow_up"`

	issues []string
}

func (r *followUpsResult) title() string {
	return fmt.Sprintf("docsbot-load follow-ups: %d jobs started with /docs-agent, then a reply in each thread at %.0f/s", r.Jobs, r.Rate)
}

func (r *followUpsResult) problems() []string { return r.issues }

func (r *followUpsResult) sections() []section {
	return []section{
		{heading: "Follow-ups (a thread reply sent to its job, the job followed again, the root updated)", rows: append([]row{
			fig("replies sent / marked sent to the job / messages at the API", "%d / %d / %d", r.Jobs, r.Accepted, r.Sent),
		}, r.Cost.rows("follow-up")...)},
		machineSection(r.Machine, r.LoadStart, r.LoadEnd),
	}
}

// runFollowUps starts o.jobs jobs, then, in the measured window, replies
// once in each job's thread and waits until the bot marked every reply as
// sent to its job.
func runFollowUps(ctx context.Context, e env, o followUpsOptions) (*followUpsResult, error) {
	if o.jobs <= 0 || o.rate <= 0 {
		return nil, errors.New("follow-ups: --jobs and --rate must be positive")
	}
	ctx, cancel := context.WithTimeout(ctx, 2*time.Duration(float64(o.jobs+1)/o.rate*float64(time.Second))+o.cost.idle+o.cost.settle+2*time.Minute)
	defer cancel()
	bin, cleanup, err := botBinary(ctx, e)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	r, err := newRig(e.log, rigOptions{bin: bin, botEnv: e.botEnv, api: []docsapitest.Option{docsapitest.WithLimits(docsapitest.Limits{})}})
	if err != nil {
		return nil, err
	}
	defer r.close()
	// No polling: the jobs stay running at the API, and only the
	// follow-ups count.
	if err := r.startBot(ctx, "DOCSBOT_POLL_INTERVAL=1h", "DOCSBOT_POLL_MAX_INTERVAL=1h"); err != nil {
		return nil, err
	}
	res := &followUpsResult{Scenario: "follow-ups", Machine: thisMachine(), Jobs: o.jobs, Rate: o.rate, LoadStart: loadAvg()}

	// One job more than measured: its follow-up warms the bot up.
	e.log.Info("starting the jobs", "jobs", o.jobs+1)
	roots, err := startJobs(ctx, r, o.jobs+1, o.rate)
	if err != nil {
		return nil, err
	}
	if _, err := followUp(ctx, r, roots[o.jobs:], o.rate); err != nil {
		return nil, fmt.Errorf("warm-up follow-up: %w", err)
	}
	sent0 := r.api.Count(docsapitest.EndpointMessage)

	e.log.Info("following up", "replies", o.jobs, "rate", o.rate)
	var replies []string
	res.Cost, err = o.cost.measure(ctx, r, o.jobs, func() error {
		var err error
		replies, err = followUp(ctx, r, roots[:o.jobs], o.rate)
		return err
	})
	if err != nil {
		return nil, err
	}
	res.LoadEnd = loadAvg()
	res.Accepted = accepted(r.slack, replies)
	res.Sent = r.api.Count(docsapitest.EndpointMessage) - sent0
	if res.Accepted != o.jobs || res.Sent != o.jobs {
		res.issues = append(res.issues, fmt.Sprintf("%d replies marked sent and %d messages at the API, want %d each", res.Accepted, res.Sent, o.jobs))
	}
	if err := r.stopBot(); err != nil {
		res.issues = append(res.issues, err.Error())
	}
	return res, nil
}

// startJobs sends n /docs-agent commands at rate and waits until every root
// message shows its job; it returns the roots' ts, in the commands' order.
func startJobs(ctx context.Context, r *rig, n int, rate float64) ([]string, error) {
	tick := time.NewTicker(time.Duration(float64(time.Second) / rate))
	defer tick.Stop()
	for i := range n {
		if i > 0 {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-tick.C:
			}
		}
		if _, err := r.slack.SlashCommand(ctx, agentCommand(commandText(i))); err != nil {
			return nil, fmt.Errorf("command %d: %w", i, err)
		}
	}
	roots := make([]string, n)
	err := r.waitSlack(ctx, linkTick, func() bool { return rootsLinked(r.slack, roots) == n })
	if err != nil {
		return nil, fmt.Errorf("only %d of %d jobs were linked: %w", rootsLinked(r.slack, roots), n, err)
	}
	return roots, nil
}

// rootsLinked fills in roots[i] with the ts of command i's root message
// once it shows its job, and counts those found.
func rootsLinked(sl *slacktest.Server, roots []string) int {
	self := sl.BotUserID()
	for _, m := range sl.Messages(loadChannel) {
		if m.User != self || !strings.Contains(string(m.Blocks), linkedMarker) {
			continue
		}
		if i, ok := chaosIndex(m.Text, commandPrefix); ok && i < len(roots) {
			roots[i] = m.TS
		}
	}
	n := 0
	for _, ts := range roots {
		if ts != "" {
			n++
		}
	}
	return n
}

// followUp replies once in each root's thread at rate and waits until the
// bot marked every reply as sent to its job; it returns the replies' ts.
func followUp(ctx context.Context, r *rig, roots []string, rate float64) ([]string, error) {
	tick := time.NewTicker(time.Duration(float64(time.Second) / rate))
	defer tick.Stop()
	replies := make([]string, len(roots))
	for i, root := range roots {
		if i > 0 {
			select {
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-tick.C:
			}
		}
		ts, _, err := r.slack.PostUserMessage(ctx, slacktest.UserMessage{ChannelID: loadChannel, UserID: loadUser, ThreadTS: root,
			Text: fmt.Sprintf("Follow-up %06d: also mention the Retry-After header", i)})
		if err != nil {
			return nil, fmt.Errorf("reply %d: %w", i, err)
		}
		replies[i] = ts
	}
	if err := r.waitSlack(ctx, linkTick, func() bool { return accepted(r.slack, replies) == len(replies) }); err != nil {
		return nil, fmt.Errorf("only %d of %d replies were sent to their job: %w", accepted(r.slack, replies), len(replies), err)
	}
	return replies, nil
}

// accepted counts the replies the bot reacted to as sent to their job.
func accepted(sl *slacktest.Server, replies []string) int {
	n := 0
	for _, ts := range replies {
		if m, ok := sl.Message(loadChannel, ts); ok && slices.Contains(m.Reactions, reactionAccepted) {
			n++
		}
	}
	return n
}
