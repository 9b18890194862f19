package sandbox

import (
	"fmt"

	"github.com/docsbot/docsbot/docsapi/docsapitest"
)

// startAPI starts a docs API test server for one project of the sandbox: a
// made-up site of paths pages (seed fixes its visitors), jobs that stay
// active o.AgentTime, the API's limits.
func startAPI(o Options, paths int, seed int64, opts ...docsapitest.Option) (*docsapitest.Server, error) {
	srv, err := docsapitest.Start(append([]docsapitest.Option{
		docsapitest.WithAddr("127.0.0.1:0"),
		docsapitest.WithLifecycle(docsapitest.TimedLifecycle(o.AgentTime)),
		docsapitest.WithDeployLifecycle(docsapitest.TimedDeployLifecycle(o.AgentTime)),
		docsapitest.WithDataset(docsapitest.NewDataset(paths, seed)),
		docsapitest.WithLimits(docsapitest.DefaultLimits()),
		docsapitest.WithMaxRequests(1000),
	}, opts...)...)
	if err != nil {
		return nil, fmt.Errorf("start the docs API test server: %w", err)
	}
	return srv, nil
}
