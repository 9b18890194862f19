package bottest

import "github.com/docsbot/docsbot/docsapi/docsapitest"

// LongJobs is an option of the docs API test server that keeps every job
// active until a test finishes it (Server.SetJobStatus); it then ends with
// a pull request.
func LongJobs() docsapitest.Option {
	return docsapitest.WithLifecycle(func(string) docsapitest.Lifecycle {
		return docsapitest.Lifecycle{ActivePolls: 1 << 30, Outcome: docsapitest.OutcomePR}
	})
}
