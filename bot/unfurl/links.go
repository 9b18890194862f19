package unfurl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"strings"

	"github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"

	"github.com/docsbot/docsbot/bot"
	"github.com/docsbot/docsbot/bot/project"
	"github.com/docsbot/docsbot/store"
)

// maxLinks is how many links of one message are unfurled.
const maxLinks = 5

// maxPath is the longest page path unfurled, in bytes.
const maxPath = 300

// ackTries is how many times links are unfurled while Slack answers that
// it knows of no link_shared acknowledged for them (cannot_unfurl_url).
const ackTries = 3

// linksRequest is a link_shared event through the inbox: the links of a
// docs site only.
type linksRequest struct {
	Team    string `json:"team"`
	Channel string `json:"channel"`
	User    string `json:"user"`
	// MessageTS is the message's ts, or, for links typed in the composer,
	// not a ts (a uuid): then UnfurlID and Source name them.
	MessageTS string `json:"message_ts"`
	UnfurlID  string `json:"unfurl_id,omitempty"`
	Source    string `json:"source,omitempty"`
	// BotMember says docsbot is in the conversation (the event's
	// is_bot_user_member): without it the unfurl shows no figures.
	BotMember bool   `json:"bot_member,omitempty"`
	Links     []link `json:"links"`
}

// link is one link of a docs site: the URL as posted, the project whose
// site it is and the page's path on it.
type link struct {
	URL     string `json:"url"`
	Project string `json:"project"`
	Path    string `json:"path"`
	// Title is the page's title, found when the link is unfurled (title.go).
	Title string `json:"-"`
}

// sharedEvent is what link_shared carries beyond slack-go's type: the
// unfurl id and source of links in the composer, and whether docsbot is in
// the conversation (absent, as in the composer, is not).
type sharedEvent struct {
	UnfurlID        string `json:"unfurl_id"`
	Source          string `json:"source"`
	IsBotUserMember bool   `json:"is_bot_user_member"`
}

// onLinkShared records the links of a docs site as unfurl.links work, then
// acks; an event with none is acked and left alone (another site's links
// are not docsbot's to unfurl), and so is a poster the allow-lists refuse.
func (u *unfurls) onLinkShared(ctx context.Context, r *bot.EventRequest) {
	ev, ok := r.Event.InnerEvent.Data.(*slackevents.LinkSharedEvent)
	if !ok || ev.User == "" || ev.User == u.core.Self(ctx).UserID || u.core.Refusal(ev.User, ev.Channel) != "" {
		r.Ack(nil)
		return
	}
	req := linksRequest{Team: r.Event.TeamID, Channel: ev.Channel, User: ev.User, MessageTS: ev.MessageTimeStamp}
	if raw, ok := r.Event.Data.(*slackevents.EventsAPICallbackEvent); ok && raw.InnerEvent != nil {
		var extra sharedEvent
		if json.Unmarshal(*raw.InnerEvent, &extra) == nil {
			req.UnfurlID, req.Source, req.BotMember = extra.UnfurlID, extra.Source, extra.IsBotUserMember
		}
	}
	for _, l := range ev.Links {
		if p, path, ok := docsPage(u.core.ProjectsIn(ctx).Set, l.URL); ok && len(req.Links) < maxLinks {
			req.Links = append(req.Links, link{URL: l.URL, Project: p.Name, Path: path})
		}
	}
	if len(req.Links) == 0 {
		r.Ack(nil)
		return
	}
	payload, _ := json.Marshal(req)
	key := "ev:" + r.DeliveryID
	if r.DeliveryID == "" {
		key = "unfurl:" + req.Team + ":" + req.Channel + ":" + req.MessageTS
	}
	if !u.core.AcceptEnvelope(ctx, store.Work{Key: key, Kind: workLinks, Payload: payload}, bot.RedeliveredEvent) {
		return // not acknowledged: Slack sends it again
	}
	r.Ack(nil)
}

// docsPage finds the project whose docs site raw is on (same scheme-less
// host, under the site's path) and the page's path there ("/" for the
// home page, without query or fragment).
func docsPage(set *project.Set, raw string) (project.Project, string, bool) {
	l, err := url.Parse(raw)
	if err != nil || l.Host == "" || (l.Scheme != "https" && l.Scheme != "http") {
		return project.Project{}, "", false
	}
	for _, p := range set.All() {
		site, err := url.Parse(p.Assistant.SiteURL)
		if p.Assistant.SiteURL == "" || err != nil || !strings.EqualFold(site.Host, l.Host) {
			continue
		}
		base := strings.TrimSuffix(site.Path, "/")
		// The path as escaped in the link: what a person typed into it
		// stays encoded, never text (it goes to the agent's form).
		rest, ok := strings.CutPrefix(l.EscapedPath(), base)
		if !ok || (rest != "" && !strings.HasPrefix(rest, "/")) {
			continue
		}
		rest = strings.TrimSuffix(rest, "/")
		if rest == "" {
			rest = "/"
		}
		if len(rest) > maxPath {
			return project.Project{}, "", false
		}
		return p, rest, true
	}
	return project.Project{}, "", false
}

// doLinks unfurls the links: each page with its figures, or without them
// and why (withheld: then without Improve this page either).
// chat.unfurl replaces what was there, so a retry does no harm.
func (u *unfurls) doLinks(ctx context.Context, w *bot.Work) error {
	var req linksRequest
	if err := json.Unmarshal(w.Payload, &req); err != nil {
		return fmt.Errorf("decoding shared links: %w", err)
	}
	log := u.core.Logger().With("feature", Name, "user", req.User, "channel", req.Channel, "work", w.Key)
	withheld := u.withheld(ctx, req)
	figures := map[string]pageFigures{}
	unfurls := map[string]slack.Attachment{}
	for _, l := range req.Links {
		p, ok := u.core.ProjectsIn(ctx).Get(l.Project)
		if !ok {
			continue
		}
		served, ok := u.core.Project(bot.ProjectKey(p))
		if !ok {
			continue
		}
		l.Title = title(ctx, served.AssistantAPI, l.Path, log)
		var api UnfurlAPI = served.API
		got, seen := figures[l.Project]
		switch {
		case withheld != "":
			got = pageFigures{Why: withheld}
		case !seen:
			var err error
			if got, err = u.figures(ctx, w, p, api, log); err != nil {
				return err
			}
			figures[l.Project] = got
		}
		unfurls[l.URL] = slack.Attachment{Blocks: slack.Blocks{BlockSet: pageBlocks(l, p, got, withheld == "")}}
	}
	if len(unfurls) == 0 {
		return nil
	}
	opt := slack.MsgOptionUnfurl(req.MessageTS, unfurls)
	if req.UnfurlID != "" && req.Source != "" {
		opt = slack.MsgOptionUnfurlByID(req.UnfurlID, req.Source, unfurls)
	}
	_, _, _, err := u.core.SlackIn(ctx).SendMessageContext(ctx, req.Channel, opt)
	var se slack.SlackErrorResponse
	switch {
	case err == nil:
		log.Info("docs links unfurled", "links", len(unfurls))
	case bot.TransientSlack(err):
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	case errors.As(err, &se) && se.Err == "cannot_unfurl_url" && w.Attempt < ackTries:
		// Slack takes an unfurl once link_shared is acknowledged, and this
		// work, queued before the ack, may have overtaken it.
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	default:
		log.Warn("Slack refused the unfurl; the links show as they are", "err", err)
	}
	return nil
}

// withheld says why req's unfurls show no figures whatever the budget, ""
// when they may: the figures are for members of the organisation, so none
// in a conversation docsbot is not in (Slack does not say who is), none
// where bot.Sight says the channel is read by others (shared with another
// organisation, with a guest in it, or one Slack cannot say about), and
// none under a link its poster may not see them for (a guest, a person of
// another organisation, or one Slack cannot say).
func (u *unfurls) withheld(ctx context.Context, req linksRequest) string {
	if !req.BotMember {
		return whyNotIn
	}
	s := u.core.Sight(ctx, req.User, req.Channel)
	switch {
	case s.Room != "":
		return "Views and votes are not shown: this channel " + s.Room + "."
	case !s.Words:
		return whyPoster
	}
	return ""
}
