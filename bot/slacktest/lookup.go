package slacktest

import "encoding/json"

// EnvelopeOfEvent returns the id of the Socket Mode envelope that carried
// the Events API event eventID (as PostUserMessage and DeliverEvent return
// it), so a test can Redeliver exactly that envelope. Like Redeliver, it knows
// only the envelopes the server still keeps.
func (s *Server) EnvelopeOfEvent(eventID string) (string, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for id, e := range s.envs {
		if e.typ != typeEventsAPI {
			continue
		}
		var p struct {
			EventID string `json:"event_id"`
		}
		if json.Unmarshal(e.payload, &p) == nil && p.EventID == eventID {
			return id, true
		}
	}
	return "", false
}
