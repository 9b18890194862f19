package main

import (
	"encoding/json"
	"fmt"

	"github.com/docsbot/docsbot/bot/agent"
	"github.com/docsbot/docsbot/bot/slacktest"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// resultCheck compares the jobs finished at the API with the result
// messages the bot posted in their threads.
type resultCheck struct {
	// Finished is the number of jobs the API shows finished.
	Finished int `json:"finished"`
	// Posted is the number of result messages in the jobs' threads.
	Posted int `json:"posted"`
	// Duplicates counts jobs with more than one result message.
	Duplicates int `json:"duplicates"`
	// Missing counts finished jobs with no result message.
	Missing int `json:"missing"`
	// Premature counts unfinished jobs with a result message.
	Premature int `json:"premature"`
}

// problems describes what is wrong, if anything.
func (c resultCheck) problems() []string {
	var out []string
	if c.Duplicates > 0 {
		out = append(out, fmt.Sprintf("%d jobs have more than one result message", c.Duplicates))
	}
	if c.Missing > 0 {
		out = append(out, fmt.Sprintf("%d finished jobs have no result message", c.Missing))
	}
	if c.Premature > 0 {
		out = append(out, fmt.Sprintf("%d unfinished jobs have a result message", c.Premature))
	}
	return out
}

// checkResults counts the result messages of every seeded job: the bot's
// replies in the job's thread whose metadata is a finished event for the job.
func checkResults(sl *slacktest.Server, api *docsapitest.Server, jobs []seededJob) resultCheck {
	var c resultCheck
	for _, j := range jobs {
		n := resultPosts(sl, j)
		aj, _ := api.Job(j.ID)
		finished := aj.Status.Final()
		if finished {
			c.Finished++
		}
		c.Posted += n
		switch {
		case n > 1:
			c.Duplicates++
		case n == 0 && finished:
			c.Missing++
		case n > 0 && !finished:
			c.Premature++
		}
	}
	return c
}

// resultPosts counts the bot's result messages for j in j's thread.
func resultPosts(sl *slacktest.Server, j seededJob) int { return len(resultMessages(sl, j)) }

// resultMessages are the bot's result messages for j in j's thread.
func resultMessages(sl *slacktest.Server, j seededJob) []slacktest.Message {
	msgs := sl.Thread(loadChannel, j.TS)
	var out []slacktest.Message
	self := sl.BotUserID()
	for _, m := range msgs[min(1, len(msgs)):] { // the parent is first
		if m.User != self || len(m.Metadata) == 0 {
			continue
		}
		var md struct {
			EventType    string `json:"event_type"`
			EventPayload struct {
				JobID string `json:"job_id"`
			} `json:"event_payload"`
		}
		if json.Unmarshal(m.Metadata, &md) == nil && md.EventType == agent.FinishedEvent && md.EventPayload.JobID == j.ID {
			out = append(out, m)
		}
	}
	return out
}
