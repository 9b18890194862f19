package bottest

import (
	"strconv"

	"github.com/docsbot/docsbot/docsapi"
	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// LongJobs is an option of the docs API test server that keeps every job
// active until a test finishes it (Server.SetJobStatus, Complete); it then
// ends with a pull request.
func LongJobs() docsapitest.Option {
	return docsapitest.WithLifecycle(func(string) docsapitest.Lifecycle {
		return docsapitest.Lifecycle{ActivePolls: 1 << 30, Outcome: docsapitest.OutcomePR}
	})
}

// Complete finishes a job of the harness's API server as completed with
// pull request n of acme/docs, and returns the pull request's URL.
func (h *Harness) Complete(jobID string, n int) (pr string) {
	pr = "https://github.com/acme/docs/pull/" + strconv.Itoa(n)
	h.API.SetJobStatus(jobID, docsapi.StatusCompleted, &pr)
	return pr
}
