package bottest

import (
	"encoding/json"
	"strings"

	"github.com/docsbot/docsbot/bot/slacktest"
)

// Task is a task card of a message's plan, as a person reads it.
type Task struct {
	ID, Title, Status string
	// Details is the card's details' text; Sources its links' URLs.
	Details string
	Sources []string
}

// Plan returns the title and task cards of m's plan block; ok is false
// when m has none.
func Plan(m slacktest.Message) (title string, tasks []Task, ok bool) {
	var blocks []struct {
		Type  string `json:"type"`
		Title string `json:"title"`
		Tasks []struct {
			TaskID  string          `json:"task_id"`
			Title   string          `json:"title"`
			Status  string          `json:"status"`
			Details json.RawMessage `json:"details"`
			Sources []struct {
				URL string `json:"url"`
			} `json:"sources"`
		} `json:"tasks"`
	}
	if json.Unmarshal(m.Blocks, &blocks) != nil {
		return "", nil, false
	}
	for _, b := range blocks {
		if b.Type != "plan" {
			continue
		}
		for _, t := range b.Tasks {
			task := Task{ID: t.TaskID, Title: t.Title, Status: t.Status}
			if len(t.Details) > 0 && string(t.Details) != "null" {
				task.Details = Rendered(slacktest.Message{Blocks: json.RawMessage("[" + string(t.Details) + "]")})
			}
			for _, s := range t.Sources {
				task.Sources = append(task.Sources, s.URL)
			}
			tasks = append(tasks, task)
		}
		return b.Title, tasks, true
	}
	return "", nil, false
}

// TaskStatuses is "id:status" of each task, joined by spaces, for a
// comparison in one line ("queued:complete working:in_progress ...").
func TaskStatuses(tasks []Task) string {
	var parts []string
	for _, t := range tasks {
		parts = append(parts, t.ID+":"+t.Status)
	}
	return strings.Join(parts, " ")
}

// BlockTypes are the types of m's top-level blocks, in order.
func BlockTypes(m slacktest.Message) []string {
	var blocks []struct {
		Type string `json:"type"`
	}
	if json.Unmarshal(m.Blocks, &blocks) != nil {
		return nil
	}
	var out []string
	for _, b := range blocks {
		out = append(out, b.Type)
	}
	return out
}
