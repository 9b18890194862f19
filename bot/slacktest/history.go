package slacktest

import (
	"fmt"
	"strings"
)

// conversationsHistory answers conversations.history: the channel's
// top-level messages, newest first, as Slack orders them. oldest and latest
// bound the timestamps (exclusive unless inclusive=true); limit (default 100,
// at most 1000) and cursor page through the rest. Metadata is always
// included, as with include_all_metadata=true.
func (s *Server) conversationsHistory(r *apiRequest) apiResult {
	p := r.params
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, code := s.visibleChannelLocked(r.ws, p["channel"])
	if code != "" {
		return fail(code)
	}
	if res, ok := s.needScope(historyScope(ch)); !ok {
		return res
	}
	inclusive := p["inclusive"] == "true" || p["inclusive"] == "1"
	oldest, latest := tsKey(p["oldest"], ""), tsKey(p["latest"], "~")
	var picked []*msg
	for i := len(ch.top) - 1; i >= 0; i-- {
		m := ch.top[i]
		t := tsKey(m.ts, "")
		if t < oldest || t > latest || (!inclusive && (t == oldest || t == latest)) {
			continue
		}
		picked = append(picked, m)
	}
	return pageOf(picked, p, 100, r.ws.Team)
}

// tsKey turns a Slack timestamp such as "1732233445.000100" into a string
// that sorts like the time it stands for (seconds padded, six decimals), or
// def when ts is empty.
func tsKey(ts, def string) string {
	if ts == "" {
		return def
	}
	sec, frac, _ := strings.Cut(ts, ".")
	frac += "000000"
	return fmt.Sprintf("%012s.%s", sec, frac[:6])
}
