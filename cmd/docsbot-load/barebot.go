package main

import (
	"context"
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
)

// bareBotCommand is the hidden subcommand that runs the bare slack-go bot:
// the peer the acks scenario measures docsbot beside. docsbot-load runs it
// by running itself again (os.Executable), so that it is a process of its
// own whose CPU time and memory /proc reports apart from the tool's.
const bareBotCommand = "bare-bot"

// bareWorkTimeout bounds the work of one command of the bare bot.
const bareWorkTimeout = time.Minute

// runBareBot is the bare slack-go bot: the smallest bot doing what docsbot
// does at the least for /docs-agent, written the way slack-go's socketmode
// examples are. It reads its settings from the environment docsbot reads
// them from (SLACK_BOT_TOKEN, SLACK_APP_TOKEN, SLACK_API_URL, DOCS_API_URL,
// DOCS_API_KEY, DOCS_PROJECT_ID), and for each slash command acks it at
// once, with no payload, then calls the docs API's create-job endpoint and
// posts one message (chat.postMessage) in the command's channel that names
// the job, in the shape the acks scenario looks for ("job `ID`" in its
// blocks, the instruction in its text), or "Not started" if the create
// failed. Every other envelope (the echoes of its own posts) is acked and
// ignored. It keeps no state, no Redis, no inbox: what it acks and then
// fails to do is lost. It runs until ctx ends or SIGTERM, and returns nil
// then.
func runBareBot(ctx context.Context, stderr io.Writer) error {
	defer profilePeer(stderr)()
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	api := slack.New(os.Getenv("SLACK_BOT_TOKEN"),
		slack.OptionAPIURL(os.Getenv("SLACK_API_URL")),
		slack.OptionAppLevelToken(os.Getenv("SLACK_APP_TOKEN")))
	docs, err := docsapi.NewClient(os.Getenv("DOCS_API_KEY"), os.Getenv("DOCS_PROJECT_ID"),
		docsapi.WithBaseURL(os.Getenv("DOCS_API_URL")))
	if err != nil {
		return fmt.Errorf("bare bot: docs API client: %w", err)
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
			return fmt.Errorf("bare bot: socket mode: %w", err)
		case evt := <-sm.Events:
			if evt.Request == nil || evt.Request.EnvelopeID == "" {
				continue // connection events: nothing to ack
			}
			if err := sm.Ack(*evt.Request); err != nil {
				fmt.Fprintln(stderr, "bare bot: ack:", err)
				continue
			}
			cmd, ok := evt.Data.(slack.SlashCommand)
			if !ok {
				continue
			}
			work.Go(func() { bareStart(ctx, api, docs, cmd, stderr) })
		}
	}
}

// bareStart is the bare bot's work for one slash command: create the job,
// then post a message naming it.
func bareStart(ctx context.Context, api *slack.Client, docs *docsapi.Client, cmd slack.SlashCommand, stderr io.Writer) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), bareWorkTimeout)
	defer cancel()
	status := notStartedMarker
	job, err := docs.CreateJob(ctx, cmd.Text)
	if err != nil {
		fmt.Fprintln(stderr, "bare bot: create:", err)
	} else {
		status = linkedMarker + job.ID + "` started"
	}
	text := strings.TrimSpace(cmd.Text)
	blocks := slack.MsgOptionBlocks(slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, status+": "+text, false, false), nil, nil))
	if _, _, err := api.PostMessageContext(ctx, cmd.ChannelID, slack.MsgOptionText(text, false), blocks); err != nil {
		fmt.Fprintln(stderr, "bare bot: post:", err)
	}
}
