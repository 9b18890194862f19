package roles_test

import (
	"context"
	"fmt"

	"github.com/slack-go/slack"

	"github.com/docsbot/docsbot/bot/roles"
)

// A Checker reading user groups with slack-go: GetUserGroupMembersContext
// takes variadic options, so a closure adapts it to Members.
func ExampleMembersFunc() {
	client := slack.New("xoxb-…")
	checker := roles.NewChecker(roles.MembersFunc(func(ctx context.Context, group string) ([]string, error) {
		return client.GetUserGroupMembersContext(ctx, group)
	}))
	global, _ := roles.ParseEditors([]string{"S0DOCSTEAM"})
	project, _ := roles.ParseEditors([]string{"U0ALICE"})
	if v := checker.Check(context.Background(), "U0ALICE", global, project); v.Editor {
		fmt.Println("editor")
	}
}
