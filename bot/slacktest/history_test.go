package slacktest_test

import (
	"testing"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot/slacktest"
)

func TestConversationsHistory(t *testing.T) {
	s := slacktest.NewServer()
	t.Cleanup(s.Close)
	api := slack.New(s.BotToken(), slack.OptionAPIURL(s.APIURL))
	var posted []string
	for _, text := range []string{"one", "two", "three"} {
		_, ts, err := api.PostMessageContext(t.Context(), "C0GENERAL", slack.MsgOptionText(text, false),
			slack.MsgOptionMetadata(slack.SlackMetadata{EventType: "probe", EventPayload: map[string]any{"text": text}}))
		if err != nil {
			t.Fatalf("post %s: %v", text, err)
		}
		posted = append(posted, ts)
	}
	// A thread reply is not in the channel's history.
	if _, _, err := api.PostMessageContext(t.Context(), "C0GENERAL", slack.MsgOptionText("reply", false), slack.MsgOptionTS(posted[0])); err != nil {
		t.Fatalf("reply: %v", err)
	}

	tests := []struct {
		name   string
		params slack.GetConversationHistoryParameters
		want   []string
	}{
		{"all, newest first", slack.GetConversationHistoryParameters{}, []string{"three", "two", "one"}},
		{"after the first", slack.GetConversationHistoryParameters{Oldest: posted[0]}, []string{"three", "two"}},
		{"inclusive", slack.GetConversationHistoryParameters{Oldest: posted[0], Inclusive: true}, []string{"three", "two", "one"}},
		{"before the last", slack.GetConversationHistoryParameters{Latest: posted[2]}, []string{"two", "one"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.params.ChannelID = "C0GENERAL"
			tc.params.IncludeAllMetadata = true
			res, err := api.GetConversationHistoryContext(t.Context(), &tc.params)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range res.Messages {
				got = append(got, m.Text)
				if m.Metadata.EventType != "probe" || m.Metadata.EventPayload["text"] != m.Text {
					t.Errorf("message %q: metadata %+v", m.Text, m.Metadata)
				}
			}
			if len(got) != len(tc.want) {
				t.Fatalf("got %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("got %v, want %v", got, tc.want)
				}
			}
		})
	}

	// Paging: one message a page, following the cursor.
	var texts []string
	params := &slack.GetConversationHistoryParameters{ChannelID: "C0GENERAL", Limit: 1}
	for {
		res, err := api.GetConversationHistoryContext(t.Context(), params)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range res.Messages {
			texts = append(texts, m.Text)
		}
		if !res.HasMore {
			break
		}
		params.Cursor = res.ResponseMetaData.NextCursor
	}
	if len(texts) != 3 || texts[0] != "three" || texts[2] != "one" {
		t.Fatalf("paged history = %v", texts)
	}
}
