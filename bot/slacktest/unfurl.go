package slacktest

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strings"
)

// The sources of a link_shared event and of chat.unfurl.
const (
	sourceHistory  = "conversations_history" // a posted message
	sourceComposer = "composer"              // a link still in the message composer
	// composerChannel is the channel of a link_shared event from the
	// composer, whose message_ts is a UUID (our reading of Slack's 2021
	// change to unfurls; the event's reference shows only posted messages).
	composerChannel = "COMPOSER"
)

// WithUnfurlDomains registers the app's unfurl domains (the manifest's
// app_unfurl_domains): a person's message with a link to one of them, or
// to a subdomain, makes Slack send the app a link_shared event (with scope
// links:read), which the app answers with chat.unfurl (scope links:write).
// Default none.
func WithUnfurlDomains(domains ...string) Option {
	return func(c *config) {
		for _, d := range domains {
			c.unfurlDomains = append(c.unfurlDomains, strings.ToLower(strings.TrimPrefix(d, ".")))
		}
	}
}

// SharedLink is one link of a link_shared event: the registered domain it
// matched and the URL.
type SharedLink struct {
	Domain string
	URL    string
}

// SharedLinks is the link_shared event Slack sent for a person's message
// (or composer text) with links to the app's unfurl domains.
type SharedLinks struct {
	// Channel and TS are the message's; in the composer Channel is
	// "COMPOSER" and TS a UUID.
	Channel, TS string
	// UnfurlID and Source are what chat.unfurl takes instead of channel and
	// ts; Source is "conversations_history" or "composer".
	UnfurlID, Source string
	// EventID is the link_shared event's id.
	EventID string
	Links   []SharedLink
}

// Unfurl is what the app gave Slack to show under one shared link (chat.unfurl).
type Unfurl struct {
	URL string
	// Blocks are the unfurl's blocks, nil for a legacy attachment without blocks.
	Blocks json.RawMessage
	// Attachment is the unfurl as the app sent it.
	Attachment json.RawMessage
	// Entity is the Work Object entity the app gave for the URL
	// (metadata.entities), nil when none.
	Entity json.RawMessage
	// Updates counts the chat.unfurl calls that changed it after the first.
	Updates int
}

// linkShare is one link_shared event and the unfurls the app answered it
// with. Guarded by Server.mu.
type linkShare struct {
	SharedLinks
	text    string
	env     *envelope
	unfurls map[string]*Unfurl
	order   []string // URLs in the order first unfurled
	// team is the workspace the event came from: only its token unfurls.
	team string
}

// has reports whether u is one of the shared links.
func (l *linkShare) has(u string) bool {
	return slices.ContainsFunc(l.Links, func(x SharedLink) bool { return x.URL == u })
}

// public copies l's unfurls.
func (l *linkShare) public() map[string]Unfurl {
	out := make(map[string]Unfurl, len(l.unfurls))
	for u, x := range l.unfurls {
		c := *x
		c.Blocks, c.Attachment, c.Entity = cloneRaw(x.Blocks), cloneRaw(x.Attachment), cloneRaw(x.Entity)
		out[u] = c
	}
	return out
}

// linkPattern finds links in message text as Slack delivers it (<url> or
// <url|label>) and bare ones.
var linkPattern = regexp.MustCompile(`<(https?://[^|>\s]+)(?:\|[^>]*)?>|https?://[^\s<>|]+`)

// sharedLinksIn returns the links of text to the registered domains, each once.
func sharedLinksIn(text string, domains []string) []SharedLink {
	var out []SharedLink
	for _, m := range linkPattern.FindAllStringSubmatch(text, -1) {
		raw := cmp.Or(m[1], m[0])
		u, err := url.Parse(raw)
		if err != nil || slices.ContainsFunc(out, func(l SharedLink) bool { return l.URL == raw }) {
			continue
		}
		host := strings.ToLower(u.Hostname())
		for _, d := range domains {
			if host == d || strings.HasSuffix(host, "."+d) {
				out = append(out, SharedLink{Domain: d, URL: raw})
				break
			}
		}
	}
	return out
}

// linkSharedLocked registers the link_shared event Slack sends for m, a
// person's new message in ch, when it links to the app's unfurl domains
// and the token has links:read; nil otherwise. Slack sends it whether or
// not the bot is in the channel (is_bot_user_member says which); never for
// the bot's own messages. s.mu is held.
func (s *Server) linkSharedLocked(ch *channelState, m *msg) *envelope {
	links := sharedLinksIn(m.text, s.cfg.unfurlDomains)
	if len(links) == 0 || !slices.Contains(s.cfg.scopes, "links:read") || s.botUserLocked(m.user) {
		return nil
	}
	share := &linkShare{SharedLinks: SharedLinks{
		Channel: ch.ID, TS: m.ts, Source: sourceHistory, Links: links,
		UnfurlID: fmt.Sprintf("%s.%s.%s", ch.ID, m.ts, randomHex(64)),
	}, text: m.text}
	ev := share.event()
	ev["is_bot_user_member"] = ch.BotMember
	ev["user"] = m.user
	if m.parent != nil {
		ev["thread_ts"] = m.parent.ts
	}
	m.share = share
	return s.registerShareLocked(share, ev)
}

// event is the link_shared event of l, without its user.
func (l *linkShare) event() map[string]any {
	links := make([]map[string]any, len(l.Links))
	for i, x := range l.Links {
		links[i] = map[string]any{"domain": x.Domain, "url": x.URL}
	}
	return map[string]any{
		"type":       "link_shared",
		"channel":    l.Channel,
		"message_ts": l.TS,
		"unfurl_id":  l.UnfurlID,
		"source":     l.Source,
		"links":      links,
	}
}

// registerShareLocked wraps l's event ev in an envelope and keeps l by its
// unfurl id. s.mu is held.
func (s *Server) registerShareLocked(l *linkShare, ev map[string]any) *envelope {
	w := s.eventWorkspaceLocked(ev)
	e, id := s.callbackInLocked(w, ev)
	l.env, l.EventID, l.unfurls, l.team = e, id, map[string]*Unfurl{}, w.Team
	s.shares[l.UnfurlID] = l
	return e
}

// ShareLinks posts m as the person m.UserID, like PostUserMessage (which
// sends the same events), and returns the link_shared event Slack sent for
// its links to the app's unfurl domains (WithUnfurlDomains), after the
// app acknowledged it and the message event. It is an error when the
// message links to none of them or the token lacks links:read: Slack
// sends no link_shared then.
func (s *Server) ShareLinks(ctx context.Context, m UserMessage) (SharedLinks, error) {
	ts, _, err := s.PostUserMessage(ctx, m)
	if err != nil {
		return SharedLinks{}, err
	}
	shared, ok := s.LinkShare(m.ChannelID, ts)
	if !ok {
		return SharedLinks{}, fmt.Errorf("slacktest: no link_shared for %q: no link to an unfurl domain, or no links:read scope", m.Text)
	}
	return shared, nil
}

// ComposeLinks is the person userID typing text with links to the app's
// unfurl domains in the message composer, not yet sent: Slack sends
// link_shared with source "composer", channel "COMPOSER", a UUID for
// message_ts and an unfurl_id, and the app may unfurl by unfurl_id and
// source. It returns after the ack or ctx.
func (s *Server) ComposeLinks(ctx context.Context, userID, text string) (SharedLinks, error) {
	s.mu.Lock()
	if _, ok := s.users[userID]; !ok {
		s.mu.Unlock()
		return SharedLinks{}, fmt.Errorf("slacktest: composer of unknown user %q", userID)
	}
	links := sharedLinksIn(text, s.cfg.unfurlDomains)
	if len(links) == 0 || !slices.Contains(s.cfg.scopes, "links:read") {
		s.mu.Unlock()
		return SharedLinks{}, fmt.Errorf("slacktest: no link_shared for %q: no link to an unfurl domain, or no links:read scope", text)
	}
	share := &linkShare{SharedLinks: SharedLinks{
		Channel: composerChannel, TS: newUUID(), Source: sourceComposer, Links: links,
		UnfurlID: userID + "-" + newUUID(),
	}, text: text}
	ev := share.event()
	ev["user"] = userID
	e := s.registerShareLocked(share, ev)
	out := share.SharedLinks
	s.mu.Unlock()
	s.changed()
	s.deliver(e)
	_, err := s.waitAck(ctx, e, 0)
	return out, err
}

// LinkShare returns the link_shared event Slack sent for the message ts of
// channel, false when none.
func (s *Server) LinkShare(channel, ts string) (SharedLinks, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ch, ok := s.channels[channel]; ok {
		if m, ok := ch.byTS[ts]; ok && m.share != nil {
			out := m.share.SharedLinks
			out.Links = slices.Clone(out.Links)
			return out, true
		}
	}
	return SharedLinks{}, false
}

// Unfurls returns the unfurls the app gave the links of the message ts of
// channel (chat.unfurl), by URL; empty when none.
func (s *Server) Unfurls(channel, ts string) map[string]Unfurl {
	s.mu.Lock()
	defer s.mu.Unlock()
	if ch, ok := s.channels[channel]; ok {
		if m, ok := ch.byTS[ts]; ok && m.share != nil {
			return m.share.public()
		}
	}
	return map[string]Unfurl{}
}

// UnfurlsByID returns the unfurls given for the link_shared event of
// unfurlID (ComposeLinks, or a posted message), by URL; empty when none.
func (s *Server) UnfurlsByID(unfurlID string) map[string]Unfurl {
	s.mu.Lock()
	defer s.mu.Unlock()
	if l, ok := s.shares[unfurlID]; ok {
		return l.public()
	}
	return map[string]Unfurl{}
}

// chatUnfurl answers chat.unfurl (scope links:write): unfurls for links of
// a link_shared event the app acknowledged, named by unfurl_id and source
// or by channel and ts, each URL's an attachment (blocks, or legacy
// fields), and Work Object entities in metadata. A later call for the same
// link replaces its unfurl. Errors as Slack's reference lists them:
// missing_channel, missing_ts, cannot_find_channel, cannot_find_message,
// missing_unfurls, invalid_unfurls_format, cannot_parse_attachment,
// cannot_unfurl_url (no acknowledged link_shared for the URL),
// cannot_unfurl_message (the URL is not in the message); blocks are
// checked like a message's (invalid_blocks: our assumption, the reference
// names no error for them).
func (s *Server) chatUnfurl(r *apiRequest) apiResult {
	p := r.params
	s.mu.Lock()
	defer s.mu.Unlock()
	share, res := s.unfurlTargetLocked(r.ws, p)
	if res.err != "" {
		return res
	}
	if share.env == nil || share.env.acks == 0 {
		return fail("cannot_unfurl_url")
	}
	raw, metadata := rawParam(p, "unfurls"), rawParam(p, "metadata")
	if raw == nil && metadata == nil {
		return fail("missing_unfurls")
	}
	byURL := map[string]json.RawMessage{}
	if raw != nil && json.Unmarshal(raw, &byURL) != nil {
		return fail("invalid_unfurls_format")
	}
	for _, u := range slices.Sorted(maps.Keys(byURL)) {
		var att struct {
			Blocks json.RawMessage `json:"blocks"`
		}
		if json.Unmarshal(byURL[u], &att) != nil {
			return fail("cannot_parse_attachment")
		}
		if res, ok := share.linkAllowed(u); !ok {
			return res
		}
		if nonNull(att.Blocks) != nil {
			if c := validateContent("", att.Blocks, nil, false, s.rulesLocked()); c.code != "" {
				return c.result()
			}
		}
	}
	entities := map[string]json.RawMessage{}
	if metadata != nil {
		var md struct {
			Entities []json.RawMessage `json:"entities"`
		}
		if json.Unmarshal(metadata, &md) != nil {
			return fail("invalid_metadata_format")
		}
		for _, e := range md.Entities {
			var ent struct {
				URL string `json:"url"`
			}
			if json.Unmarshal(e, &ent) != nil || ent.URL == "" {
				return fail("invalid_metadata_format")
			}
			if res, ok := share.linkAllowed(ent.URL); !ok {
				return res
			}
			entities[ent.URL] = e
		}
	}

	ch, m := s.sharedMessageLocked(share)
	var previous map[string]any
	if m != nil {
		previous = s.wireLocked(m)
	}
	touched := slices.Sorted(maps.Keys(byURL))
	for u := range entities {
		if !slices.Contains(touched, u) {
			touched = append(touched, u)
		}
	}
	for _, u := range touched {
		x := share.unfurlFor(u)
		if att, ok := byURL[u]; ok {
			var a struct {
				Blocks json.RawMessage `json:"blocks"`
			}
			_ = json.Unmarshal(att, &a)
			x.Attachment, x.Blocks = cloneRaw(att), cloneRaw(nonNull(a.Blocks))
		}
		if e, ok := entities[u]; ok {
			x.Entity = cloneRaw(e)
		}
	}
	if m != nil {
		if e := s.changedEchoLocked(ch, m, previous); e != nil {
			res.echo = append(res.echo, e)
		}
	}
	return res
}

// unfurlTargetLocked finds the link_shared record chat.unfurl's p names,
// or Slack's error. s.mu is held.
func (s *Server) unfurlTargetLocked(w *Workspace, p map[string]string) (*linkShare, apiResult) {
	if p["unfurl_id"] != "" || p["source"] != "" {
		if p["unfurl_id"] == "" || p["source"] == "" {
			return nil, invalidArgs("[ERROR] unfurl_id and source must be provided together")
		}
		if p["source"] != sourceHistory && p["source"] != sourceComposer {
			return nil, invalidArgs(problem("/source", "must be one of [composer conversations_history]"))
		}
		l := s.shares[p["unfurl_id"]]
		if l == nil || l.Source != p["source"] || l.team != w.Team {
			return nil, fail("cannot_unfurl_url")
		}
		return l, apiResult{}
	}
	switch {
	case p["channel"] == "":
		return nil, fail("missing_channel")
	case p["ts"] == "":
		return nil, fail("missing_ts")
	}
	ch := s.channelByRefLocked(w, p["channel"])
	if ch == nil {
		return nil, fail("cannot_find_channel")
	}
	m, ok := ch.byTS[p["ts"]]
	if !ok {
		return nil, fail("cannot_find_message")
	}
	if m.share == nil {
		return nil, fail("cannot_unfurl_url")
	}
	return m.share, apiResult{}
}

// linkAllowed answers whether the app may unfurl u for l: one of its
// links, else cannot_unfurl_url when the text holds it (a domain the app
// did not register) and cannot_unfurl_message when it does not.
func (l *linkShare) linkAllowed(u string) (apiResult, bool) {
	switch {
	case l.has(u):
		return apiResult{}, true
	case strings.Contains(l.text, u):
		return fail("cannot_unfurl_url"), false
	}
	return fail("cannot_unfurl_message"), false
}

// unfurlFor returns l's unfurl of u, new or counted as updated.
func (l *linkShare) unfurlFor(u string) *Unfurl {
	if x, ok := l.unfurls[u]; ok {
		x.Updates++
		return x
	}
	x := &Unfurl{URL: u}
	l.unfurls[u] = x
	l.order = append(l.order, u)
	return x
}

// sharedMessageLocked is the posted message of l, nil for the composer.
// s.mu is held.
func (s *Server) sharedMessageLocked(l *linkShare) (*channelState, *msg) {
	if l.Source != sourceHistory {
		return nil, nil
	}
	ch, ok := s.channels[l.Channel]
	if !ok {
		return nil, nil
	}
	return ch, ch.byTS[l.TS]
}

// allAttachments is m's attachments as Slack shows them: its own, then its
// links' unfurls (is_app_unfurl, app_unfurl_url), in the order unfurled.
func (m *msg) allAttachments() json.RawMessage {
	if m.share == nil || len(m.share.order) == 0 {
		return m.attachments
	}
	var list []any
	_ = json.Unmarshal(nonNull(m.attachments), &list)
	for _, u := range m.share.order {
		x := m.share.unfurls[u]
		att := map[string]any{}
		_ = json.Unmarshal(x.Attachment, &att)
		att["app_unfurl_url"], att["from_url"], att["original_url"], att["is_app_unfurl"] = u, u, u, true
		list = append(list, att)
	}
	b, _ := json.Marshal(list)
	return b
}
