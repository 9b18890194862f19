package visitors

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/store"
)

// askAbove is the most a chart spends of the hour's analytics requests
// without asking the person first. A 30-day chart from a cold cache costs
// 31 (a request a day and the range's totals) and is drawn at once, as far
// as the person's share pays (with the default share, 20, its latest days,
// the others shown as gaps); where shares are wider, one that would spend
// more than this (a 400-day chart spends as much as the person's share
// allows) asks with a Spend button, so that
// nobody spends a large part of the hour's budget, shared by everyone and
// every analytics feature, by typing a long range once.
const askAbove = 40

// ActionSpend starts the action ids of the buttons asking a person whether
// to spend a chart's requests: ActionSpend+"yes" spends, ActionSpend+"no"
// cancels. One route takes both. Their value is the JSON of a spendValue.
const ActionSpend = "docs_visitors_spend_"

// The two buttons of the question.
const (
	actionSpendYes = ActionSpend + "yes"
	actionSpendNo  = ActionSpend + "no"
)

// spendQuestion is drawTrend's answer when a chart must be approved before
// it spends: it would cost Need and spend Spend (what the person may take
// now), more than askAbove.
type spendQuestion struct {
	Need, Spend int
}

func (q *spendQuestion) Error() string {
	return fmt.Sprintf("a chart of %d requests would spend %d: asking first", q.Need, q.Spend)
}

// spendValue is the value of the question's buttons: the chart, who asked
// for it (only they may answer) and where, and what it spends.
type spendValue struct {
	Range   trendRange `json:"r"`
	User    string     `json:"u"`
	Channel string     `json:"c"`
	Thread  string     `json:"th,omitempty"`
	Spend   int        `json:"n"`
}

// mustAsk returns a *spendQuestion when a person (not a digest) who has not
// approved it would spend more than askAbove of a chart costing need.
func (v *visitors) mustAsk(ctx context.Context, draw store.Draw, need int, pay chartPay) error {
	if need <= askAbove || pay.by.Scheduled() || pay.approved > 0 {
		return nil
	}
	room, err := v.store.Room(ctx, draw)
	if err != nil {
		return dbDown(err)
	}
	if spend := min(need, room.Remaining); spend > askAbove {
		return &spendQuestion{Need: need, Spend: spend}
	}
	return nil
}

// askToSpend asks asker privately whether to spend q.Spend requests on the
// chart of r, with a Spend and a Cancel button.
func (v *visitors) askToSpend(ctx context.Context, t target, asker slack.SlashCommand, r dateRange, thread string, q *spendQuestion) {
	value, _ := json.Marshal(spendValue{
		Range: trendRange{First: r.First.Format(time.DateOnly), Last: r.Last.Format(time.DateOnly), Project: t.key},
		User:  asker.UserID, Channel: asker.ChannelID, Thread: thread, Spend: q.Spend})
	limit := v.core.Analytics().Budget
	text := fmt.Sprintf(":warning: The chart%s of %s costs %s to the docs API (the days not cached yet). It would spend %d of the hour's %d analytics requests, "+
		"which everyone using docsbot shares. Spend them?", project.Of(t.label()), r.Describe(), requests(q.Need), q.Spend, limit)
	if q.Spend < q.Need {
		text += fmt.Sprintf(" It fetches the latest %d days and shows the others as gaps.", q.Spend)
	}
	yes := slack.NewButtonBlockElement(actionSpendYes, string(value),
		slack.NewTextBlockObject(slack.PlainTextType, fmt.Sprintf("Spend %d of the hour's %d analytics requests", q.Spend, limit), false, false))
	yes.Style = slack.StylePrimary
	no := slack.NewButtonBlockElement(actionSpendNo, string(value), slack.NewTextBlockObject(slack.PlainTextType, "Cancel", false, false))
	msg := bot.Ephemeral(text)
	msg.Blocks = &slack.Blocks{BlockSet: []slack.Block{
		slack.NewSectionBlock(slack.NewTextBlockObject(slack.MarkdownType, text, false, false), nil, nil),
		slack.NewActionBlock("", yes, no),
	}}
	v.tellMessage(ctx, asker, msg)
}

// onSpend handles the question's buttons. Only the person who asked may
// answer: Spend queues the chart as visitors.trend work approved for what
// the button says; Cancel replaces the question and spends nothing.
func (v *visitors) onSpend(ctx context.Context, r *bot.InteractionRequest) {
	ic := r.Interaction
	var sv spendValue
	if len(ic.ActionCallback.BlockActions) == 0 || json.Unmarshal([]byte(ic.ActionCallback.BlockActions[0].Value), &sv) != nil || sv.Spend < 1 {
		v.log.Warn("a Spend button without a readable chart", "user", ic.User.ID)
		r.Ack(nil)
		return
	}
	presser := slack.SlashCommand{TeamID: ic.Team.ID, ChannelID: sv.Channel, UserID: ic.User.ID, ResponseURL: ic.ResponseURL}
	if ic.User.ID != sv.User {
		v.core.ReplyPrivately(ctx, presser, "Only the person who asked for this chart can decide whether to spend the analytics requests it costs.")
		r.Ack(nil)
		return
	}
	if ic.ActionCallback.BlockActions[0].ActionID != actionSpendYes {
		v.answerSpend(ctx, presser, "Cancelled: docsbot did not draw the chart and spent none of the hour's analytics requests.")
		r.Ack(nil)
		return
	}
	if refusal := v.core.Refusal(presser.UserID, presser.ChannelID); refusal != "" {
		v.core.ReplyPrivately(ctx, presser, refusal)
		r.Ack(nil)
		return
	}
	payload, _ := json.Marshal(trendAsk{Asker: presser, Range: sv.Range, ThreadTS: sv.Thread, Approved: sv.Spend})
	if !v.core.AcceptEnvelope(ctx, store.Work{Key: "act:" + r.DeliveryID, Kind: workTrend, Payload: payload}, "redelivered Spend button ignored") {
		v.log.Warn("a Spend button could not be recorded", "user", ic.User.ID)
		v.core.ReplyPrivately(ctx, presser, "docsbot cannot reach its storage right now, so it did not draw the chart. Try again in a minute.")
	}
	r.Ack(nil)
}

// answerSpend replaces the question with text, privately.
func (v *visitors) answerSpend(ctx context.Context, presser slack.SlashCommand, text string) {
	msg := bot.Ephemeral(text)
	msg.ReplaceOriginal = true
	if err := v.core.Respond(ctx, presser, bot.Reply(msg)); err != nil {
		v.log.Warn("answering the Spend button failed", "user", presser.UserID, "err", err)
	}
}

// dbDown is what a person reads when the budget cannot be read: nothing is
// asked of the docs API, since the budget could not be kept.
func dbDown(err error) error {
	return &bot.Error{Message: "docsbot cannot reach its database right now, so it did not ask the docs API. Try again in a minute.", Err: err}
}
