package main

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
	"github.com/docsbot/docsbot/store"
)

// seedWorkers is how many seeding requests run at once.
const seedWorkers = 8

// jobPlan is how one seeded job behaves, in times after t0, the moment the
// API server's held clock starts running.
type jobPlan struct {
	// FirstPoll is when the job is first due.
	FirstPoll time.Duration
	// Lifecycle is the job's lifecycle at the API; its ActiveFor counts from t0.
	Lifecycle docsapitest.Lifecycle
}

// seededJob is a job that exists at the API, has a root message in the fake
// Slack and is linked in Redis, as if the bot had started it.
type seededJob struct {
	Index int
	ID    string
	TS    string // the root message
	Plan  jobPlan
}

// seedResult is what seeding did.
type seedResult struct {
	Jobs []seededJob
	// T0 is when the held API clock started running; first polls count from it.
	T0 time.Time
	// Took is the time from the first create to the last link.
	Took time.Duration
	// LateLinks counts jobs linked after their first poll was due (a lead
	// too short for the machine).
	LateLinks int
	// RedisBefore and RedisAfter are used_memory around the links.
	RedisBefore, RedisAfter int64
}

// loadPromptPrefix starts every seeded job's prompt; its number follows.
const loadPromptPrefix = "Load job "

// loadPrompt is the prompt of seeded job i: about 70 bytes, like a short
// real instruction.
func loadPrompt(i int) string {
	return fmt.Sprintf("%s%06d: document the webhook settings and update the quickstart", loadPromptPrefix, i)
}

// promptIndex is the number of a seeded job's prompt.
func promptIndex(prompt string) (int, bool) {
	rest, ok := strings.CutPrefix(prompt, loadPromptPrefix)
	if !ok || len(rest) < 6 {
		return 0, false
	}
	i, err := strconv.Atoi(rest[:6])
	return i, err == nil
}

// plannedLifecycle gives each seeded job the lifecycle of its plan; other
// prompts get docsapitest's default.
func plannedLifecycle(plans []jobPlan) func(string) docsapitest.Lifecycle {
	return func(prompt string) docsapitest.Lifecycle {
		if i, ok := promptIndex(prompt); ok && i < len(plans) {
			return plans[i].Lifecycle
		}
		return docsapitest.DefaultLifecycle(prompt)
	}
}

// seed creates one job per plan at the API (with the clock held), posts its
// root message as the bot, lets the Slack echoes of those posts be
// acknowledged (so the bot does not receive them later), then links every
// job in Redis with its first poll at t0+FirstPoll, where t0 is lead after
// the links start, and starts the API clock at t0.
func seed(ctx context.Context, r *rig, clock *heldClock, plans []jobPlan, lead time.Duration) (*seedResult, error) {
	began := time.Now()
	api, err := docsapi.NewClient(r.api.Key, r.api.ProjectID, docsapi.WithBaseURL(r.api.URL))
	if err != nil {
		return nil, fmt.Errorf("docs API client: %w", err)
	}
	jobs := make([]seededJob, len(plans))
	r.log.Info("seeding: creating jobs at the docs API", "jobs", len(plans))
	err = forEach(ctx, len(plans), func(ctx context.Context, i int) error {
		j, err := api.CreateJob(ctx, loadPrompt(i))
		if err != nil {
			return fmt.Errorf("create job %d: %w", i, err)
		}
		jobs[i] = seededJob{Index: i, ID: j.ID, Plan: plans[i]}
		return nil
	})
	if err != nil {
		return nil, err
	}

	r.log.Info("seeding: posting root messages in the fake Slack")
	sl := slack.New(r.slack.BotToken(), slack.OptionAPIURL(r.slack.APIURL))
	err = forEach(ctx, len(jobs), func(ctx context.Context, i int) error {
		_, ts, err := sl.PostMessageContext(ctx, loadChannel, rootMessage(jobs[i].ID, loadPrompt(i))...)
		if err != nil {
			return fmt.Errorf("post root message %d: %w", i, err)
		}
		jobs[i].TS = ts
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := drainEchoes(ctx, r, len(jobs)); err != nil {
		return nil, err
	}

	res := &seedResult{Jobs: jobs}
	if res.RedisBefore, err = r.usedMemory(ctx); err != nil {
		return nil, err
	}
	res.T0 = time.Now().Add(lead)
	clock.runFrom(res.T0)
	r.log.Info("seeding: linking jobs in Redis", "first_due_in", lead)
	var late atomic.Int64
	err = forEach(ctx, len(jobs), func(ctx context.Context, i int) error {
		j := jobs[i]
		first := time.Until(res.T0.Add(j.Plan.FirstPoll))
		if first < 0 {
			late.Add(1)
			first = 0
		}
		err := r.store.Jobs().LinkJob(ctx, store.Job{
			ID:        j.ID,
			Thread:    store.Thread{Team: loadTeam, Channel: loadChannel, TS: j.TS},
			Requester: loadUser,
			Prompt:    loadPrompt(i),
			Status:    string(docsapi.StatusActive),
		}, first)
		if err != nil {
			return fmt.Errorf("link job %d: %w", i, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	res.LateLinks = int(late.Load())
	if res.RedisAfter, err = r.usedMemory(ctx); err != nil {
		return nil, err
	}
	res.Took = time.Since(began)
	r.log.Info("seeding done", "took", res.Took.Round(time.Millisecond), "late_links", res.LateLinks)
	return res, nil
}

// rootMessage is a seeded job's root message. It is a stand-in, not the
// bot's rendering of a root message (bot.rootView): it only has to exist, as
// the bot's own post, for the job's thread to hang from, and the bot
// replaces it in full when it updates the root. The prompt is escaped as the
// bot escapes text it posts.
func rootMessage(jobID, prompt string) []slack.MsgOption {
	return []slack.MsgOption{
		slack.MsgOptionText("Seeded load job "+jobID+" for <@"+loadUser+">: "+slacktest.Escape(prompt), false),
		slack.MsgOptionDisableLinkUnfurl(),
	}
}

// drainEchoes connects a throwaway Socket Mode client that acknowledges the
// fake Slack's echoes of the seeded posts (queued while nobody was
// connected), waits for want acks, and disconnects.
func drainEchoes(ctx context.Context, r *rig, want int) error {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	stop, err := r.slack.AckAll(ctx, nil)
	if err != nil {
		return fmt.Errorf("connecting a client to drain the echoes of the seeded posts: %w", err)
	}
	err = r.slack.WaitFor(ctx, func() bool { return r.slack.AckCount() >= want })
	stop()
	if err != nil {
		return fmt.Errorf("waiting for the echoes of the seeded posts to be acknowledged (%d of %d): %w", r.slack.AckCount(), want, err)
	}
	if err := r.slack.WaitConnections(ctx, 0); err != nil {
		return fmt.Errorf("the draining connection did not close: %w", err)
	}
	return nil
}

// forEach runs fn for 0..n-1 on seedWorkers goroutines and returns the first
// error; it stops handing out work after an error or when ctx ends.
func forEach(ctx context.Context, n int, fn func(ctx context.Context, i int) error) error {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(seedWorkers, n) {
		wg.Go(func() {
			for ctx.Err() == nil {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				if err := fn(ctx, i); err != nil {
					cancel(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if err := context.Cause(ctx); err != nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return ctx.Err()
}

// pollUntil checks cond every tick until it holds or ctx ends.
func pollUntil(ctx context.Context, tick time.Duration, cond func() bool) error {
	t := time.NewTicker(tick)
	defer t.Stop()
	for !cond() {
		select {
		case <-ctx.Done():
			if cond() {
				return nil
			}
			return ctx.Err()
		case <-t.C:
		}
	}
	return nil
}
