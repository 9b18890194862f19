package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/socketmode"

	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/store/redistest"
)

// sameWorkBotCommand is the hidden subcommand that runs the same-work bot:
// the peer `acks --peer same-work` measures docsbot beside (issue 34). Like
// the bare bot it is docsbot-load run again, a process of its own.
const sameWorkBotCommand = "same-work-bot"

// sameWorkKeep is how long the same-work bot remembers a command it took,
// to drop a redelivery (docsbot's workKeep).
const sameWorkKeep = time.Hour

// runSameWorkBot is a slack-go bot doing, for each slash command, the
// outward work docsbot does for /docs-agent and nothing else, each step
// once and in the simplest way: it writes the command to Redis before the
// ack (SET NX with the keep window: a redelivery is acked and dropped),
// acks, creates the job at the docs API, posts the root message naming it
// (docsbot's shape: sameWorkRoot), links the thread to the job (SET) and
// writes an audit record (XADD) in Redis, and takes the command off its
// inbox (the record's payload replaced by "done", the key kept for the keep
// window). In a channel it has not posted in yet, it posts the root first
// and edits it to name the job, as docsbot does (start). Four Redis
// commands and one Slack call a command: as docsbot, no thread status for
// a job whose root message starts its thread (bot/agent threadStatusShown). It has no claims, leases, marks or fencing: a command it acked
// and then died on is lost, one it did twice is doubled, and an uncertain
// create is not told. Its settings are docsbot's (SLACK_BOT_TOKEN,
// SLACK_APP_TOKEN, SLACK_API_URL, DOCS_API_URL, DOCS_API_KEY,
// DOCS_PROJECT_ID, REDIS_URL). It runs until ctx ends or SIGTERM.
func runSameWorkBot(ctx context.Context, stderr io.Writer) error {
	defer profilePeer(stderr)()
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	api := slack.New(os.Getenv("SLACK_BOT_TOKEN"),
		slack.OptionAPIURL(os.Getenv("SLACK_API_URL")),
		slack.OptionAppLevelToken(os.Getenv("SLACK_APP_TOKEN")))
	docs, err := docsapi.NewClient(os.Getenv("DOCS_API_KEY"), os.Getenv("DOCS_PROJECT_ID"),
		docsapi.WithBaseURL(os.Getenv("DOCS_API_URL")))
	if err != nil {
		return fmt.Errorf("same-work bot: docs API client: %w", err)
	}
	rdb, err := redistest.ClientOf(os.Getenv("REDIS_URL"))
	if err != nil {
		return fmt.Errorf("same-work bot: %w", err)
	}
	defer rdb.Close()
	b := &sameWorkBot{api: api, docs: docs, stderr: stderr,
		set: func(ctx context.Context, key string, value any, ttl time.Duration) boolCmd {
			return rdb.SetNX(ctx, key, value, ttl)
		},
		do: func(ctx context.Context, args ...any) errCmd { return rdb.Do(ctx, args...) },
	}
	sm := socketmode.New(api)

	var work sync.WaitGroup
	defer work.Wait()
	ran := make(chan error, 1)
	go func() { ran <- sm.RunContext(ctx) }()
	for {
		select {
		case err := <-ran:
			if err == nil || errors.Is(err, context.Canceled) {
				return nil
			}
			return fmt.Errorf("same-work bot: socket mode: %w", err)
		case evt := <-sm.Events:
			if evt.Request == nil || evt.Request.EnvelopeID == "" {
				continue // connection events: nothing to ack
			}
			cmd, ok := evt.Data.(slack.SlashCommand)
			if !ok {
				_ = sm.Ack(*evt.Request) // its own echoes: acked, ignored
				continue
			}
			key := sameWorkPrefix + "in:" + cmd.TriggerID
			payload, _ := json.Marshal(cmd)
			actx, cancel := context.WithTimeout(ctx, 1500*time.Millisecond)
			isNew, err := b.set(actx, key, payload, sameWorkKeep).Result()
			cancel()
			if err != nil {
				fmt.Fprintln(stderr, "same-work bot: recording the command:", err)
				continue // not acked: Slack shows the person a failure
			}
			if err := sm.Ack(*evt.Request); err != nil {
				fmt.Fprintln(stderr, "same-work bot: ack:", err)
			}
			if isNew {
				work.Go(func() { b.start(ctx, cmd, key) })
			}
		}
	}
}

// sameWorkPrefix starts the same-work bot's Redis keys.
const sameWorkPrefix = "samework:"

// sameWorkBot is the same-work bot's clients. set and do are a go-redis
// client's SetNX and Do (docsbot-load does not import go-redis).
type sameWorkBot struct {
	api    *slack.Client
	docs   *docsapi.Client
	set    func(ctx context.Context, key string, value any, ttl time.Duration) boolCmd
	do     func(ctx context.Context, args ...any) errCmd
	stderr io.Writer
	// posted are the channels it posted a root in: there, as docsbot in a
	// channel it posted in lately, the root comes once the job exists.
	posted sync.Map
}

// boolCmd and errCmd are what the bot reads of go-redis's replies.
type (
	boolCmd = interface{ Result() (bool, error) }
	errCmd  = interface{ Err() error }
)

// start is the work of one command after its ack. In a channel it posted
// in, it creates the job and then posts the root naming it, as docsbot
// does in a channel it posted in lately (bot/agent, the late root); else it
// posts the root, creates the job and edits the root to name it.
func (b *sameWorkBot) start(ctx context.Context, cmd slack.SlashCommand, key string) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), bareWorkTimeout)
	defer cancel()
	text := strings.TrimSpace(cmd.Text)
	root := func(status string) []slack.MsgOption { return sameWorkRoot(cmd.UserID, text, status, key) }
	if _, lately := b.posted.Load(cmd.ChannelID); lately {
		job, err := b.docs.CreateJob(ctx, cmd.Text)
		if err != nil {
			b.fail("create", err)
			_, _, _ = b.api.PostMessageContext(ctx, cmd.ChannelID, root(notStartedMarker)...)
			b.done(ctx, key)
			return
		}
		_, ts, err := b.api.PostMessageContext(ctx, cmd.ChannelID, root(linkedMarker+job.ID+"` started")...)
		if err != nil {
			b.fail("post", err)
			b.done(ctx, key)
			return
		}
		b.link(ctx, cmd, key, ts, job.ID)
		return
	}
	_, ts, err := b.api.PostMessageContext(ctx, cmd.ChannelID, root("Starting")...)
	if err != nil {
		b.fail("post", err)
		return
	}
	b.posted.Store(cmd.ChannelID, true)
	job, err := b.docs.CreateJob(ctx, cmd.Text)
	if err != nil {
		b.fail("create", err)
		_, _, _, _ = b.api.UpdateMessageContext(ctx, cmd.ChannelID, ts, root(notStartedMarker)...)
		b.done(ctx, key)
		return
	}
	b.link(ctx, cmd, key, ts, job.ID)
	// The root names the job last: the scenario's window ends when every
	// root does, so every Redis write of the command falls in it (docsbot
	// links before it edits its root, and its edit waits on Slack).
	if _, _, _, err := b.api.UpdateMessageContext(ctx, cmd.ChannelID, ts, root(linkedMarker+job.ID+"` started")...); err != nil {
		b.fail("update", err)
	}
}

// link links the thread of the root ts to the job (SET), writes the audit
// record (XADD) and takes the command off the inbox (done).
func (b *sameWorkBot) link(ctx context.Context, cmd slack.SlashCommand, key, ts, jobID string) {
	if err := b.do(ctx, "SET", sameWorkPrefix+"thread:"+cmd.TeamID+":"+cmd.ChannelID+":"+ts, jobID).Err(); err != nil {
		b.fail("link", err)
	}
	if err := b.do(ctx, "XADD", sameWorkPrefix+"audit", "*", "t", cmd.TeamID, "c", cmd.ChannelID, "u", cmd.UserID,
		"a", "job.start", "o", "ok", "j", jobID, "w", key).Err(); err != nil {
		b.fail("audit", err)
	}
	b.done(ctx, key)
}

// done takes the command off the inbox: its payload goes, its key stays
// for the keep window to drop a redelivery.
func (b *sameWorkBot) done(ctx context.Context, key string) {
	if err := b.do(ctx, "SET", key, "done", "XX", "KEEPTTL").Err(); err != nil {
		b.fail("done", err)
	}
}

func (b *sameWorkBot) fail(step string, err error) {
	fmt.Fprintf(b.stderr, "same-work bot: %s: %v\n", step, err)
}

// sameWorkRoot is the root message the same-work bot posts and edits: the
// shape of docsbot's (bot/agent, rootView.message), since the bytes Slack
// is sent and echoes back are outward work too: who asked and the
// instruction quoted, the job's plan as five task cards, a status line,
// the fallback text, the metadata naming the command, links not unfurled.
func sameWorkRoot(user, text, status, key string) []slack.MsgOption {
	head := fmt.Sprintf("*<@%s> asked the docs agent:*\n>%s", user, text)
	card := func(id, title string, st slack.TaskCardStatus, details string) *slack.TaskCardBlock {
		c := slack.NewTaskCardBlock(id, title).WithStatus(st)
		if details != "" {
			c.WithDetails(slack.NewRichTextBlock("", slack.NewRichTextSection(slack.NewRichTextSectionTextElement(details, nil))))
		}
		return c
	}
	plan := slack.NewPlanBlock("Docs agent job").WithTasks(
		card("queued", "Queued", slack.TaskCardStatusInProgress, "Asking the docs platform to start the agent"),
		card("started", "Agent started", slack.TaskCardStatusPending, ""),
		card("working", "Working", slack.TaskCardStatusPending, ""),
		card("pr", "Pull request", slack.TaskCardStatusPending, "Opened when the agent changes files"),
		card("preview", "Preview", slack.TaskCardStatusPending, "The docs platform builds it from the pull request"))
	return []slack.MsgOption{
		slack.MsgOptionText(fmt.Sprintf("Docs agent job for <@%s>: %s", user, text), false),
		slack.MsgOptionBlocks(
			slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, head, false, false), nil, nil),
			plan,
			slack.NewContextBlock("", slack.NewTextBlockObject(slack.MarkdownType, status, false, false))),
		slack.MsgOptionDisableLinkUnfurl(),
		slack.MsgOptionMetadata(slack.SlackMetadata{EventType: "docsbot_job_root", EventPayload: map[string]any{"work": key}}),
	}
}
