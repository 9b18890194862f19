package slacktest

// Messages lists the top-level messages of a channel, oldest first. Thread
// replies and ephemeral messages are not included.
func (s *Server) Messages(channel string) []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, ok := s.channels[channel]
	if !ok {
		return nil
	}
	out := make([]Message, 0, len(ch.top))
	for _, m := range ch.top {
		out = append(out, m.public())
	}
	return out
}

// Thread lists the thread containing the message ts: parent first, then the
// replies oldest first. It is nil when there is no such message.
func (s *Server) Thread(channel, ts string) []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, ok := s.channels[channel]
	if !ok {
		return nil
	}
	parent := threadParent(ch, ts)
	if parent == nil {
		return nil
	}
	out := []Message{parent.public()}
	for _, r := range parent.replies {
		out = append(out, r.public())
	}
	return out
}

// Message returns the message ts of a channel, thread replies included.
func (s *Server) Message(channel, ts string) (Message, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	ch, ok := s.channels[channel]
	if !ok {
		return Message{}, false
	}
	m, ok := ch.byTS[ts]
	if !ok {
		return Message{}, false
	}
	return m.public(), true
}

// Ephemerals lists the ephemeral messages shown to userID ("" = everyone),
// oldest first: chat.postEphemeral posts, ephemeral response_url posts and
// slash command ack payloads.
func (s *Server) Ephemerals(userID string) []Message {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []Message
	for _, m := range s.ephemerals {
		if userID == "" || m.forUser == userID {
			out = append(out, m.public())
		}
	}
	return out
}
