package ask

import (
	"testing"

	"github.com/docsbot/docsbot/bot"
)

// TestGoesOnWith: in a channel only the asker's replies go on with an
// answer's conversation; a mention, a DM, and a conversation kept before
// askers were recorded let anyone go on.
func TestGoesOnWith(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		asker string
		post  bot.Post
		want  bool
	}{
		{"the asker's reply", "U0ALICE", bot.Post{User: "U0ALICE"}, true},
		{"another's reply", "U0ALICE", bot.Post{User: "U0BOB"}, false},
		{"another's mention", "U0ALICE", bot.Post{User: "U0BOB", Mention: true}, true},
		{"a reply in a DM", "U0ALICE", bot.Post{User: "U0BOB", DM: true}, true},
		{"an asker not recorded", "", bot.Post{User: "U0BOB"}, true},
	}
	for _, tt := range tests {
		if got := goesOnWith(tt.asker, tt.post); got != tt.want {
			t.Errorf("%s: goesOnWith = %v, want %v", tt.name, got, tt.want)
		}
	}
}
