package bottest

import (
	"encoding/json"
	"strconv"
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

// AccessoryValues are the values of m's section buttons (accessories) of
// actionID, in order.
func AccessoryValues(m slacktest.Message, actionID string) []string {
	var blocks []struct {
		Accessory struct {
			ActionID string `json:"action_id"`
			Value    string `json:"value"`
		} `json:"accessory"`
	}
	if json.Unmarshal(m.Blocks, &blocks) != nil {
		return nil
	}
	var out []string
	for _, b := range blocks {
		if b.Accessory.ActionID == actionID {
			out = append(out, b.Accessory.Value)
		}
	}
	return out
}

// ButtonValue is the value of m's first button of actionID, in an actions
// block or as a section's accessory; ok false when m has none.
func ButtonValue(m slacktest.Message, actionID string) (value string, ok bool) {
	type element struct {
		ActionID string `json:"action_id"`
		Value    string `json:"value"`
	}
	var blocks []struct {
		Accessory element   `json:"accessory"`
		Elements  []element `json:"elements"`
	}
	if json.Unmarshal(m.Blocks, &blocks) != nil {
		return "", false
	}
	for _, b := range blocks {
		for _, e := range append([]element{b.Accessory}, b.Elements...) {
			if e.ActionID == actionID {
				return e.Value, true
			}
		}
	}
	return "", false
}

// Cell is a data_table cell as a person reads it: its text (a number's
// text, or its value), and a button's action id and value.
type Cell struct {
	Text, ActionID, Value string
}

// Table returns the caption and rows (the header first) of blocks' first
// data_table; ok is false when there is none.
func Table(blocks json.RawMessage) (caption string, rows [][]Cell, ok bool) {
	var list []struct {
		Type    string `json:"type"`
		Caption string `json:"caption"`
		Rows    [][]struct {
			Type    string   `json:"type"`
			Text    string   `json:"text"`
			Value   *float64 `json:"value"`
			Element *struct {
				ActionID string `json:"action_id"`
				Value    string `json:"value"`
				Text     struct {
					Text string `json:"text"`
				} `json:"text"`
			} `json:"element"`
		} `json:"rows"`
	}
	if json.Unmarshal(blocks, &list) != nil {
		return "", nil, false
	}
	for _, b := range list {
		if b.Type != "data_table" {
			continue
		}
		for _, r := range b.Rows {
			var row []Cell
			for _, c := range r {
				cell := Cell{Text: c.Text}
				if cell.Text == "" && c.Value != nil {
					cell.Text = strconv.FormatFloat(*c.Value, 'f', -1, 64)
				}
				if c.Element != nil {
					cell = Cell{Text: c.Element.Text.Text, ActionID: c.Element.ActionID, Value: c.Element.Value}
				}
				row = append(row, cell)
			}
			rows = append(rows, row)
		}
		return b.Caption, rows, true
	}
	return "", nil, false
}

// Chart is a data_visualization block as a person reads it.
type Chart struct {
	Title, Type string
	Categories  []string
	// Series maps a series' name to its values, one per category.
	Series map[string][]float64
}

// Charts returns blocks' data_visualization blocks.
func Charts(blocks json.RawMessage) []Chart {
	var list []struct {
		Type  string `json:"type"`
		Title string `json:"title"`
		Chart struct {
			Type   string `json:"type"`
			Series []struct {
				Name string `json:"name"`
				Data []struct {
					Value float64 `json:"value"`
				} `json:"data"`
			} `json:"series"`
			AxisConfig struct {
				Categories []string `json:"categories"`
			} `json:"axis_config"`
		} `json:"chart"`
	}
	if json.Unmarshal(blocks, &list) != nil {
		return nil
	}
	var out []Chart
	for _, b := range list {
		if b.Type != "data_visualization" {
			continue
		}
		c := Chart{Title: b.Title, Type: b.Chart.Type, Categories: b.Chart.AxisConfig.Categories, Series: map[string][]float64{}}
		for _, s := range b.Chart.Series {
			for _, d := range s.Data {
				c.Series[s.Name] = append(c.Series[s.Name], d.Value)
			}
		}
		out = append(out, c)
	}
	return out
}

// ChartPosts are the bot's messages in channel, in threads too, that hold
// a data_visualization block, oldest parent first.
func (h *Harness) ChartPosts(channel string) []slacktest.Message {
	var out []slacktest.Message
	for _, m := range h.Slack.Messages(channel) {
		msgs := []slacktest.Message{m}
		if m.ReplyCount > 0 {
			msgs = h.Slack.Thread(channel, m.TS)
		}
		for _, r := range msgs {
			if r.BotID != "" && len(Charts(r.Blocks)) > 0 {
				out = append(out, r)
			}
		}
	}
	return out
}
