package bottest

// MainOption is an option of Main.
type MainOption func(*mainOptions)

type mainOptions struct {
	parallel int
}

// Parallel runs up to n of the package's parallel tests at once instead of
// one a core (go test's default), unless go test was given -parallel
// (redistest.Parallel). It is for packages whose end-to-end tests spend
// their time waiting, not computing: a bot's shutdown gives its last acks a
// second to leave, jobs are polled, the fake Slack answers late. A package
// whose tests also compute asks for fewer (bot/visitors draws charts: 4; at
// 8 they starved on a busy machine).
func Parallel(n int) MainOption {
	return func(o *mainOptions) { o.parallel = n }
}
