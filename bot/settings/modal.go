package settings

import (
	"cmp"
	"context"
	"encoding/json"
	"strings"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot"
)

// What every modal of the Settings shares: it is opened for an admin alone
// (anyone else is told why not, in a modal: the Home has no place for a
// private message), it carries the workspace it was opened in, and its
// submission is checked again on the server whatever the payload says:
// the admin of the workspace Slack says it came from, never the one its
// metadata names.

// modalTarget is what a modal carries (private_metadata): the workspace
// it sets up and, in the Digests and limits modal, the channels it showed
// subscribed to each digest (by the setting's key), which its submission
// changes from.
type modalTarget struct {
	Team  string              `json:"team"`
	Shown map[string][]string `json:"shown,omitempty"`
}

// metadata is the private_metadata of a modal of team.
func metadata(team string) string { return metadataShown(team, nil) }

// metadataShown is the private_metadata of a modal of team that showed
// shown.
func metadataShown(team string, shown map[string][]string) string {
	meta, _ := json.Marshal(modalTarget{Team: team, Shown: shown})
	return string(meta)
}

// shownOf is what the modal submitted in ic showed (modalTarget.Shown).
// Its workspace is checked by admitted; a list forged by an admin only
// changes which of their workspace's channels are compared.
func shownOf(ic slack.InteractionCallback) map[string][]string {
	var t modalTarget
	_ = json.Unmarshal([]byte(ic.View.PrivateMetadata), &t)
	return t.Shown
}

// storageTrouble is the answer when Redis cannot be reached.
const storageTrouble = "docsbot cannot reach its storage right now, so nothing was saved. Try again in a minute."

// open opens the modal build makes for the admin who pressed r (what
// names it for the audit of a refusal); anyone else is shown the refusal.
func (s *settings) open(ctx context.Context, r *bot.InteractionRequest, what string, build func(ctx context.Context, team string) slack.ModalViewRequest) {
	ic := r.Interaction
	r.Ack(nil)
	var view slack.ModalViewRequest
	if refusal := s.core.AdminRefusal(ctx, ic.User.ID); refusal != "" {
		view = noticeModal(refusal)
		s.refused(ctx, ic.Team.ID, ic.User.ID, "open "+what, refusal)
	} else {
		view = build(ctx, ic.Team.ID)
	}
	s.show(ctx, ic, view, what)
}

// show opens view with ic's trigger, and reports whether it did.
func (s *settings) show(ctx context.Context, ic slack.InteractionCallback, view slack.ModalViewRequest, what string) bool {
	if _, err := s.core.SlackIn(ctx).OpenViewContext(ctx, ic.TriggerID, view); err != nil {
		s.log.Warn("a modal of the settings could not be opened", "modal", what, "user", ic.User.ID, "err", err)
		return false
	}
	return true
}

// admitted checks the submission r of a modal (what names it): its
// workspace is the one Slack says it came from, and its person an admin
// there. Otherwise the modal is answered with the refusal on block and
// ok is false.
func (s *settings) admitted(ctx context.Context, r *bot.InteractionRequest, block, what string) (team, user string, ok bool) {
	ic := r.Interaction
	team, user = ic.Team.ID, ic.User.ID
	var t modalTarget
	if err := json.Unmarshal([]byte(ic.View.PrivateMetadata), &t); err != nil || t.Team == "" {
		t.Team = team
	}
	if refusal := s.core.AdminRefusal(ctx, user); refusal != "" || t.Team != team {
		refusal = cmp.Or(refusal, "This form was opened in another workspace; nothing was changed.")
		fail(r, block, refusal)
		s.refused(ctx, team, user, what, refusal)
		return "", "", false
	}
	return team, user, true
}

// fail answers a submission with msg on the input block.
func fail(r *bot.InteractionRequest, block, msg string) {
	r.Ack(slack.NewErrorsViewSubmissionResponse(map[string]string{block: msg}))
}

// form reads a submitted modal's inputs, each with one element, action
// actionValue.
type form struct{ state *slack.ViewState }

func formOf(ic slack.InteractionCallback) form { return form{ic.View.State} }

func (f form) action(block string) slack.BlockAction {
	if f.state == nil {
		return slack.BlockAction{}
	}
	return f.state.Values[block][actionValue]
}

// text is a text input's value, trimmed.
func (f form) text(block string) string { return strings.TrimSpace(f.action(block).Value) }

// option is a static select's chosen value, "" for none.
func (f form) option(block string) string { return f.action(block).SelectedOption.Value }

// conversation is a conversations select's channel, "" for none.
func (f form) conversation(block string) string { return f.action(block).SelectedConversation }

// users are a multi-users select's people.
func (f form) users(block string) []string { return f.action(block).SelectedUsers }

// textInput is an input block of a plain text input.
func textInput(block, label, hint, initial string, optional bool) *slack.InputBlock {
	el := slack.NewPlainTextInputBlockElement(nil, actionValue)
	el.InitialValue = initial
	return input(block, label, hint, optional, el)
}

// input is an input block of el.
func input(block, label, hint string, optional bool, el slack.BlockElement) *slack.InputBlock {
	b := slack.NewInputBlock(block, plain(label), nil, el)
	if hint != "" {
		b.Hint = plain(hint)
	}
	b.Optional = optional
	return b
}

// modal is a modal of the Settings.
func modal(callback, title, submit, team string, blocks ...slack.Block) slack.ModalViewRequest {
	return slack.ModalViewRequest{
		Type:            slack.VTModal,
		CallbackID:      callback,
		PrivateMetadata: metadata(team),
		Title:           plain(title),
		Submit:          plain(submit),
		Close:           plain("Cancel"),
		Blocks:          slack.Blocks{BlockSet: blocks},
	}
}

// option is a static select's option.
func selectOption(value, label string) *slack.OptionBlockObject {
	return slack.NewOptionBlockObject(value, plain(label), nil)
}

// staticSelect is a static select of options, starting on initial when
// it is one of them.
func staticSelect(placeholder, initial string, options ...*slack.OptionBlockObject) *slack.SelectBlockElement {
	el := slack.NewOptionsSelectBlockElement(slack.OptTypeStatic, plain(placeholder), actionValue, options...)
	for _, o := range options {
		if o.Value == initial {
			el.InitialOption = o
		}
	}
	return el
}
