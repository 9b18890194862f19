package unfurl

import (
	"context"
	"encoding/json"
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
// unfurl id and source of links in the composer.
type sharedEvent struct {
	UnfurlID string `json:"unfurl_id"`
	Source   string `json:"source"`
}

// onLinkShared records the links of a docs site as unfurl.links work, then
// acks; an event with none is acked and left alone (another site's links
// are not docsbot's to unfurl), and so is a poster the allow-lists refuse.
func (u *unfurls) onLinkShared(ctx context.Context, r *bot.EventRequest) {
	ev, ok := r.Event.InnerEvent.Data.(*slackevents.LinkSharedEvent)
	if !ok || ev.User == "" || ev.User == u.core.Self().UserID || u.core.Refusal(ev.User, ev.Channel) != "" {
		r.Ack(nil)
		return
	}
	req := linksRequest{Team: r.Event.TeamID, Channel: ev.Channel, User: ev.User, MessageTS: ev.MessageTimeStamp}
	if raw, ok := r.Event.Data.(*slackevents.EventsAPICallbackEvent); ok && raw.InnerEvent != nil {
		var extra sharedEvent
		if json.Unmarshal(*raw.InnerEvent, &extra) == nil {
			req.UnfurlID, req.Source = extra.UnfurlID, extra.Source
		}
	}
	for _, l := range ev.Links {
		if p, path, ok := docsPage(u.core.Projects().Set, l.URL); ok && len(req.Links) < maxLinks {
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
// and why. chat.unfurl replaces what was there, so a retry does no harm.
func (u *unfurls) doLinks(ctx context.Context, w *bot.Work) error {
	var req linksRequest
	if err := json.Unmarshal(w.Payload, &req); err != nil {
		return fmt.Errorf("decoding shared links: %w", err)
	}
	log := u.core.Logger().With("feature", Name, "user", req.User, "channel", req.Channel, "work", w.Key)
	who := u.core.Sight(ctx, req.User, "").Spender(req.Team, req.User)
	figures := map[string]pageFigures{}
	unfurls := map[string]slack.Attachment{}
	for _, l := range req.Links {
		p, ok := u.core.Projects().Get(l.Project)
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
		if !seen {
			var err error
			if got, err = u.figures(ctx, w, p, api, who, log); err != nil {
				return err
			}
			figures[l.Project] = got
		}
		unfurls[l.URL] = slack.Attachment{Blocks: slack.Blocks{BlockSet: pageBlocks(l, p, got)}}
	}
	if len(unfurls) == 0 {
		return nil
	}
	opt := slack.MsgOptionUnfurl(req.MessageTS, unfurls)
	if req.UnfurlID != "" && req.Source != "" {
		opt = slack.MsgOptionUnfurlByID(req.UnfurlID, req.Source, unfurls)
	}
	_, _, _, err := u.core.SlackIn(ctx).SendMessageContext(ctx, req.Channel, opt)
	switch {
	case err == nil:
		log.Info("docs links unfurled", "links", len(unfurls))
	case bot.TransientSlack(err):
		return bot.Later(bot.RetryDelay(w.Attempt), err)
	default:
		log.Warn("Slack refused the unfurl; the links show as they are", "err", err)
	}
	return nil
}
