package docsapitest

import (
	"bytes"
	"encoding/json"
	"net/http"
)

// parsePrompt validates an agent request body and returns its prompt, or the
// 4xx answer to send.
func parsePrompt(body []byte) (string, *response) {
	if len(body) > maxBody {
		return "", errorResponse(http.StatusRequestEntityTooLarge, msgTooLarge)
	}
	if !json.Valid(body) {
		return "", errorResponse(http.StatusBadRequest, msgBadJSON)
	}
	t := bytes.TrimSpace(body)
	if len(t) == 0 || t[0] != '{' {
		return "", errorResponse(http.StatusBadRequest, msgNotObject)
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(t, &fields); err != nil {
		return "", errorResponse(http.StatusBadRequest, msgBadJSON)
	}
	raw, ok := fields["prompt"]
	if !ok || string(raw) == "null" {
		return "", errorResponse(http.StatusBadRequest, msgPromptRequired)
	}
	var prompt string
	if err := json.Unmarshal(raw, &prompt); err != nil {
		return "", errorResponse(http.StatusBadRequest, msgPromptNotString)
	}
	if prompt == "" {
		return "", errorResponse(http.StatusBadRequest, msgPromptEmpty)
	}
	return prompt, nil
}

// createJob handles POST /v2/agent/{projectId}/job.
func (s *Server) createJob(body []byte) *response {
	prompt, bad := parsePrompt(body)
	if bad != nil {
		return bad
	}
	lc := s.lifecycleFor(prompt)
	now := s.now()
	s.mu.Lock()
	j := cloneJob(s.createJobLocked(prompt, lc, now).api)
	s.mu.Unlock()
	return jsonResponse(http.StatusCreated, j)
}

// sendMessage handles POST /v2/agent/{projectId}/job/{id}/message.
func (s *Server) sendMessage(id string, body []byte) *response {
	prompt, bad := parsePrompt(body)
	if bad != nil {
		return bad
	}
	s.mu.Lock()
	_, ok := s.jobs[id]
	s.mu.Unlock()
	if !ok {
		return errorResponse(http.StatusNotFound, msgNoJob)
	}
	lc := s.lifecycleFor(prompt)
	now := s.now()
	s.mu.Lock()
	j := s.jobs[id]
	s.restartLocked(j, prompt, lc, now)
	snap := cloneJob(j.api)
	s.mu.Unlock()
	return jsonResponse(http.StatusOK, snap)
}

// getJob handles GET /v2/agent/{projectId}/job/{id}; it counts as a poll.
func (s *Server) getJob(id string) *response {
	now := s.now()
	s.mu.Lock()
	j, ok := s.jobs[id]
	if !ok {
		s.mu.Unlock()
		return errorResponse(http.StatusNotFound, msgNoJob)
	}
	s.pollLocked(j, now)
	snap := cloneJob(j.api)
	s.mu.Unlock()
	return jsonResponse(http.StatusOK, snap)
}
