package slacktest

// statusKey names a thread for assistant.threads.setStatus.
func statusKey(channel, threadTS string) string { return channel + "/" + threadTS }

// assistantThreadsSetStatus records the status shown in a thread ("is
// working…"); an empty status clears it, and so does the bot's next post in
// the thread, as on Slack.
func (s *Server) assistantThreadsSetStatus(r *apiRequest) apiResult {
	p := r.params
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, code := s.visibleChannelLocked(p["channel_id"])
	if code != "" {
		return fail(code)
	}
	if !ch.BotMember {
		return fail("not_in_channel")
	}
	if p["thread_ts"] == "" {
		return invalidArgs("missing required field: thread_ts")
	}
	parent := threadParent(ch, p["thread_ts"])
	if parent == nil {
		return fail("thread_not_found")
	}
	key := statusKey(ch.ID, parent.ts)
	if p["status"] == "" {
		delete(s.statuses, key)
	} else {
		s.statuses[key] = p["status"]
	}
	return apiResult{}
}

// ThreadStatus returns the assistant status shown in the thread of
// channel whose parent is threadTS, "" when none (never set, cleared, or
// cleared by the bot's post in the thread).
func (s *Server) ThreadStatus(channel, threadTS string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.statuses[statusKey(channel, threadTS)]
}
